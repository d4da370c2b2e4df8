// matchblas demo: generate a few graphs, run every available matcher that
// accepts them, and print weight, cardinality, GTO (against `exact` when it
// is available and the graph is small enough for it) and time; then every
// b-matching algorithm on one of them (b = 2) and every stable marriage
// algorithm on an easy instance, all from the registry. Each table is
// flushed as soon as it is printed, and ends with one line naming what it
// skipped and why (no GPU, not under mpirun, exact too slow).
#include <omp.h>

#include <algorithm>
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
  if (std::optional<std::string> why = unavailable_briefly(exact)) return why;
  if (kind == complete_graphs && num_vertices(g) > exact_max_complete_vertices)
    return "more than " + std::to_string(exact_max_complete_vertices) + " vertices, too slow for the demo";
  if (kind != complete_graphs && num_edges(g) > exact_max_sparse_edges)
    return "more than " + std::to_string(exact_max_sparse_edges) + " edges, too slow for the demo";
  return std::nullopt;
}

// The algorithms of one table: those that run, the width of their names'
// column, and the others grouped by why they are skipped.
struct DemoTable {
  std::vector<const MatcherInfo*> run;
  int width = 0;
  std::vector<std::pair<std::string, std::vector<const MatcherInfo*>>> skipped;  // reason, algorithms
};

// The table of `problem`'s algorithms that `takes`, each skipped for
// `why_not` (else run); `heading` is the first column's title.
template <class Takes, class WhyNot>
DemoTable plan_table(Problem problem, Takes takes, WhyNot why_not, const char* heading) {
  DemoTable t;
  t.width = int(std::string(heading).size());
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != problem || !takes(m)) continue;
    if (const std::optional<std::string> why = why_not(m)) {
      auto group = std::find_if(t.skipped.begin(), t.skipped.end(), [&](const auto& g) { return g.first == *why; });
      if (group == t.skipped.end()) group = t.skipped.insert(t.skipped.end(), {*why, {}});
      group->second.push_back(&m);
      continue;
    }
    t.run.push_back(&m);
    t.width = std::max(t.width, int(m.name.size()));
  }
  return t;
}

// The table's last line: what was skipped and why, "skipped: 4 GPU
// algorithms (needs CUDA), 4 MPI algorithms (needs mpirun)"; one skipped
// algorithm is named. Nothing when none was.
void print_skipped(const DemoTable& t) {
  if (t.skipped.empty()) return;
  std::string line;
  for (const auto& [why, algos] : t.skipped) {
    if (!line.empty()) line += ", ";
    if (algos.size() == 1) {
      line += algos[0]->name;
    } else {
      const Device d = algos[0]->device;
      const bool same = std::all_of(algos.begin(), algos.end(), [&](const MatcherInfo* m) { return m->device == d; });
      line += std::to_string(algos.size());
      line += !same ? " " : d == Device::gpu ? " GPU " : d == Device::distributed ? " MPI " : " CPU ";
      line += "algorithms";
    }
    line += " (" + why + ")";
  }
  std::printf("  skipped: %s\n", line.c_str());
}

void demo_graph(const std::string& label, GraphRef g, GraphKind kind, const RunOptions& opt) {
  std::printf("\n%s: %d vertices, %lld edges\n", label.c_str(), num_vertices(g),
              static_cast<long long>(num_edges(g)));
  const MatcherInfo& exact = find_matcher("exact");
  const std::optional<std::string> skip_exact = exact_skipped(exact, g, kind);
  std::optional<MatchReport> best;  // exact runs once: its report is its row and the optimum
  if (!skip_exact) best = run_matcher(exact, g, kind, opt).report;
  const DemoTable t = plan_table(
      Problem::matching, [&](const MatcherInfo& m) { return m.accepts(kind); },
      [&](const MatcherInfo& m) { return &m == &exact ? skip_exact : unavailable_briefly(m); }, "matcher");
  std::printf("  %-*s %16s %12s %10s %12s %6s\n", t.width, "matcher", "weight", "cardinality", "GTO %", "time ms",
              "valid");
  for (const MatcherInfo* m : t.run) {
    const MatchReport r = m == &exact ? *best : run_matcher(*m, g, kind, opt).report;
    char gto[32] = "n/a";
    if (best) std::snprintf(gto, sizeof gto, "%.4f", gto_percent(r.weight, best->weight));
    std::printf("  %-*s %16.6f %12lld %10s %12.3f %6s\n", t.width, m->name.c_str(), r.weight,
                static_cast<long long>(r.cardinality), gto, 1e3 * r.time_s, r.valid ? "yes" : "NO");
  }
  print_skipped(t);
  std::fflush(stdout);
}

// Every available b-matching algorithm on g with b(v) = 2, against b_greedy.
void demo_b_matching(const std::string& label, const Csr<double>& g, const RunOptions& opt) {
  std::printf("\n%s, b(v) = 2: %d vertices, %lld edges\n", label.c_str(), g.n_rows,
              static_cast<long long>(g.num_entries() / 2));
  const std::vector<int> b = constant_b(g.n_rows, 2);
  const BMatching reference = b_greedy(g, b);
  const DemoTable t = plan_table(
      Problem::b_matching, [](const MatcherInfo&) { return true; }, unavailable_briefly, "algorithm");
  std::printf("  %-*s %16s %12s %14s %12s %6s\n", t.width, "algorithm", "weight", "edges", "= b-greedy", "time ms",
              "valid");
  for (const MatcherInfo* m : t.run) {
    const auto start = std::chrono::steady_clock::now();
    const BMatching r = run_b_matching(*m, &g, b, opt);
    const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  %-*s %16.6f %12lld %14s %12.3f %6s\n", t.width, m->name.c_str(), b_matching_weight(g, r),
                static_cast<long long>(r.num_edges()), r == reference ? "yes" : "NO", ms,
                b_matching_violation(g, b, r).empty() ? "yes" : "NO");
  }
  print_skipped(t);
  std::fflush(stdout);
}

// Every available stable marriage algorithm on an easy instance.
void demo_marriage(vertex_t n, const RunOptions& opt) {
  const MarriageInstance inst = easy_marriage(n, 0.1, opt.seed);
  const RankedLists p = rank_lists(inst);
  std::printf("\nstable marriage, an easy instance (Manne et al., CSC 2016): %d men, %d women\n", inst.men, inst.women);
  const DemoTable t = plan_table(
      Problem::marriage, [](const MatcherInfo&) { return true; }, unavailable_briefly, "algorithm");
  std::printf("  %-*s %12s %12s %12s %6s\n", t.width, "algorithm", "pairs", "rank sum", "time ms", "stable");
  for (const MatcherInfo* m : t.run) {
    const auto start = std::chrono::steady_clock::now();
    const Marriage r = run_marriage(*m, p, opt);
    const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    long long pairs = 0;
    for (vertex_t w : r.wife) pairs += w != no_vertex;
    std::printf("  %-*s %12lld %12lld %12.3f %6s\n", t.width, m->name.c_str(), pairs,
                static_cast<long long>(rank_sum(inst, r)), ms, marriage_violation(inst, r).empty() ? "yes" : "NO");
  }
  print_skipped(t);
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
