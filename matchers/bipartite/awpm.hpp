// AWPM: a maximum-cardinality matching of an m-by-n matrix with a heavy sum
// of matched |a_ij| (MC64 job 4's objective, approximately), by 4-cycles.
//   Source: A. Azad, A. Buluc, X. S. Li, X. Wang, J. Langguth, "A
//   distributed-memory algorithm for computing a heavy-weight perfect
//   matching on bipartite graphs", SIAM J. Sci. Comput. 42(4), 2020: a
//   maximal start, maximum cardinality, then rounds of weight-increasing
//   alternating 4-cycles. Here in shared memory (OpenMP), on any shape, from
//   a greedy (Suitor) start, maximum cardinality by breadth-first phases
//   (short augmenting paths keep more of the heavy start than Pothen-Fan's
//   depth-first ones), the cycles of a round chosen locally dominant.
//   Guarantee: approximate. A maximum matching (its size the structural
//   rank); the rounds never lower its weight, which is <= job 4's optimum;
//   on convergence no 4-cycle (rows i, i', their columns j, j',
//   entries (i, j'), (i', j)) gains more than min_gain times the weight.
//   No bound on the gap to the optimum: up to 65% on the shared matrices
//   (tests/matchers/test_awpm.cpp lists those over 1%, and why).
//   Deterministic: the same matching for every thread count.
//   Cost: the start O(sum over proposals of the proposer's degree) work
//   (Suitor, parallel); maximum cardinality O(nnz) per breadth-first phase,
//   at most min(m, n) + 1 phases, sequential; each round O(m + sum over the rows evaluated again of
//   deg(i) log(max deg)) work, depth O(max deg log(max deg)) plus an O(m)
//   sum; O(m + n + nnz) memory (a row-sorted copy of |a| and its transpose).
#pragma once
#include <cstdint>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct AwpmOptions {
  // A cycle is applied when its gain exceeds min_gain times the matching's
  // weight at the start of the round (0: any positive gain).
  double min_gain = 1e-12;
  std::int64_t max_rounds = 100000;  // 0: the start and maximum cardinality only
  int threads = 0;                   // OpenMP threads (<= 0: the current setting)
};

struct AwpmRound {
  std::int64_t cycles = 0;  // 4-cycles applied in the round
  double weight = 0;        // the matching's weight after it
};

struct AwpmResult {
  BipartiteMates mates;
  double start_weight = 0;    // the Suitor start (the greedy matching of |a|)
  double maximum_weight = 0;  // after maximum cardinality, before the rounds
  std::vector<AwpmRound> rounds;  // the last one applies nothing when converged
  bool converged = false;     // a round found no cycle above the threshold
};

// a's values are read through |.|; explicit zeros are entries; rows may be
// unsorted and hold duplicates (the first entry of a column in the row
// counts, as prepass_result reads it). Throws invalid_input for a malformed
// Csr, a non-finite value, or options out of range.
AwpmResult awpm(const Csr<double>& a, const AwpmOptions& options = {});

// The same on GPU gpu.device (awpm_gpu.cu): the same start (the greedy
// matching of |a|, by one-sided Suitor in rounds of proposals), maximum
// cardinality by cardinality-gpu's phases, then the same rounds of cycles
// each of whose rows is the other's best. Guarantee: approximate, as awpm;
// which maximum matching the rounds start from depends on the schedule, so
// the result is not deterministic. options.threads is not used. times, when
// given, gets upload, match (start, maximum cardinality, rounds) and download.
AwpmResult awpm_gpu(const Csr<double>& a, const AwpmOptions& options = {}, const GpuOptions& gpu = {},
                    GpuTimes* times = nullptr);

// |a| with each row sorted by column and one entry per column (the first in
// a's row order), so that (i, j) is found by binary search: what both
// versions search. The moduli are multiplied by scale = moduli_sum_scale
// (a power of two, 1 unless the largest is 2^511 or more), so that the
// matching's weight and the 4-cycles' gains stay finite; the versions
// divide the weights they report by it.
Csr<double> sorted_moduli(const Csr<double>& a, double& scale);

}  // namespace matchblas
