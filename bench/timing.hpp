// Timing for the benchmark programs: the median wall time of `reps` runs of
// f (steady clock; the caller warms up where it matters).
#pragma once
#include <algorithm>
#include <chrono>
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

}  // namespace matchblas::bench
