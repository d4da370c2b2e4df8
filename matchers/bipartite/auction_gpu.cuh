// The device level of the GPU auction (max_sum_gpu.cu): Bertsekas's
// forward auction in Jacobi rounds on a matrix already on the device, for
// the GPU entries that start from an auction (max-sum-gpu and
// max-product-gpu with epsilon-scaling, awpm-gpu in one coarse phase), and
// max-sum-gpu's three steps on such a matrix (min_cost_on_device: the host
// entry after its upload, and the pre-pass on a caller's device arrays).
// .cu files only.
#pragma once
#include <cstdint>
#include <limits>

#include "lib/types.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "ops/gpu/device_buffer.cuh"
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

// max-sum-gpu on a square m x m matrix already on the device (offsets,
// cols, cost: finite costs, lowest and highest their range): (1) the
// maximum matching from the greedy start, which decides whether the matrix
// is structurally nonsingular; (2) the auction with epsilon-scaling from
// that matching (options' ceiling, tails, rounds); (3) unless
// options.host_repair, the repair to the exact optimum on the device
// (repair_to_optimum; canonical duals when options.canonical_duals).
// row_mate (m), owner (m) and price (m) are the caller's device arrays,
// set here. Fills report's device fields (check_s, device_s, repair_s, the
// auction's and the repair's counts). Waits for session's stream.
struct MinCostOnDevice {
  bool singular = false;        // fewer than m rows matchable: nothing else set
  bool on_device = false;       // row_mate / owner a minimum-cost perfect matching, u / v its duals
  bool prices_to_host = false;  // the host's searches finish from `price` (host_repair, or the repair
                                // ran out of memory); else, when !on_device, from v (it stopped short)
  DeviceBuffer<double> u, v;    // the repair's duals (empty where it did not run or ran out of memory)
};
MinCostOnDevice min_cost_on_device(const StreamSession& session, vertex_t m, const offset_t* offsets,
                                   const vertex_t* cols, const double* cost, double lowest, double highest,
                                   const AuctionGpuOptions& options, AuctionGpuReport& report, vertex_t* row_mate,
                                   vertex_t* owner, double* price);

}  // namespace matchblas::gpu
