// argmax per row, the plain C++/OpenMP backend (ops/argmax.hpp states the
// semantics): for each active row u, the qualifying entry (u, v, w) that
// comes first under neighbour_beats, or -1.
//
// Source: "Parallel graph matching", a course project on handshaking
// matching on GPUs, no author named (strongest neighbour, smallest index on
// ties); docs/ARCHITECTURE.md "The greedy order" / "The ops (CPU backend)".
// Guarantee: exactly the result of ops/argmax.hpp's definition, for any
// column order within a row and any thread count (each row is reduced by
// one thread, in one fixed order, with a total order: no race, no float
// reassociation).
// Cost: O(rows + entries of active rows) work; depth O(max degree) (rows in
// parallel, schedule(dynamic, argmax_rows_per_chunk)). Bytes: offsets, cols
// and weights of the active rows read once, plus one random read per entry
// of each per-column mask in use (eligible_cols, then floor_weight;
// floor_vertex only on a tie with the floor). On dev (2 cores of an AMD
// EPYC), R-MAT scale 22, float: as fast as the hand-written loop of
// bench_argmax, about 4.5 GB/s at one thread and 10 GB/s at two.
//
// The inner loop is instantiated per mask combination (eligible columns
// yes/no, floor yes/no) so that the unmasked loop carries no mask test;
// the active-row test is once per row and stays a runtime check.
#include <limits>

#include "ops/argmax.hpp"
#include "lib/greedy_order.hpp"

namespace matchblas::ops::detail {

namespace {

// Rows per OpenMP chunk. dev (2 cores of an AMD EPYC, shared, loaded),
// bench_argmax --scale 20 (31.4M entries, float), median of 5 at 2 threads:
// no masks 0.031-0.035 s for 64, 256, 1024, 4096 (within noise); half the
// rows active with a floor 0.065 s for 64 and 256, 0.087-0.094 s for 1024
// and 4096 (large chunks balance the skewed R-MAT rows worse). Kept 256.
constexpr int argmax_rows_per_chunk = 256;

template <class W, bool Eligible, bool Floor>
void argmax_kernel(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                   std::span<W> best_weight) {
  const offset_t* const off = a.offsets.data();
  const vertex_t* const cols = a.cols.data();
  const W* const wts = a.weights.data();
  const std::uint8_t* const active = masks.active_rows.empty() ? nullptr : masks.active_rows.data();
  const std::uint8_t* const eligible = masks.eligible_cols.data();
  const W* const floor_w = masks.floor_weight.data();
  const vertex_t* const floor_v = masks.floor_vertex.data();
  vertex_t* const out_v = best.data();
  W* const out_w = best_weight.data();
  const vertex_t n = a.n_rows;

#pragma omp parallel for schedule(dynamic, argmax_rows_per_chunk)
  for (vertex_t u = 0; u < n; ++u) {
    // -infinity loses to every finite weight, so the first qualifying entry
    // always replaces it; bc stays -1 when nothing qualifies.
    W bw = -std::numeric_limits<W>::infinity();
    vertex_t bc = no_vertex;
    if (active == nullptr || active[u] != 0) {
      const offset_t end = off[u + 1];
      for (offset_t k = off[u]; k < end; ++k) {
        const vertex_t v = cols[k];
        const W w = wts[k];
        if constexpr (Eligible) {
          if (eligible[v] == 0) continue;
        }
        if constexpr (Floor) {
          // neighbour_beats(w, u, floor_w[v], floor_v[v]), with floor_v[v]
          // read only on a tie: passing it by value loaded it for every
          // entry, a second random read that cost 1.3-2x (bench_argmax).
          // Written as "not above and not a won tie" so that a NaN floor
          // (or weight) excludes the entry, as neighbour_beats does.
          const W f = floor_w[v];
          if (!(w > f) && (w != f || !(u < floor_v[v]))) continue;
        }
        if (neighbour_beats(w, v, bw, bc)) {
          bw = w;
          bc = v;
        }
      }
    }
    out_v[u] = bc;
    out_w[u] = bc == no_vertex ? W(0) : bw;
  }
}

}  // namespace

// Masks are checked by the dispatcher (ops/cpu/argmax.cpp).
template <class W>
void argmax_rows_plain(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                       std::span<W> best_weight) {
  const bool eligible = !masks.eligible_cols.empty();
  const bool floor = !masks.floor_weight.empty();
  if (eligible && floor) argmax_kernel<W, true, true>(a, masks, best, best_weight);
  else if (eligible) argmax_kernel<W, true, false>(a, masks, best, best_weight);
  else if (floor) argmax_kernel<W, false, true>(a, masks, best, best_weight);
  else argmax_kernel<W, false, false>(a, masks, best, best_weight);
}

template void argmax_rows_plain<float>(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                       std::span<float>);
template void argmax_rows_plain<double>(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                        std::span<double>);

}  // namespace matchblas::ops::detail
