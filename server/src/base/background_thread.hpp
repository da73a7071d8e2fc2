// Threads that work beside the I/O threads (the database writer, the database check) give way to
// them: see background_thread.cpp.
#pragma once

namespace carcassonne::server {

// Puts the calling thread (`name`, for the log) under SCHED_BATCH (Linux): it gets its fair share
// of the CPU, but when it wakes it does not preempt the thread running there. Where the system
// refuses or has no such policy, the thread runs as before (logged at debug level).
void run_in_background(const char* name);

// Puts the calling thread under SCHED_IDLE (Linux), else at niceness 19: it runs on whatever CPU
// the other threads leave, and every ordinary thread that wakes preempts it at once. For the bot
// searches, which must never slow the I/O threads (docs/performance.md "Bot rooms beside a human
// room").
void run_at_lowest_priority(const char* name);

}  // namespace carcassonne::server
