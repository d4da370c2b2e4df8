// Suitor in bulk-synchronous rounds, written with the ops (the
// Suitor algorithm of Naim et al. 2015 Alg. 3 / Mazankiewicz sec. 2.1 reordered
// into rounds). Every vertex v holds its best offer so far, (ws[v],
// suitor[v]). In a round, every active vertex u proposes to its best
// neighbour v whose offer it beats (argmax over active rows against the
// per-column floor (ws, suitor), ties by neighbour_beats); the proposals form
// a matrix P (one entry per proposer), and each v keeps the best proposal of
// its column (transpose P, then argmax over the rows of P'; every proposal
// already beat the floor of its round).
// Winners rest; losers and the suitors they displaced are active next round.
// Matched: u and v with suitor[u] == v and suitor[v] == u.
// Guarantee: every round is a valid serialisation of sequential Suitor
// (each column's proposals taken best first), so the result is Suitor's,
// which is exactly Greedy's matching (docs/ARCHITECTURE.md "The greedy
// order"); any thread count.
// Backend: every op (argmax, transpose) on `backend`; graphblas keeps g
// resident in SuiteSparse:GraphBLAS (ops/graphblas_graph.hpp) for the
// whole run, imports each round's P (at most n entries).
// Cost: O(rounds x n + sum over rounds of the active rows' degrees) work,
// plus the per-round P and its transpose (O(n)); the O(n) loops between
// the ops are sequential.
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"
#include "ops/argmax.hpp"

namespace matchblas {

template <class W>
Matching suitor_bulk(const Csr<W>& g, int threads = 0, ops::Backend backend = ops::Backend::automatic);

}  // namespace matchblas
