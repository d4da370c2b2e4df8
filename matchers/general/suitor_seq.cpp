// Sequential Suitor: each vertex proposes to its best neighbour whose offer
// it beats; a displaced suitor proposes again. See suitor.hpp for the family.
// Source: Mazankiewicz sec. 2.1 (Manne & Halappanavar 2014, Alg. 2, the
// non-recursive form); Naim et al. 2015 sec. 2.2 Alg. 3 on one thread.
// Guarantee: exactly greedy's matching (docs/ARCHITECTURE.md
// "The greedy order"), hence 1/2-approximate.
// Cost: O(sum over proposals of the proposer's degree) work, O(n) extra space.
// Preconditions: general graph (square Csr, symmetric, no self-loops).
#include <vector>

#include "lib/error.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

template <class W>
Matching suitor_seq(const Csr<W>& g, int /*threads*/) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "suitor_seq needs a general (square) graph");
  MATCHBLAS_EXPECTS(g.offsets.size() == static_cast<std::size_t>(g.n_rows) + 1, "suitor_seq: malformed Csr offsets");
  const vertex_t n = g.n_rows;
  std::vector<vertex_t> suitor(n, no_vertex);
  std::vector<W> ws(n, W{});

  for (vertex_t u = 0; u < n; ++u) {
    vertex_t current = u;
    while (current != no_vertex) {
      const auto [partner, heaviest] = best_neighbour(
          g, current, [&](vertex_t v, W w) { return detail::beats_offer(w, current, ws[v], suitor[v]); });
      if (partner == no_vertex) break;  // nobody takes current: it stays free
      const vertex_t displaced = suitor[partner];
      suitor[partner] = current;
      ws[partner] = heaviest;
      current = displaced;  // no_vertex ends the chain
    }
  }
  return detail::matching_from_suitors(suitor);
}

template Matching suitor_seq(const Csr<float>&, int);
template Matching suitor_seq(const Csr<double>&, int);

}  // namespace matchblas
