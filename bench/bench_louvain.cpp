// Louvain on a generated graph held in memory (no Matrix Market text: R-MAT
// scale 24-25 is 8-16 GB of it): each named community entry runs --reps
// times; per entry the median run's modularity, communities, wall time
// (the graph in host memory: the input check, the upload for louvain-gpu,
// every stage), its stages (the levels' and the final moves' seconds:
// for louvain-gpu the graph on the device) and the edges a second of the
// first level and of the stages (undirected input edges over their time);
// then that run's levels (vertices, entries, rounds, moves, seconds: the
// moves' and the aggregation's); with louvain-gpu first the device's copy
// bandwidth (bench/ncu_kernels.py reads per-kernel bandwidth against it).
//   bench_louvain [--graph rmat|er|grid] [--scale S] [--edge-factor F]
//                 [--algos louvain-gpu,louvain-omp] [--threads T] [--reps R]
//                 [--seed S] [--gpu ID] [--together strict,additive,drawn]
// (louvain-gpu once for each --together rule listed; default drawn.)
// The graph is matchblas gen's for the same kind, size, edge factor and
// seed (grid: side 2^S); louvain_networkit.py times NetworKit's PLM on it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/generators.hpp"
#include "matchers/community/louvain.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
                  "usage: bench_louvain [--graph rmat|er|grid] [--scale S] [--edge-factor F]\n"
                  "                     [--algos louvain-gpu,louvain-omp] [--threads T] [--reps R] [--seed S]\n"
                  "                     [--gpu ID] [--together strict,additive,drawn]\n"
                  "Louvain on a generated graph in memory: modularity, wall time, the stages' time and\n"
                  "edges a second, and the levels of each named community entry (median of --reps).\n"))
    return 0;
  std::string graph = "rmat", algos = "louvain-gpu,louvain-omp", together = "drawn";
  int scale = 20, reps = 3, threads = 0, gpu = 0;
  double edge_factor = 16;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--graph") graph = v;
    else if (a == "--scale") scale = std::atoi(v.c_str());
    else if (a == "--edge-factor") edge_factor = std::atof(v.c_str());
    else if (a == "--algos") algos = v;
    else if (a == "--threads") threads = std::atoi(v.c_str());
    else if (a == "--reps") reps = std::atoi(v.c_str());
    else if (a == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--gpu") gpu = std::atoi(v.c_str());
    else if (a == "--together") together = v;
    else {
      std::fprintf(stderr, "bench_louvain: unknown option '%s' (--help lists them)\n", a.c_str());
      return 2;
    }
  }
  if ((argc - 1) % 2 != 0 || scale < 1 || scale > 30) {
    std::fprintf(stderr, "bench_louvain: options come in pairs; --scale is 1..30\n");
    return 2;
  }
  GenOptions o;
  o.seed = seed;
  o.edge_factor = edge_factor;
  Csr<double> g;
  const double generated = bench::median_seconds(1, [&] { g = generate_sparse<double>(graph, vertex_t(1) << scale, o); });
  const double edges = double(g.num_entries()) / 2;
  std::printf("graph %s scale %d: %d vertices, %.0f edges (%lld entries), generated in %.1f s\n", graph.c_str(),
              scale, g.n_rows, edges, (long long)g.num_entries(), generated);
  const std::vector<std::string> names = bench::string_list(algos);
  if (std::ranges::find(names, "louvain-gpu") != names.end())  // against which to read ncu's kernels
    std::printf("copy bandwidth %.0f GB/s (1 GiB device-to-device, read + write)\n",
                gpu::measure_copy_bandwidth(gpu, std::size_t(1) << 30));
  std::printf("%-20s %9s %10s %9s %9s %9s %11s %11s\n", "entry", "Q", "communities", "wall_s", "levels_s",
              "final_s", "lvl0_Medge/s", "stage_Medge/s");
  std::vector<std::pair<std::string, LouvainTogether>> entries;
  for (const std::string& name : names) {
    if (name != "louvain-gpu") {
      entries.emplace_back(name, LouvainTogether::drawn);
      continue;
    }
    for (const std::string& t : bench::string_list(together)) {
      const std::optional<LouvainTogether> rule = louvain_together_named(t);
      if (!rule) {
        std::fprintf(stderr, "bench_louvain: --together takes strict, additive, drawn, not '%s'\n",
                     t.c_str());
        return 2;
      }
      entries.emplace_back(name + "/" + t, *rule);
    }
  }
  for (const auto& [entry, rule] : entries) {
    const std::string name = entry.substr(0, entry.find('/'));
    LouvainOptions lo;
    lo.threads = threads;
    lo.together = rule;
    GpuOptions go;
    go.device = gpu;
    std::vector<std::pair<double, Communities>> runs;
    for (int r = 0; r < std::max(reps, 1); ++r) {
      Communities c;
      const double s = bench::median_seconds(1, [&] {
        if (name == "louvain-gpu") c = louvain_gpu(g, lo, go);
        else if (name == "louvain-omp") c = louvain_omp(g, lo);
        else if (name == "louvain") c = louvain(g, lo);
        else {
          std::fprintf(stderr, "bench_louvain: unknown entry '%s' (louvain, louvain-omp, louvain-gpu)\n",
                       name.c_str());
          std::exit(2);
        }
      });
      runs.emplace_back(s, std::move(c));
    }
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto& [wall, c] = runs[runs.size() / 2];
    double levels = 0;
    for (const LouvainLevel& l : c.levels) levels += l.seconds;
    const double first = c.levels.empty() ? 0 : c.levels[0].seconds;
    std::printf("%-20s %9.5f %10d %9.3f %9.3f %9.3f %11.1f %11.1f\n", entry.c_str(), c.modularity, c.communities, wall,
                levels, c.refine_seconds, first > 0 ? edges / first / 1e6 : 0.0,
                levels + c.refine_seconds > 0 ? edges / (levels + c.refine_seconds) / 1e6 : 0.0);
    for (std::size_t l = 0; l < c.levels.size(); ++l) {
      const LouvainLevel& v = c.levels[l];
      std::printf("  level %zu: %d vertices, %lld entries, %d rounds, %d moves, %d communities, %.4f s "
                  "(moves %.4f, aggregation %.4f)\n",
                  l, v.vertices, (long long)v.entries, v.passes, v.moved, v.communities, v.seconds, v.move_seconds,
                  v.seconds - v.move_seconds);
    }
    std::printf("  final moves: %d checks and rounds, %d moves, %.4f s\n", c.refine_passes, c.refine_moves,
                c.refine_seconds);
    std::fflush(stdout);
  }
  return 0;
}
