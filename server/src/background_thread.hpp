// Threads that work beside the I/O threads (the database writer, the database check) give way to
// them: see background_thread.cpp.
#pragma once

namespace carcassonne::server {

// Puts the calling thread under SCHED_BATCH (Linux): it gets its fair share of the CPU, but
// when it wakes it does not preempt the thread running there. False where the system refuses
// or has no such policy; the thread then runs as before.
bool run_in_background();

}  // namespace carcassonne::server
