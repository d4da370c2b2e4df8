// b-Suitor when b(v) <= 1 for every v, sequential and OpenMP (the path
// b_suitor_seq and b_suitor_omp take then; b_suitor.cpp has the general one).
// Source: Manne and Halappanavar, "New effective multithreaded matching
// algorithms", IPDPS 2014 (Suitor), as the b = 1 case of Naim and Manne 2017.
// Guarantee: b_greedy's edge set (greedy's matching), any thread count.
// Cost: one pass over a proposer's row per proposal, a floor read only for
// an entry that beats the best so far.
//
// b(v) <= 1 for every v (b_suitor_single_*): a heap of one slot; a proposer
// has one offer out at most, so a displaced one proposes at once (a chain,
// as in the plain Suitor): no queue, no counts, no spent flags (a vertex
// that finds nobody holds no offer, so it is never displaced again), and
// the scan reads floors as it goes (a floor only for an entry that beats
// the best so far), one pass per proposal.
#include <omp.h>

#include <climits>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_offers.hpp"

namespace matchblas::b_suitor_detail {

namespace {

// b(v) <= 1 for every v: u's best entry after entry `last` whose neighbour's
// floor u beats, -1 when none; one pass, a floor read only for an entry
// that beats the best so far (as the plain Suitor), so every entry u
// prefers to the one returned refused u for good. Concurrent (atomic): the
// floors' weights read without the locks, and a tie taken as a yes (the
// exact test is the caller's, under the lock).
template <class W, bool atomic>
std::int32_t single_choice(const Csr<W>& g, vertex_t u, std::int32_t last, const Holders<W>& holders) {
  const offset_t row = g.offsets[u];
  const W* weights = g.weights.data() + row;
  const vertex_t* cols = g.cols.data() + row;
  const auto d = std::int32_t(g.offsets[u + 1] - row);
  const Offer<W> l = entry(g, u, last);
  std::int32_t best = -1;
  W bw = -std::numeric_limits<W>::infinity();
  vertex_t bu = INT_MAX;
  for (std::int32_t i = 0; i < d; ++i) {
    const W w = weights[i];
    if (w < bw || w > l.w) continue;  // the common cases: worse than the best, or passed over already
    const vertex_t v = cols[i];
    if (!neighbour_beats(w, v, bw, bu) || !neighbour_beats(l.w, l.u, w, v)) continue;
    if constexpr (atomic) {
      if (w < holders.floor_weight_atomic(v)) continue;  // refused for good
    } else {
      const Offer<W>& f = holders.floor(v);
      if (!neighbour_beats(w, u, f.w, f.u)) continue;
    }
    best = i;
    bw = w;
    bu = v;
  }
  return best;
}

}  // namespace

template <class W>
BMatching b_suitor_single_seq(const Csr<W>& g, const std::vector<int>& b) {
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  holders.init(g, b, false);
  std::vector<std::int32_t> last(static_cast<std::size_t>(n), -1);
  for (vertex_t first = 0; first < n; ++first) {
    if (b[first] == 0) continue;
    vertex_t u = first;
    while (is_vertex(u, n)) {  // the chain of displaced proposers
      const std::int32_t k = single_choice<W, false>(g, u, last[u], holders);
      if (k < 0) break;  // nobody takes u: it stays free
      last[u] = k;
      const offset_t at = g.offsets[u] + k;
      u = holders.insert(g.cols[at], {g.weights[at], u}).u;
    }
  }
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  mutual_offers(holders, n, m, nullptr);
  return m;
}

// OpenMP, b(v) <= 1 for every v. A vertex is proposed for by one thread at
// a time without owner flags: it proposes first in its own iteration (no
// offer of its own is out before), and again only when displaced, by the
// thread that displaced it (its one offer is out until then). `last[u]` is
// written before u's offer is published (under the holder's lock), so the
// thread that displaces u later reads it.
template <class W>
BMatching b_suitor_single_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  // Not value-initialised: each thread faults in and writes its own part.
  const std::unique_ptr<std::int32_t[]> last(new std::int32_t[std::size_t(n)]);
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  AllocationGuard guard;
#pragma omp parallel num_threads(threads)
  {
    holders.init(g, b, true);
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) last[v] = -1;
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      if (b[first] == 0) continue;
      vertex_t u = first;
      while (is_vertex(u, n)) {
        const std::int32_t k = single_choice<W, true>(g, u, last[u], holders);
        if (k < 0) break;  // nobody takes u: it stays free
        last[u] = k;  // passed over from now on, taken or not
        const offset_t at = g.offsets[u] + k;
        const vertex_t v = g.cols[at];
        const Offer<W> o{g.weights[at], u};
        const vertex_t s = holders.lock(v);
        if (better(o, {holders.floor(v).w, s})) {
          u = holders.unlock_insert(v, s, o).u;  // the displaced proposer, if any, proposes again
        } else {
          holders.unlock(v, s);  // refused: u looks further
        }
      }
    }
    if (n >= parallel_result) mutual_offers(holders, n, m, &guard);
  }
  guard.rethrow();
  if (n < parallel_result) mutual_offers(holders, n, m, nullptr);
  return m;
}

template BMatching b_suitor_single_seq(const Csr<float>&, const std::vector<int>&);
template BMatching b_suitor_single_seq(const Csr<double>&, const std::vector<int>&);
template BMatching b_suitor_single_omp(const Csr<float>&, const std::vector<int>&, int);
template BMatching b_suitor_single_omp(const Csr<double>&, const std::vector<int>&, int);

}  // namespace matchblas::b_suitor_detail
