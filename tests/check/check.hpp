// Property checkers and fixtures shared by the test suites (STYLE 15-16):
// independent of the code under test, obviously correct, slow where needed.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/marriage_instance.hpp"
#include "lib/matching.hpp"

namespace matchblas::check {

// A seeded random general graph on n vertices: each pair is an edge with
// probability `density`; with ties = k > 0 weights come from {1..k}/k, else
// uniform (0,1]. Built edge by edge, independent of the library's builders.
Csr<double> random_graph(vertex_t n, double density, int ties, std::uint64_t seed);

// A seeded per-vertex b for the b-matchers' tests: b(v) uniform in 0..4
// (zeros included).
std::vector<int> random_b(vertex_t n, std::uint64_t seed);

// A seeded random rows x cols matrix (any shape, 0 allowed): each (u, v) is
// an entry with probability `density`, weights as random_graph; columns
// ascending within each row.
Csr<double> random_matrix(vertex_t rows, vertex_t cols, double density, int ties, std::uint64_t seed);

// a with entry (i, i) of weight(i) added to every row i < cols that lacks
// one, before the row's first column above i (rows stay in their order).
Csr<double> with_diagonal(const Csr<double>& a, const std::function<double(vertex_t)>& weight);

// random_matrix(rows, cols, density, 7, seed) with its weights mapped to
// -3..3 (ties, negative weights, explicit zeros: what the ops, which take
// weights as given, must handle), as W in {float, double}.
template <class W>
Csr<W> random_signed_matrix(vertex_t rows, vertex_t cols, double density, std::uint64_t seed);

// a with the entries of each row shuffled and about one in four doubled (the
// same column again, weight + 1), seeded: unsorted rows with duplicates.
Csr<double> scramble_rows(const Csr<double>& a, std::uint64_t seed);

// a with its weights converted to W.
template <class W>
Csr<W> with_weights(const Csr<double>& a) {
  Csr<W> b;
  b.n_rows = a.n_rows;
  b.n_cols = a.n_cols;
  b.offsets = a.offsets;
  b.cols = a.cols;
  b.weights.assign(a.weights.begin(), a.weights.end());
  return b;
}

// Fails the current test unless got and want are the same matrix, array by
// array (shape, offsets, columns, weights compared exactly).
template <class W>
void require_same_csr(const Csr<W>& got, const Csr<W>& want) {
  REQUIRE(got.n_rows == want.n_rows);
  REQUIRE(got.n_cols == want.n_cols);
  REQUIRE(got.offsets == want.offsets);
  REQUIRE(got.cols == want.cols);
  REQUIRE(got.weights == want.weights);
}

// A seeded stable-marriage instance whose sides list independently: each
// man lists each woman with probability `density`, each woman each man, in
// random order (so the lists need not be mutual).
MarriageInstance independent_marriage_lists(vertex_t men, vertex_t women, double density, std::uint64_t seed);

// A seeded random complete graph (dense), weights as random_graph.
Dense<double> random_complete_graph(vertex_t n, int ties, std::uint64_t seed);

// Assignments (matchers/complete/auction.hpp): sum of g(u, sigma[u]); the largest
// |g(u, v)|, u != v; a test failure unless sigma is a permutation without
// fixed points; the best such permutation by brute force (n <= 8).
template <class W>
double assignment_value(const Dense<W>& g, const std::vector<vertex_t>& sigma) {
  double value = 0;
  for (vertex_t u = 0; u < g.n; ++u) value += g(u, sigma[u]);
  return value;
}
template <class W>
double largest_off_diagonal(const Dense<W>& g) {
  double largest = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t v = 0; v < g.n; ++v)
      if (u != v) largest = std::max(largest, std::abs(double(g(u, v))));
  return largest;
}
void require_derangement(const std::vector<vertex_t>& sigma);
// The same for a partial one (sigma[u] = no_vertex: u unassigned); returns
// how many persons are unassigned.
vertex_t require_partial_derangement(const std::vector<vertex_t>& sigma);
double best_derangement(const Dense<double>& g);

// Maximum matching weight by exhaustive search over vertex subsets
// (O(2^n n)); n <= 20. With `perfect`, only perfect matchings count
// (returns -infinity when none exists).
double brute_force_max_weight(const Csr<double>& g, bool perfect = false);
double brute_force_max_weight(const Dense<double>& g, bool perfect = false);

// The 2-augmentation of largest gain over the matching m of g, centred at
// any vertex v (Pettie and Sanders): new edges (v, x) and / or (M[v], y), the
// matching edges at their ends removed. Exhaustive over every v, x, y
// (O(n d^2) edge sets, each compared by summing its weights), independent of
// the matchers' search. gain 0 and no centre when nothing gains.
struct TwoAugmentation {
  double gain = 0;
  vertex_t centre = -1, x = -1, y = -1;
};
// With `lists`, the new edges (v, x) and (M[v], y) are only those of v's
// and M[v]'s rows in lists (a directed graph on g's vertices: each vertex's
// candidates), weights read from g.
TwoAugmentation largest_2_augmentation(const Csr<double>& g, const Matching& m, const Csr<double>* lists = nullptr);

// The largest gain of an alternating cycle of m with at most k matching
// edges (and as many new ones), each vertex once: exhaustive (every matched
// r, every path r, x1, M[x1], ..., x_j, M[x_j] through g's edges, closed by an
// edge (M[x_j], M[r])), with no pruning by gain. 0 when none gains.
double largest_alternating_cycle(const Csr<double>& g, const Matching& m, int k);

// The largest row length of g (0 for no rows).
template <class W>
offset_t max_degree(const Csr<W>& g) {
  offset_t d = 0;
  for (vertex_t u = 0; u < g.n_rows; ++u) d = std::max(d, g.degree(u));
  return d;
}

// Fails the current test (with the reason) unless m is a valid matching of g.
template <class G>
void require_valid(const G& g, const Matching& m) {
  const std::string why = matching_violation(g, m);
  INFO("matching_violation: ", why);
  REQUIRE(why.empty());
}

// The folder of the shared SuiteSparse matrices (environment variable
// MATCHBLAS_MATRICES, else the path configured at build time), or nothing
// when it is absent.
std::optional<std::filesystem::path> shared_matrices();

// The project's own test fixtures (tests/data).
std::filesystem::path test_data();

// A fresh empty temporary directory, removed when the object dies.
class temp_dir {
 public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace matchblas::check
