// Why: the database writer is woken once per commit, by the I/O thread, on a machine where both
// may share a core. Woken as an ordinary thread, it preempted the I/O thread at once, in the
// middle of the frames that one poll delivered, and committed the first of them alone: smaller
// commits, one sync each, and two context switches more. Under SCHED_BATCH it runs when the I/O
// thread waits or its time slice ends, and takes what was handled meanwhile
// (docs/performance.md, ninth session).
#include "background_thread.hpp"

#include <pthread.h>
#include <sched.h>

namespace carcassonne::server {

bool run_in_background() {
#ifdef SCHED_BATCH
  sched_param param{};
  param.sched_priority = 0;  // the only priority of the non-real-time policies
  return pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0;
#else
  return false;
#endif
}

}  // namespace carcassonne::server
