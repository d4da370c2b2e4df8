// Parallel Locally-Dominant matching with OpenMP: Naim et al. 2015 sec. 2.1,
// Alg. 1 and 2 (a queue of matched vertices whose tail is advanced with an
// atomic fetch_add, as Naim et al. 2015 does with __sync_fetch_and_add; a candidate
// array), with PROCESSVERTEX split in two parallel loops so that no loop reads
// an array another thread writes (the two sections of Mazankiewicz Exercise 1.3).
//
// Start: candidate[s] = heaviest free neighbour of every vertex s (Alg. 1
// lines 6-7, first half of PROCESSVERTEX). Then rounds of two loops:
//   (b) match: for s in the work set W (all vertices in round 0) with
//       c = candidate[s] and candidate[c] == s (Alg. 2 line 9), the pair is
//       committed by a compare-and-swap of mate[min(s,c)] from free to
//       max(s,c); the winner (s's or c's thread, when both are in W) writes
//       mate[max(s,c)] and appends both to Q (Alg. 2 lines 10-12). candidate is
//       read-only in this loop, and no third vertex can claim s or c (their
//       candidates point at each other), so the CAS only decides which of the
//       two threads that found the same pair records it.
//   (c) recompute: for u in Q, every neighbour v with candidate[v] == u and v
//       still free gets candidate[v] = its heaviest free neighbour and joins
//       the next W (Alg. 1 lines 9-12; "v free" is added: a matched v's
//       candidate is its own mate). mate is read-only in this loop.
//       candidate[v] is rewritten while other threads may compare it with
//       their own u' (atomic_ref, relaxed): the old value is u, the new one a
//       free vertex, neither equals u' (a matched vertex other than u), so
//       the comparison comes out the same; each v is found by exactly one
//       thread, hence W has no duplicates.
// The rounds stop when one matches nothing. Naim et al.'s (2015) Q_N (filled by (b)) and
// Q_C (read by (c)) are one buffer here, since (c) runs after (b)'s barrier in
// the same round; Q and W are reused every round, their tails double-buffered
// by round parity, so a round costs two barriers.
//
// Why the result is greedy's for every schedule: (b) reads only candidate
// and (c) reads only mate, each fixed during that loop, so every round
// computes the same candidates and commits the same pairs whatever the
// thread count and interleaving (only the order inside Q and W varies). The
// rule matches only locally dominant edges and ends maximal (ld.hpp), hence
// greedy's matching.
// Cost: O(n + m log Delta) work worst case, O(n + m) in practice (ld.hpp,
// detail::HeaviestFree); two barriers per round. Memory: three arrays of n
// vertex ids (candidate, Q, W) plus HeaviestFree's.
// Preconditions: square Csr (a general graph). threads <= 0: all OpenMP
// threads; at most one thread per 1024 vertices is used.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/ld.hpp"

namespace matchblas {

template <class W>
Matching ld_omp(const Csr<W>& g, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "ld_omp needs a general (square) graph");
  const vertex_t n = g.n_rows;
  const std::size_t un = static_cast<std::size_t>(n);
  Matching m(n);
  std::vector<vertex_t> candidate(un, no_vertex), queue(un), work(un);
  detail::HeaviestFree<W> heaviest_free(g);  // each vertex asked by one thread at a time
  std::atomic<std::int64_t> queue_tail[2] = {0, 0}, work_tail[2] = {0, 0};  // by round parity
  const std::span<const vertex_t> mate(m.mate);
  // At most one thread per 1024 vertices: below that a round's loops are a
  // chunk or two and extra threads only wait at the barriers.
  const int t = std::max(1, std::min(threads > 0 ? threads : omp_get_max_threads(), n / 1024));

#pragma omp parallel num_threads(t)
  {
#pragma omp for schedule(dynamic, 512)
    for (vertex_t s = 0; s < n; ++s) candidate[s] = heaviest_free(s, mate);

    for (int round = 0;; ++round) {
      const int now = round & 1, next = now ^ 1;
      const std::int64_t work_size = round == 0 ? n : work_tail[now].load(std::memory_order_relaxed);
#pragma omp single nowait
      {  // last read in an earlier round, next written after a barrier
        queue_tail[next].store(0, std::memory_order_relaxed);
        work_tail[next].store(0, std::memory_order_relaxed);
      }
      // (b) match mutual candidates
#pragma omp for schedule(dynamic, 512)
      for (std::int64_t i = 0; i < work_size; ++i) {
        const vertex_t s = round == 0 ? static_cast<vertex_t>(i) : work[i];
        const vertex_t c = candidate[s];
        if (c == no_vertex || candidate[c] != s) continue;
        const vertex_t lo = std::min(s, c), hi = std::max(s, c);
        vertex_t expected = no_vertex;
        if (!std::atomic_ref<vertex_t>(m.mate[lo]).compare_exchange_strong(expected, hi, std::memory_order_relaxed))
          continue;
        std::atomic_ref<vertex_t>(m.mate[hi]).store(lo, std::memory_order_relaxed);
        const std::int64_t at = queue_tail[now].fetch_add(2, std::memory_order_relaxed);
        queue[at] = lo;
        queue[at + 1] = hi;
      }
      const std::int64_t queue_size = queue_tail[now].load(std::memory_order_relaxed);
      if (queue_size == 0) break;  // every thread reads the same size after the barrier
      // (c) recompute the free vertices whose candidate was just matched
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t i = 0; i < queue_size; ++i) {
        const vertex_t u = queue[i];
        for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
          const vertex_t v = g.cols[k];
          std::atomic_ref<vertex_t> cand(candidate[v]);
          if (cand.load(std::memory_order_relaxed) != u || mate[v] != no_vertex) continue;
          cand.store(heaviest_free(v, mate), std::memory_order_relaxed);
          work[work_tail[next].fetch_add(1, std::memory_order_relaxed)] = v;
        }
      }
    }
  }
  return m;
}

template Matching ld_omp(const Csr<float>&, int);
template Matching ld_omp(const Csr<double>&, int);

}  // namespace matchblas
