// The dense assignment problem by Bertsekas's auction with epsilon-scaling,
// and the perfect matching of a complete graph read off its permutation:
// roma's `assignment` start (matchers/complete/roma.hpp).
// Source: D. P. Bertsekas, "The auction algorithm: a distributed relaxation
// method for the assignment problem", Annals of Operations Research 14
// (1988), sec. 2 (bids, epsilon-complementary slackness) and sec. 4
// (epsilon-scaling). Not in Hovland 2020; bench/RESULTS.md ("ROMA quality:
// why the greedy start stalls") says why ROMA wants it: on the Hovland 2020
// graphs the greedy start leaves the optimum one or two alternating cycles of
// hundreds of edges away, which no 4-cycle reaches, while the optimal
// assignment is almost all 2-cycles, that is, matching edges.
//
// dense_auction: persons are rows, objects columns, a person may not take
// its own column (w(u, u) is excluded). Each unassigned person bids for its
// best object j1 (value w(u, j) - price[j]) the price that makes it as good
// as its second best plus epsilon; the object goes to the bidder and its
// previous owner bids again. Phases with epsilon = max |w| / 4, then divided
// by `ratio` down to final_epsilon x max |w|, each starting from the last
// phase's prices with every person unassigned. Sequential (Gauss-Seidel).
// Guarantee (with opt.unassigned and opt.bids_per_person 0, the default): a
// fixed-point-free permutation whose value is within n x the final epsilon
// of the best such permutation's (epsilon-complementary slackness). A phase
// stopped early by either leaves a partial permutation and no such bound.
// Cost: O(n) per bid; on the Hovland 2020 graphs 12-45 bids per person in all
// (bench/RESULTS.md).
//
// assignment_matching: every 2-cycle {u, sigma(u)} of the permutation is a
// matching edge; a longer cycle gives the heavier of its alternating edge
// sets (one vertex left out of an odd cycle); the left-out vertices are
// paired in index order. Since a perfect matching M is a permutation of value
// 2 w(M), the optimal assignment is at least twice the optimal matching; on
// the Hovland 2020 graphs the matching read off it is within 0.1% of the optimum
// (ROMA then closes most of the rest). Reading the matching off sigma is
// O(n) (matching_from_assignment).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/dense.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_dense.hpp"

namespace matchblas {

struct AuctionOptions {
  double final_epsilon = 1e-3;  // the last phase's epsilon, relative to max |w| (> 0)
  double ratio = 10;            // epsilon is divided by this between phases (> 1)
  double unassigned = 0;        // a phase ends once at most floor(unassigned x n) persons are
                                // unassigned, in [0, 1); 0: the whole assignment
  double bids_per_person = 0;   // and once it has made this many bids per person (>= 0; 0: no cap)
};

// Throws invalid_input naming the bad field.
void check_auction_options(const AuctionOptions& opt);
// For options that check_auction_options accepts:
// floor(opt.unassigned x n): the persons a phase may leave unassigned.
std::size_t unassigned_allowed(const AuctionOptions& opt, vertex_t n);
// The bids after which a phase ends (opt.bids_per_person x n, at least 1;
// the largest count when there is no cap).
std::uint64_t bids_allowed(const AuctionOptions& opt, vertex_t n);

// sigma (sigma[u] != u, a permutation; with opt.unassigned or
// opt.bids_per_person > 0 possibly a partial one, sigma[u] = no_vertex for
// the persons left unassigned) for an even or odd n >= 2; empty for n = 0. Throws invalid_input for a weight that is not finite (naming the
// entry) and for bad options.
template <class W>
std::vector<vertex_t> dense_auction(const Dense<W>& g, const AuctionOptions& opt = {});

// The mate array (a perfect matching; g.n must be even) read off
// dense_auction(g, opt) as above.
template <class W>
std::vector<vertex_t> assignment_matching(const Dense<W>& g, const AuctionOptions& opt = {});

// The perfect matching read off any (partial) permutation sigma without
// fixed points of an even order, as above; a partial one also has paths,
// from an object no one holds to a person holding none, which give the
// heavier of their two alternating edge sets. weight_to_sigma[u] =
// w(u, sigma[u]) (the only weights it needs, so the GPU auction of
// matchers/complete/auction_gpu.cu gathers just these). O(n). Throws invalid_input when
// sigma is not such a permutation.
std::vector<vertex_t> matching_from_assignment(std::span<const vertex_t> sigma,
                                               std::span<const double> weight_to_sigma);

// Bertsekas's auction with epsilon-scaling on the GPU (matchers/
// auction_gpu.cu says how): the same problem, options and guarantee as
// dense_auction and assignment_matching (matchers/complete/auction.hpp), asynchronous
// (warps bid with an atomicMax on the object's (price, owner) word and go on
// with the owner they displace; prices are floats in units of the largest
// weight, so the bound is n x (epsilon + a float's rounding of a price), and
// opt.final_epsilon must be >= 1e-5, invalid_input otherwise). dense_auction_gpu is on the
// graph's order n; assignment_matching_gpu on the padded order (as roma-gpu
// matches), the matching read off on the host from sigma and the n weights
// w(u, sigma(u)). Not the CPU's permutation (the bids race). Throws
// invalid_input naming a weight that is not finite. The work goes on
// `stream` (a cudaStream_t of the graph's GPU; null: a stream of their own,
// ops/gpu/gpu_session.cuh), which they wait for before returning.
// With stats, each phase's epsilon, kernel seconds, bids (lost ones: another
// bid came first), row scans, persons left unassigned, and its tail: when the
// unassigned count fell to 2^k (and to 0), seconds since the phase's first bid.
struct AuctionGpuPhase {
  double epsilon = 0;
  double seconds = 0;
  std::int64_t bids = 0, lost_bids = 0, scans = 0;
  vertex_t unassigned = 0;
  std::vector<std::pair<vertex_t, double>> tail;
};
struct AuctionGpuStats {
  double seconds = 0;  // the whole auction, wall clock (the phases are synchronised for the counts)
  std::vector<AuctionGpuPhase> phases;
};
template <class W>
std::vector<vertex_t> dense_auction_gpu(const DeviceDense<W>& g, const AuctionOptions& opt = {},
                                        AuctionGpuStats* stats = nullptr, CUstream_st* stream = nullptr);
template <class W>
std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<W>& g, const AuctionOptions& opt = {},
                                              AuctionGpuStats* stats = nullptr, CUstream_st* stream = nullptr);

}  // namespace matchblas
