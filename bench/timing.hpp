// Timing for the benchmark programs: the median wall time of `reps` runs of
// f (steady clock; the caller warms up where it matters).
#pragma once
#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace matchblas::bench {

template <class F>
double median_seconds(int reps, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The medians of the wall time and of the process's CPU time (every thread,
// clock_gettime's CLOCK_PROCESS_CPUTIME_ID) over `reps` runs of f: on a
// machine shared with other work the CPU time of a one-thread run counts
// none of the time it waited for a core.
struct WallCpu {
  double wall, cpu;
};
template <class F>
WallCpu median_wall_cpu(int reps, F&& f) {
  std::vector<double> wall, cpu;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    timespec c0{}, c1{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    const auto start = std::chrono::steady_clock::now();
    f();
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    cpu.push_back(double(c1.tv_sec - c0.tv_sec) + 1e-9 * double(c1.tv_nsec - c0.tv_nsec));
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

}  // namespace matchblas::bench
