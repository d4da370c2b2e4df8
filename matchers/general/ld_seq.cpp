// Sequential Locally-Dominant matching with a queue: Naim et al. 2015
// sec. 2.1, Alg. 1 (LOCALLY-DOMINANT) and Alg. 2 (PROCESSVERTEX) run by one
// thread; Mazankiewicz Exercise 1.2. One FIFO queue plays Q_C and Q_N. Alg. 1
// line 11 gains a "v is free" test (a matched v's candidate is its own mate).
// Guarantee: exactly greedy's matching (see ld.hpp for why).
// Cost: O(n + m log Delta) worst case, O(n + m) in practice (ld.hpp,
// detail::HeaviestFree); O(n) extra memory plus its heaps.
// Preconditions: square Csr (a general graph). `threads` is ignored.
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/ld.hpp"

namespace matchblas {

template <class W>
Matching ld_seq(const Csr<W>& g, int /*threads*/) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "ld_seq needs a general (square) graph");
  const vertex_t n = g.n_rows;
  Matching m(n);
  std::vector<vertex_t> candidate(static_cast<std::size_t>(n), no_vertex);
  detail::HeaviestFree<W> heaviest_free(g);
  std::vector<vertex_t> queue;  // matched vertices not yet processed, FIFO
  queue.reserve(static_cast<std::size_t>(n));

  // PROCESSVERTEX(s): point s at its heaviest free neighbour; match a mutual
  // pair and queue both ends. A matched vertex's candidate is its mate, so
  // candidate[t] == s with s free implies t is free.
  const auto process = [&](vertex_t s) {
    const vertex_t t = heaviest_free(s, m.mate);
    candidate[s] = t;
    if (t != no_vertex && candidate[t] == s) {
      m.match(s, t);
      queue.push_back(s);
      queue.push_back(t);
    }
  };

  for (vertex_t v = 0; v < n; ++v)  // Alg. 1 lines 6-7
    if (m.is_free(v)) process(v);
  for (std::size_t head = 0; head < queue.size(); ++head) {  // lines 8-13
    const vertex_t u = queue[head];
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const vertex_t v = g.cols[k];
      if (candidate[v] == u && m.is_free(v)) process(v);
    }
  }
  return m;
}

template Matching ld_seq(const Csr<float>&, int);
template Matching ld_seq(const Csr<double>&, int);

}  // namespace matchblas
