// Stable marriage (matchers/marriage/stable_marriage.hpp, datasets/marriage.hpp):
// Gale-Shapley, McVitie-Wilson and the OpenMP McVitie-Wilson (1, 2, 8
// threads, repeated) return the same matching, which the independent checker
// finds stable and which is man-optimal (brute force over all matchings for
// n <= 6); identical preferences give what their explicit instance gives;
// greedy matching as SMI (F. Manne, M. Naim, H. Lerring, M. Halappanavar,
// "On stable marriages and greedy matching", SIAM Workshop on Combinatorial
// Scientific Computing (CSC) 2016, Lemma 3.1) gives exactly greedy's
// matching; the text format round-trips and bad files are one parse_error.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "ops/select.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// Random SMI with mutual lists: each pair acceptable with probability p.
MarriageInstance random_instance(vertex_t men, vertex_t women, double p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<vertex_t>> ml(men), wl(women);
  for (vertex_t m = 0; m < men; ++m)
    for (vertex_t w = 0; w < women; ++w)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < p) {
        ml[m].push_back(w);
        wl[w].push_back(m);
      }
  MarriageInstance inst;
  inst.men = men;
  inst.women = women;
  for (auto& l : ml) {
    std::shuffle(l.begin(), l.end(), rng);
    inst.men_lists.insert(inst.men_lists.end(), l.begin(), l.end());
    inst.men_offsets.push_back(offset_t(inst.men_lists.size()));
  }
  for (auto& l : wl) {
    std::shuffle(l.begin(), l.end(), rng);
    inst.women_lists.insert(inst.women_lists.end(), l.begin(), l.end());
    inst.women_offsets.push_back(offset_t(inst.women_lists.size()));
  }
  return inst;
}

// All algorithms agree and the result is stable; returns it.
Marriage require_all_agree(const MarriageInstance& inst) {
  const RankedLists p = rank_lists(inst);
  const Marriage gs = gale_shapley(p);
  INFO(marriage_violation(inst, gs));
  REQUIRE(marriage_violation(inst, gs).empty());
  REQUIRE(mcvitie_wilson(p) == gs);
  for (int threads : {1, 2, 8}) {
    CAPTURE(threads);
    REQUIRE(mcvitie_wilson_omp(p, threads) == gs);
    REQUIRE(gale_shapley_omp(p, threads) == gs);
  }
  return gs;
}

// Man-optimal: no stable matching gives any man a wife he ranks higher
// (brute force over every matching of a tiny instance).
void require_man_optimal(const MarriageInstance& inst, const Marriage& best) {
  std::vector<vertex_t> wife(inst.men, no_vertex), husband(inst.women, no_vertex);
  const auto rank_of = [&](vertex_t m, vertex_t w) {
    for (offset_t k = inst.men_offsets[m]; k < inst.men_offsets[m + 1]; ++k)
      if (inst.men_lists[k] == w) return k - inst.men_offsets[m];
    return offset_t(1) << 40;  // single
  };
  std::function<void(vertex_t)> search = [&](vertex_t m) {
    if (m == inst.men) {
      const Marriage cand{wife, husband};
      if (!marriage_violation(inst, cand).empty()) return;
      for (vertex_t x = 0; x < inst.men; ++x) REQUIRE(rank_of(x, best.wife[x]) <= rank_of(x, wife[x]));
      return;
    }
    search(m + 1);  // m single
    for (offset_t k = inst.men_offsets[m]; k < inst.men_offsets[m + 1]; ++k) {
      const vertex_t w = inst.men_lists[k];
      if (husband[w] != no_vertex) continue;
      wife[m] = w;
      husband[w] = m;
      search(m + 1);
      wife[m] = husband[w] = no_vertex;
    }
  };
  search(0);
}

}  // namespace

TEST_CASE("the proposal algorithms agree, are stable and man-optimal on random SM and SMI") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const vertex_t men = vertex_t(seed % 7), women = vertex_t((seed / 7) % 7);
    const double p = seed % 3 == 0 ? 1.0 : 0.5;  // SM (complete) or SMI
    const MarriageInstance inst = random_instance(men, women, p, seed);
    const Marriage m = require_all_agree(inst);
    if (men <= 6 && women <= 6) require_man_optimal(inst, m);
  }
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    require_all_agree(random_instance(300, 250, 0.05, seed));
    require_all_agree(easy_marriage(vertex_t(500 + seed), 0.1 * double(seed % 4), seed));
  }
}

TEST_CASE("lists that are not mutual: rank_lists purges, and the result is stable for mutual acceptability") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    const vertex_t men = vertex_t(1 + seed % 6), women = vertex_t(1 + (seed / 6) % 6);
    // Each side lists independently: a random subset in random order.
    const MarriageInstance inst = check::independent_marriage_lists(men, women, 0.5, seed);
    const RankedLists p = rank_lists(inst);
    for (vertex_t m = 0; m < men; ++m)
      for (offset_t k = p.offsets[m]; k < p.offsets[m + 1]; ++k) {
        const vertex_t w = p.woman[k];
        const auto first = inst.women_lists.begin() + inst.women_offsets[w];
        const auto last = inst.women_lists.begin() + inst.women_offsets[w + 1];
        const auto at = std::find(first, last, m);
        REQUIRE(at != last);                  // kept only when she lists him
        CHECK(p.her_rank[k] == at - first);   // with her rank of him
      }
    const Marriage r = require_all_agree(inst);
    require_man_optimal(inst, r);
  }
}

TEST_CASE("identical preferences (hard instances) give what their explicit instance gives") {
  for (vertex_t n : {0, 1, 2, 3, 50, 300}) {
    CAPTURE(n);
    const IdenticalPreferences hard = hard_marriage(n, 7);
    const MarriageInstance inst = explicit_instance(hard);
    const Marriage expected = require_all_agree(inst);
    CHECK(gale_shapley(hard) == expected);
    CHECK(mcvitie_wilson(hard) == expected);
    for (int threads : {1, 2, 8}) {
      CHECK(mcvitie_wilson_omp(hard, threads) == expected);
      CHECK(gale_shapley_omp(hard, threads) == expected);
    }
  }
  IdenticalPreferences bad = hard_marriage(5, 1);
  bad.man_rank[0] = bad.man_rank[1];
  CHECK_THROWS_AS(gale_shapley(bad), invalid_input);
}

TEST_CASE("greedy matching as SMI (Manne et al. 2016, Lemma 3.1): exactly greedy's matching on bipartite graphs") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    GenOptions gen;
    gen.seed = seed;
    gen.ties = int(seed % 4);
    const vertex_t side = vertex_t(1 + seed % 25);
    Csr<double> g = complete_bipartite<double>(side, gen);
    // Sparsify symmetrically: drop about a third of the edges, by a hash of {u, v}.
    g = ops::select_entries(g, [seed](vertex_t u, vertex_t v) {
      return rng::Stream(seed, 5).bits(std::uint64_t(std::min(u, v)) << 32 | std::uint64_t(std::max(u, v))) % 3 != 0;
    });
    // Men: vertices < side; women: vertices >= side; each ranks its
    // neighbours in the greedy order restricted to its edges.
    MarriageInstance inst;
    inst.men = inst.women = side;
    for (vertex_t v = 0; v < 2 * side; ++v) {
      std::vector<std::pair<double, vertex_t>> nb;
      for (offset_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) nb.push_back({g.weights[k], g.cols[k]});
      std::sort(nb.begin(), nb.end(), [](const auto& a, const auto& b) { return neighbour_beats(a.first, a.second, b.first, b.second); });
      auto& lists = v < side ? inst.men_lists : inst.women_lists;
      auto& offsets = v < side ? inst.men_offsets : inst.women_offsets;
      for (const auto& [w, u] : nb) lists.push_back(v < side ? u - side : u);
      offsets.push_back(offset_t(lists.size()));
    }
    const Marriage m = require_all_agree(inst);
    const Matching gm = greedy(g, 1);
    for (vertex_t x = 0; x < side; ++x) {
      CAPTURE(x);
      REQUIRE(gm.mate[x] == (m.wife[x] == no_vertex ? no_vertex : m.wife[x] + side));
    }
  }
}

TEST_CASE("the checker finds a blocking pair and a partner not listed") {
  // Both men prefer woman 0; both women prefer man 0.
  MarriageInstance inst;
  inst.men = inst.women = 2;
  inst.men_lists = {0, 1, 0, 1};
  inst.men_offsets = {0, 2, 4};
  inst.women_lists = {0, 1, 0, 1};
  inst.women_offsets = {0, 2, 4};
  CHECK(marriage_violation(inst, Marriage{{0, 1}, {0, 1}}).empty());
  CHECK(marriage_violation(inst, Marriage{{1, 0}, {1, 0}}).find("block") != std::string::npos);
  CHECK(marriage_violation(inst, Marriage{{0, no_vertex}, {0, no_vertex}}).find("block") != std::string::npos);
  CHECK(rank_sum(inst, Marriage{{0, 1}, {0, 1}}) == 1 + 2 + 1 + 2);
  inst.women_lists = {0, 0, 0};  // woman 1 lists man 0 twice
  inst.women_offsets = {0, 1, 3};
  CHECK_THROWS_WITH_AS(rank_lists(inst), doctest::Contains("woman 1 lists 0 twice"), invalid_input);
  inst.women_offsets = {0, 1, 4};  // offsets past the lists
  CHECK_THROWS_AS(rank_lists(inst), invalid_input);
}

namespace {

// x's position in a's list (side: offsets, lists), or -1.
offset_t position(const std::vector<offset_t>& off, const std::vector<vertex_t>& lists, vertex_t a, vertex_t x) {
  for (offset_t k = off[a]; k < off[a + 1]; ++k)
    if (lists[k] == x) return k - off[a];
  return -1;
}

// Stability by the definition, pair by pair (O(men * women * list length)).
bool stable_by_definition(const MarriageInstance& inst, const Marriage& m) {
  for (vertex_t man = 0; man < inst.men; ++man) {
    const vertex_t w = m.wife[man];
    if (w == no_vertex) continue;
    if (w < 0 || w >= inst.women || m.husband[w] != man) return false;
    if (position(inst.men_offsets, inst.men_lists, man, w) < 0) return false;
    if (position(inst.women_offsets, inst.women_lists, w, man) < 0) return false;
  }
  for (vertex_t w = 0; w < inst.women; ++w) {
    const vertex_t h = m.husband[w];
    if (h != no_vertex && (h < 0 || h >= inst.men || m.wife[h] != w)) return false;
  }
  const auto prefers = [](offset_t candidate, offset_t partner) { return candidate >= 0 && (partner < 0 || candidate < partner); };
  for (vertex_t man = 0; man < inst.men; ++man)
    for (vertex_t w = 0; w < inst.women; ++w) {
      const offset_t his = position(inst.men_offsets, inst.men_lists, man, w);
      const offset_t hers = position(inst.women_offsets, inst.women_lists, w, man);
      if (his < 0 || hers < 0) continue;
      const offset_t his_wife = m.wife[man] == no_vertex ? -1
                                    : position(inst.men_offsets, inst.men_lists, man, m.wife[man]);
      const offset_t her_husband = m.husband[w] == no_vertex ? -1
                                       : position(inst.women_offsets, inst.women_lists, w, m.husband[w]);
      if (m.wife[man] != w && prefers(his, his_wife) && prefers(hers, her_husband)) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("rank_lists and the checker: the same at 1, 2 and 3 threads, equal to the definitions") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const vertex_t men = vertex_t(seed % 3 == 0 ? 70 : 1 + seed % 13), women = vertex_t(seed % 3 == 0 ? 60 : 1 + seed % 11);
    // Some lists longer than 32 entries (rank_lists' and the checker's
    // searches switch method there).
    const MarriageInstance inst = check::independent_marriage_lists(men, women, seed % 3 == 0 ? 0.8 : 0.6, seed);
    // rank_lists: each man's list in his order, only the women who list
    // him, with her rank of him.
    RankedLists naive;
    naive.men = men;
    naive.women = women;
    for (vertex_t m = 0; m < men; ++m) {
      for (offset_t k = inst.men_offsets[m]; k < inst.men_offsets[m + 1]; ++k) {
        const offset_t hers = position(inst.women_offsets, inst.women_lists, inst.men_lists[k], m);
        if (hers < 0) continue;
        naive.woman.push_back(inst.men_lists[k]);
        naive.her_rank.push_back(std::int32_t(hers));
      }
      naive.offsets.push_back(offset_t(naive.woman.size()));
    }
    const Marriage gs = gale_shapley(naive);
    std::mt19937_64 rng(seed);
    // Marriages to check: the stable one and broken ones (two wives swapped,
    // a couple parted, a pair married that one of them does not list).
    std::vector<Marriage> marriages{gs};
    for (int k = 0; k < 6; ++k) {
      Marriage b = gs;
      const vertex_t x = vertex_t(rng() % men), y = vertex_t(rng() % men);
      if (k % 3 == 0) {
        std::swap(b.wife[x], b.wife[y]);
        for (vertex_t man : {x, y})
          if (b.wife[man] != no_vertex) b.husband[b.wife[man]] = man;
      } else if (k % 3 == 1) {
        if (b.wife[x] != no_vertex) b.husband[b.wife[x]] = no_vertex;
        b.wife[x] = no_vertex;
      } else {
        const vertex_t w = vertex_t(rng() % women);
        if (b.wife[x] != no_vertex) b.husband[b.wife[x]] = no_vertex;
        if (b.husband[w] != no_vertex) b.wife[b.husband[w]] = no_vertex;
        b.wife[x] = w;
        b.husband[w] = x;
      }
      marriages.push_back(b);
    }
    std::vector<std::string> first_verdicts;
    for (int threads : {1, 2, 3}) {
      CAPTURE(threads);
      const ScopedThreads scope(threads);
      const RankedLists r = rank_lists(inst);
      REQUIRE(r.offsets == naive.offsets);
      REQUIRE(r.woman == naive.woman);
      REQUIRE(r.her_rank == naive.her_rank);
      for (std::size_t i = 0; i < marriages.size(); ++i) {
        CAPTURE(i);
        const std::string why = marriage_violation(inst, marriages[i]);
        CHECK(why.empty() == stable_by_definition(inst, marriages[i]));
        if (threads == 1) first_verdicts.push_back(why);
        else CHECK(why == first_verdicts[i]);
      }
    }
    CHECK(first_verdicts[0].empty());
  }
}

TEST_CASE("the text format round-trips; bad files are one parse_error naming the line") {
  check::temp_dir dir;
  const MarriageInstance inst = easy_marriage(200, 0.2, 3);
  const std::string path = (dir / "e.txt").string();
  write_marriage(path, inst);
  const MarriageInstance back = read_marriage(path);
  CHECK(back.men_lists == inst.men_lists);
  CHECK(back.women_lists == inst.women_lists);
  CHECK(back.men_offsets == inst.men_offsets);
  CHECK(back.women_offsets == inst.women_offsets);
  const auto bad = [&](const std::string& text, const std::string& message) {
    const std::string p = (dir / "bad.txt").string();
    std::ofstream(p) << text;
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(read_marriage(p), doctest::Contains(message.c_str()), parse_error);
  };
  bad("", "missing the header");
  bad("stable-marriage 2\n", "the header must be");
  bad("stable-marriage 1 1\n0\n", "missing the list of woman 0");
  bad("% c\nstable-marriage 1 2\n0 2\n0\n0\n", ":3: man 0 lists 2, out of range");
  bad("stable-marriage 1 1\n0 x\n0\n", "non-integer");
  bad("stable-marriage 1 1\n0 0\n0\n", "lists 0 twice");
  bad("stable-marriage 1 1\n0\n0\n0\n", "more lines");
}
