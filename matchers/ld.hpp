// The Locally-Dominant family: 1/2-approximate weighted matching by matching
// locally dominant edges, those heavier (in the greedy order) than every other
// edge at both endpoints among the edges whose endpoints are both free.
//
// Every vertex s keeps candidate[s], its heaviest free neighbour (heaviest
// edge, then smallest index: neighbour_beats of lib/greedy_order.hpp). Mutual
// candidates (candidate[candidate[s]] == s) are matched and queued; when a
// vertex u is matched, the free neighbours whose candidate was u look again.
//
//   ld_seq  one thread, one FIFO queue: seed 001 Paper I sec. 2.1, Alg. 1-2
//           run sequentially (seed 004 Exercise 1.2); see ld_seq.cpp
//   ld_omp  OpenMP: Paper I Alg. 1 with the queue tail advanced by an atomic
//           fetch_add; each round is two barrier-separated loops, "match the
//           mutual candidates" (CAS on mate) and "recompute the candidates
//           the new matches invalidated" (the two parallel sections of seed
//           004 Exercise 1.3); see ld_omp.cpp
//
// Guarantee: both return exactly greedy's matching (DESIGN.md "The greedy
// order"), mate for mate, for every thread count and interleaving. Why: (1) an
// edge {s,t} is matched only when candidate[s] == t and candidate[t] == s;
// each candidate was chosen while every heavier neighbour was already matched,
// and matched vertices stay matched, so {s,t} is locally dominant among the
// free edges at that moment. (2) If the edges matched so far are all greedy's
// and {s,t} is locally dominant, {s,t} is greedy's too: otherwise greedy
// matches s (say) with some x by a heavier edge; that edge is not free, so x
// is already matched, by an edge of greedy's that is not {s,x}, and x would
// have two mates in greedy. (3) The result is maximal (a free vertex whose
// candidate is matched always looks again, and a chain of candidates among
// free vertices ends in a mutual pair), and a maximal matching inside greedy's
// is greedy's.
// Cost: O(n + m log Delta) work in the worst case: Alg. 2 rescans a row once
// per matched candidate (O(m Delta) on tie-heavy hubs), so a row asked a
// third time is sorted once and walked with a cursor (detail::HeaviestFree);
// O(n + m) in practice. ld_omp: two barriers per round, one round per "wave"
// of matches.
// Preconditions: a general graph (square Csr, both directions stored, no
// self-loops); the tie rule is the greedy order's and nothing else.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "lib/csr.hpp"
#include "lib/greedy_order.hpp"
#include "lib/matching.hpp"

namespace matchblas {

// Sequential; `threads` is ignored.
template <class W>
Matching ld_seq(const Csr<W>& g, int threads = 1);

// OpenMP with `threads` threads (<= 0: all OpenMP threads).
template <class W>
Matching ld_omp(const Csr<W>& g, int threads = 0);

namespace detail {
// A vertex's heaviest free neighbour (ties to the smaller index), asked again
// every time the previous answer got matched. Free neighbours only ever
// disappear, so the answer only moves forward in the vertex's own order of
// its neighbours: the first two asks scan the row (O(degree) each, Paper I
// Alg. 2); from the third on, a row of 16 or more entries is sorted once into
// that order and a cursor skips its matched prefix (Paper I sec. 2.1: sorted
// rows make LD O(n + m)). Total cost O(m log Delta) instead of Alg. 2's
// O(m Delta) on rows whose candidates keep getting matched (tie-heavy hubs).
// Calls for different vertices may run concurrently; `mate` must not change
// during a call. Memory: 13 bytes per vertex, plus the sorted rows.
template <class W>
class HeaviestFree {
 public:
  explicit HeaviestFree(const Csr<W>& g)
      : g_(g), scans_(static_cast<std::size_t>(g.n_rows), 0), cursor_(scans_.size(), 0), sorted_(scans_.size()) {}

  vertex_t operator()(vertex_t s, std::span<const vertex_t> mate) {
    if (!sorted_[s]) {
      if (scans_[s] < 2 || g_.degree(s) < 16) {
        scans_[s] = static_cast<std::uint8_t>(scans_[s] + (scans_[s] < 2));
        return scan(s, mate);
      }
      sort_row(s);
    }
    const vertex_t* row = sorted_[s].get();
    const std::uint32_t degree = static_cast<std::uint32_t>(g_.degree(s));
    std::uint32_t& c = cursor_[s];
    while (c < degree && mate[row[c]] != no_vertex) ++c;
    return c < degree ? row[c] : no_vertex;
  }

 private:
  vertex_t scan(vertex_t s, std::span<const vertex_t> mate) const {
    vertex_t best = no_vertex;
    W best_w{};
    for (offset_t k = g_.offsets[s]; k < g_.offsets[s + 1]; ++k) {
      const vertex_t t = g_.cols[k];
      if (mate[t] != no_vertex) continue;
      if (best == no_vertex || neighbour_beats(g_.weights[k], t, best_w, best)) best = t, best_w = g_.weights[k];
    }
    return best;
  }
  void sort_row(vertex_t s) {
    const offset_t begin = g_.offsets[s], degree = g_.degree(s);
    std::vector<offset_t> k(static_cast<std::size_t>(degree));
    for (offset_t i = 0; i < degree; ++i) k[i] = begin + i;
    std::sort(k.begin(), k.end(), [&](offset_t a, offset_t b) {
      return neighbour_beats(g_.weights[a], g_.cols[a], g_.weights[b], g_.cols[b]);
    });
    sorted_[s] = std::make_unique<vertex_t[]>(static_cast<std::size_t>(degree));
    for (offset_t i = 0; i < degree; ++i) sorted_[s][i] = g_.cols[k[i]];
  }

  const Csr<W>& g_;
  std::vector<std::uint8_t> scans_;                  // plain scans so far, capped at 2
  std::vector<std::uint32_t> cursor_;                // sorted rows: first entry not known matched
  std::vector<std::unique_ptr<vertex_t[]>> sorted_;  // the row in neighbour order, once built
};
}  // namespace detail

}  // namespace matchblas
