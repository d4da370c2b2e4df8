// Stable marriage (Manne et al. 2016 sec. 5): every marriage algorithm of the
// registry (Gale-Shapley, McVitie-Wilson, their OpenMP versions at each
// thread count and, where there is a GPU, mcvitie-wilson-gpu: its kernels
// alone, lists already on the device; threads 0 in the table)
// on an easy instance (each man ranks (1 + eps) ln n
// random women) and a hard one (identical complete lists), over lists of
// sizes, in one run.
// TEPS as Manne et al. 2016: the sum of the ranks of the final partners (both sides)
// over the time. Median of --reps runs; every result compared with the first row's.
//   bench_marriage [--easy N1,N2,..] [--hard N1,..] [--eps E] [--threads 1,2,16]
//                  [--reps R] [--seq-up-to N] [--omp-up-to N]
// --seq-up-to / --omp-up-to leave the sequential (and 1-thread) rows / the
// OpenMP rows out above that order; the rows are then compared with the
// first one that ran, itself checked for stability (easy: the independent
// checker; hard: the one stable matching of identical lists).
// After an easy instance's rows, a "setup:" line: the seconds (one pass
// each, not in the rows) to draw the instance, rank the lists and check
// the first row's stability.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/marriage.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

struct Limits {
  long long seq_up_to = -1;  // sequential rows (GS, MW, OpenMP with 1 thread) only for n <= this; -1: always
  long long omp_up_to = -1;  // OpenMP rows only for n <= this; -1: always
};

// One run of registry entry m with t threads: ranked lists through the
// registry; identical lists (the hard instance, which the registry's
// runners do not take: its ranked lists would be n^2 words) through the
// entry's own overload, found by name.
Marriage run_entry(const MatcherInfo& m, const RankedLists& p, int t) {
  RunOptions o;
  o.threads = t;
  return run_marriage(m, p, o);
}
Marriage run_entry(const MatcherInfo& m, const IdenticalPreferences& p, int t) {
  if (m.name == "gale-shapley") return gale_shapley(p);
  if (m.name == "mcvitie-wilson") return mcvitie_wilson(p);
  if (m.name == "gale-shapley-omp") return gale_shapley_omp(p, t);
  if (m.name == "mcvitie-wilson-omp") return mcvitie_wilson_omp(p, t);
  throw invalid_input("bench_marriage: no identical-lists form of '" + m.name + "'");
}

// The rows for one instance of order n: every CPU entry, then the GPU ones.
// The reference is the first row's matching (every algorithm returns the
// same man-optimal matching); `check` (may be empty) names a stability
// violation of it.
template <class P, class RankSum, class Check>
void run_all(const char* what, vertex_t n, const P& prefs, RankSum ranks, Check check, const std::vector<int>& threads,
             int reps, const Limits& lim) {
  Marriage ref;
  bool have_ref = false;
  const auto row = [&](const std::string& name, int t, double s, const Marriage& m) {
    if (!have_ref) {
      ref = m;
      have_ref = true;
      const std::string why = check(ref);
      std::printf("%-6s stable: %s\n", what, why.empty() ? "yes (independent check)" : why.c_str());
    }
    const double sum = double(ranks(m));
    std::printf("%-6s %-20s %7d %10.4f %14.0f %10.1f %6s\n", what, name.c_str(), t, s, sum, sum / s / 1e6,
                m == ref ? "yes" : "NO");
    std::fflush(stdout);
  };
  const bool seq = lim.seq_up_to < 0 || n <= lim.seq_up_to;
  const bool omp = lim.omp_up_to < 0 || n <= lim.omp_up_to;
  Marriage m;
  for (const MatcherInfo& info : matchers()) {
    if (info.problem != Problem::marriage || info.device != Device::cpu || info.unavailable) continue;
    for (int t : info.threaded ? threads : std::vector<int>{1}) {
      if (info.threaded ? !omp || (t == 1 && !seq) : !seq) continue;
      const double s = bench::median_seconds(reps, [&] { m = run_entry(info, prefs, t); });
      row(info.name, t, s, m);
    }
  }
  if (gpu::device_count() == 0) return;
  for (const MatcherInfo& info : matchers()) {
    if (info.problem != Problem::marriage || info.device != Device::gpu || info.unavailable) continue;
    if (info.name != "mcvitie-wilson-gpu") {
      std::printf("%-6s %-20s skipped: no timed device call in this benchmark\n", what, info.name.c_str());
      continue;
    }
    std::vector<double> gpu_s;
    for (int r = 0; r < std::max(reps, 1); ++r) {
      GpuTimes times;
      m = mcvitie_wilson_gpu(prefs, 0, &times);
      gpu_s.push_back(times.match_s);
    }
    std::sort(gpu_s.begin(), gpu_s.end());
    row(info.name, 0, gpu_s[gpu_s.size() / 2], m);
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_marriage [--easy N1,N2,..] [--hard N1,..] [--eps E] [--threads 1,2,16]\n"
      "               [--reps R] [--seq-up-to N] [--omp-up-to N]\n"
      "\n"
      "Stable marriage (Manne et al. 2016 sec. 5): every marriage algorithm of the\n"
      "registry (Gale-Shapley, McVitie-Wilson, their OpenMP versions at each\n"
      "thread count and, where there is a GPU, mcvitie-wilson-gpu: its kernels\n"
      "alone, lists already on the device; threads 0 in the table)\n"
      "on an easy instance (each man ranks (1 + eps) ln n\n"
      "random women) and a hard one (identical complete lists), over lists of\n"
      "sizes, in one run.\n"
      "TEPS as Manne et al. 2016: the sum of the ranks of the final partners (both sides)\n"
      "over the time. Median of --reps runs; every result compared with the first row's.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  std::vector<int> easy_ns = {1 << 20}, hard_ns = {20000};
  double eps = 0.1;
  int reps = 3;
  Limits lim;
  std::vector<int> threads = {1, omp_get_max_threads()};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--easy" && v) easy_ns = bench::int_list(argv[++i]);
    else if (a == "--hard" && v) hard_ns = bench::int_list(argv[++i]);
    else if (a == "--eps" && v) eps = std::atof(argv[++i]);
    else if (a == "--threads" && v) threads = bench::int_list(argv[++i]);
    else if (a == "--reps" && v) reps = std::atoi(argv[++i]);
    else if (a == "--seq-up-to" && v) lim.seq_up_to = std::atoll(argv[++i]);
    else if (a == "--omp-up-to" && v) lim.omp_up_to = std::atoll(argv[++i]);
    else {
      std::fprintf(stderr, "bench_marriage: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  std::printf("%-6s %-20s %7s %10s %14s %10s %6s\n", "case", "algorithm", "threads", "median s", "rank sum", "MTEPS",
              "=ref");
  for (const int easy_n : easy_ns) {
    if (easy_n <= 0) continue;
    MarriageInstance inst;
    const double draw_s = bench::median_seconds(1, [&] { inst = easy_marriage(easy_n, eps, 1); });
    std::printf("easy: n = %d, eps = %g, %zu list entries per side\n", easy_n, eps, inst.men_lists.size());
    RankedLists p;
    const double rank_s = bench::median_seconds(1, [&] { p = rank_lists(inst); });
    double check_s = 0;
    run_all(
        "easy", easy_n, p, [&](const Marriage& m) { return rank_sum(inst, m); },
        [&](const Marriage& m) {
          std::string why;
          check_s = bench::median_seconds(1, [&] { why = marriage_violation(inst, m); });
          return why;
        },
        threads, reps, lim);
    // Not timed rows: what the run spent besides them (one pass each).
    std::printf("setup: instance %.2f s, ranked lists %.2f s, stability check %.2f s\n", draw_s, rank_s, check_s);
  }
  for (const int hard_n : hard_ns) {
    if (hard_n <= 0) continue;
    const IdenticalPreferences p = hard_marriage(hard_n, 1);
    std::vector<std::int64_t> position(static_cast<std::size_t>(hard_n));
    for (vertex_t k = 0; k < hard_n; ++k) position[p.women_order[k]] = k;
    std::printf("hard: n = %d, identical complete lists\n", hard_n);
    run_all(
        "hard", hard_n, p,
        [&](const Marriage& m) {
          std::int64_t sum = 0;
          for (vertex_t x = 0; x < hard_n; ++x) {
            if (m.wife[x] != no_vertex) sum += position[m.wife[x]] + 1;
            if (m.husband[x] != no_vertex) sum += p.man_rank[m.husband[x]] + 1;
          }
          return sum;
        },
        // With identical lists the only stable matching gives the man the
        // women rank k-th the k-th woman of the men's order.
        [&](const Marriage& m) -> std::string {
          for (vertex_t man = 0; man < hard_n; ++man) {
            const vertex_t woman = p.women_order[p.man_rank[man]];
            if (m.wife[man] != woman) return "man " + std::to_string(man) + " is not with woman " + std::to_string(woman);
          }
          return "";
        },
        threads, reps, lim);
  }
  return 0;
}
