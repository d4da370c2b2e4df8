// Suitor heavy matching: a 2-Suitor gives vertex-disjoint paths and cycles;
// an optimal matching of each by dynamic programming, then greedy fill-in.
// Source: Mazankiewicz sec. 3.1 (Manne & Halappanavar 2014 sec. 4); the b-Suitor
// of Manne et al. 2016 sec. 3 with b = 2; path/cycle DP as GPA (Hovland 2020
// sec. 3.3.3, Maue & Sanders 2007).
//
// The rule, exactly:
// 1. 2-Suitor (sequential): every vertex v holds the two best proposals it has
//    received, S(v), ranked by neighbour_beats (heavier, then smaller
//    proposer). A vertex x with fewer than two of its proposals held proposes
//    to its best neighbour v (heaviest, then smallest index) with x not in
//    S(v) and (w(x,v), x) beating the worse of S(v) (or S(v) not full); a
//    proposer pushed out of S(v) proposes again. (The b-matching this finds
//    is the greedy one: Manne et al. 2016 sec. 3, last paragraphs.)
// 2. Kept edges K = {{u,v} : u in S(v) and v in S(u)}. |S(v)| <= 2, so every
//    vertex has at most two kept edges: K is vertex-disjoint paths and cycles.
// 3. A maximum weight matching of each path and cycle of K by dynamic
//    programming (matchers/general/path_dp.hpp, match_paths_and_cycles: a cycle is
//    the better of "first edge out" and "last edge out"; ties and walk order
//    are fixed there). Slot i of vertex u holds S(u)[i] (i = 0 the better)
//    when that edge is kept, else nothing.
// 4. Fill-in (matchers/general/maximal_fill.hpp): the edges whose ends are both still
//    free, in the greedy order (lib/greedy_order.hpp), each taken when both ends are
//    free. The result is maximal.
// 5. Return the heavier of the result of 4 and greedy's matching (computed by
//    suitor_seq); on equal weight, the result of 4.
// Step 5 is what makes the guarantee hold: steps 1-4 alone are not
// 1/2-approximate. An odd cycle of K keeps one vertex free, and its blocked
// optimal edge may not come back in step 4. Example (tests/matchers/
// test_suitor_heavy.cpp, "odd cycle"): a triangle of weight-1 edges, each
// corner with a pendant edge of weight 1-d whose far end also has an edge of
// weight e; K = triangle + the three e edges, steps 1-4 give 1 + 3e while the
// optimum is 3 - 3d. (With paths and even cycles only, w(K) >= optimum and the
// DP takes >= w(K)/2, as in GPA.)
// Guarantee: a valid, maximal matching of weight >= greedy's >= 1/2 optimum.
// Cost: 2-Suitor O(sum over proposals of the proposer's degree), DP O(n),
// fill-in O(n + m + f log f) for the f free-free edges, one suitor_seq.
// Preconditions: general graph (square Csr, symmetric, no self-loops),
// weights not NaN. Sequential: `threads` is ignored.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/maximal_fill.hpp"
#include "matchers/general/path_dp.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace {

template <class W>
struct TwoSuitors {
  std::vector<std::array<vertex_t, 2>> s;  // s[v][0] best, [1] second; no_vertex = empty
  std::vector<std::array<W, 2>> w;
  bool holds(vertex_t v, vertex_t x) const { return s[v][0] == x || s[v][1] == x; }
  // x with weight wx would get into S(v).
  bool takes(vertex_t v, W wx, vertex_t x) const { return detail::beats_offer(wx, x, w[v][1], s[v][1]); }
};

// Step 1: the 2-Suitor.
template <class W>
TwoSuitors<W> two_suitor(const Csr<W>& g) {
  const vertex_t n = g.n_rows;
  TwoSuitors<W> t{std::vector<std::array<vertex_t, 2>>(n, {no_vertex, no_vertex}),
                  std::vector<std::array<W, 2>>(n, {W{}, W{}})};
  std::vector<std::uint8_t> held(n, 0);  // how many of x's proposals are held
  std::vector<vertex_t> todo;
  for (vertex_t u = 0; u < n; ++u) {
    todo.push_back(u);
    while (!todo.empty()) {
      const vertex_t x = todo.back();
      const auto [partner, heaviest] =
          held[x] < 2 ? best_neighbour(g, x, [&](vertex_t v, W w) { return !t.holds(v, x) && t.takes(v, w, x); })
                      : std::pair<vertex_t, W>{no_vertex, W{}};
      if (partner == no_vertex) {  // x is done: two proposals held, or nobody takes it
        todo.pop_back();
        continue;
      }
      auto& s = t.s[partner];
      auto& w = t.w[partner];
      const vertex_t out = s[1];
      if (detail::beats_offer(heaviest, x, w[0], s[0])) {
        s = {x, s[0]};
        w = {heaviest, w[0]};
      } else {
        s[1] = x;
        w[1] = heaviest;
      }
      ++held[x];
      if (out != no_vertex) --held[out], todo.push_back(out);
    }
  }
  return t;
}

}  // namespace

template <class W>
Matching suitor_heavy(const Csr<W>& g, int /*threads*/) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor_heavy needs a general (square) graph");
  MATCHBLAS_EXPECTS(g.offsets.size() == static_cast<std::size_t>(g.n_rows) + 1, "suitor_heavy: malformed Csr offsets");
  const vertex_t n = g.n_rows;
  const TwoSuitors<W> t = two_suitor(g);

  // Step 2: kept edges, as two neighbour slots per vertex.
  std::vector<vertex_t> nbr(2 * static_cast<std::size_t>(n), no_vertex);
  std::vector<W> nbr_w(nbr.size(), W{});
  for (vertex_t u = 0; u < n; ++u)
    for (int i = 0; i < 2; ++i)
      if (const vertex_t v = t.s[u][i]; v != no_vertex && t.holds(v, u)) {
        nbr[2 * static_cast<std::size_t>(u) + i] = v;
        nbr_w[2 * static_cast<std::size_t>(u) + i] = t.w[u][i];
      }

  // Steps 3 and 4: optimal on each path and cycle, then maximal.
  Matching m(n);
  match_paths_and_cycles(std::span<const vertex_t>(nbr), std::span<const W>(nbr_w), m);
  fill_maximal(g, m);

  // Step 5: never lighter than greedy.
  Matching greedy_matching = suitor_seq(g, 1);
  return matching_weight(g, greedy_matching) > matching_weight(g, m) ? greedy_matching : m;
}

template Matching suitor_heavy(const Csr<float>&, int);
template Matching suitor_heavy(const Csr<double>&, int);

}  // namespace matchblas
