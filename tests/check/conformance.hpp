// The registry's conformance check: every entry is run on the seeded
// families and the shared real matrices and checked against the guarantee
// it declares (MatcherInfo::guarantee), with checkers independent of the
// algorithm:
//   matching, "greedy"       valid, equal to greedy mate for mate
//   matching, "1/2"          valid, weight >= half the optimum (brute force
//                            up to 20 vertices, else LEMON where available)
//   matching, "exact"        valid, weight = the brute-force optimum
//   matching, "maximal"      valid, no edge with both ends free
//   matching, "2/3-eps"      (complete graphs) run to convergence: a perfect
//                            matching, no 4-cycle gaining more than
//                            min-gain (checked pair by pair), weight >=
//                            2/3 of the optimum less n x min-gain
//   b-matching, "b-greedy"   valid, equal to b_greedy edge for edge, for
//                            several b
//   marriage, "man-optimal"  stable, and each man's wife the best he has in
//                            any stable matching (all stable matchings
//                            enumerated on small instances; equal to
//                            gale_shapley on larger ones)
//   community detection, "local optimum"  a partition with the modularity
//                            it reports, no vertex gaining by a move to a
//                            neighbouring community or alone (with loops,
//                            at two resolutions)
// Deterministic CPU entries must also give the same result at 1 and 2
// threads. An entry whose guarantee has no check fails, so a new entry is
// covered by its guarantee without a new test.
#pragma once
#include "matchers/registry.hpp"

namespace matchblas::check {

// Checks entry m (which must be available here) against its guarantee.
void require_conformance(const MatcherInfo& m);

}  // namespace matchblas::check
