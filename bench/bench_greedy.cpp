// Greedy on an R-MAT graph: time and edges/s at 1 thread and all threads,
// against a peer measured in the same run: the sort of the same edge array
// alone (lib/edge_order.hpp; the floor of any sort-based greedy).
//   bench_greedy [--scale S] [--edge-factor F] [--reps R] [--seed X]
// Defaults: scale 20, edge factor 10 (about 10M undirected edges).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "lib/edge_order.hpp"
#include "matchers/common/greedy.hpp"

using namespace matchblas;
using bench::median_seconds;

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_greedy [--scale S] [--edge-factor F] [--reps R] [--seed X]\n"
      "\n"
      "Greedy on an R-MAT graph: time and edges/s at 1 thread and all threads,\n"
      "against a peer measured in the same run: the sort of the same edge array\n"
      "alone (lib/edge_order.hpp; the floor of any sort-based greedy).\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 20, reps = 3;
  double edge_factor = 10;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--scale") scale = std::atoi(argv[i + 1]);
    else if (a == "--edge-factor") edge_factor = std::atof(argv[i + 1]);
    else if (a == "--reps") reps = std::atoi(argv[i + 1]);
    else if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "bench_greedy: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  GenOptions opt;
  opt.seed = seed;
  opt.edge_factor = edge_factor;
  const auto t0 = std::chrono::steady_clock::now();
  const Csr<float> g = rmat<float>(vertex_t(1) << scale, opt);
  const double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const offset_t m = num_edges(g);
  std::printf("R-MAT scale %d, edge factor %g: %d vertices, %lld edges (generated in %.2f s, %d threads)\n", scale,
              edge_factor, g.n_rows, static_cast<long long>(m), gen_s, omp_get_max_threads());

  std::vector<WeightedEdge<float>> edges;
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (u < g.cols[k]) edges.push_back({g.weights[k], u, g.cols[k]});

  std::printf("%-8s %12s %12s %14s %12s %10s\n", "threads", "greedy s", "sort s", "greedy Medge/s", "sort Medge/s",
              "greedy/sort");
  const int all = omp_get_max_threads();
  for (int t : {1, all}) {
    if (t == all && t == 1 && all != 1) continue;
    const double greedy_s = median_seconds(reps, [&] { greedy(g, t); });
    const double sort_s = median_seconds(reps, [&] {
      std::vector<WeightedEdge<float>> copy = edges;
      sort_in_greedy_order(copy, t);
    });
    std::printf("%-8d %12.3f %12.3f %14.1f %12.1f %10.2f\n", t, greedy_s, sort_s, m / greedy_s / 1e6,
                m / sort_s / 1e6, greedy_s / sort_s);
    if (all == 1) break;
  }
  return 0;
}
