// Why: the database writer is woken once per commit, by the I/O thread, on a machine where both
// may share a core. Woken as an ordinary thread, it preempted the I/O thread at once, in the
// middle of the frames that one poll delivered, and committed the first of them alone: smaller
// commits, one sync each, and two context switches more. Under SCHED_BATCH it runs when the I/O
// thread waits or its time slice ends, and takes what was handled meanwhile
// (docs/performance.md, "What makes it fast").
#include "base/background_thread.hpp"

#include <pthread.h>
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

namespace carcassonne::server {

void run_in_background(const char* name) {
#ifdef SCHED_BATCH
  sched_param param{};
  param.sched_priority = 0;  // the only priority of the non-real-time policies
  if (pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0) return;
#endif
  spdlog::debug("{}: SCHED_BATCH refused; runs as an ordinary thread", name);
}

void run_at_lowest_priority(const char* name) {
#ifdef SCHED_IDLE
  sched_param param{};
  param.sched_priority = 0;
  if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) == 0) return;
#endif
  // Linux's niceness is a thread's own (PRIO_PROCESS with the thread's id).
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19) == 0) return;
  spdlog::debug("{}: SCHED_IDLE and niceness refused; runs as an ordinary thread", name);
}

}  // namespace carcassonne::server
