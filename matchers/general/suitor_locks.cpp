// Parallel Suitor with one OpenMP lock per vertex: threads take vertices from
// a dynamic loop; a thread that displaces a suitor continues with it.
// Source: Mazankiewicz sec. 2.2; Naim et al. 2015 sec. 2.2 Alg. 3 (OMP-Suitor).
// Two departures from Alg. 3 as transcribed in Naim 2017: the scan starts from
// "no candidate" (lines 10-11 start from current's own suitor and its
// weight), and a failed re-check rescans `current` (line 28's next <- u would
// lose a displaced vertex and let u hold two proposals).
// Guarantee: exactly greedy's matching for every thread count and
// interleaving (suitor.hpp), hence 1/2-approximate.
// Cost: O(sum over proposals of the proposer's degree) work, plus rescans
// after lost races; n locks.
// Preconditions: general graph (square Csr, symmetric, no self-loops).
//
// Concurrency. The offer of v, (ws[v], suitor[v]), only improves, and only
// under v's lock. The scan reads it without the lock, as a filter: a vertex
// is skipped only when the offer read beats the proposal. To make that safe
// the writer stores suitor[v] before ws[v] (release) and the reader loads
// ws[v] (acquire) before suitor[v]; a torn read then pairs an old weight with
// a newer suitor, which is never better than the newer offer itself (its
// weight is <= the newer one's), so a skip is always justified. A proposal
// that passes the filter wrongly is caught by the re-check under the lock,
// after which the rescan sees the newer offer (coherence), so it terminates.
#include <omp.h>

#include <atomic>
#include <limits>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace {

template <class T>
T load(T& x, std::memory_order order) {
  return std::atomic_ref<T>(x).load(order);
}
template <class T>
void store(T& x, T value, std::memory_order order) {
  std::atomic_ref<T>(x).store(value, order);
}

}  // namespace

template <class W>
Matching suitor_locks(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor_locks needs a general (square) graph");
  MATCHBLAS_EXPECTS(g.offsets.size() == static_cast<std::size_t>(g.n_rows) + 1, "suitor_locks: malformed Csr offsets");
  static_assert(std::atomic_ref<W>::is_always_lock_free && std::atomic_ref<vertex_t>::is_always_lock_free);
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<vertex_t> suitor(n, no_vertex);
  // -inf, not 0: a torn read (an initial weight with a newer suitor) then
  // never beats a real offer, whatever the sign of the weights.
  std::vector<W> ws(n, -std::numeric_limits<W>::infinity());
  std::vector<omp_lock_t> locks(n);

#pragma omp parallel num_threads(t)
  {
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) omp_init_lock(&locks[v]);

#pragma omp for schedule(dynamic, 256)
    for (vertex_t u = 0; u < n; ++u) {
      vertex_t current = u;
      while (current != no_vertex) {
        const auto [partner, heaviest] = best_neighbour(g, current, [&](vertex_t v, W w) {
          const W ws_v = load(ws[v], std::memory_order_acquire);
          const vertex_t suitor_v = load(suitor[v], std::memory_order_relaxed);
          return detail::beats_offer(w, current, ws_v, suitor_v);
        });
        if (partner == no_vertex) break;  // nobody takes current: it stays free

        omp_set_lock(&locks[partner]);
        const vertex_t displaced = load(suitor[partner], std::memory_order_relaxed);
        const bool wins = detail::beats_offer(heaviest, current, load(ws[partner], std::memory_order_relaxed), displaced);
        if (wins) {
          store(suitor[partner], current, std::memory_order_relaxed);
          store(ws[partner], heaviest, std::memory_order_release);
        }
        omp_unset_lock(&locks[partner]);
        // Won: continue with the displaced suitor (or stop). Lost the race:
        // partner took a better offer meanwhile; rescan current.
        if (wins) current = displaced;
      }
    }

#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) omp_destroy_lock(&locks[v]);
  }
  return detail::matching_from_suitors(suitor);
}

template Matching suitor_locks(const Csr<float>&, int);
template Matching suitor_locks(const Csr<double>&, int);

}  // namespace matchblas
