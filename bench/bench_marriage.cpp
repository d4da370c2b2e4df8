// Stable marriage (Paper IV sec. 5): Gale-Shapley, McVitie-Wilson and the
// OpenMP McVitie-Wilson (and, where there is a GPU, mcvitie-wilson-gpu:
// its kernels alone, lists already on the device; threads 0 in the table)
// on an easy instance (each man ranks (1 + eps) ln n
// random women) and a hard one (identical complete lists), in one run.
// TEPS as Paper IV: the sum of the ranks of the final partners (both sides)
// over the time. Median of --reps runs; every result compared with GS's.
//   bench_marriage [--easy N] [--hard N] [--eps E] [--threads 1,2,16] [--reps R]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/marriage.hpp"
#include "matchers/gpu.hpp"
#include "matchers/stable_marriage.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {
template <class P, class RankSum>
void run_all(const char* what, const P& prefs, RankSum ranks, const std::vector<int>& threads, int reps) {
  Marriage ref;
  const auto row = [&](const char* name, int t, double s, const Marriage& m) {
    const double sum = double(ranks(m));
    std::printf("%-6s %-20s %7d %10.4f %14.0f %10.1f %6s\n", what, name, t, s, sum, sum / s / 1e6,
                m == ref ? "yes" : "NO");
    std::fflush(stdout);
  };
  const double gs = bench::median_seconds(reps, [&] { ref = gale_shapley(prefs); });
  row("gale-shapley", 1, gs, ref);
  Marriage m;
  const double mw = bench::median_seconds(reps, [&] { m = mcvitie_wilson(prefs); });
  row("mcvitie-wilson", 1, mw, m);
  for (int t : threads) {
    const double s = bench::median_seconds(reps, [&] { m = mcvitie_wilson_omp(prefs, t); });
    row("mcvitie-wilson-omp", t, s, m);
  }
  if (gpu::device_count() == 0) return;
  std::vector<double> gpu_s;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    GpuTimes times;
    m = mcvitie_wilson_gpu(prefs, 0, &times);
    gpu_s.push_back(times.match_s);
  }
  std::sort(gpu_s.begin(), gpu_s.end());
  row("mcvitie-wilson-gpu", 0, gpu_s[gpu_s.size() / 2], m);
}
}  // namespace

int main(int argc, char** argv) {
  vertex_t easy_n = 1 << 20, hard_n = 20000;
  double eps = 0.1;
  int reps = 3;
  std::vector<int> threads = {1, omp_get_max_threads()};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--easy" && v) easy_n = std::atoi(argv[++i]);
    else if (a == "--hard" && v) hard_n = std::atoi(argv[++i]);
    else if (a == "--eps" && v) eps = std::atof(argv[++i]);
    else if (a == "--threads" && v) threads = bench::int_list(argv[++i]);
    else if (a == "--reps" && v) reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "bench_marriage: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  std::printf("%-6s %-20s %7s %10s %14s %10s %6s\n", "case", "algorithm", "threads", "median s", "rank sum", "MTEPS",
              "=GS");
  if (easy_n > 0) {
    const MarriageInstance inst = easy_marriage(easy_n, eps, 1);
    std::printf("easy: n = %d, eps = %g, %zu list entries per side\n", easy_n, eps, inst.men_lists.size());
    const RankedLists p = rank_lists(inst);
    run_all("easy", p, [&](const Marriage& m) { return rank_sum(inst, m); }, threads, reps);
  }
  if (hard_n > 0) {
    const IdenticalPreferences p = hard_marriage(hard_n, 1);
    std::vector<std::int64_t> position(static_cast<std::size_t>(hard_n));
    for (vertex_t k = 0; k < hard_n; ++k) position[p.women_order[k]] = k;
    std::printf("hard: n = %d, identical complete lists\n", hard_n);
    run_all("hard", p,
            [&](const Marriage& m) {
              std::int64_t sum = 0;
              for (vertex_t x = 0; x < hard_n; ++x) {
                if (m.wife[x] != no_vertex) sum += position[m.wife[x]] + 1;
                if (m.husband[x] != no_vertex) sum += p.man_rank[m.husband[x]] + 1;
              }
              return sum;
            },
            threads, reps);
  }
  return 0;
}
