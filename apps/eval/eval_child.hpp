// One command run as a child process with a time limit, for `matchblas
// eval`: its standard output and error captured, its exit status or signal,
// its wall time and its peak resident memory (getrusage of the child). A
// crash or a timeout of the child costs only its own result.
#pragma once
#include <string>
#include <vector>

namespace matchblas::cli {

struct ChildResult {
  int exit_code = -1;      // when it exited; -1 otherwise
  int signal = 0;          // the signal that ended it, 0 when it exited
  bool timed_out = false;  // killed by us at the time limit
  std::string out, err;
  double wall_s = 0;
  double max_rss_mb = 0;  // peak resident set of the child, MiB
};

// Runs argv[0] (a path) with argv; timeout_s <= 0: no limit. Throws
// matchblas::error when the child cannot be started.
ChildResult run_child(const std::vector<std::string>& argv, double timeout_s);

// The path of the running executable (/proc/self/exe), to run it again.
std::string self_executable();

}  // namespace matchblas::cli
