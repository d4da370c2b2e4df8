// roma-sparse: hand-made graphs whose best 2-augmentation is known, random
// graphs checked against the exhaustive 2-augmentation search and the
// brute-force optimum, the phases' report, the options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "datasets/generators.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_long.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "matchers/run_matcher.hpp"
#include "tests/check/check.hpp"
#include "tests/check/community_check.hpp"

namespace matchblas {

namespace {

// With length > 2, a run to convergence ends when a phase of each kind in a
// row (2-augmentations, a long pass) finds nothing: on a matching that
// neither search improves.
void check_ends_converged(const RomaRun& run) {
  REQUIRE(run.phases.size() >= 2);
  const RomaPhase& last = run.phases.back();
  const RomaPhase& before = run.phases[run.phases.size() - 2];
  CHECK(last.flips == 0);
  CHECK(before.flips == 0);
  CHECK((last.kernel == "long") != (before.kernel == "long"));
}

// A general graph from (u, v, w) triples (both directions, rows sorted).
Csr<double> graph(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges) {
  return check::graph_from_edges(n, edges);
}

RomaSparseOptions to_convergence() {
  RomaSparseOptions o;
  o.phases = 1000;
  return o;
}

}  // namespace

TEST_CASE("roma-sparse: a path a-b-c-d, greedy's middle edge replaced by the two outer ones") {
  const Csr<double> g = graph(4, {{0, 1, 1.0}, {1, 2, 1.5}, {2, 3, 1.0}});
  REQUIRE(matching_weight(g, greedy(g, 1)) == 1.5);
  const RomaRun run = roma_sparse(g, to_convergence());
  check::require_valid(g, run.matching);
  CHECK(matching_weight(g, run.matching) == 2.0);
  CHECK(run.start_weight == 1.5);
  CHECK(run.phases.front().flips == 1);
  CHECK(run.phases.back().flips == 0);
}

TEST_CASE("roma-sparse: a 4-cycle flipped, and an arm that frees a vertex") {
  // Cycle 0-1-2-3-0: greedy takes (0,1) = 3 and (2,3) = 1; the flip to
  // (1,2) + (3,0) = 5.8 gains 1.8.
  const Csr<double> cycle = graph(4, {{0, 1, 3.0}, {1, 2, 2.9}, {2, 3, 1.0}, {3, 0, 2.9}});
  CHECK(matching_weight(cycle, roma_sparse(cycle, to_convergence()).matching) == doctest::Approx(5.8));
  // A triangle 0-1-2 with a pendant 3 at 2: greedy takes (1,2) = 2.5 and
  // leaves 0 and 3 free; the two arms (1,0) and (2,3), both to free
  // vertices, replace it: 3, the optimum.
  const Csr<double> tri = graph(4, {{0, 1, 2.0}, {1, 2, 2.5}, {0, 2, 0.1}, {2, 3, 1.0}});
  REQUIRE(matching_weight(tri, greedy(tri, 1)) == 2.5);
  const RomaRun run = roma_sparse(tri, to_convergence());
  CHECK(matching_weight(tri, run.matching) == doctest::Approx(3.0));
  CHECK(check::brute_force_max_weight(tri) == doctest::Approx(3.0));
}

TEST_CASE("roma-sparse: random graphs end with no 2-augmentation above the threshold, >= greedy, >= 2/3 optimum") {
  int improved = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed)
    for (int ties : {0, 2}) {
      const vertex_t n = vertex_t(4 + seed % 17);
      const Csr<double> g = check::random_graph(n, 0.3, ties, seed);
      CAPTURE(seed);
      CAPTURE(ties);
      for (RomaSparseStart start : {RomaSparseStart::suitor, RomaSparseStart::empty}) {
        RomaSparseOptions o = to_convergence();
        o.start = start;
        o.seed = seed;
        const RomaRun run = roma_sparse(g, o);
        check::require_valid(g, run.matching);
        const double weight = matching_weight(g, run.matching);
        CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
        const double optimum = check::brute_force_max_weight(g);
        CHECK(weight >= 2.0 / 3.0 * optimum - 1e-9);
        CHECK(weight <= optimum + 1e-9);
        double previous = run.start_weight;  // the weight never falls
        for (const RomaPhase& p : run.phases) {
          CHECK(p.weight >= previous - 1e-12);
          previous = p.weight;
        }
        if (start == RomaSparseStart::suitor) {
          CHECK(run.start_weight == doctest::Approx(matching_weight(g, greedy(g, 1))));
          improved += weight > run.start_weight + 1e-9;
        }
        CHECK(roma_sparse(g, o).matching == run.matching);  // deterministic for a seed
      }
    }
  CHECK(improved > 10);  // the search does something on these graphs
}

TEST_CASE("roma-sparse: without phases it returns its start, where the exhaustive search finds gains") {
  int gaining = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Csr<double> g = check::random_graph(14, 0.35, 0, seed);
    RomaSparseOptions o;
    o.phases = 0;
    const RomaRun run = roma_sparse(g, o);
    CHECK(run.matching == greedy(g, 1));
    CHECK(run.phases.empty());
    gaining += check::largest_2_augmentation(g, run.matching).gain > 1e-9;
  }
  CHECK(gaining > 5);  // the checker can fail: greedy is not locally optimal
}

TEST_CASE("roma-sparse-omp: valid, never lighter, locally optimal at the end, under contention") {
  // Threads beyond the cores (8 on 2 cores) make the lock races likely; a
  // hub joined to every vertex makes many augmentations want the same locks.
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    Csr<double> g = check::random_graph(vertex_t(30 + seed * 7), 0.15, seed % 3, seed);
    CAPTURE(seed);
    for (int threads : {2, 8}) {
      RomaSparseOptions o = to_convergence();
      o.seed = seed;
      const RomaRun run = roma_sparse_omp(g, o, threads);
      check::require_valid(g, run.matching);
      const double weight = matching_weight(g, run.matching);
      CHECK(run.start_weight == doctest::Approx(matching_weight(g, greedy(g, 1))));
      CHECK(weight >= run.start_weight - 1e-12);
      double previous = run.start_weight;
      for (const RomaPhase& p : run.phases) {
        CHECK(p.weight >= previous - 1e-12);
        previous = p.weight;
      }
      CHECK(run.phases.back().flips == 0);
      CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
      if (g.n_rows <= 20) CHECK(weight >= 2.0 / 3.0 * check::brute_force_max_weight(g) - 1e-9);
    }
  }
  std::vector<std::tuple<vertex_t, vertex_t, double>> hub;
  for (vertex_t v = 1; v < 400; ++v) {
    hub.push_back({0, v, 0.5 + double(v % 7) / 10});
    if (v + 1 < 400) hub.push_back({v, v + 1, double((v * 37) % 11) / 10 + 0.05});
  }
  const Csr<double> h = graph(400, hub);
  const RomaRun run = roma_sparse_omp(h, to_convergence(), 8);
  check::require_valid(h, run.matching);
  CHECK(check::largest_2_augmentation(h, run.matching).gain <= 1e-9);
  CHECK(matching_weight(h, run.matching) >= run.start_weight);
}

TEST_CASE("roma-sparse-omp: longer augmentations on the threads, under contention") {
  // The long passes lock up to 2 L + 2 vertices; 8 threads on 2 cores and
  // a hub make the races likely. Every phase only gains, the run ends with a
  // phase of each kind that applies nothing, and no 2-augmentation is left.
  const auto check_run = [](const Csr<double>& g, const RomaRun& run) {
    check::require_valid(g, run.matching);
    double previous = run.start_weight;
    for (const RomaPhase& p : run.phases) {
      CHECK(p.weight >= previous - 1e-12);
      previous = p.weight;
    }
    CHECK(matching_weight(g, run.matching) == doctest::Approx(previous));
    check_ends_converged(run);
    CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
  };
  double sequential = 0, threaded = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(60 + seed * 15), 0.08, seed % 3, seed);
    CAPTURE(seed);
    for (int length : {4, 8}) {
      RomaSparseOptions o = to_convergence();
      o.seed = seed;
      o.length = length;
      const double one = matching_weight(g, roma_sparse(g, o).matching);
      for (int threads : {2, 8}) {
        const RomaRun run = roma_sparse_omp(g, o, threads);
        check_run(g, run);
        sequential += one;
        threaded += matching_weight(g, run.matching);
      }
    }
  }
  // Other orders of the same searches: in total within a percent of the
  // sequential runs' weight.
  CHECK(threaded >= 0.99 * sequential);
  std::vector<std::tuple<vertex_t, vertex_t, double>> hub;
  std::set<std::pair<vertex_t, vertex_t>> seen;
  const auto add = [&](vertex_t u, vertex_t v, double w) {
    if (u != v && seen.insert({std::min(u, v), std::max(u, v)}).second) hub.push_back({u, v, w});
  };
  for (vertex_t v = 1; v < 600; ++v) {
    add(0, v, 0.5 + double(v % 7) / 10);
    add(v, v % 599 + 1, double((v * 37) % 11) / 10 + 0.05);
    add(v, (v * 7) % 599 + 1, double((v * 13) % 17) / 10 + 0.05);
  }
  const Csr<double> h = graph(600, hub);
  RomaSparseOptions o = to_convergence();
  o.length = 6;
  check_run(h, roma_sparse_omp(h, o, 8));
}

TEST_CASE("roma-sparse: longer augmentations never end lighter than 2-augmentations, and leave no improving cycle") {
  // Graphs of degree <= 5, so that no root's search reaches the budget
  // (5 + 25 + 125 added edges at length 3): then no alternating cycle of at
  // most three new edges gains (Lin and Kernighan's rule loses none).
  int tested = 0, heavier = 0;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(12 + seed % 13), 0.18, seed % 3 == 0 ? 3 : 0, seed);
    offset_t degree = 0;
    for (vertex_t v = 0; v < g.n_rows; ++v) degree = std::max(degree, g.degree(v));
    if (degree > 5) continue;
    ++tested;
    CAPTURE(seed);
    RomaSparseOptions o = to_convergence();
    o.seed = seed;
    const double two = matching_weight(g, roma_sparse(g, o).matching);
    o.length = 3;
    const RomaRun run = roma_sparse(g, o);
    check::require_valid(g, run.matching);
    const double weight = matching_weight(g, run.matching);
    CHECK(weight >= two - 1e-12);  // the same phases first, then only gains
    heavier += weight > two + 1e-9;
    double previous = run.start_weight;
    for (const RomaPhase& p : run.phases) {
      CHECK(p.weight >= previous - 1e-12);
      previous = p.weight;
    }
    check_ends_converged(run);
    CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
    CHECK(check::largest_alternating_cycle(g, run.matching, 3) <= 1e-9);
    CHECK(weight <= check::brute_force_max_weight(g) + 1e-9);
    CHECK(roma_sparse(g, o).matching == run.matching);  // deterministic for a seed
    const RomaRun threaded = roma_sparse_omp(g, o, 4);
    check::require_valid(g, threaded.matching);
    CHECK(check::largest_2_augmentation(g, threaded.matching).gain <= 1e-9);
    CHECK(check::largest_alternating_cycle(g, threaded.matching, 3) <= 1e-9);
  }
  CHECK(tested >= 20);
  CHECK(heavier >= 3);  // the longer search finds what 2-augmentations cannot
}

TEST_CASE("roma-sparse: a 6-cycle that no 2-augmentation improves, flipped by length 3") {
  // Greedy takes (0,1) = 2, (2,3) = 1, (4,5) = 1: weight 4, no vertex free,
  // no 4-cycle, and every 2-augmentation loses (the best, (1,2) + (0,5)
  // against all three matching edges, -0.2). The 6-cycle's new edges (1,2),
  // (3,4), (5,0) weigh 4.3: the optimum.
  const Csr<double> g = graph(6, {{0, 1, 2.0}, {1, 2, 1.9}, {5, 0, 1.9}, {2, 3, 1.0}, {4, 5, 1.0}, {3, 4, 0.5}});
  const Matching start = greedy(g, 1);
  REQUIRE(matching_weight(g, start) == doctest::Approx(4.0));
  CHECK(check::largest_2_augmentation(g, start).gain <= 1e-9);
  CHECK(check::largest_alternating_cycle(g, start, 2) == 0);
  CHECK(check::largest_alternating_cycle(g, start, 3) == doctest::Approx(0.3));
  RomaSparseOptions o = to_convergence();
  CHECK(matching_weight(g, roma_sparse(g, o).matching) == doctest::Approx(4.0));
  o.length = 3;
  CHECK(matching_weight(g, roma_sparse(g, o).matching) == doctest::Approx(4.3));
  CHECK(matching_weight(g, roma_sparse_omp(g, o, 2).matching) == doctest::Approx(4.3));
  CHECK(check::brute_force_max_weight(g) == doctest::Approx(4.3));
  // The registry's CPU entries search longer augmentations by default (length
  // 4): the optimum here; length=2 keeps Pettie and Sanders' alone.
  for (const char* name : {"roma-sparse", "roma-sparse-omp"}) {
    CAPTURE(name);
    const MatcherInfo& m = find_matcher(name);
    REQUIRE(m.option("length") != nullptr);
    CHECK(m.option("length")->fallback == "4");
    RunOptions run;
    run.threads = 2;
    CHECK(run_matcher(m, &g, general_graphs, run).report.weight == doctest::Approx(4.3));
    run.options = parse_options(m, {{"length", "2"}});
    CHECK(run_matcher(m, &g, general_graphs, run).report.weight == doctest::Approx(4.0));
  }
  const MatcherInfo& gpu = find_matcher("roma-sparse-gpu");  // the same default, a shorter stack
  REQUIRE(gpu.option("length") != nullptr);
  CHECK(gpu.option("length")->fallback == "4");
  CHECK(gpu.option("length")->hi == roma_sparse_gpu_max_length);
}

TEST_CASE("roma-sparse: the phase schedule") {
  // Length 2: phases until one finds nothing.
  roma_sparse_detail::PhaseSchedule two(false);
  CHECK(!two.long_pass());
  CHECK(two.next(5));
  CHECK(two.next(1));
  CHECK(!two.long_pass());
  CHECK(!two.next(0));
  // Longer: one 2-augmentation phase, long passes while they find some, then
  // 2-augmentations again, ..., until a phase of each kind in a row finds none.
  roma_sparse_detail::PhaseSchedule longer(true);
  const std::vector<std::pair<std::int64_t, bool>> phases = {
      {7, false}, {3, true}, {0, true}, {2, false}, {0, false}, {1, true}, {0, true}, {0, false}};
  for (std::size_t i = 0; i < phases.size(); ++i) {
    CAPTURE(i);
    CHECK(longer.long_pass() == phases[i].second);
    CHECK(longer.next(phases[i].first) == (i + 1 < phases.size()));
  }
  // A first phase without augmentations: the long passes next; none there either: the end.
  roma_sparse_detail::PhaseSchedule quiet(true);
  CHECK(quiet.next(0));
  CHECK(quiet.long_pass());
  CHECK(!quiet.next(0));
}

TEST_CASE("roma-sparse: edge weights by binary search, and the long search's lists") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(5 + seed), 0.1 + 0.03 * double(seed % 20), 0, seed);
    CAPTURE(seed);
    for (vertex_t a = 0; a < g.n_rows; ++a)
      for (vertex_t b = 0; b < g.n_rows; ++b) {
        double want = std::numeric_limits<double>::quiet_NaN();
        for (offset_t e = g.offsets[a]; e < g.offsets[a + 1]; ++e)
          if (g.cols[e] == b) want = g.weights[e];
        const double got = roma_sparse_detail::edge_weight(g, a, b);
        if (std::isnan(want)) CHECK(std::isnan(got));
        else CHECK(got == want);
      }
  }
  // A hub of degree 599: its list keeps the 256 heaviest (no search reads
  // more of a row), in the greedy order; on 1 thread or 3, the same lists.
  std::vector<std::tuple<vertex_t, vertex_t, double>> hub;
  for (vertex_t v = 1; v < 600; ++v) hub.push_back({0, v, double((v * 37) % 101)});
  const Csr<double> h = graph(600, hub);
  const roma_sparse_detail::LongAugmentations<double> one(h, 4, 0, 1), three(h, 4, 0, 3);
  REQUIRE(one.lists().degree(0) == roma_sparse_detail::long_search_budget);
  CHECK(one.lists().cols == three.lists().cols);
  CHECK(one.lists().weights == three.lists().weights);
  for (offset_t e = one.lists().offsets[0] + 1; e < one.lists().offsets[1]; ++e) {
    const double before = one.lists().weights[e - 1], here = one.lists().weights[e];
    CHECK((before > here || (before == here && one.lists().cols[e - 1] < one.lists().cols[e])));
  }
  double lightest_kept = one.lists().weights[one.lists().offsets[1] - 1];
  int heavier = 0;  // the edges left out weigh no more than the lightest kept
  for (offset_t e = h.offsets[0]; e < h.offsets[1]; ++e) heavier += h.weights[e] > lightest_kept;
  CHECK(heavier <= roma_sparse_detail::long_search_budget);
  CHECK(one.lists().degree(1) == 1);
}

TEST_CASE("roma-sparse: bounded candidate lists, checked against lists built here") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Csr<double> g = check::random_graph(vertex_t(10 + seed % 15), 0.4, seed % 2 ? 2 : 0, seed);
    CAPTURE(seed);
    for (int k : {1, 2, 3}) {
      CAPTURE(k);
      // Each vertex's k heaviest neighbours: heavier first, then smaller index.
      Csr<double> lists;
      lists.n_rows = lists.n_cols = g.n_rows;
      for (vertex_t v = 0; v < g.n_rows; ++v) {
        std::vector<std::pair<double, vertex_t>> row;
        for (offset_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) row.push_back({-g.weights[e], g.cols[e]});
        std::sort(row.begin(), row.end());
        row.resize(std::min(row.size(), std::size_t(k)));
        std::sort(row.begin(), row.end(), [](auto a, auto b) { return a.second < b.second; });
        for (const auto& [w, x] : row) {
          lists.cols.push_back(x);
          lists.weights.push_back(-w);
        }
        lists.offsets.push_back(offset_t(lists.cols.size()));
      }
      for (int threads : {1, 3}) {  // the rows built on one thread or several: the same lists
        const Csr<double> built =
            roma_sparse_detail::candidate_lists(g, k, roma_sparse_detail::CandidateOrder::column, threads);
        CHECK(built.offsets == lists.offsets);
        CHECK(built.cols == lists.cols);
        CHECK(built.weights == lists.weights);
      }
      RomaSparseOptions o = to_convergence();
      o.seed = seed;
      o.candidates = k;
      for (int threads : {0, 3}) {
        const RomaRun run = threads == 0 ? roma_sparse(g, o) : roma_sparse_omp(g, o, threads);
        check::require_valid(g, run.matching);
        CHECK(matching_weight(g, run.matching) >= run.start_weight - 1e-12);
        CHECK(check::largest_2_augmentation(g, run.matching, &lists).gain <= 1e-9);
      }
    }
  }
}

TEST_CASE("roma-sparse: float weights, a star, the empty graph, bad options") {
  const Csr<double> g = check::random_graph(30, 0.2, 0, 5);
  const Csr<float> f = check::with_weights<float>(g);
  check::require_valid(f, roma_sparse(f, to_convergence()).matching);
  // A star: one centre, 50 leaves: one edge, the heaviest.
  std::vector<std::tuple<vertex_t, vertex_t, double>> star;
  for (vertex_t v = 1; v <= 50; ++v) star.push_back({0, v, double(v)});
  const Csr<double> s = graph(51, star);
  CHECK(matching_weight(s, roma_sparse(s, to_convergence()).matching) == 50.0);
  CHECK(roma_sparse(graph(0, {}), to_convergence()).matching.mate.empty());
  RomaSparseOptions bad;
  bad.phases = -1;
  CHECK_THROWS_AS(roma_sparse(g, bad), invalid_input);
  CHECK_THROWS_AS(roma_sparse_omp(g, bad, 2), invalid_input);
  RomaSparseOptions short_length;
  short_length.length = 1;
  CHECK_THROWS_AS(roma_sparse(g, short_length), invalid_input);
  RomaSparseOptions negative_lists;
  negative_lists.candidates = -1;
  CHECK_THROWS_AS(roma_sparse_omp(g, negative_lists, 2), invalid_input);
  RomaSparseOptions longer = to_convergence();
  longer.length = 4;
  check::require_valid(f, roma_sparse(f, longer).matching);
  CHECK(matching_weight(s, roma_sparse(s, longer).matching) == 50.0);
  check::require_valid(f, roma_sparse_omp(f, to_convergence(), 2).matching);
  CHECK_THROWS_AS(parse_roma_sparse_start("neighbour"), invalid_input);
  CHECK(to_string(parse_roma_sparse_start("empty")) == "empty");
}

TEST_CASE("candidate lists in the greedy order: heavier first, then the smaller column, signed weights and zeros") {
  // Row 0 holds ties, negative weights and both zeros; the lists compare
  // weights as numbers (-0 and +0 tie, so the smaller column goes first).
  const Csr<double> g = graph(8, {{0, 1, 2.0}, {0, 2, -1.5}, {0, 3, -0.0}, {0, 4, 0.0}, {0, 5, 2.0}, {0, 6, 1e300},
                                  {0, 7, -1e-300}, {1, 2, 0.5}, {3, 4, -0.0}});
  for (int k : {0, 3}) {
    for (int threads : {1, 2}) {
      const Csr<double> built =
          roma_sparse_detail::candidate_lists(g, k, roma_sparse_detail::CandidateOrder::greedy, threads);
      for (vertex_t v = 0; v < g.n_rows; ++v) {
        std::vector<std::pair<double, vertex_t>> row;
        for (offset_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) row.push_back({g.weights[e], g.cols[e]});
        std::sort(row.begin(), row.end(),
                  [](const auto& a, const auto& b) { return neighbour_beats(a.first, a.second, b.first, b.second); });
        if (k > 0) row.resize(std::min(row.size(), std::size_t(k)));
        REQUIRE(built.offsets[v + 1] - built.offsets[v] == offset_t(row.size()));
        for (std::size_t i = 0; i < row.size(); ++i) {
          CHECK(built.cols[std::size_t(built.offsets[v]) + i] == row[i].second);
          CHECK(built.weights[std::size_t(built.offsets[v]) + i] == row[i].first);  // -0 == +0
        }
      }
      CHECK(built.cols[0] == 6);  // 1e300
      CHECK(built.cols[1] == 1);  // 2.0 at column 1 before 2.0 at column 5
    }
  }
}

TEST_CASE("roma-sparse-omp on graphs of several scan blocks: greedy's start, every phase gains, converged") {
  // More than 2^16 vertices, so that the phases' vertex lists, the long
  // passes' roots, the changed vertices and the reported weights are found
  // block by block on the threads (lib/parallel_scan.hpp), and the start is
  // Suitor with compare-and-swap offers.
  for (int ties : {0, 3}) {
    GenOptions gen;
    gen.edge_factor = 3;
    gen.ties = ties;
    gen.seed = std::uint64_t(5 + ties);
    const Csr<double> g = erdos_renyi<double>(3 * 65536 + 77, gen);
    const double greedy_weight = matching_weight(g, greedy(g, 1));
    for (int threads : {1, 3}) {
      CAPTURE(ties);
      CAPTURE(threads);
      RomaSparseOptions o = to_convergence();
      o.length = 4;
      const RomaRun run = roma_sparse_omp(g, o, threads);
      check::require_valid(g, run.matching);
      CHECK(run.start_weight == doctest::Approx(greedy_weight).epsilon(1e-12));
      double previous = run.start_weight;
      for (const RomaPhase& p : run.phases) {
        CHECK(p.weight >= previous * (1 - 1e-12));
        previous = p.weight;
      }
      CHECK(matching_weight(g, run.matching) == doctest::Approx(previous).epsilon(1e-12));
      check_ends_converged(run);
      CHECK(check::largest_2_augmentation(g, run.matching).gain <= 1e-9);
      CHECK(run.phases.front().scanned >= std::int64_t(g.n_rows));  // phase 0: every vertex (and the retries)
    }
  }
}

}  // namespace matchblas
