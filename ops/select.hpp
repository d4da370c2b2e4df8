// select + compaction: keep the entries of a CSR whose endpoints satisfy a
// predicate, renumbering nothing (seed 003's keep-edges flags, exclusive
// prefix sum and edge-list compaction; STYLE 6's count / scan / fill).
//
//   C = select_entries(A, keep): C has A's shape and exactly the entries
//   (u, v, w) of A with keep(u, v) true, in A's order.
//   select_free_entries(A, mate): keep(u, v) = mate[u] == -1 && mate[v] == -1.
//
// Cost: O(rows + entries) work, rows in parallel (OpenMP); the prefix sum
// is sequential over rows.
#pragma once
#include <span>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas::ops {

template <class W, class Keep>
Csr<W> select_entries(const Csr<W>& a, Keep keep);

template <class W>
Csr<W> select_free_entries(const Csr<W>& a, std::span<const vertex_t> mate);

}  // namespace matchblas::ops
