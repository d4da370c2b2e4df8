// matchblas demo: generate a few graphs, run every available matcher that
// accepts them, and print weight, cardinality, GTO (against `exact` when it
// is available) and time.
#include <omp.h>

#include <cstdio>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "datasets/generators.hpp"
#include "matchers/run.hpp"

namespace matchblas::cli {

namespace {

void demo_graph(const std::string& label, GraphRef g, GraphKind kind, const MatchOptions& opt) {
  std::optional<double> optimum;
  const MatcherInfo& exact = find_matcher("exact");
  if (!exact.unavailable) optimum = run_matcher(exact, g, kind, opt).report.weight;
  std::printf("\n%s: %d vertices, %lld edges\n", label.c_str(), num_vertices(g),
              static_cast<long long>(num_edges(g)));
  std::printf("  %-12s %16s %12s %10s %12s %6s\n", "matcher", "weight", "cardinality", "GTO %", "time ms", "valid");
  for (const MatcherInfo& m : matchers()) {
    if (!m.accepts(kind)) continue;
    if (m.unavailable) {
      std::printf("  %-12s skipped: %s\n", m.name.c_str(), m.unavailable->c_str());
      continue;
    }
    const MatchReport r = run_matcher(m, g, kind, opt).report;
    char gto[32] = "n/a";
    if (optimum) std::snprintf(gto, sizeof gto, "%.4f", gto_percent(r.weight, *optimum));
    std::printf("  %-12s %16.6f %12lld %10s %12.3f %6s\n", m.name.c_str(), r.weight,
                static_cast<long long>(r.cardinality), gto, 1e3 * r.time_s, r.valid ? "yes" : "NO");
  }
}

}  // namespace

int command_demo(const Args& a) {
  if (!a.positional().empty()) throw usage_error("demo takes no arguments");
  apply_threads(a);
  const vertex_t n = static_cast<vertex_t>(a.integer("n", 4096, 2, 1 << 20));
  GenOptions gen;
  gen.seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  gen.edge_factor = 8;
  MatchOptions opt;
  opt.seed = gen.seed;
  opt.threads = omp_get_max_threads();
  std::printf("matchblas demo: seed %llu, %d threads\n", static_cast<unsigned long long>(gen.seed), opt.threads);

  const auto er = erdos_renyi<double>(n, gen);
  demo_graph("Erdos-Renyi, edge factor 8, uniform (0,1] weights", &er, general_graphs, opt);
  vertex_t pow2 = 2;
  while (pow2 * 2 <= n) pow2 *= 2;
  const auto rm = rmat<double>(pow2, gen);
  demo_graph("R-MAT (0.57/0.19/0.19), edge factor 8", &rm, general_graphs, opt);
  GenOptions tied = gen;
  tied.ties = 4;
  const auto ties = erdos_renyi<double>(n, tied);
  demo_graph("Erdos-Renyi with ties (weights from {1/4, 1/2, 3/4, 1})", &ties, general_graphs, opt);
  const auto complete = complete_graph<double>(WeightDist::uniform, std::min<vertex_t>(n / 16 * 2, 512), gen);
  demo_graph("complete graph, uniform [0,1] weights", &complete, complete_graphs, opt);
  if (find_matcher("exact").unavailable) std::printf("\nGTO is n/a: the exact matcher needs LEMON, absent from this build\n");
  return 0;
}

}  // namespace matchblas::cli
