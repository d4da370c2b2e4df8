// Lock-free parallel Suitor: the offer a vertex holds is one 64-bit word,
// replaced by compare-and-swap; no ws array and no locks.
// Source: Mazankiewicz sec. 2.3 (Manne & Halappanavar 2014 sec. 3, p. 5: the
// suitor array points at the weight); the CAS retry rule of Manne et al. 2016
// sec. 4, Experiments (retry while the proposal still beats the new value, else rescan).
// Guarantee: exactly greedy's matching for every thread count and
// interleaving (suitor.hpp), hence 1/2-approximate.
// Cost: O(sum over proposals of the proposer's degree) work plus retries;
// double weights add a binary search in the partner's row per proposal.
// Preconditions: general graph (square Csr, symmetric, columns sorted, no
// self-loops), weights not NaN.
//
// The word of v (an "offer token") names v's offer (weight, suitor) exactly:
//   float:  (order-preserving bits of the weight) << 32 | ~suitor, so that a
//           larger word is a better offer under neighbour_beats (heavier,
//           then smaller suitor); -0 is read as +0; 0 = no offer.
//   double: a weight and an index do not fit in 64 bits, so the word is the
//           position k of the suitor's entry in v's own row: suitor =
//           cols[k], weight = weights[k] (the graph is read-only, so the
//           position determines the offer); -1 = no offer.
// Why one CAS decides: a thread compares its proposal with the offer named by
// the token it read and swaps only if the word still holds that token. Offers
// of v only ever improve strictly, so a token never comes back (no ABA): a
// successful CAS means the offer it beat is still v's offer. A failed CAS
// returns the newer token; the thread retries while it still beats it, and
// rescans otherwise. The token is the whole shared state, so relaxed atomics
// suffice; the end of the parallel region publishes the final words.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace {

// float: the offer packed into the token itself.
struct PackedOffer {
  using token = std::uint64_t;
  static constexpr token none = 0;
  const Csr<float>& g;

  static token pack(float w, vertex_t u) {
    const std::uint32_t b = std::bit_cast<std::uint32_t>(w + 0.0f);  // -0 + 0 == +0
    const std::uint32_t key = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    return (token{key} << 32) | token{~static_cast<std::uint32_t>(u)};
  }
  bool beats(float w, vertex_t u, token t) const { return pack(w, u) > t; }
  token offer(vertex_t /*v*/, float w, vertex_t u) const { return pack(w, u); }
  vertex_t suitor(token t) const { return t == none ? no_vertex : static_cast<vertex_t>(~static_cast<std::uint32_t>(t)); }
};

// Any weight type: the token is the position of the suitor in v's row.
template <class W>
struct PositionOffer {
  using token = offset_t;
  static constexpr token none = -1;
  const Csr<W>& g;

  bool beats(W w, vertex_t u, token t) const { return t == none || neighbour_beats(w, u, g.weights[t], g.cols[t]); }
  token offer(vertex_t v, W /*w*/, vertex_t u) const {
    const auto first = g.cols.begin() + g.offsets[v], last = g.cols.begin() + g.offsets[v + 1];
    return std::lower_bound(first, last, u) - g.cols.begin();  // present: g is symmetric
  }
  vertex_t suitor(token t) const { return t == none ? no_vertex : g.cols[t]; }
};

template <class W, class Offer>
Matching suitor_cas_with(const Csr<W>& g, int threads, const Offer offers) {
  using token = typename Offer::token;
  static_assert(std::atomic_ref<token>::is_always_lock_free);
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<token> word(n, Offer::none);
  const auto load = [&](vertex_t v) { return std::atomic_ref<token>(word[v]).load(std::memory_order_relaxed); };

#pragma omp parallel for num_threads(t) schedule(dynamic, 256)
  for (vertex_t u = 0; u < n; ++u) {
    vertex_t current = u;
    while (current != no_vertex) {
      const auto [partner, heaviest] =
          best_neighbour(g, current, [&](vertex_t v, W w) { return offers.beats(w, current, load(v)); });
      if (partner == no_vertex) break;  // nobody takes current: it stays free

      const token mine = offers.offer(partner, heaviest, current);
      token seen = load(partner);
      std::atomic_ref<token> slot(word[partner]);
      bool won = false;
      while (!won && offers.beats(heaviest, current, seen))
        won = slot.compare_exchange_weak(seen, mine, std::memory_order_relaxed);  // fails: seen = newer
      // Won: `seen` is the offer displaced; continue with its suitor (or stop).
      // Lost: partner holds a better offer now; rescan current.
      if (won) current = offers.suitor(seen);
    }
  }

  std::vector<vertex_t> suitor(n);
#pragma omp parallel for num_threads(t) schedule(static)
  for (vertex_t v = 0; v < n; ++v) suitor[v] = offers.suitor(word[v]);
  return detail::matching_from_suitors(suitor);
}

}  // namespace

template <class W>
Matching suitor_cas(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor_cas needs a general (square) graph");
  MATCHBLAS_EXPECTS(g.offsets.size() == static_cast<std::size_t>(g.n_rows) + 1, "suitor_cas: malformed Csr offsets");
  if constexpr (std::is_same_v<W, float>)
    return suitor_cas_with(g, threads, PackedOffer{g});
  else
    return suitor_cas_with(g, threads, PositionOffer<W>{g});
}

template Matching suitor_cas(const Csr<float>&, int);
template Matching suitor_cas(const Csr<double>&, int);

}  // namespace matchblas
