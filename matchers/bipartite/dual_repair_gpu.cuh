// The device level of max-sum-gpu's exact repair (dual_repair_gpu.cu): an
// auction's prices and matching, on the device, made into the minimum-cost
// perfect matching with its duals without leaving the device.
// .cu files only.
#pragma once
#include <cstdint>

#include "lib/types.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas::gpu {

struct DualRepairCounts {
  vertex_t auction_free = 0;   // rows the auction left free
  vertex_t freed = 0;          // rows free once the duals were made feasible (those and the loose pairs')
  std::int64_t phases = 0;     // primal-dual phases (each: distances, duals, augmentation)
  std::int64_t levels = 0;     // the phases' label-correcting levels
  std::int64_t lowering_levels = 0;  // the lowering's
  std::int64_t rows_relaxed = 0;     // rows the phases' levels relaxed (a row again each time its distance fell)
  std::int64_t early_stops = 0;      // phases whose distances stopped once every free column was settled
  std::int64_t maximum_matchings = 0;  // phases augmented to a maximum matching of the tight entries (the paths
                                       // along the trees under a quarter of the free rows)
  vertex_t left = 0;           // rows still free at the end (0 unless it stopped short)
  bool stopped_short = false;  // max_phases reached, or a phase augmented nothing (rounding): the caller
                               // repairs the rest on the host
  double levels_s = 0;         // seconds: the lowering and the feasible duals
  double distances_s = 0, duals_s = 0, augment_s = 0;  // the phases' three steps
  bool canonical = false;      // the duals returned are the canonical ones
  double canonical_s = 0;
};

// In: a square m x m matrix (offsets, cols, cost: the true costs) with a
// perfect matching, an auction's prices `price` (any finite values) and a
// matching row_mate / col_mate of entries (-1 where unmatched); `lower`:
// the prices are epsilon-optimal for the matching (the auction finished its
// phases), so lower them first to keep its pairs; max_phases: at most this
// many phases (negative: no limit); `canonical`: end with
// the canonical duals of the perfect matching (canonical_duals in
// shortest_augmenting.hpp: job 5's scalings). Out: u (m) and v (m)
// feasible duals (c_ij - u_i - v_j >= 0 up to rounding) and, unless
// counts.stopped_short, row_mate / col_mate a perfect matching tight under
// them: a minimum-cost perfect matching. When it stops short, u, v and the
// matching are still feasible and tight (a valid warm start for the host's
// searches), the matching not perfect, and the duals not the canonical
// ones. Throws out_of_memory when the device's memory runs out; the
// matching is then still a matching and `price` unchanged. Waits for
// session's stream.
DualRepairCounts repair_to_optimum(const StreamSession& session, vertex_t m, const offset_t* offsets,
                                   const vertex_t* cols, const double* cost, const double* price, bool lower,
                                   std::int64_t max_phases, bool canonical, vertex_t* row_mate, vertex_t* col_mate,
                                   double* u, double* v);

}  // namespace matchblas::gpu
