// The device level of the GPU auction (max_sum_gpu.cu): Bertsekas's
// forward auction in Jacobi rounds on a matrix already on the device, for
// the GPU entries that start from an auction (max-sum-gpu and
// max-product-gpu with epsilon-scaling, awpm-gpu in one coarse phase).
// .cu files only.
#pragma once
#include <cstdint>
#include <limits>

#include "lib/types.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas::gpu {

// The auction's state on the device (a view passed by value): minimum cost
// (benefits -min(cost, ceiling)), prices only rising within and across
// phases.
struct AuctionView {
  vertex_t m;
  const offset_t* offsets;
  const vertex_t* cols;
  const double* cost;
  double ceiling;            // costs above it are auctioned as it (infinity: none)
  double* price;             // p_j, 0 at the start
  vertex_t* owner;           // the row assigned to column j, or -1
  vertex_t* row_mate;        // the column assigned to row i, or -1
  unsigned long long* key;   // the round's best (bid, row) per column; 0 at the start and between rounds
  double* bid;               // m: row i's bid this round
  vertex_t* target;          // m: the column it bid for
};

// One phase at `epsilon`: the assigned rows that break epsilon-complementary
// slackness give their columns up, then bidding rounds until at most `tail`
// rows are unassigned or max_rounds rounds have run (rounds counts them).
// active and next are m-row scratch lists (what they hold afterwards is not
// defined). The rounds run in one cooperative launch. Returns the rows left
// unassigned; waits for session's stream.
unsigned auction_phase(const StreamSession& session, const AuctionView& a, double epsilon, vertex_t tail,
                       std::int64_t max_rounds, vertex_t* active, vertex_t* next, std::int64_t& rounds);

}  // namespace matchblas::gpu
