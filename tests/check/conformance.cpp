#include "tests/check/conformance.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "lib/marriage_instance.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "tests/check/bipartite_reference.hpp"
#include "tests/check/check.hpp"
#include "tests/check/community_check.hpp"
#include "tests/check/families.hpp"
#include "tests/check/four_cycles.hpp"

namespace matchblas::check {

namespace {

// Above this many stored entries the LEMON optimum is not computed (about a
// second of work; the demo's measurement).
constexpr offset_t exact_max_entries = 200000;

RunOptions with_threads(int threads) {
  RunOptions o;
  o.threads = threads;
  return o;
}

// ---- matchings of sparse graphs ---------------------------------------------

// The optimum of g where it can be had independently of the matchers under
// test: brute force up to 20 vertices, else LEMON (when built) up to
// exact_max_entries. Kept by the graph's name (for_each_test_graph's names
// say how each graph was made), so each is computed once per test run.
std::optional<double> sparse_optimum(const std::string& name, const Csr<double>& g) {
  static std::map<std::string, std::optional<double>> known;
  if (const auto it = known.find(name); it != known.end()) return it->second;
  std::optional<double> optimum;
  if (g.n_rows <= 20) optimum = brute_force_max_weight(g);
  else if (have_exact() && offset_t(g.cols.size()) <= exact_max_entries) optimum = matching_weight(g, exact_matching(g));
  known[name] = optimum;
  return optimum;
}

void check_sparse_matching(const MatcherInfo& m) {
  FamilyOptions families;
  families.random_graphs = 82;  // every n of 0..40 twice, all tie levels
  // Entries with phases run to convergence (a phase without augmentations
  // ends ROMA), so the local optimality the guarantee rests on can be checked.
  std::map<std::string, std::string> given;
  if (m.option("phases")) given["phases"] = "100000";
  const OptionValues options = parse_options(m, given);
  for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        const int threads = m.device == Device::cpu ? 2 : 0;
        RunOptions run = with_threads(threads);
        run.options = options;
        const Matching got = run_matching(m, &g, run);
        require_valid(g, got);
        if (m.deterministic && m.device == Device::cpu) {
          run.threads = 1;
          REQUIRE(run_matching(m, &g, run) == got);
        }
        const double weight = matching_weight(g, got);
        if (m.guarantee == "greedy") {
          require_equals_greedy(g, got, greedy(g, 1));
        } else if (m.guarantee == "maximal") {
          CHECK(is_maximal(g, got));
        } else if (m.guarantee == "1/2") {
          const std::optional<double> optimum = sparse_optimum(name, g);
          const double bound = optimum ? *optimum : matching_weight(g, greedy(g, 1));  // greedy <= the optimum
          CAPTURE(bound);
          CHECK(weight >= 0.5 * bound - 1e-9 * std::max(1.0, bound));
        } else if (m.guarantee == "exact") {
          if (g.n_rows <= 20) CHECK(weight == doctest::Approx(brute_force_max_weight(g)).epsilon(1e-12));
          CHECK(weight >= matching_weight(g, greedy(g, 1)) - 1e-9 * std::max(1.0, weight));
        } else if (m.guarantee == "2/3-eps") {
          // Locally optimal: no 2-augmentation above the threshold, so at
          // least 2/3 of the optimum less the threshold per matched edge;
          // from Suitor's start, never below greedy.
          double largest = 0;
          for (double x : g.weights) largest = std::max(largest, x);
          const double threshold = options.real("min-gain") * largest;
          if (g.n_rows <= 60) {
            const TwoAugmentation best = largest_2_augmentation(g, got);
            INFO("centre ", best.centre, ": new edges to ", best.x, " and ", best.y, " gain ", best.gain);
            CHECK(best.gain <= threshold + 1e-9);
          }
          if (const std::optional<double> optimum = sparse_optimum(name, g))
            CHECK(weight >= 2.0 / 3.0 * *optimum - g.n_rows * threshold - 1e-9 * std::max(1.0, *optimum));
          if (!options.takes("start") || options.word("start") == "suitor")
            CHECK(weight >= matching_weight(g, greedy(g, 1)) - 1e-9 * std::max(1.0, weight));
        } else {
          FAIL("no conformance check for guarantee '" << m.guarantee << "' on sparse graphs");
        }
      },
      families);
}

// ---- matchings of complete graphs -------------------------------------------

// Fails unless no two edges (a, b), (c, d) of the perfect matching m of g
// can be exchanged for (a, c), (b, d) or (a, d), (b, c) gaining more than
// `min_gain` (plus rounding).
void require_no_gaining_4_cycle(const Dense<double>& g, const Matching& m, double min_gain) {
  std::vector<vertex_t> firsts;
  for (vertex_t u = 0; u < g.n; ++u)
    if (m.mate[u] > u) firsts.push_back(u);
  const double slack = min_gain + 1e-9;
  for (std::size_t i = 0; i < firsts.size(); ++i)
    for (std::size_t j = i + 1; j < firsts.size(); ++j) {
      const vertex_t a = firsts[i], b = m.mate[a], c = firsts[j], d = m.mate[c];
      const double now = g(a, b) + g(c, d);
      const double gain = std::max(g(a, c) + g(b, d), g(a, d) + g(b, c)) - now;
      if (gain > slack) {
        INFO("edges (", a, ", ", b, ") and (", c, ", ", d, ") can be exchanged gaining ", gain);
        REQUIRE(gain <= slack);
      }
    }
}

void check_complete_matching(const MatcherInfo& m) {
  // Complete graphs: random ones (brute-force optimum) and generated ones
  // of each weight distribution (LEMON's optimum where built).
  std::vector<std::pair<std::string, Dense<double>>> graphs;
  for (vertex_t n : {0, 1, 2, 3, 4, 5, 7, 8, 11, 12, 16})
    for (int ties : {0, 1, 3}) {
      const std::uint64_t seed = 500 + 10 * n + ties;
      graphs.emplace_back("random complete n=" + std::to_string(n) + " ties=" + std::to_string(ties) +
                              " seed=" + std::to_string(seed),
                          random_complete_graph(n, ties, seed));
    }
  for (WeightDist dist : {WeightDist::uniform, WeightDist::exponential, WeightDist::geometric})
    for (vertex_t n : {65, 200}) {
      GenOptions gen;
      gen.seed = 9;
      graphs.emplace_back("complete dist=" + std::to_string(int(dist)) + " n=" + std::to_string(n),
                          complete_graph<double>(dist, n, gen));
    }
  // Entries with phases run to convergence (a phase without flips ends
  // ROMA), so the local optimality the guarantee rests on can be checked.
  std::map<std::string, std::string> given;
  if (m.option("phases")) given["phases"] = "100000";
  RunOptions run;
  run.options = parse_options(m, given);
  const double min_gain = m.option("min-gain") ? run.options.real("min-gain") : 0;
  for (const auto& [name, g] : graphs) {
    CAPTURE(name);
    const Matching got = run_matching(m, &g, run);
    require_valid(g, got);
    if (m.deterministic && m.device == Device::cpu) {
      RunOptions again = run;
      again.threads = 1;
      REQUIRE(run_matching(m, &g, again) == got);
    }
    const double weight = matching_weight(g, got);
    std::optional<double> optimum;
    if (g.n <= 16) optimum = brute_force_max_weight(g, /*perfect=*/g.n % 2 == 0);
    else if (have_exact()) optimum = matching_weight(g, exact_complete_matching(g));
    if (m.guarantee == "greedy") {
      CHECK(got == greedy(g, 1));
    } else if (m.guarantee == "exact") {
      REQUIRE(optimum);
      CHECK(weight == doctest::Approx(*optimum).epsilon(1e-12));
    } else if (m.guarantee == "1/2") {
      if (optimum) CHECK(weight >= 0.5 * *optimum - 1e-9);
    } else if (m.guarantee == "2/3-eps") {
      CHECK(cardinality(got) == g.n / 2);
      require_no_gaining_4_cycle(g, got, min_gain);
      if (optimum) CHECK(weight >= 2.0 / 3.0 * *optimum - g.n * min_gain - 1e-9);
    } else {
      FAIL("no conformance check for guarantee '" << m.guarantee << "' on complete graphs");
    }
  }
}

// ---- b-matchings ---------------------------------------------------------------

void check_b_matching(const MatcherInfo& m) {
  REQUIRE(m.guarantee == "b-greedy");
  FamilyOptions families;
  families.random_graphs = 41;
  int graph_index = 0;
  for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        std::mt19937_64 rng(77 + graph_index++);
        std::vector<std::vector<int>> bs = {constant_b(g.n_rows, 1), constant_b(g.n_rows, 3)};
        std::vector<int> mixed(std::size_t(g.n_rows));
        for (int& b : mixed) b = int(rng() % 4);  // 0..3, zeros included
        bs.push_back(mixed);
        for (const std::vector<int>& b : bs) {
          const int threads = m.device == Device::cpu ? 2 : 0;
          const BMatching got = run_b_matching(m, &g, b, with_threads(threads));
          const std::string why = b_matching_violation(g, b, got);
          INFO("b_matching_violation: ", why);
          REQUIRE(why.empty());
          REQUIRE(got == b_greedy(g, b));
          if (m.deterministic && m.device == Device::cpu) REQUIRE(run_b_matching(m, &g, b, with_threads(1)) == got);
        }
      },
      families);
}

// ---- stable marriages ---------------------------------------------------------

// Every stable matching of a small instance (backtracking over the men's
// acceptable women, each kept when marriage_violation finds no problem).
std::vector<Marriage> all_stable(const MarriageInstance& inst) {
  std::vector<Marriage> stable;
  Marriage cur{std::vector<vertex_t>(std::size_t(inst.men), no_vertex),
               std::vector<vertex_t>(std::size_t(inst.women), no_vertex)};
  std::function<void(vertex_t)> place = [&](vertex_t man) {
    if (man == inst.men) {
      if (marriage_violation(inst, cur).empty()) stable.push_back(cur);
      return;
    }
    place(man + 1);  // unmatched
    for (offset_t k = inst.men_offsets[man]; k < inst.men_offsets[man + 1]; ++k) {
      const vertex_t w = inst.men_lists[k];
      if (cur.husband[w] != no_vertex) continue;
      cur.wife[man] = w;
      cur.husband[w] = man;
      place(man + 1);
      cur.wife[man] = cur.husband[w] = no_vertex;
    }
  };
  place(0);
  return stable;
}

// Fails unless `got` is stable and gives every man the best wife he has in
// any stable matching of inst.
void require_man_optimal(const MarriageInstance& inst, const Marriage& got) {
  const std::string why = marriage_violation(inst, got);
  INFO("marriage_violation: ", why);
  REQUIRE(why.empty());
  const auto rank = [&](vertex_t man, vertex_t w) {  // position in his list; unmatched is worst
    for (offset_t k = inst.men_offsets[man]; k < inst.men_offsets[man + 1]; ++k)
      if (inst.men_lists[k] == w) return k - inst.men_offsets[man];
    return offset_t(inst.women) + 1;
  };
  for (const Marriage& other : all_stable(inst))
    for (vertex_t man = 0; man < inst.men; ++man) {
      CAPTURE(man);
      REQUIRE(rank(man, got.wife[man]) <= rank(man, other.wife[man]));
    }
}

void check_marriage(const MatcherInfo& m) {
  REQUIRE(m.guarantee == "man-optimal");
  const RunOptions run = with_threads(m.device == Device::cpu ? 2 : 0);
  for (int i = 0; i < 120; ++i) {
    const vertex_t men = vertex_t(i % 7), women = vertex_t((i / 7) % 7);
    const MarriageInstance inst = independent_marriage_lists(men, women, 0.2 + 0.1 * (i % 8), 300 + i);
    CAPTURE(i);
    require_man_optimal(inst, run_marriage(m, rank_lists(inst), run));
  }
  for (vertex_t n : {0, 1, 100, 2000})
    for (double eps : {0.1, 2.0}) {
      const MarriageInstance inst = easy_marriage(n, eps, 11 + n);
      CAPTURE(n);
      CAPTURE(eps);
      const RankedLists p = rank_lists(inst);
      const Marriage got = run_marriage(m, p, run);
      const std::string why = marriage_violation(inst, got);
      INFO("marriage_violation: ", why);
      REQUIRE(why.empty());
      CHECK(got == gale_shapley(p));
      if (m.deterministic && m.device == Device::cpu) CHECK(run_marriage(m, p, with_threads(1)) == got);
    }
}

// Bipartite entries on random matrices of every shape and rank, with ties
// and explicit zeros: a valid matching of maximum cardinality (Kuhn's
// algorithm), then the guarantee's objective against the brute-force
// bottleneck or the dense Hungarian reference (bipartite_reference.hpp);
// "approximate" (job 4): at most the optimum, and no 4-cycle gaining more
// than min-gain times the weight (four_cycles.hpp). Deterministic OpenMP
// entries give the same mates at 1 and 2 threads.
void check_bipartite(const MatcherInfo& m) {
  REQUIRE(m.job >= 1);
  REQUIRE(m.job <= 5);
  if (m.guarantee != "cardinality" && m.guarantee != "bottleneck" && m.guarantee != "exact" &&
      m.guarantee != "approximate")
    FAIL("no conformance check for guarantee '" << m.guarantee << "' on bipartite matrices");
  // Entries with rounds run to convergence, so that the local optimality
  // "approximate" rests on can be checked.
  std::map<std::string, std::string> given;
  if (m.option("max-rounds")) given["max-rounds"] = "1000000000";
  RunOptions run = with_threads(m.threaded ? 2 : 0);
  run.options = parse_options(m, given);
  const double min_gain = m.option("min-gain") ? run.options.real("min-gain") : 0;
  std::mt19937 rng(1964);
  for (int i = 0; i < 240; ++i) {
    // 200 small ones (every shape and rank), then 40 up to 80 x 80.
    const vertex_t span = i < 200 ? 10 : 81;
    const vertex_t rows = vertex_t(rng() % span), cols = vertex_t(rng() % span);
    const double density = i < 200 ? 0.1 + 0.1 * (i % 7) : 0.02 + 0.03 * (i % 5);
    Csr<double> a = random_matrix(rows, cols, density, i % 2 ? 3 : 0, 500 + i);
    if (i % 5 == 0)
      for (std::size_t k = 0; k < a.weights.size(); k += 3) a.weights[k] = 0;  // explicit zeros
    CAPTURE(i);
    CAPTURE(rows);
    CAPTURE(cols);
    const PrepassResult r = run_prepass(m, a, run);
    std::vector<char> col_used(cols, 0);
    vertex_t count = 0;
    double sum = 0;  // of the matched |a_ij|, for job 4's objective
    for (vertex_t u = 0; u < rows; ++u) {
      const vertex_t v = r.mates.row_mate[u];
      if (v < 0) continue;
      ++count;
      const auto row = a.row_cols(u);
      const auto at = std::find(row.begin(), row.end(), v);
      REQUIRE(at != row.end());
      sum += std::fabs(a.row_weights(u)[std::size_t(at - row.begin())]);
      REQUIRE(!col_used[v]);
      col_used[v] = 1;
      REQUIRE(r.mates.col_mate[v] == u);
    }
    REQUIRE(count == r.mates.matched);
    REQUIRE(count == bipartite_rank(a));
    if (m.deterministic && m.threaded) {
      RunOptions one = run;
      one.threads = 1;
      REQUIRE(run_prepass(m, a, one).mates.row_mate == r.mates.row_mate);
    }
    if (m.guarantee == "bottleneck") CHECK(r.min_matched_abs == bottleneck_value(a));
    if (m.guarantee == "exact") {
      REQUIRE((m.job == 4 || m.job == 5));
      const auto [best_count, best] = best_bipartite(a, m.job);
      CHECK(best_count == count);
      if (std::isfinite(best)) CHECK(r.objective == doctest::Approx(best).epsilon(1e-12));
      else CHECK(r.objective == best);
    }
    if (m.guarantee == "approximate") {
      REQUIRE(m.job == 4);
      CHECK(r.objective == doctest::Approx(sum).epsilon(1e-12));
      const auto [best_count, best] = best_bipartite(a, 4);
      CHECK(best_count == count);
      const double slack = 1e-9 * std::max(1.0, best);
      CHECK(r.objective <= best + slack);
      const FourCycle c = largest_4_cycle(a, r.mates.row_mate);
      INFO("rows ", c.row, " and ", c.other, " can exchange their columns gaining ", c.gain);
      CHECK(c.gain <= min_gain * r.objective + slack);
    }
  }
}

// Community entries on the test families (every graph symmetric with
// positive weights, no loops) and on their graphs with a loop added to
// every third vertex, at two resolutions: a valid partition with the
// modularity it reports, no improving vertex move ("local optimum"), and
// for deterministic CPU entries the same labels at 1 and 2 threads.
void check_community(const MatcherInfo& m) {
  REQUIRE(m.guarantee == "local optimum");
  FamilyOptions families;
  families.random_graphs = 40;
  for (const char* resolution : {"1", "2.5"}) {
    const OptionValues options = parse_options(m, {{"resolution", resolution}});
    const double gamma = std::stod(resolution);
    for_each_test_graph(
        [&](const std::string& name, const Csr<double>& plain) {
          for (bool loops : {false, true}) {
            Csr<double> g = plain;
            if (loops) {  // a loop of weight 1.5 on every third vertex, rows kept sorted
              Csr<double> l;
              l.n_rows = l.n_cols = g.n_rows;
              for (vertex_t u = 0; u < g.n_rows; ++u) {
                bool placed = u % 3 != 0;
                for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
                  if (!placed && g.cols[e] > u) {
                    l.cols.push_back(u);
                    l.weights.push_back(1.5);
                    placed = true;
                  }
                  l.cols.push_back(g.cols[e]);
                  l.weights.push_back(g.weights[e]);
                }
                if (!placed) {
                  l.cols.push_back(u);
                  l.weights.push_back(1.5);
                }
                l.offsets.push_back(offset_t(l.cols.size()));
              }
              g = std::move(l);
            }
            CAPTURE(name);
            CAPTURE(loops);
            CAPTURE(resolution);
            RunOptions run = with_threads(m.device == Device::cpu ? 2 : 0);
            run.options = options;
            const Communities got = run_community(m, g, run);
            require_local_optimum(g, got, gamma);
            if (m.deterministic && m.device == Device::cpu) {
              run.threads = 1;
              REQUIRE(run_community(m, g, run).label == got.label);
            }
          }
        },
        families);
  }
}

void check_matching(const MatcherInfo& m) {
  if (m.accepts(general_graphs)) check_sparse_matching(m);
  if (m.accepts(complete_graphs)) check_complete_matching(m);
}

}  // namespace

void require_conformance(const MatcherInfo& m) {
  INFO("registry entry '", m.name, "' (guarantee ", m.guarantee, ")");
  REQUIRE(!m.unavailable);
  // One checker per problem; a new problem adds its row (and a problem
  // without one fails here, as a guarantee without a check fails in its
  // checker).
  static const std::map<Problem, void (*)(const MatcherInfo&)> checkers = {
      {Problem::matching, check_matching},
      {Problem::b_matching, check_b_matching},
      {Problem::marriage, check_marriage},
      {Problem::bipartite, check_bipartite},
      {Problem::community, check_community},
  };
  const auto it = checkers.find(m.problem);
  if (it == checkers.end()) FAIL("no conformance check for problem '" << to_string(m.problem) << "'");
  it->second(m);
}

}  // namespace matchblas::check
