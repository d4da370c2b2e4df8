// Every registered CPU matcher on one graph, the OpenMP ones at the given
// thread counts, the others once on one thread:
// median time, edges/s, weight and its ratio to greedy's, and whether it
// equals greedy (for the matchers whose guarantee is "greedy"). The graph is R-MAT by default
// (about 2^22 vertices and 2^26 edges), Erdos-Renyi (--er) or a
// Matrix Market file (a complete graph's file as the sparse graph of every
// pair). The matchers written with the ops (those with the
// option --backend) run on each backend of --backend (default plain),
// the backends taking turns within each repetition; "x plain" is the
// median time over the plain backend's in the same run.
//   bench_cpu_matchers [--scale S] [--edge-factor F] [--er 0|1] [--file FILE.mtx] [--reps R]
//                      [--only a,b,c] [--threads 1,2,16] [--backend plain,graphblas]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/run_matcher.hpp"

using namespace matchblas;

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_cpu_matchers [--scale S] [--edge-factor F] [--file FILE.mtx] [--reps R]\n"
      "                   [--only a,b:opt=value,c] [--threads 1,2,16]\n"
      "\n"
      "Every registered CPU matcher on one graph, the OpenMP ones at the given\n"
      "thread counts, the others once on one thread:\n"
      "median time, edges/s, weight and its ratio to greedy's, and whether it\n"
      "equals greedy (for the matchers whose guarantee is \"greedy\"). The graph is R-MAT by default\n"
      "(about 2^22 vertices and 2^26 edges) or a Matrix Market file.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 22, reps = 3;
  std::vector<int> thread_counts = {1, omp_get_max_threads()};
  double edge_factor = 16;
  std::string file;
  std::vector<std::string> only;  // empty: every matcher
  std::vector<std::string> backends{"plain"};
  bool er = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--scale") scale = std::atoi(argv[i + 1]);
    else if (a == "--edge-factor") edge_factor = std::atof(argv[i + 1]);
    else if (a == "--file") file = argv[i + 1];
    else if (a == "--reps") reps = std::atoi(argv[i + 1]);
    else if (a == "--only") only = bench::string_list(argv[i + 1]);
    else if (a == "--backend") backends = bench::string_list(argv[i + 1]);
    else if (a == "--er") er = std::atoi(argv[i + 1]) != 0;
    else if (a == "--threads") thread_counts = bench::int_list(argv[i + 1]);
    else {
      std::fprintf(stderr, "bench_cpu_matchers: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  // The rows: every matcher, or the --only entries in their order.
  std::vector<std::pair<const MatcherInfo*, NamedWithOptions>> rows;
  for (const MatcherInfo& info : matchers())
    if (only.empty()) rows.push_back({&info, {info.name, {}}});
  try {
    for (const std::string& spec : only) {
      NamedWithOptions named = split_named_options(spec);
      const MatcherInfo& info = find_matcher(named.name);
      (void)parse_options(info, named.given);  // a bad option: refused before the graph is drawn
      rows.push_back({&info, std::move(named)});
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cpu_matchers: --only: %s\n", e.what());
    return 2;
  }
  Csr<float> g;
  if (file.empty()) {
    GenOptions opt;
    opt.edge_factor = edge_factor;
    g = er ? erdos_renyi<float>(vertex_t(1) << scale, opt) : rmat<float>(vertex_t(1) << scale, opt);
    std::printf("graph: %s scale %d edge factor %g", er ? "Erdos-Renyi" : "R-MAT", scale, edge_factor);
  } else {
    // A complete graph's file (an array) is read as the sparse graph of
    // every pair, which every matcher here takes.
    const MmMatrix a = read_matrix_market(file);
    LoadedGraph loaded = graph_in_view(a, GraphView::automatic, Precision::float32);
    if (!std::holds_alternative<Csr<float>>(loaded.graph)) loaded = graph_in_view(a, GraphView::general, Precision::float32);
    g = std::get<Csr<float>>(std::move(loaded.graph));
    std::printf("graph: %s", file.c_str());
  }
  const offset_t m = num_edges(g);
  std::printf(", %d vertices, %lld edges, float weights\n", g.n_rows, static_cast<long long>(m));
  const Matching reference = greedy(g, 0);
  const double greedy_weight = matching_weight(g, reference);
  std::printf("%-16s %-9s %7s %10s %12s %16s %8s %8s %8s\n", "matcher", "backend", "threads", "median s", "Medges/s",
              "weight", "/greedy", "=greedy", "x plain");
  for (const auto& [entry, named] : rows) {
    const MatcherInfo& info = *entry;
    if (info.problem != Problem::matching || info.device != Device::cpu || info.unavailable || info.name == "exact" || !info.accepts(general_graphs)) continue;
    std::string label = info.name;  // with the options given
    for (const auto& [k, v] : named.given) label += ":" + k + (v.empty() ? "" : "=" + v);
    const bool has_backend = info.option("backend") != nullptr;
    const std::vector<std::string> mine = has_backend ? backends : std::vector<std::string>{"-"};
    for (int t : info.threaded ? thread_counts : std::vector<int>{1}) {
      std::vector<RunOptions> opts(mine.size());
      for (std::size_t b = 0; b < mine.size(); ++b) {
        opts[b].threads = t;
        std::map<std::string, std::string> given = named.given;
        if (has_backend) given["backend"] = mine[b];
        opts[b].options = parse_options(info, given);
      }
      std::vector<std::vector<double>> times(mine.size());
      std::vector<MatchRun> runs(mine.size());
      for (int r = 0; r < reps; ++r)
        for (std::size_t b = 0; b < mine.size(); ++b) {
          runs[b] = run_matcher(info, &g, general_graphs, opts[b]);
          times[b].push_back(runs[b].report.time_s);
        }
      const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      const auto plain = std::find(mine.begin(), mine.end(), "plain");
      const double plain_s = plain == mine.end() ? 0 : median(times[std::size_t(plain - mine.begin())]);
      for (std::size_t b = 0; b < mine.size(); ++b) {
        const double s = median(times[b]);
        const char* same = info.guarantee != "greedy" ? "-" : (runs[b].matching == reference ? "yes" : "NO");
        std::printf("%-16s %-9s %7d %10.6f %12.1f %16.4f %8.4f %8s", label.c_str(), mine[b].c_str(), t, s,
                    m / s / 1e6, runs[b].report.weight, runs[b].report.weight / greedy_weight, same);
        if (has_backend && plain_s > 0) std::printf(" %8.2f", s / plain_s);
        std::printf("\n");
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
