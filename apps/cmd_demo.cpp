// matchblas demo: generate a few graphs, run every available matcher that
// accepts them, and print weight, cardinality, GTO (against `exact` when it
// is available and the graph is small enough for it) and time; then every
// b-matching algorithm on one of them (b = 2) and every stable marriage
// algorithm on an easy instance, all from the registry. Each table is
// flushed as soon as it is printed.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas::cli {

namespace {

// Above these sizes `exact` (LEMON's blossom algorithm, sequential) takes
// more than about a second, so the demo skips it and GTO is n/a. Measured
// with `matchblas match --algo exact` on the dev machine (2 cores), graphs
// from `matchblas gen`, edge factor 8: er 65,450 edges 0.50 s, 131,003 edges
// 1.27 s, 262,071 edges 3.5 s; rmat 114,221 edges 0.34 s, 477,666 edges
// 2.2 s; complete-uniform 512 vertices 0.60 s, 1024 vertices 3.0 s.
constexpr offset_t exact_max_sparse_edges = 100000;
constexpr vertex_t exact_max_complete_vertices = 600;

// Why exact does not run on g in the demo, or nothing.
std::optional<std::string> exact_skipped(const MatcherInfo& exact, GraphRef g, GraphKind kind) {
  if (exact.unavailable) return *exact.unavailable;
  if (kind == complete_graphs && num_vertices(g) > exact_max_complete_vertices)
    return "more than " + std::to_string(exact_max_complete_vertices) + " vertices, too slow for the demo";
  if (kind != complete_graphs && num_edges(g) > exact_max_sparse_edges)
    return "more than " + std::to_string(exact_max_sparse_edges) + " edges, too slow for the demo";
  return std::nullopt;
}

void demo_graph(const std::string& label, GraphRef g, GraphKind kind, const RunOptions& opt) {
  std::printf("\n%s: %d vertices, %lld edges\n", label.c_str(), num_vertices(g),
              static_cast<long long>(num_edges(g)));
  const MatcherInfo& exact = find_matcher("exact");
  const std::optional<std::string> skip_exact = exact_skipped(exact, g, kind);
  std::optional<MatchReport> best;  // exact runs once: its report is its row and the optimum
  if (!skip_exact) best = run_matcher(exact, g, kind, opt).report;
  std::printf("  %-18s %16s %12s %10s %12s %6s\n", "matcher", "weight", "cardinality", "GTO %", "time ms", "valid");
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != Problem::matching || !m.accepts(kind)) continue;
    const bool is_exact = &m == &exact;
    const std::optional<std::string> why = is_exact && skip_exact ? skip_exact : unavailable_here(m);
    if (why) {
      std::printf("  %-18s skipped: %s\n", m.name.c_str(), why->c_str());
      continue;
    }
    const MatchReport r = is_exact ? *best : run_matcher(m, g, kind, opt).report;
    char gto[32] = "n/a";
    if (best) std::snprintf(gto, sizeof gto, "%.4f", gto_percent(r.weight, best->weight));
    std::printf("  %-18s %16.6f %12lld %10s %12.3f %6s\n", m.name.c_str(), r.weight,
                static_cast<long long>(r.cardinality), gto, 1e3 * r.time_s, r.valid ? "yes" : "NO");
  }
  std::fflush(stdout);
}

// Every available b-matching algorithm on g with b(v) = 2, against b_greedy.
void demo_b_matching(const std::string& label, const Csr<double>& g, const RunOptions& opt) {
  std::printf("\n%s, b(v) = 2: %d vertices, %lld edges\n", label.c_str(), g.n_rows,
              static_cast<long long>(g.num_entries() / 2));
  const std::vector<int> b = constant_b(g.n_rows, 2);
  const BMatching reference = b_greedy(g, b);
  std::printf("  %-18s %16s %12s %14s %12s %6s\n", "algorithm", "weight", "edges", "= b-greedy", "time ms", "valid");
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != Problem::b_matching) continue;
    if (const std::optional<std::string> why = unavailable_here(m)) {
      std::printf("  %-18s skipped: %s\n", m.name.c_str(), why->c_str());
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    const BMatching r = run_b_matching(m, &g, b, opt);
    const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  %-18s %16.6f %12lld %14s %12.3f %6s\n", m.name.c_str(), b_matching_weight(g, r),
                static_cast<long long>(r.num_edges()), r == reference ? "yes" : "NO", ms,
                b_matching_violation(g, b, r).empty() ? "yes" : "NO");
  }
  std::fflush(stdout);
}

// Every available stable marriage algorithm on an easy instance.
void demo_marriage(vertex_t n, const RunOptions& opt) {
  const MarriageInstance inst = easy_marriage(n, 0.1, opt.seed);
  const RankedLists p = rank_lists(inst);
  std::printf("\nstable marriage, an easy instance (Manne et al., CSC 2016): %d men, %d women\n", inst.men, inst.women);
  std::printf("  %-18s %12s %12s %12s %6s\n", "algorithm", "pairs", "rank sum", "time ms", "stable");
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != Problem::marriage) continue;
    if (const std::optional<std::string> why = unavailable_here(m)) {
      std::printf("  %-18s skipped: %s\n", m.name.c_str(), why->c_str());
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    const Marriage r = run_marriage(m, p, opt);
    const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    long long pairs = 0;
    for (vertex_t w : r.wife) pairs += w != no_vertex;
    std::printf("  %-18s %12lld %12lld %12.3f %6s\n", m.name.c_str(), pairs,
                static_cast<long long>(rank_sum(inst, r)), ms, marriage_violation(inst, r).empty() ? "yes" : "NO");
  }
  std::fflush(stdout);
}

}  // namespace

int command_demo(const Args& a) {
  if (!a.positional().empty()) throw usage_error("demo takes no arguments");
  apply_threads(a);
  const vertex_t n = static_cast<vertex_t>(a.integer("n", 4096, 2, 1 << 20));
  GenOptions gen;
  gen.seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  gen.edge_factor = 8;
  RunOptions opt;
  opt.seed = gen.seed;
  opt.threads = omp_get_max_threads();
  std::printf("matchblas demo: seed %llu, %d threads\n", static_cast<unsigned long long>(gen.seed), opt.threads);
  std::fflush(stdout);

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
  demo_b_matching("Erdos-Renyi, edge factor 8", er, opt);
  demo_marriage(n, opt);
  if (find_matcher("exact").unavailable) std::printf("\nGTO is n/a: the exact matcher needs LEMON, absent from this build\n");
  return 0;
}

}  // namespace matchblas::cli
