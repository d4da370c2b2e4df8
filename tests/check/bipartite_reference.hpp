// Independent references for the bipartite family (written here, sharing no
// code with matchers/bipartite/):
//   bipartite_rank      Kuhn's augmenting-path algorithm: the size of a
//                       maximum matching of the entries with |a_ij| >= threshold.
//   best_bipartite      a dense Hungarian method (potentials, O(N^3), N =
//                       max(m, n)) on costs where a missing entry costs far
//                       more than any real one (and, for job 5, an explicit
//                       zero far more than any nonzero): the best
//                       (cardinality, objective) of MC64's job 4 (sum of
//                       |a_ij|) or 5 (sum of log|a_ij|) over the maximum
//                       matchings. Small matrices only (N <= ~1500).
//   bottleneck_value    the largest t such that the entries >= t keep the
//                       maximum cardinality (brute force over the values).
//   bipartite_mates_violation  why mate arrays are not a matching of a's
//                       entries (sizes, bounds, symmetry, every pair an entry,
//                       `matched` their count); "" when they are.
//   has_augmenting_path Berge: an alternating BFS from the free rows reaches a
//                       free column (so the matching is not maximum).
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"  // BipartiteMates (the type only)

namespace matchblas::check {

vertex_t bipartite_rank(const Csr<double>& a, double threshold = -1);
std::pair<vertex_t, double> best_bipartite(const Csr<double>& a, int job);
double bottleneck_value(const Csr<double>& a);

template <class W>
std::string bipartite_mates_violation(const Csr<W>& a, const BipartiteMates& m);
template <class W>
bool has_augmenting_path(const Csr<W>& a, const BipartiteMates& m);

// Fails the current test (with the reason) unless m is a matching of a.
template <class W>
void require_valid_mates(const Csr<W>& a, const BipartiteMates& m) {
  const std::string why = bipartite_mates_violation(a, m);
  INFO("bipartite_mates_violation: ", why);
  REQUIRE(why.empty());
}

}  // namespace matchblas::check
