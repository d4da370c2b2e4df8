// ROMA and RAMA on complete graphs by 4-cycle augmentation: the sequential
// CPU reference of the GPU versions.
// Source: Hovland 2020 sec. 3.3.4 (RAMA, Alg. 2), 3.3.5 (ROMA, Alg. 3), 3.5
// (4-cycle augmentation on complete graphs, Alg. 4 flip and Alg. 5 aug),
// sec. 5.3 (flip only when the gain exceeds 1e-5), sec. 5.5.5 / 5.5.7 (start
// matchings: neighbour, n/2, shuffled).
//
// On a complete graph every vertex is matched, so a 2-augmentation centred at
// u is a flip of two matching edges {u, M[u]}, {x, M[x]} into {u, x}, {M[u],
// M[x]} or {u, M[x]}, {M[u], x}. aug(u) scans every other matching edge once
// (from its smaller end), takes the flip of largest gain (Alg. 5's tie rule:
// the first one found; the {u, M[x]} option when the two options tie), and
// does it when that gain exceeds min_gain.
//   roma  phases; in each, every vertex in a fresh random order (seeded) is
//         augmented; stops after `phases` phases or after a phase with no flip
//   rama  phases x n augmentations of uniformly random vertices (seeded),
//         reported as phases of n augmentations, so the two read alike
// RomaScan::changed (roma and roma-gpu; rama and roma-gpu-1/-2 refuse it)
// augments, from phase 1 on, only the vertices whose matching edge changed
// in the previous phase or earlier in this one. A flip's gain is symmetric
// in its two edges, so a 4-cycle of two edges that were both checked (every
// cycle of an edge is checked when it is augmented) keeps its gain until one
// of them changes, and the changed one is augmented in the next phase at the
// latest. So, run to convergence, it ends like all at a matching with no
// 4-cycle gaining more than min_gain (not the same one: the two take other
// paths); in between, a flip between an edge changed late in a phase and an
// unchanged one is found a phase later. RomaScan::automatic (the default)
// is changed for roma and roma-gpu after the assignment start on large
// graphs, all otherwise (scan_to_run).
// An odd n gets one zero-weight vertex (padded_to_even) while matching; its
// partner ends unmatched.
//
// Guarantee: a perfect matching (n even) of weight never below the start's;
// every flip raises the weight by more than min_gain; 2/3 - eps of the
// optimum in expectation after O(log 1/eps) phases (Pettie and Sanders).
// Cost: O(n) per augmentation, O(n^2) per phase, reading two rows of w per
// augmented vertex plus w[x, M[x]], which is kept in a vector (updated by every
// flip) rather than gathered from a different row for every x.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/dense.hpp"
#include "lib/matching.hpp"
#include "matchers/common/phased_run.hpp"
#include "matchers/complete/auction.hpp"
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// Start matchings (Hovland 2020 sec. 5.5.7): neighbour 0-1, 2-3, ...; half u with
// u + n/2; shuffled u < n/2 with a seeded shuffle of the second half; random
// a seeded random perfect matching; greedy the greedy matching completed to a
// perfect one (free vertices paired in index order); assignment the matching
// read off an auction's assignment (matchers/complete/auction.hpp, with
// RomaOptions::auction; exact, it is within 0.1% of the optimum on Hovland
// 2020's graphs, where greedy + ROMA stays 1.7% off on exponential weights).
enum class RomaStart { neighbour, half, shuffled, random, greedy, assignment };

// Which vertices a roma phase augments: all (Hovland 2020 Alg. 3), or from
// phase 1 on only those whose matching edge changed since the previous
// phase began (see above), or (automatic) whichever scan_to_run picks.
enum class RomaScan { all, changed, automatic };
// Whether a vertex whose edge last changed in phase `stamp` (-1: never) is
// augmented in phase `phase` under RomaScan::changed (the CPU's rule and the
// GPU worklist's).
constexpr bool changed_since_previous_phase(int stamp, int phase) { return stamp >= phase - 1; }
// The scan a run of n vertices from `start` makes: automatic is changed
// after the assignment start from n = changed_scan_from vertices on, where
// phase 0 leaves a few hundred of the n / 2 pairs to change (at n = 90112
// on the H200: the phases in 15.3 ms instead of 47-93 ms, the same weight
// within the runs' spread; bench/RESULTS.md "roma-gpu: the changed-pairs
// scan after the assignment start"), and all otherwise: after the other
// starts most pairs change in every early phase and scanning only those
// converges more slowly (1% less weight after 8 phases on exponential
// weights from the neighbour start), and on small graphs the GPU's short
// worklists save nothing (n = 1024: 0.07-0.26% less weight on exponential
// weights, no faster).
inline constexpr std::int64_t changed_scan_from = 16384;
constexpr RomaScan scan_to_run(RomaScan scan, RomaStart start, std::int64_t n) {
  if (scan != RomaScan::automatic) return scan;
  return start == RomaStart::assignment && n >= changed_scan_from ? RomaScan::changed : RomaScan::all;
}
RomaScan parse_roma_scan(std::string_view name);  // invalid_input lists the names
std::string to_string(RomaScan s);

// Whether `start` reads the weights (greedy, assignment).
constexpr bool start_needs_weights(RomaStart s) { return s == RomaStart::greedy || s == RomaStart::assignment; }

RomaStart parse_roma_start(std::string_view name);  // invalid_input lists the names
std::string to_string(RomaStart s);

// The assignment start's auction, stopped early for speed: two epsilon
// phases (1/4, then 1/100 of the largest weight), each ending once 1% of the
// persons are unassigned or after 4 bids per person. On the H100 (roma-gpu,
// bench/RESULTS.md "roma-gpu from the assignment start") the whole run took
// 0.62-1.70x the neighbour start's time at n = 4096-65536, with GTO at most
// 0.5% on all three distributions at n = 4096-32768 (neighbour: up to 9.3%
// on exponential weights). On the CPU at n <= 1024 it ends 0.0001-1.4% off.
// AuctionOptions{} is the exact auction.
inline constexpr AuctionOptions roma_start_auction{.final_epsilon = 0.01, .ratio = 25, .unassigned = 0.01,
                                                   .bids_per_person = 4};

struct RomaOptions {
  int phases = 8;            // at most this many phases (>= 0)
  double min_gain = 1e-5;    // flip only when the gain exceeds this (>= 0)
  std::uint64_t seed = 1;    // vertex orders, RAMA's draws, shuffled/random starts
  RomaStart start = RomaStart::neighbour;
  RomaScan scan = RomaScan::automatic;
  AuctionOptions auction = roma_start_auction;  // the assignment start's auction (matchers/complete/auction.hpp)
};

template <class W>
RomaRun roma(const Dense<W>& g, const RomaOptions& opt = {});

template <class W>
RomaRun rama(const Dense<W>& g, const RomaOptions& opt = {});

// The start matching `start` of a complete graph of even order n (mate array).
template <class W>
std::vector<vertex_t> roma_start_matching(const Dense<W>& g, RomaStart start, std::uint64_t seed,
                                          const AuctionOptions& auction = {});
// The same for the starts that need no weights (every one but greedy and
// assignment, which throw invalid_input here).
std::vector<vertex_t> roma_start_matching(vertex_t n, RomaStart start, std::uint64_t seed);

// Throws invalid_input naming the bad field (phases >= 0, min_gain >= 0 and
// finite, the auction's options).
void check_roma_options(const RomaOptions& opt);

// ROMA on a complete graph on the GPU, our fastest version (matchers/
// roma_gpu.cu says how). Each phase runs one of two kernels: the cluster
// phase (a thread-block cluster holds the two rows of one matched pair in
// its distributed shared memory, so every gather of the scan lands on chip)
// or the stream phase (a block streams the two rows from memory and gathers
// only for the edges past a gain bound from the rows' maxima; each such edge
// at once, or queued: 32 at a time, one a lane). Both read
// each row once a phase, take pairs from a worklist with a persistent grid,
// keep the weights of the current matching edges in a vector in step with
// the flips, and re-check a flip's gain with exact weights under the locks.
// RomaGpuKernel::automatic takes the cluster phase for phase 0 and after a
// phase whose scans gathered much when the stream phase's rows in flight
// would not fit L2, the stream phase otherwise: queued, except from phase
// 2 on after a phase whose scans passed the bound on most columns, and
// with bf16 storage (the rule and its thresholds: matchers/complete/
// roma_gpu_policy.hpp). Same options, start matchings and report as the
// CPU roma (matchers/complete/roma.hpp; RomaScan::changed keeps a worklist of the
// changed pairs); RomaPhase::seconds is the phase's kernels (the refresh of
// the weight vector, the worklist's select, the row maxima when first
// needed, and the phase kernel). The greedy start reads a DeviceDense back
// to the host (n^2 weights of host memory); the assignment start is
// assignment_matching_gpu, on the device. Guarantee: a perfect matching
// after every phase, weight never lower (with bf16 storage the flips are
// decided on the rounded weights, so the float weight may dip); not the
// CPU's matching (the flips race), close to it in weight. All of a run's
// work (the upload of a Dense, the start's auction, the phases) goes on one
// stream, gopt.stream or one of its own, waited for before it returns.
enum class RomaGpuKernel { automatic, cluster, stream, queued };  // queued: the stream phase, gathers queued
RomaGpuKernel parse_roma_gpu_kernel(std::string_view name);       // auto, cluster, stream, queued
std::string to_string(RomaGpuKernel k);
// GpuOptions's device (for the Dense overload: a DeviceDense knows its own)
// and stream (a cudaStream_t of that GPU; null: roma-gpu creates and owns
// one); its threads and threads_per_block are not read. Then the kernels'.
struct RomaGpuOptions : GpuOptions {
  RomaGpuKernel kernel = RomaGpuKernel::automatic;  // the phase kernel; cluster, stream or queued: every phase
  int cluster = 0;        // the cluster phase's blocks per pair: 1-16; 0: automatic (matchers/complete/roma_gpu_launch.cuh)
  int blocks_per_sm = 2;  // 1 or 2: the cluster phase's shared memory is split for this many blocks per SM
  bool bf16 = false;      // float graphs only (invalid_input for double): the kernels read a bf16 copy of
                          // the weights (half the bytes; the copy takes n^2 x 2 bytes more) and compute in
                          // float; the report's weights are the float ones, so the cost in quality shows
};
template <class W>
RomaRun roma_gpu(const DeviceDense<W>& g, const RomaOptions& opt = {}, const RomaGpuOptions& gopt = {});
template <class W>
RomaRun roma_gpu(const Dense<W>& g, const RomaOptions& opt = {}, const RomaGpuOptions& gopt = {});

// ROMA on the GPU, faithful to Hovland 2020, the baseline
// (matchers/complete/roma_gpu_thesis.cu):
//   version 1  Alg. 6: a thread per vertex u < M[u], the whole Alg. 5 scan
//   version 2  Alg. 8: a 1024-thread block per vertex u < M[u], a strided
//              scan and a CUB block max-reduction of (gain, a, b)
// both with atomicFlip (Alg. 7: lock min(u, x), then max(u, x), re-check the
// mates, flip, threadfence, unlock; we re-check both ends of each edge,
// matchers/complete/atomic_flip.cuh) and the host loop of Alg. 9 (a flip counter; stops
// after a phase without flips or after opt.phases). Same options, start
// matchings and report as the CPU roma (matchers/complete/roma.hpp), but RomaScan::
// changed is refused (invalid_input: they scan every pair, Alg. 3);
// RomaPhase::seconds is the phase kernel alone (CUDA events). Guarantee: a
// perfect matching after every phase (Lemma 4.1.1 and the locks), weight
// never lower (a flip's gain depends only on the four vertices it re-checks);
// not the CPU's matching (the flips race), but close to it in weight
// (tests/gpu/test_roma_gpu.cpp). Streams as roma_gpu: the run's work goes on
// gpu.stream (the Dense overload; the int form is gpu.device = device) or
// `stream` (a DeviceDense's), or on one of its own when null.
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt = {}, int device = 0);
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt, const GpuOptions& gpu);
template <class W>
RomaRun roma_gpu_thesis(const DeviceDense<W>& g, int version, const RomaOptions& opt = {},
                        CUstream_st* stream = nullptr);

}  // namespace matchblas
