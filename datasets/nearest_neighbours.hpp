// The k nearest neighbours of every point of a set in the unit square, found
// with a uniform grid of cells searched outward ring by ring (the cell
// technique of Bentley, Weide and Yao, "Optimal expected-time algorithms for
// closest point problems", ACM Trans. Math. Software 6(4), 1980: the spiral
// search). The knn generator (datasets/generators.hpp) is built on it.
//
// Order: w is nearer to u than w' when (d2(u, w), w) < (d2(u, w'), w')
// lexicographically, d2 = CompleteWeights::squared_distance of the
// coordinate differences (lib/complete_weights.hpp): ties in distance go to
// the smaller id, so the answer is unique.
// Guarantee: exactly the k smallest of the n - 1 other points under that
// order (what a brute-force O(n^2) scan gives), the same for every thread
// count.
// Cost: cells of about k points; a point's search stops once its k-th best
// distance is below the distance to the cells not yet visited, so for
// uniformly spread points O(n k log k) expected work (O(n k) distances,
// a heap of k) and O(n) memory besides the n k answers, parallel over
// points (OpenMP). Clustered points degrade towards O(n^2 log k).
#pragma once
#include <span>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

// Row u of the result (entries u k .. u k + k - 1) holds u's k nearest
// other points, nearest first. x and y give the points (equal lengths, at
// most 2^31 - 1, every coordinate in [0, 1]); 0 <= k <= n - 1 (k = 0 gives
// an empty result). Bad arguments throw invalid_input.
std::vector<vertex_t> nearest_neighbours(std::span<const double> x, std::span<const double> y, vertex_t k);

}  // namespace matchblas
