// Locally-Dominant matching in synchronous rounds, written with the ops: the
// sync-poll parallel greedy of Thorsen and Merkey 2010 (Alg. 1 and sec. 3.1, "sync-poll").
// Each round every free vertex whose candidate is stale picks its heaviest
// free neighbour (argmax over active rows and eligible = free columns, ties to
// the smaller index); mutual candidates are locally dominant edges and are
// matched (assign). A candidate stays valid while it is free (free
// neighbours only ever disappear), so only the vertices whose candidate was
// matched in the last round recompute ("poll"). Every op (argmax, assign)
// on `backend`; graphblas keeps g resident in SuiteSparse:GraphBLAS
// (ops/graphblas_graph.hpp), imported once.
// Guarantee: exactly Greedy's matching (docs/ARCHITECTURE.md "The greedy
// order"), any thread count.
// Cost: O(rounds x n + sum of the degrees of the recomputing vertices).
#pragma once
#include "lib/csr.hpp"
#include "lib/matching.hpp"
#include "ops/argmax.hpp"

namespace matchblas {

template <class W>
Matching ld_rounds(const Csr<W>& g, int threads = 0, ops::Backend backend = ops::Backend::automatic);

}  // namespace matchblas
