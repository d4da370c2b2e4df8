// ROMA and RAMA on complete graphs by 4-cycle augmentation: the sequential
// CPU reference of issue 5.
// Source: seed 000 sec. 3.3.4 (RAMA, Alg. 2), 3.3.5 (ROMA, Alg. 3), 3.5
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
// unchanged one is found a phase later.
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
#include "matchers/auction.hpp"

namespace matchblas {

// Start matchings (seed 000 sec. 5.5.7): neighbour 0-1, 2-3, ...; half u with
// u + n/2; shuffled u < n/2 with a seeded shuffle of the second half; random
// a seeded random perfect matching; greedy the greedy matching completed to a
// perfect one (free vertices paired in index order); assignment the matching
// read off an auction's assignment (matchers/auction.hpp, with
// RomaOptions::auction; exact, it is within 0.1% of the optimum on seed
// 000's graphs, where greedy + ROMA stays 1.7% off on exponential weights).
enum class RomaStart { neighbour, half, shuffled, random, greedy, assignment };

// Which vertices a roma phase augments: all (seed 000 Alg. 3), or from
// phase 1 on only those whose matching edge changed since the previous
// phase began (see above).
enum class RomaScan { all, changed };
// Whether a vertex whose edge last changed in phase `stamp` (-1: never) is
// augmented in phase `phase` under RomaScan::changed (the CPU's rule and the
// GPU worklist's).
constexpr bool changed_since_previous_phase(int stamp, int phase) { return stamp >= phase - 1; }
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
  RomaScan scan = RomaScan::all;
  AuctionOptions auction = roma_start_auction;  // the assignment start's auction (matchers/auction.hpp)
};

struct RomaPhase {
  int phase = 0;             // 0-based
  std::int64_t flips = 0;
  // Augmentations: scans of one matching edge against all the others. The
  // CPU roma augments vertices (n a phase under RomaScan::all, each edge
  // twice), roma-gpu the pairs it takes from its worklist (at most n/2 under
  // all: a pair whose listed end stopped being its smaller end is skipped);
  // -1 where not counted (roma-gpu-1 and -2 augment every vertex).
  std::int64_t scanned = -1;
  // roma-gpu only: the phase's kernel ("cluster", "stream" or "queued", matchers/
  // roma_gpu.cu) and the edges its scans found past the gain bound (what
  // the automatic choice of the next phase's kernel reads); empty and -1
  // elsewhere.
  std::string kernel;
  int cluster_blocks = 0;  // roma-gpu's cluster phase: the blocks of a cluster (one pair's); 0 elsewhere
  std::int64_t past_bound = -1;
  // roma-gpu only: flips made with a candidate other than the pair's best,
  // after the better ones were refused (flip_in_gain_order); -1 elsewhere.
  std::int64_t fallback_flips = -1;
  double weight = 0;         // of the matching after the phase
  double seconds = 0;
};

struct RomaRun {
  Matching matching;
  double start_weight = 0;
  double start_seconds = 0;       // computing the start matching (wall clock; the phases' times exclude it;
                                  // on the GPU runners it includes a host copy of the graph for greedy)
  std::vector<RomaPhase> phases;  // the phases run (fewer than opt.phases at convergence)
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

}  // namespace matchblas
