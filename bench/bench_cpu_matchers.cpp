// Every registered CPU matcher on one graph, the OpenMP ones at the given
// thread counts, the others once on one thread:
// median time, edges/s, weight, and whether it equals greedy (for the
// matchers whose guarantee is "greedy"). The graph is R-MAT by default
// (about 2^22 vertices and 2^26 edges) or a Matrix Market file.
//   bench_cpu_matchers [--scale S] [--edge-factor F] [--file FILE.mtx] [--reps R]
//                      [--only a,b,c] [--threads 1,2,16]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "matchers/general/greedy.hpp"
#include "matchers/run_matcher.hpp"

using namespace matchblas;

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_cpu_matchers [--scale S] [--edge-factor F] [--file FILE.mtx] [--reps R]\n"
      "                   [--only a,b,c] [--threads 1,2,16]\n"
      "\n"
      "Every registered CPU matcher on one graph, the OpenMP ones at the given\n"
      "thread counts, the others once on one thread:\n"
      "median time, edges/s, weight, and whether it equals greedy (for the\n"
      "matchers whose guarantee is \"greedy\"). The graph is R-MAT by default\n"
      "(about 2^22 vertices and 2^26 edges) or a Matrix Market file.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 22, reps = 3;
  std::vector<int> thread_counts = {1, omp_get_max_threads()};
  double edge_factor = 16;
  std::string file;
  std::vector<std::string> only;  // empty: every matcher
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--scale") scale = std::atoi(argv[i + 1]);
    else if (a == "--edge-factor") edge_factor = std::atof(argv[i + 1]);
    else if (a == "--file") file = argv[i + 1];
    else if (a == "--reps") reps = std::atoi(argv[i + 1]);
    else if (a == "--only") {
      std::string list = argv[i + 1];
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        only.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
    }
    else if (a == "--threads") thread_counts = bench::int_list(argv[i + 1]);
    else {
      std::fprintf(stderr, "bench_cpu_matchers: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  Csr<float> g;
  if (file.empty()) {
    GenOptions opt;
    opt.edge_factor = edge_factor;
    g = rmat<float>(vertex_t(1) << scale, opt);
    std::printf("graph: R-MAT scale %d edge factor %g", scale, edge_factor);
  } else {
    g = std::get<Csr<float>>(graph_from_file(read_matrix_market(file), GraphView::automatic, Precision::single).graph);
    std::printf("graph: %s", file.c_str());
  }
  const offset_t m = num_edges(g);
  std::printf(", %d vertices, %lld edges, float weights\n", g.n_rows, static_cast<long long>(m));
  const Matching reference = greedy(g, 0);
  std::printf("%-16s %7s %10s %12s %16s %8s\n", "matcher", "threads", "median s", "Medges/s", "weight", "=greedy");
  for (const MatcherInfo& info : matchers()) {
    if (info.problem != Problem::matching || info.device != Device::cpu || info.unavailable || info.name == "exact" || !info.accepts(general_graphs)) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), info.name) == only.end()) continue;
    for (int t : info.threaded ? thread_counts : std::vector<int>{1}) {
      RunOptions opt;
      opt.threads = t;
      std::vector<double> times;
      MatchRun run;
      for (int r = 0; r < reps; ++r) {
        run = run_matcher(info, &g, general_graphs, opt);
        times.push_back(run.report.time_s);
      }
      std::sort(times.begin(), times.end());
      const double s = times[times.size() / 2];
      const char* same = info.guarantee != "greedy" ? "-" : (run.matching == reference ? "yes" : "NO");
      std::printf("%-16s %7d %10.3f %12.1f %16.4f %8s\n", info.name.c_str(), t, s, m / s / 1e6, run.report.weight, same);
      std::fflush(stdout);
    }
  }
  return 0;
}
