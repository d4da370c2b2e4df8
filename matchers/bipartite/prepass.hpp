// The diagonal-permutation pre-pass: MC64's jobs on an m-by-n sparse matrix
// (rows on one side, columns on the other), with the permutation, the
// scalings and a report.
//   Jobs (numbered as MC64's):
//     0  none: the identity permutation, nothing matched.
//     1  maximum cardinality (max_cardinality.hpp).
//     2, 3  bottleneck: a maximum matching maximising the smallest matched
//        |a_ij| (bottleneck.hpp; both jobs run the same algorithm).
//     4  maximum sum of the matched |a_ij| among the maximum matchings
//        (shortest_augmenting.hpp on the costs -|a_ij|).
//     5  maximum product of the matched |a_ij| among the maximum matchings
//        (costs -log|a_ij|; an explicit zero entry costs more than any
//        product of nonzeros can gain, so it is used only when the
//        cardinality needs it) with log scalings from the duals:
//        |a_ij| exp(r_i + c_j) = 1 on the matching and <= 1 everywhere
//        (on a square matrix with a perfect matching, from the canonical
//        duals: the greatest column scalings at or below MC64's first ones,
//        a function of the matrix and the matching alone). When explicit
//        zeros had to be matched, the scalings come from the canonical
//        duals of the nonzero pairs among their own rows and columns (the
//        others the greatest scalings within the bound), not from duals
//        carrying the zeros' cost, which grow with n and lose the bounds'
//        precision (the symmetric mode: only when the nonzero pairs' rows
//        and columns are the same set, e.g. zeros matched on the diagonal).
//   Symmetric mode (job 5, square matrices holding both triangles of a
//   symmetric |A|): one scaling s = (r + c) / 2 for rows and columns, which
//   keeps both bounds (MC64's symmetric variant; Duff and Pralet, SIAM J.
//   Matrix Anal. Appl. 27(2), 2005, sec. 3).
//   The permutation (square matrices): perm[i] = the column matched to row
//   i, completed by giving the unmatched rows the unmatched columns in
//   increasing order. Column perm[i] of A is column i of A Q, so A Q has the
//   matched entries on its diagonal; this is MC64's CPERM (0-based) and
//   SuperLU's perm_r (row i of A is row perm[i] of P A, which puts the same
//   entries on the diagonal of P A).
//   Cost: that of the job's algorithm; the report's `seconds` times it.
//   Threads: jobs 4-5 run their O(nnz) passes on OpenMP's current setting
//   (the registry's entries set it from RunOptions::threads), with the same
//   bits on any count. The auction's bids (PrepassOptions::bids) run by
//   default in synchronous (Jacobi) rounds on the threads, whose outcome
//   does not depend on their number, and the shortest augmenting paths in
//   rounds on 4 or more threads with the serial result bit for bit; so the
//   result is the same on every run and every thread count. Bids::sequential
//   (one row at a time in one thread's order) is the same on every count
//   too, and may return another of the optimal matchings where several are
//   (the objective is the same; job 5's scalings, the canonical duals, the
//   same up to rounding). With Bids::asynchronous the auction's first
//   phases bid on all the threads without rounds: which optimal matching
//   comes back then depends on the threads' timing.
//   Matrices of fewer than 65536 entries always run on one thread.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"

namespace matchblas {

struct PrepassOptions {
  int job = 5;             // 0-5 as MC64's
  bool symmetric = false;  // job 5 only: one scaling vector (square, symmetric |A|)
  // Jobs 4-5 on a square matrix: start the shortest augmenting paths from
  // an auction's prices (auction_start.hpp) or from MC64's
  // initialisation. The same optimum either way; job 5's scalings come
  // from the canonical duals of the matching found (canonical_duals in
  // shortest_augmenting.hpp), so they do not depend on the start either.
  // automatic: MC64's initialisation where it leaves at most n / 2000 rows
  // to the searches (min_cost_row_perfect_if_start_near: a dominant
  // diagonal), else the auction's prices.
  enum class Start { automatic, auction, mc64 };
  Start start = Start::automatic;
  // Jobs 4-5, the auction start's bids (auction_start.hpp):
  //   sequential: one row at a time in one thread's order;
  //   jacobi: synchronous rounds on every thread, each column taking its
  //     highest bid (ties to the smaller row), the same on any count; the
  //     default (on one thread about as fast as sequential, on two 1.2-1.4x
  //     faster: bench/RESULTS.md);
  //   asynchronous: the first two phases' bids on every thread at once,
  //     a lock per column (which optimal matching comes back depends on the
  //     threads' timing).
  enum class Bids { jacobi, sequential, asynchronous };
  Bids bids = Bids::jacobi;
};

struct PrepassResult {
  int job = 5;
  BipartiteMates mates;
  std::vector<vertex_t> perm;          // n entries for a square matrix; empty otherwise
  std::vector<double> row_log_scale;   // job 5: m entries r_i (symmetric: s)
  std::vector<double> col_log_scale;   // job 5: n entries c_j (symmetric: s)
  bool singular = false;               // fewer than min(m, n) matched
  bool scaling_near_overflow = false;  // some |log scale| above log(DBL_MAX) / 2
  // Job 1: the matched count; 2-3: the smallest matched |a_ij|; 4: the sum of
  // the matched |a_ij|; 5: the sum of their natural logarithms (-inf when an
  // explicit zero had to be matched).
  double objective = 0;
  double min_matched_abs = 0;  // the smallest matched |a_ij| (0 when none)
  std::int64_t searches = 0;   // jobs 4-5: shortest-path searches; 2-3: thresholds tried and widest-path searches; cardinality-gpu: BFS phases
  double seconds = 0;
  // GPU entries: the work with the matrix already on the device (no upload,
  // no download); NaN for the CPU entries.
  double device_seconds = std::numeric_limits<double>::quiet_NaN();
  std::string details;  // GPU entries: what the device did, for benchmark reports (may be empty)
};

// a's values are read through |.| (a pattern matrix: all ones); explicit
// zeros are entries. Throws invalid_input for a malformed Csr, a job out of
// range, a non-finite value, or the symmetric mode on a matrix that is not
// square with |a_ij| = |a_ji|.
PrepassResult prepass(const Csr<double>& a, const PrepassOptions& options = {});

// The report and the permutation of a matching `mates` of a computed for
// `job` (0-5): objective, min_matched_abs, singular and perm as prepass()
// fills them; scalings, searches and seconds are left to the caller. Other
// algorithms computing a job's matching (awpm.hpp) report through it.
// Throws std::logic_error when a matched pair is not an entry of a.
PrepassResult prepass_result(const Csr<double>& a, int job, BipartiteMates mates);

// The same jobs 4 and 5 on GPU gpu.device (registry entries max-sum-gpu
// and max-product-gpu): the costs below through
// min_cost_max_cardinality_gpu (an auction on the GPU, repaired to the
// exact optimum on the host; rectangular and structurally singular matrices
// on the host), then the report and scalings as prepass() makes them. The
// same checks and errors as prepass(), and error without a GPU; report,
// when given, gets the auction's account (device time, rows repaired).
PrepassResult prepass_gpu(const Csr<double>& a, const PrepassOptions& options, const GpuOptions& gpu = {},
                          const AuctionGpuOptions& auction = {}, AuctionGpuReport* report = nullptr);

// The pieces prepass() is made of, for the entries that compute a job
// another way. check_prepass_input: prepass()'s checks of a and options.
// prepass_costs: job 4's costs -|a_ij| (times moduli_sum_scale's power of
// two when the largest is 2^511 or more, so that no sum overflows) or job
// 5's -log|a_ij| (an explicit zero costing more than any difference the
// nonzeros can make), minimised
// by the engine of shortest_augmenting.hpp. prepass_from_duals: the report
// of that engine's result d on prepass_costs(a, job), with job 5's scalings
// r = u, c = v (symmetric: both (u + v) / 2; when zeros are matched, the
// nonzero pairs' duals as above).
void check_prepass_input(const Csr<double>& a, const PrepassOptions& options);
Csr<double> prepass_costs(const Csr<double>& a, int job);
PrepassResult prepass_from_duals(const Csr<double>& a, int job, DualMatching d, bool symmetric);

// b_ij = a_ij exp(r_i + c_j) for every entry of a (same pattern; computed as
// sign(a_ij) exp(log|a_ij| + r_i + c_j), explicit zeros kept zero).
Csr<double> apply_log_scaling(const Csr<double>& a, const std::vector<double>& row_log_scale,
                              const std::vector<double>& col_log_scale);

}  // namespace matchblas
