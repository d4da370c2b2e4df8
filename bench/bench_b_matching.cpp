// b-matching on R-MAT (or Erdos-Renyi): b_greedy (the reference), sequential
// b-Suitor and OpenMP b-Suitor at the given thread counts, for each b; median
// of --reps runs, edges/s, and whether each equals b_greedy edge for edge.
//   bench_b_matching [--graph rmat|er] [--scale S] [--edge-factor F]
//                    [--b 1,2,5] [--threads 1,2,16] [--reps R]
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/generators.hpp"
#include "matchers/b_matching.hpp"

using namespace matchblas;

int main(int argc, char** argv) {
  int scale = 20, reps = 3;
  double edge_factor = 16;
  std::string graph = "rmat";
  std::vector<int> bs = {1, 2, 5}, threads = {1, omp_get_max_threads()};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--scale" && v) scale = std::atoi(argv[++i]);
    else if (a == "--edge-factor" && v) edge_factor = std::atof(argv[++i]);
    else if (a == "--graph" && v) graph = argv[++i];
    else if (a == "--b" && v) bs = bench::int_list(argv[++i]);
    else if (a == "--threads" && v) threads = bench::int_list(argv[++i]);
    else if (a == "--reps" && v) reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "bench_b_matching: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  GenOptions opt;
  opt.edge_factor = edge_factor;
  const vertex_t n = vertex_t(1) << scale;
  const Csr<float> g = graph == "er" ? erdos_renyi<float>(n, opt) : rmat<float>(n, opt);
  const double m = double(g.cols.size()) / 2;
  std::printf("graph: %s scale %d edge factor %g, %d vertices, %.0f edges, float weights\n",
              graph == "er" ? "Erdos-Renyi" : "R-MAT", scale, edge_factor, n, m);
  std::printf("%3s %-14s %7s %10s %12s %10s %8s\n", "b", "matcher", "threads", "median s", "Medges/s", "edges", "=greedy");
  for (int b : bs) {
    const std::vector<int> bv = constant_b(n, b);
    BMatching ref;
    const double greedy_s = bench::median_seconds(reps, [&] { ref = b_greedy(g, bv); });
    std::printf("%3d %-14s %7s %10.3f %12.1f %10lld %8s\n", b, "b-greedy", "all", greedy_s, m / greedy_s / 1e6,
                static_cast<long long>(ref.num_edges()), "ref");
    BMatching got;
    const double seq_s = bench::median_seconds(reps, [&] { got = b_suitor_seq(g, bv); });
    std::printf("%3d %-14s %7d %10.3f %12.1f %10lld %8s\n", b, "b-suitor", 1, seq_s, m / seq_s / 1e6,
                static_cast<long long>(got.num_edges()), got == ref ? "yes" : "NO");
    for (int t : threads) {
      const double s = bench::median_seconds(reps, [&] { got = b_suitor_omp(g, bv, t); });
      std::printf("%3d %-14s %7d %10.3f %12.1f %10lld %8s\n", b, "b-suitor-omp", t, s, m / s / 1e6,
                  static_cast<long long>(got.num_edges()), got == ref ? "yes" : "NO");
    }
    std::fflush(stdout);
  }
  return 0;
}
