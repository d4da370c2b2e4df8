// The Louvain entries (matchers/community/louvain.hpp): `louvain` equal to
// a straightforward reference (below: the same visit order and rules, in
// exact integer arithmetic on maps) on small graphs with integer weights
// and loops; louvain-omp the same partition at 1, 2, 3 and 4 threads, with
// and without colouring, and on R-MAT 2^13; both
// valid, at their reported modularity, with no improving vertex move
// (tests/check/community_check.hpp), at resolutions 0.5, 1 and 2; the
// hand-checked karate club; the edge cases (no vertices, no edges,
// isolated vertices) and bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "datasets/generators.hpp"
#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/community/move_clash.hpp"
#include "ops/modularity.hpp"
#include "matchers/registry.hpp"
#include "tests/check/community_check.hpp"
#include "tests/check/shared_collection.hpp"
#include "lib/graph_from_matrix.hpp"

using namespace matchblas;

namespace {

Csr<double> random_graph(vertex_t n, double density, int levels, std::mt19937& rng, bool loops) {
  return check::random_community_graph(n, density, levels, loops ? 0.15 : 0.0, rng);
}

// ---- the reference: integer weights, gamma = 1, thresholds 0 ----------------

struct IntGraph {
  std::vector<std::map<vertex_t, std::int64_t>> adj;  // loops aside, both directions
  std::vector<std::int64_t> loop2;                    // twice each vertex's loop
  vertex_t n() const { return vertex_t(adj.size()); }
  std::int64_t degree(vertex_t u) const {
    std::int64_t k = loop2[std::size_t(u)];
    for (auto [v, w] : adj[std::size_t(u)]) k += w;
    return k;
  }
};

IntGraph to_int(const Csr<double>& g) {
  IntGraph r{std::vector<std::map<vertex_t, std::int64_t>>(std::size_t(g.n_rows)),
             std::vector<std::int64_t>(std::size_t(g.n_rows), 0)};
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      if (g.cols[e] == u) r.loop2[std::size_t(u)] += 2 * std::int64_t(g.weights[e]);
      else r.adj[std::size_t(u)][g.cols[e]] += std::int64_t(g.weights[e]);
    }
  return r;
}

// Moves in vertex order until a pass moves nothing (louvain.hpp's rule:
// gains 2m w_uc - tot_c k_u, ties to the smallest label then alone, alone
// takes the id freed last, the smallest unused one first).
std::int64_t reference_moves(const IntGraph& g, std::vector<vertex_t>& label) {
  const vertex_t n = g.n();
  std::vector<std::int64_t> k(static_cast<std::size_t>(n)), tot(static_cast<std::size_t>(n), 0);
  std::vector<vertex_t> size(std::size_t(n), 0), free_ids;
  std::int64_t two_m = 0;
  for (vertex_t u = 0; u < n; ++u) {
    k[std::size_t(u)] = g.degree(u);
    two_m += k[std::size_t(u)];
    tot[std::size_t(label[std::size_t(u)])] += k[std::size_t(u)];
    ++size[std::size_t(label[std::size_t(u)])];
  }
  if (two_m == 0) return 0;
  for (vertex_t c = n - 1; c >= 0; --c)
    if (size[std::size_t(c)] == 0) free_ids.push_back(c);
  std::int64_t moves = 0;
  for (;;) {
    std::int64_t moved = 0;
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t own = label[std::size_t(u)];
      const std::int64_t ku = k[std::size_t(u)];
      std::map<vertex_t, std::int64_t> w;
      for (auto [v, x] : g.adj[std::size_t(u)]) w[label[std::size_t(v)]] += x;
      tot[std::size_t(own)] -= ku;
      const std::int64_t stay = two_m * (w.count(own) ? w[own] : 0) - tot[std::size_t(own)] * ku;
      vertex_t best = no_vertex;
      std::int64_t best_gain = 0;
      for (auto [c, x] : w) {
        if (c == own) continue;
        const std::int64_t gain = two_m * x - tot[std::size_t(c)] * ku;
        if (gain > best_gain || (gain == best_gain && (best == no_vertex || c < best))) {
          best = c;
          best_gain = gain;
        }
      }
      vertex_t to = own;
      if (best_gain > stay) {
        if (best != no_vertex) to = best;
        else if (size[std::size_t(own)] > 1) {
          to = free_ids.back();
          free_ids.pop_back();
        }
      }
      if (to != own) {
        if (--size[std::size_t(own)] == 0) free_ids.push_back(own);
        ++size[std::size_t(to)];
        label[std::size_t(u)] = to;
        ++moved;
      }
      tot[std::size_t(to)] += ku;
    }
    moves += moved;
    if (moved == 0) return moves;
  }
}

vertex_t first_appearance(std::vector<vertex_t>& label) {
  std::map<vertex_t, vertex_t> id;
  for (vertex_t& l : label) l = id.emplace(l, vertex_t(id.size())).first->second;
  return vertex_t(id.size());
}

struct ReferenceResult {
  std::vector<vertex_t> label;
  std::size_t levels = 0;
};

ReferenceResult reference_louvain(const Csr<double>& input) {
  IntGraph g = to_int(input);
  ReferenceResult r;
  r.label.resize(std::size_t(g.n()));
  for (vertex_t u = 0; u < g.n(); ++u) r.label[std::size_t(u)] = u;
  while (g.n() > 0) {
    std::vector<vertex_t> label(std::size_t(g.n()));
    for (vertex_t u = 0; u < g.n(); ++u) label[std::size_t(u)] = u;
    if (reference_moves(g, label) == 0) break;
    const vertex_t k = first_appearance(label);
    for (vertex_t& x : r.label) x = label[std::size_t(x)];
    ++r.levels;
    IntGraph next{std::vector<std::map<vertex_t, std::int64_t>>(std::size_t(k)), std::vector<std::int64_t>(std::size_t(k), 0)};
    for (vertex_t u = 0; u < g.n(); ++u) {
      const vertex_t c = label[std::size_t(u)];
      next.loop2[std::size_t(c)] += g.loop2[std::size_t(u)];
      for (auto [v, w] : g.adj[std::size_t(u)]) {
        const vertex_t d = label[std::size_t(v)];
        if (c == d) next.loop2[std::size_t(c)] += w;  // each direction: twice the inside weight in all
        else next.adj[std::size_t(c)][d] += w;
      }
    }
    const bool same = k == g.n();
    g = std::move(next);
    if (same) break;
  }
  reference_moves(to_int(input), r.label);  // the input's vertices: the final refinement
  first_appearance(r.label);
  return r;
}

LouvainOptions exhaustive() {
  LouvainOptions o;
  o.threshold = o.final_threshold = 0;
  return o;
}

using check::require_local_optimum;

// A level keeps only rounds that raised modularity (one that lost is
// undone and ends the level), and aggregating keeps it: the levels'
// modularity never falls below the level before's, from singletons on.
void require_levels_never_lose(const Csr<double>& g, const Communities& c, double gamma) {
  std::vector<vertex_t> alone(std::size_t(g.n_rows));
  for (vertex_t u = 0; u < g.n_rows; ++u) alone[std::size_t(u)] = u;
  double before = ops::modularity(g, alone, gamma);
  for (std::size_t l = 0; l < c.levels.size(); ++l) {
    CAPTURE(l);
    CHECK(c.levels[l].modularity >= before - 1e-12);
    before = c.levels[l].modularity;
  }
}

}  // namespace

TEST_CASE("louvain equals the straightforward reference on small graphs with integer weights and loops") {
  std::mt19937 rng(2008);
  int levels_seen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t n = vertex_t(rng() % 70);
    const Csr<double> g = random_graph(n, 0.03 + 0.25 * (trial % 7) / 6, 1 + trial % 4, rng, trial % 3 == 0);
    CAPTURE(trial);
    CAPTURE(n);
    const Communities got = louvain(g, exhaustive());
    const ReferenceResult want = reference_louvain(g);
    REQUIRE(got.label == want.label);
    CHECK(got.levels.size() == want.levels);
    levels_seen = std::max(levels_seen, int(want.levels));
    require_local_optimum(g, got, 1.0);
    CHECK(got.modularity == doctest::Approx(double(check::modularity_by_pairs(g, got.label, 1.0))).epsilon(1e-12).scale(1));
  }
  CHECK(levels_seen >= 3);  // the aggregation was exercised
}

TEST_CASE("louvain and louvain-omp: valid local optima at three resolutions, levels that never lose; "
          "louvain-omp the same at 1-4 threads") {
  std::mt19937 rng(2015);
  for (int trial = 0; trial < 16; ++trial) {
    const vertex_t n = 50 + vertex_t(rng() % 600);
    const Csr<double> g = random_graph(n, 4.0 / n + 0.02 * (trial % 3), 1 + trial % 5, rng, trial % 2 == 0);
    CAPTURE(trial);
    CAPTURE(n);
    for (double gamma : {0.5, 1.0, 2.0}) {
      CAPTURE(gamma);
      LouvainOptions o;
      o.resolution = gamma;
      require_local_optimum(g, louvain(g, o), gamma);
      for (bool coloring : {true, false}) {
        CAPTURE(coloring);
        o.coloring = coloring;
        o.threads = 1;
        const Communities one = louvain_omp(g, o);
        require_local_optimum(g, one, gamma);
        require_levels_never_lose(g, one, gamma);
        for (int threads : {2, 3, 4}) {
          o.threads = threads;
          CHECK(louvain_omp(g, o).label == one.label);
        }
      }
    }
  }
}

TEST_CASE("louvain-omp on R-MAT 2^13 (hundreds of final moves): a local optimum, "
          "the same at 1, 2 and 4 threads") {
  GenOptions go;
  go.seed = 3;
  const Csr<double> g = rmat<double>(1 << 13, go);
  LouvainOptions o;
  o.threads = 1;
  const Communities one = louvain_omp(g, o);
  require_local_optimum(g, one, 1.0);
  CHECK(one.refine_moves > 256);
  for (int threads : {2, 4}) {
    o.threads = threads;
    CHECK(louvain_omp(g, o).label == one.label);
  }
}

TEST_CASE("louvain and louvain-omp: weights scaled by a power of two to the ends of the double range, "
          "the same partition and modularity") {
  std::mt19937 rng(1308);
  using Entry = Communities (*)(const Csr<double>&, const LouvainOptions&);
  for (int trial = 0; trial < 6; ++trial) {
    const vertex_t n = 30 + vertex_t(rng() % 300);
    const Csr<double> g = random_graph(n, 6.0 / n, 1 + trial % 4, rng, trial % 2 == 0);
    CAPTURE(trial);
    for (const Entry f : {Entry(&louvain), Entry(&louvain_omp)}) {
      const Communities want = f(g, {});
      for (int k : {-1010, -700, -300, 300, 700, 1010}) {  // integer weights 1..4 stay normal numbers
        CAPTURE(k);
        const Communities got = f(check::scaled_by_power_of_two(g, k), {});
        CHECK(got.label == want.label);
        CHECK(got.modularity == want.modularity);
        CHECK(got.levels.size() == want.levels.size());
      }
    }
  }
  // Two vertices joined by one edge belong together (Q 0, against -1/2
  // apart): with weight 1e308 (2m overflows unscaled) and 1e-320 (a
  // subnormal: every product underflows unscaled).
  for (double w : {1e308, 1e-320}) {
    CAPTURE(w);
    const Csr<double> pair = check::graph_from_edges(2, {{0, 1, w}});
    for (const Entry f : {Entry(&louvain), Entry(&louvain_omp)}) {
      const Communities c = f(pair, {});
      CHECK(c.communities == 1);
      CHECK(c.modularity == 0);
    }
  }
}

TEST_CASE("louvain on the karate club: Q = 0.4198 (4 communities), the best partition known by Louvain") {
  const std::vector<check::ManifestRow> rows = check::shared_manifest();
  const auto it = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.file == "karate.mtx"; });
  if (it == rows.end()) {
    MESSAGE("the shared collection (karate.mtx) is absent");
    return;
  }
  const Csr<double> g = community_graph(read_matrix_market(it->path.string()));
  REQUIRE(g.n_rows == 34);
  const Communities c = louvain(g);
  CHECK(c.communities == 4);
  CHECK(c.modularity == doctest::Approx(0.41979).epsilon(1e-4));
  require_local_optimum(g, c, 1.0);
}

TEST_CASE("louvain: no vertices, no edges, isolated vertices; bad input refused") {
  using Entry = Communities (*)(const Csr<double>&, const LouvainOptions&);
  for (const Entry f : {Entry(&louvain), Entry(&louvain_omp)}) {
    Csr<double> empty;
    const Communities none = f(empty, {});
    CHECK(none.label.empty());
    CHECK(none.communities == 0);
    CHECK(none.modularity == 0);
    Csr<double> lonely;  // three vertices, no edges: each alone, Q = 0
    lonely.n_rows = lonely.n_cols = 3;
    lonely.offsets = {0, 0, 0, 0};
    const Communities alone = f(lonely, {});
    CHECK(alone.label == std::vector<vertex_t>{0, 1, 2});
    CHECK(alone.modularity == 0);
    // A triangle and an isolated vertex.
    Csr<double> t;
    t.n_rows = t.n_cols = 4;
    t.offsets = {0, 2, 4, 6, 6};
    t.cols = {1, 2, 0, 2, 0, 1};
    t.weights = {1, 1, 1, 1, 1, 1};
    const Communities tri = f(t, {});
    CHECK(tri.label == std::vector<vertex_t>{0, 0, 0, 1});
    // Bad input: a negative weight, an asymmetric graph, a zero resolution.
    Csr<double> neg = t;
    neg.weights[0] = neg.weights[2] = -1;
    CHECK_THROWS_WITH_AS(f(neg, {}), doctest::Contains("non-negative"), invalid_input);
    Csr<double> skew = t;
    skew.weights[0] = 2;
    CHECK_THROWS_WITH_AS(f(skew, {}), doctest::Contains("not symmetric"), invalid_input);
    LouvainOptions zero;
    zero.resolution = 0;
    CHECK_THROWS_AS(f(t, zero), invalid_input);
  }
}

TEST_CASE("community check_input: symmetric graphs pass, every kind of one-sided change is named at its first row") {
  // The first row whose off-diagonal (column, weight) multiset differs from
  // its column's, by brute force.
  const auto first_bad_row = [](const Csr<double>& g) {
    std::vector<std::vector<std::pair<vertex_t, double>>> row(std::size_t(g.n_rows)), column(std::size_t(g.n_rows));
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_t v = g.cols[e];
        if (v == u) continue;
        const double w = g.weights[e] == 0 ? 0.0 : g.weights[e];
        row[std::size_t(u)].emplace_back(v, w);
        column[std::size_t(v)].emplace_back(u, w);
      }
    for (vertex_t u = 0; u < g.n_rows; ++u) {
      std::sort(row[std::size_t(u)].begin(), row[std::size_t(u)].end());
      std::sort(column[std::size_t(u)].begin(), column[std::size_t(u)].end());
      if (row[std::size_t(u)] != column[std::size_t(u)]) return u;
    }
    return g.n_rows;
  };
  // A symmetric graph with loops, duplicates (mirrored), unsorted rows and
  // both zeros mirrored against each other.
  const auto symmetric = [](vertex_t n, std::mt19937& rng) {
    std::vector<std::vector<std::pair<vertex_t, double>>> rows(static_cast<std::size_t>(n));
    std::uniform_int_distribution<vertex_t> vertex(0, n - 1);
    for (int k = 0; k < 4 * n; ++k) {
      const vertex_t u = vertex(rng), v = vertex(rng);
      const double w = rng() % 5 == 0 ? 0.0 : double(1 + rng() % 3) / 4;
      rows[std::size_t(u)].emplace_back(v, w);
      if (u != v) rows[std::size_t(v)].emplace_back(u, w == 0 && rng() % 2 ? -0.0 : w);
    }
    Csr<double> g;
    g.n_rows = g.n_cols = n;
    g.offsets.assign(1, 0);
    for (auto& r : rows) {
      std::shuffle(r.begin(), r.end(), rng);
      for (const auto& [v, w] : r) {
        g.cols.push_back(v);
        g.weights.push_back(w);
      }
      g.offsets.push_back(offset_t(g.cols.size()));
    }
    return g;
  };
  std::mt19937 rng(128);
  int changed = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    const Csr<double> g = symmetric(vertex_t(2 + rng() % 60), rng);
    REQUIRE(first_bad_row(g) == g.n_rows);
    for (int threads : {1, 2}) CHECK_NOTHROW(community::check_input(g, 1.0, threads));
    if (g.num_entries() < 2) continue;
    // One change on one side: a weight by an ulp, a column moved, an entry
    // dropped or doubled, two weights of a row swapped.
    Csr<double> h = g;
    const std::size_t k = std::size_t(rng() % std::uint32_t(g.num_entries()));
    switch (trial % 5) {
      case 0: h.weights[k] = std::nextafter(h.weights[k] + 0.25, 1e9); break;
      case 1: h.cols[k] = (h.cols[k] + 1) % h.n_cols; break;
      case 2:
      case 3: {  // drop (2) or double (3) entry k
        Csr<double> d;
        d.n_rows = d.n_cols = h.n_rows;
        d.offsets.assign(1, 0);
        for (vertex_t u = 0; u < h.n_rows; ++u) {
          for (offset_t e = h.offsets[u]; e < h.offsets[u + 1]; ++e) {
            const int copies = std::size_t(e) != k ? 1 : trial % 5 == 2 ? 0 : 2;
            for (int c = 0; c < copies; ++c) {
              d.cols.push_back(h.cols[e]);
              d.weights.push_back(h.weights[e]);
            }
          }
          d.offsets.push_back(offset_t(d.cols.size()));
        }
        h = d;
        break;
      }
      default: std::swap(h.weights[k], h.weights[(k + 1) % h.weights.size()]); break;
    }
    const vertex_t bad = first_bad_row(h);
    if (bad == h.n_rows) {
      CHECK_NOTHROW(community::check_input(h, 1.0, 2));  // the change was a loop's, or kept the multisets
      continue;
    }
    ++changed;
    const std::string named = "not symmetric: entry (" + std::to_string(bad + 1) + ", ";
    for (int threads : {1, 2})
      CHECK_THROWS_WITH_AS(community::check_input(h, 1.0, threads), doctest::Contains(named.c_str()), invalid_input);
  }
  CHECK(changed > 150);
}

TEST_CASE("registry: louvain and louvain-omp solve community detection, options checked") {
  const MatcherInfo& m = find_matcher("louvain", Problem::community);
  CHECK(m.guarantee == "local optimum");
  CHECK(find_matcher("louvain-omp", Problem::community).threaded);
  CHECK(parse_options(find_matcher("louvain-omp", Problem::community), {{"coloring", "off"}})
            .typed<LouvainOptions>()
            .coloring == false);
  CHECK_THROWS_AS(parse_options(m, {{"coloring", "off"}}), invalid_input);  // louvain has no colouring
  CHECK_THROWS_AS(parse_options(m, {{"resolution", "0"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(m, {{"threshold", "1e-6"}, {"final-threshold", "1e-3"}}), invalid_input);
  const OptionValues v = parse_options(m, {{"resolution", "2"}});
  CHECK(v.typed<LouvainOptions>().resolution == 2);
  CHECK_THROWS_AS(find_matcher("louvain", Problem::matching), invalid_input);
}

TEST_CASE("louvain and louvain-omp with refine off: the same levels, no final moves, never more modularity") {
  using Entry = Communities (*)(const Csr<double>&, const LouvainOptions&);
  std::mt19937 rng(2017);
  int gained = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const vertex_t n = 100 + vertex_t(rng() % 900);
    const Csr<double> g = random_graph(n, 6.0 / n, 1 + trial % 4, rng, trial % 2 == 0);
    CAPTURE(trial);
    for (const Entry f : {Entry(&louvain), Entry(&louvain_omp)}) {
      LouvainOptions o;
      o.threads = 2;
      const Communities on = f(g, o);
      o.refine = false;
      const Communities off = f(g, o);
      CHECK(communities_violation(g, off, 1.0).empty());
      CHECK(off.hierarchy == on.hierarchy);
      CHECK(off.refine_passes == 0);
      CHECK(off.refine_moves == 0);
      CHECK(off.modularity <= on.modularity + 1e-12);
      if (on.refine_moves > 0) {
        CHECK(off.modularity < on.modularity);
        ++gained;
      }
    }
  }
  CHECK(gained > 0);  // the refinement had work in some trial
}

TEST_CASE("ModularityChange: moves of non-adjacent vertices change Q by what ops::modularity recomputes") {
  // Graphs with loops and real weights, three resolutions; each step moves
  // a random set of pairwise non-adjacent vertices to a random neighbour's
  // community (or one of their own), one after another, as louvain-omp's
  // colour classes do.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    const Csr<double> g = random_graph(vertex_t(20 + trial * 3), 0.2, 2, rng, trial % 2 == 0);
    for (double gamma : {0.5, 1.0, 2.0}) {
      community::MoveState s = community::from_labels(g, std::vector<vertex_t>(std::size_t(g.n_rows), 0), gamma);
      for (vertex_t u = 0; u < g.n_rows; ++u) {  // a start with several communities
        s.tot[0] -= s.k[std::size_t(u)];
        s.label[std::size_t(u)] = vertex_t(rng() % 5);
        s.tot[std::size_t(s.label[std::size_t(u)])] += s.k[std::size_t(u)];
      }
      for (int step = 0; step < 6; ++step) {
        const double before = ops::modularity(g, s.label, gamma);
        std::vector<char> blocked(std::size_t(g.n_rows), 0);
        community::ModularityChange change;
        for (vertex_t u = 0; u < g.n_rows; ++u) {
          if (blocked[std::size_t(u)] || rng() % 3 != 0) continue;
          const vertex_t own = s.label[std::size_t(u)];
          std::map<vertex_t, double> w_into;
          std::vector<vertex_t> choices = {vertex_t(g.n_rows - 1 - rng() % 3)};  // an empty or other community
          for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
            const vertex_t v = g.cols[e];
            blocked[std::size_t(v)] = 1;
            if (v == u) continue;
            w_into[s.label[std::size_t(v)]] += g.weights[e];
            choices.push_back(s.label[std::size_t(v)]);
          }
          const vertex_t to = choices[rng() % choices.size()];
          if (to == own) continue;
          change.move(w_into[to] - w_into[own], s.k[std::size_t(u)], s.tot[std::size_t(own)],
                      s.tot[std::size_t(to)]);
          s.tot[std::size_t(own)] -= s.k[std::size_t(u)];
          s.tot[std::size_t(to)] += s.k[std::size_t(u)];
          s.label[std::size_t(u)] = to;
        }
        CAPTURE(trial);
        CAPTURE(gamma);
        CHECK(before + change.value(s.two_m, gamma) ==
              doctest::Approx(ops::modularity(g, s.label, gamma)).epsilon(1e-12).scale(1.0));
      }
    }
  }
}

TEST_CASE("moves_clash: two neighbours' moves together change Q by their own changes plus the pair's term") {
  // Random graphs with loops and real weights, three resolutions, random
  // labels: for random neighbours u, v and random targets (a neighbour's
  // community, u's or v's own, or an empty one), Q(both moved) - Q =
  // (Q(u moved) - Q) + (Q(v moved) - Q) + 2 pair_term overlap / (2m)^2, and
  // moves_clash says exactly when that last term is negative.
  std::mt19937 rng(29);
  int clashing = 0, adding = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const Csr<double> g = random_graph(vertex_t(12 + trial), 0.3, 2, rng, trial % 2 == 0);
    const std::vector<double> k = ops::weighted_degrees(g);
    double two_m = 0;
    for (double x : k) two_m += x;
    for (double gamma : {0.5, 1.0, 2.0}) {
      std::vector<vertex_t> label(std::size_t(g.n_rows));
      for (vertex_t& c : label) c = vertex_t(rng() % 4);
      for (int pick = 0; pick < 40; ++pick) {
        const vertex_t u = vertex_t(rng() % std::size_t(g.n_rows));
        if (g.offsets[u + 1] == g.offsets[u]) continue;
        const offset_t e = g.offsets[u] + offset_t(rng() % std::size_t(g.offsets[u + 1] - g.offsets[u]));
        const vertex_t v = g.cols[e];
        if (v == u) continue;
        const vertex_t a = label[std::size_t(u)], c = label[std::size_t(v)];
        const vertex_t options[] = {a, c, vertex_t(rng() % 4), vertex_t(g.n_rows)};  // n_rows: empty
        const vertex_t b = options[rng() % 4], d = options[rng() % 4];
        if (b == a || d == c) continue;
        const double q = ops::modularity(g, label, gamma);
        std::vector<vertex_t> moved_u = label, moved_v = label, both = label;
        moved_u[std::size_t(u)] = both[std::size_t(u)] = b;
        moved_v[std::size_t(v)] = both[std::size_t(v)] = d;
        const double joint = ops::modularity(g, both, gamma) - q;
        const double apart = (ops::modularity(g, moved_u, gamma) - q) + (ops::modularity(g, moved_v, gamma) - q);
        const double pair = community::pair_term(g.weights[e], k[std::size_t(u)], k[std::size_t(v)], two_m, gamma);
        const int overlap = community::pair_overlap(a, b, c, d);
        CAPTURE(trial);
        CAPTURE(gamma);
        CHECK(joint == doctest::Approx(apart + 2 * pair * overlap / (two_m * two_m)).epsilon(1e-12).scale(1.0));
        const bool clash = community::moves_clash(a, b, c, d, g.weights[e], k[std::size_t(u)], k[std::size_t(v)],
                                                  two_m, gamma);
        CHECK(clash == (pair * overlap < 0));
        if (clash) ++clashing;
        else CHECK(joint >= apart - 1e-12);
        if (!clash && overlap != 0) ++adding;
      }
    }
  }
  CHECK(clashing > 50);  // both kinds were drawn
  CHECK(adding > 50);
}

TEST_CASE("moves_to_local_optimum: checks that skip what their bounds rule out move as checks of every vertex") {
  // The final moves' checks skip the vertices whose margin cannot have
  // become positive since they were evaluated (MoveBounds): the improving
  // lists, so the moves, must be those of checks of every vertex, here
  // improving_vertices and checked_moves in the same loop. Random graphs with
  // loops and ties, real and integer weights, three resolutions, from
  // random partitions into a few communities and from singletons.
  // The last trials' graphs are large enough for classes of thousands of
  // candidates, which checked_moves splits over the threads.
  std::mt19937 rng(41);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    const vertex_t n = trial < 36 ? 50 + vertex_t(rng() % 900) : 6000 + vertex_t(rng() % 4000);
    Csr<double> g = check::random_community_graph(n, (3.0 + trial % 5) / n, 1 + trial % 3, trial % 2 ? 0.1 : 0.0, rng);
    if (trial % 3 == 0)
      for (double& w : g.weights) w = std::ceil(w * 4);
    const double gamma = trial % 4 == 0 ? 0.5 : trial % 4 == 1 ? 2.0 : 1.0;
    std::vector<vertex_t> start(static_cast<std::size_t>(n));
    const vertex_t parts = trial % 6 == 5 ? n : 1 + vertex_t(rng() % 12);
    for (vertex_t v = 0; v < n; ++v) start[std::size_t(v)] = parts == n ? v : vertex_t(rng() % parts);
    community::MoveState pruned = community::from_labels(g, start, gamma);
    community::MoveState full = community::from_labels(g, start, gamma);
    int pruned_passes = 0, full_passes = 0;
    const community::Colouring colouring = community::greedy_colouring(g, 2);
    const vertex_t pruned_moves =
        community::moves_to_local_optimum(g, pruned, 1 + trial % 3, colouring, &pruned_passes);
    std::vector<vertex_t> targets;
    const vertex_t full_moves = community::moves_until_none_improves(
        [&] { return community::improving_vertices(g, full, 2, &targets); },
        [&](const std::vector<vertex_t>& candidates) {
          const vertex_t moved = community::checked_moves(g, full, candidates, targets, colouring, 2);
          CHECK(moved > 0);  // the first candidate always moves
          return moved;
        },
        &full_passes);
    CHECK(pruned_moves == full_moves);
    CHECK(pruned_passes == full_passes);
    // The same partition (a community of a vertex gone alone may take
    // another free id: the loop keeps its free ids from call to call).
    std::vector<vertex_t> a = pruned.label, b = full.label;
    community::renumber(a);
    community::renumber(b);
    REQUIRE(a == b);
    CHECK(community::improving_vertices(g, pruned, 2).empty());
  }
}

TEST_CASE("checked_moves: moves only what still improves, from any targets, and keeps the state consistent") {
  // Targets from a check made before other moves, and arbitrary ones (a
  // random community, a vertex's own, or no_vertex): each kept move must
  // raise modularity (by ops::modularity, recomputed), the tots and labels
  // must stay those of the partition, and targets fresh from a check must
  // move their first candidate. The last trials' graphs have classes of
  // thousands of candidates, whose weights are recounted on the threads.
  std::mt19937 rng(46);
  for (int trial = 0; trial < 34; ++trial) {
    CAPTURE(trial);
    const vertex_t n = trial < 30 ? 40 + vertex_t(rng() % 400) : 4000 + vertex_t(rng() % 2000);
    Csr<double> g = check::random_community_graph(n, (3.0 + trial % 4) / n, 1 + trial % 3, trial % 2 ? 0.1 : 0.0, rng);
    if (trial % 3 == 0)
      for (double& w : g.weights) w = std::ceil(w * 3);
    const double gamma = trial % 3 == 0 ? 0.5 : trial % 3 == 1 ? 1.5 : 1.0;
    std::vector<vertex_t> start(static_cast<std::size_t>(n));
    const vertex_t parts = 1 + vertex_t(rng() % 10);
    for (vertex_t v = 0; v < n; ++v) start[std::size_t(v)] = vertex_t(rng() % parts);
    community::MoveState s = community::from_labels(g, start, gamma);
    std::vector<vertex_t> targets;
    std::vector<vertex_t> candidates = community::improving_vertices(g, s, 1 + trial % 2, &targets);
    const bool fresh = trial % 2 == 0;
    if (!fresh) {  // arbitrary targets for a random half of the vertices
      candidates.clear();
      for (vertex_t v = 0; v < n; ++v) {
        if (rng() % 2) continue;
        candidates.push_back(v);
        const unsigned pick = rng() % 4;
        targets[std::size_t(v)] = pick == 0 ? no_vertex : pick == 1 ? s.label[std::size_t(v)] : vertex_t(rng() % parts);
      }
    }
    if (candidates.empty()) continue;
    const community::Colouring colouring = community::greedy_colouring(g, 2);
    const double q_start = ops::modularity(g, s.label, gamma);
    double q = q_start;
    // One candidate at a time, so each kept move is checked on its own, in
    // the order of a whole call: by colour, then as listed.
    std::vector<vertex_t> by_colour = candidates;
    std::stable_sort(by_colour.begin(), by_colour.end(), [&](vertex_t a, vertex_t b) {
      return colouring.colour[std::size_t(a)] < colouring.colour[std::size_t(b)];
    });
    vertex_t moved = 0;
    for (vertex_t u : by_colour) {
      const vertex_t before = s.label[std::size_t(u)];
      const vertex_t m = community::checked_moves(g, s, {u}, targets, colouring, 1);
      CHECK(m == vertex_t(s.label[std::size_t(u)] != before));
      const double now = ops::modularity(g, s.label, gamma);
      if (m == 1) CHECK(now > q);
      else CHECK(now == q);
      if (fresh && moved == 0) CHECK(m == 1);  // the first candidate moves as its check found
      moved += m;
      q = now;
    }
    const community::MoveState again = community::from_labels(g, s.label, gamma);
    for (vertex_t c = 0; c < n; ++c) CHECK(s.tot[std::size_t(c)] == doctest::Approx(again.tot[std::size_t(c)]));
    // The whole list in one call, its classes' weights counted at once,
    // moves the same from a restored start.
    community::MoveState whole = community::from_labels(g, start, gamma);
    CHECK(community::checked_moves(g, whole, candidates, targets, colouring, 1 + trial % 3) == moved);
    if (moved > 0) CHECK(ops::modularity(g, whole.label, gamma) > q_start);
    std::vector<vertex_t> a = whole.label, b = s.label;  // the same partition (ids of new communities aside)
    community::renumber(a);
    community::renumber(b);
    CHECK(a == b);
  }
}

namespace {

// A graph from its rows as given (repeated entries and loops kept).
Csr<double> raw_graph(const std::vector<std::vector<vertex_t>>& rows) {
  Csr<double> g;
  g.n_rows = g.n_cols = vertex_t(rows.size());
  for (const std::vector<vertex_t>& row : rows) {
    for (vertex_t v : row) {
      g.cols.push_back(v);
      g.weights.push_back(1.0);
    }
    g.offsets.push_back(offset_t(g.cols.size()));
  }
  return g;
}

}  // namespace

TEST_CASE("greedy_colouring: the colouring of one pass in vertex order, at any thread count") {
  // Rounds of the vertices whose lower neighbours are all coloured (from
  // rounds_from_threads threads) and the pass that colours the rest must
  // give each vertex the smallest colour its lower neighbours leave free, as
  // one pass in order does: on random graphs with repeated entries and loops
  // (large ones, whose first rounds run on the threads), a path in order
  // and in reverse (rounds of one vertex: the one pass colours them), a star
  // and a graph without edges.
  std::mt19937 rng(7);
  std::vector<std::vector<std::vector<vertex_t>>> graphs;
  for (int i = 0; i < 8; ++i) {
    const vertex_t n = i < 4 ? 1 + vertex_t(rng() % 300) : 20000 + vertex_t(rng() % 20000);
    std::vector<std::vector<vertex_t>> rows(static_cast<std::size_t>(n));
    const std::size_t edges = std::size_t(n) * (1 + i % 4);
    for (std::size_t k = 0; k < edges; ++k) {
      const vertex_t u = vertex_t(rng() % std::uint32_t(n)), v = vertex_t(rng() % std::uint32_t(n));
      rows[std::size_t(u)].push_back(v);
      if (u != v) rows[std::size_t(v)].push_back(u);
      if (k % 7 == 0) {  // a repeated entry
        rows[std::size_t(u)].push_back(v);
        if (u != v) rows[std::size_t(v)].push_back(u);
      }
    }
    graphs.push_back(rows);
  }
  const vertex_t long_path = 50000;
  for (bool reverse : {false, true}) {
    std::vector<std::vector<vertex_t>> rows(static_cast<std::size_t>(long_path));
    for (vertex_t u = 0; u + 1 < long_path; ++u) {
      const vertex_t a = reverse ? long_path - 1 - u : u, b = reverse ? a - 1 : a + 1;
      rows[std::size_t(a)].push_back(b);
      rows[std::size_t(b)].push_back(a);
    }
    graphs.push_back(rows);
  }
  std::vector<std::vector<vertex_t>> star(5000);
  for (vertex_t v = 1; v < 5000; ++v) {
    star[0].push_back(v);
    star[std::size_t(v)].push_back(0);
  }
  graphs.push_back(star);
  graphs.push_back(std::vector<std::vector<vertex_t>>(10));
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    CAPTURE(i);
    const Csr<double> g = raw_graph(graphs[i]);
    std::vector<vertex_t> expected(std::size_t(g.n_rows), no_vertex);
    for (vertex_t u = 0; u < g.n_rows; ++u) {
      std::vector<vertex_t> taken;
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
        if (g.cols[e] < u) taken.push_back(expected[std::size_t(g.cols[e])]);
      vertex_t c = 0;
      while (std::find(taken.begin(), taken.end(), c) != taken.end()) ++c;
      expected[std::size_t(u)] = c;
    }
    for (int threads : {1, 2, community::rounds_from_threads, 2 * community::rounds_from_threads}) {
      const community::Colouring c = community::greedy_colouring(g, threads);
      REQUIRE(c.colour == expected);
      std::size_t listed = 0;
      for (std::size_t k = 0; k < c.classes.size(); ++k) {
        CHECK(!c.classes[k].empty());
        CHECK(std::is_sorted(c.classes[k].begin(), c.classes[k].end()));
        for (vertex_t u : c.classes[k]) CHECK(c.colour[std::size_t(u)] == vertex_t(k));
        listed += c.classes[k].size();
      }
      CHECK(listed == std::size_t(g.n_rows));
      for (vertex_t u = 0; u < g.n_rows; ++u)  // a proper colouring
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
          if (g.cols[e] != u) CHECK(c.colour[std::size_t(u)] != c.colour[std::size_t(g.cols[e])]);
    }
  }
}

TEST_CASE("checked_moves: a target emptied by an earlier move is a community of the vertex's own") {
  // x = 0 alone in C = 0 moves to D (strong ties); u = 1, x's only
  // neighbour, then targets C, empty by then; y = 2, not u's neighbour, then
  // goes alone. C's id is on the free list: u joining it as a target would
  // leave it there, and y going alone would join u (modularity down: they
  // share no edge). u must move to a community of its own, which takes C
  // off the list, and y to another.
  const std::vector<std::vector<std::pair<vertex_t, double>>> rows = {
      {{1, 1}, {2, 1}, {3, 5}, {4, 5}},  // x
      {{0, 1}},                          // u
      {{0, 1}},                          // y
      {{0, 5}, {4, 5}},                  // d1
      {{0, 5}, {3, 5}},                  // d2
      {{6, 1}},                          // a1
      {{5, 1}},                          // a2
      {{8, 1}},                          // b1
      {{7, 1}}};                         // b2
  Csr<double> g;
  g.n_rows = g.n_cols = vertex_t(rows.size());
  for (const auto& row : rows) {
    for (const auto& [v, w] : row) {
      g.cols.push_back(v);
      g.weights.push_back(w);
    }
    g.offsets.push_back(offset_t(g.cols.size()));
  }
  // C = {x}: 0, A = {u, a1, a2}: 1, B = {y, b1, b2}: 2, D = {d1, d2}: 3.
  const std::vector<vertex_t> start = {0, 1, 2, 3, 3, 1, 1, 2, 2};
  std::vector<vertex_t> targets(9, no_vertex);
  targets[0] = 3;  // x to D
  targets[1] = 0;  // u to C
  targets[2] = no_vertex;  // y alone
  const community::Colouring colouring = community::greedy_colouring(g, 1);
  REQUIRE(colouring.colour[0] < colouring.colour[1]);  // x's class first
  REQUIRE(colouring.colour[1] == colouring.colour[2]);  // then u before y
  community::MoveState s = community::from_labels(g, start, 1.0);
  const double before = ops::modularity(g, s.label, 1.0);
  CHECK(community::checked_moves(g, s, {0, 1, 2}, targets, colouring, 1) == 3);
  CHECK(s.label[0] == 3);
  CHECK(s.label[1] != s.label[2]);  // y did not join u
  for (vertex_t v = 3; v < 9; ++v) {
    CHECK(s.label[1] != s.label[std::size_t(v)]);
    CHECK(s.label[2] != s.label[std::size_t(v)]);
  }
  CHECK(ops::modularity(g, s.label, 1.0) > before);
}

TEST_CASE("louvain-omp on R-MAT 2^15: the same partition at 1, 8 and 16 threads (the colouring's rounds, "
          "classes of thousands)") {
  GenOptions go;
  go.seed = 5;
  const Csr<double> g = rmat<double>(1 << 15, go);
  LouvainOptions o;
  o.threads = 1;
  const Communities one = louvain_omp(g, o);
  require_local_optimum(g, one, 1.0);
  for (int threads : {community::rounds_from_threads, 2 * community::rounds_from_threads}) {
    o.threads = threads;
    const Communities many = louvain_omp(g, o);
    CHECK(many.label == one.label);
    CHECK(many.modularity == one.modularity);
  }
}
