// argmax per row under the greedy order, with masks and a per-column floor:
// the semiring max-reduction every 1/2-approximate matcher is built from
// (docs/ARCHITECTURE.md "The ops (CPU backend)").
//
//   best[u] = the column v of the entry (u, v, w) of A that comes first under
//             neighbour_beats (heavier first, then the smaller column) among
//             the entries that qualify; -1 when none qualifies or row u is
//             inactive. best_weight[u] = that entry's weight (0 when none).
//   An entry (u, v, w) qualifies when
//     - row u is active      (masks.active_rows empty, or active_rows[u] != 0)
//     - column v is eligible (masks.eligible_cols empty, or eligible_cols[v] != 0)
//     - u beats v's floor    (masks.floor_weight empty, or
//                             neighbour_beats(w, u, floor_weight[v], floor_vertex[v]):
//                             v would rather take u than its current suitor;
//                             floor_vertex[v] = -1 with floor_weight[v] = 0
//                             means "no suitor yet" for positive weights)
//
// Backends: `plain` (C++/OpenMP, rows in parallel; the fast CPU path),
// `graphblas` (SuiteSparse:GraphBLAS, the reference path: one built-in MAX
// reduction over keys, ops/cpu/argmax_graphblas.cpp; on a Csr it imports A
// per call, on a resident GraphBlasGraph nothing) and `gpu` (CUDA, rows
// binned by degree to groups of 4, 8 or 32 lanes or a block; copies in and
// out per call: ops/gpu/argmax_gpu.cu). All give the same result for every
// input (graphblas: invalid_input for a row holding a column twice).
// `automatic` picks plain.
// Cost: O(rows + entries of active rows) work, O(max degree) depth.
#pragma once
#include <cstdint>
#include <span>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/backend.hpp"
#include "ops/graphblas_graph.hpp"

namespace matchblas::ops {

template <class W>
struct ArgmaxMasks {
  std::span<const std::uint8_t> active_rows;
  std::span<const std::uint8_t> eligible_cols;
  std::span<const W> floor_weight;
  std::span<const vertex_t> floor_vertex;
};

// best and best_weight have a.n_rows entries. Throws invalid_input when a
// mask has the wrong length, and error when the graphblas or gpu backend is
// asked for where it is missing (no GraphBLAS; no CUDA build or no GPU).
template <class W>
void argmax_rows(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                 std::span<W> best_weight, Backend backend = Backend::automatic);

// The graphblas backend on a resident matrix (backend graphblas or
// automatic; invalid_input otherwise): nothing is imported.
template <class W>
void argmax_rows(const GraphBlasGraph<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                 std::span<W> best_weight, Backend backend = Backend::graphblas);

namespace detail {
// The O(1) checks of both entries: mask and output lengths (invalid_input).
template <class W>
void expect_argmax_lengths(vertex_t rows, vertex_t cols, const ArgmaxMasks<W>& masks, std::size_t best,
                           std::size_t best_weight);
}  // namespace detail

}  // namespace matchblas::ops
