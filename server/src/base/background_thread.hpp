// Threads that work beside the I/O threads (the database writer, the database check) give way to
// them: see background_thread.cpp.
#pragma once

namespace carcassonne::server {

// Puts the calling thread (`name`, for the log) under SCHED_BATCH (Linux): it gets its fair share
// of the CPU, but when it wakes it does not preempt the thread running there. Where the system
// refuses or has no such policy, the thread runs as before (logged at debug level).
void run_in_background(const char* name);

}  // namespace carcassonne::server
