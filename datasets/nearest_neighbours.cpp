// k nearest neighbours of points in the unit square by a grid of cells and
// a ring-by-ring search (datasets/nearest_neighbours.hpp says what, source,
// guarantee and cost).
//
// The square is cut into g x g cells, g = floor(sqrt(n / k)) (at least 1),
// about k points a cell; the points are counting-sorted by cell, in index
// order within a cell. Point u in cell (cx, cy) scans ring r = 0, 1, ...
// (the cells at Chebyshev distance r from its own) into a max-heap of its
// k best (d2, id) candidates. After ring r every point not yet scanned lies
// outside the (2r+1) x (2r+1) block of cells, at least `bound` from u: the
// distance from u to the nearest side of the block that is not the
// square's boundary. The search stops when the heap is full and its worst
// d2 is below (bound - margin)^2: no unseen point can then come before it,
// not even on a tie broken by id. The margin (1e-9) covers the rounding of
// d2 and of the cell index (x g is rounded, so a point may sit a few ulps
// outside its cell); it only delays the stop. When the block covers the
// whole square, every point has been scanned.
#include "datasets/nearest_neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "lib/complete_weights.hpp"
#include "lib/error.hpp"

namespace matchblas {

namespace {

struct Candidate {
  double d2;
  vertex_t id;
  bool operator<(const Candidate& o) const noexcept { return d2 < o.d2 || (d2 == o.d2 && id < o.id); }
};

constexpr double margin = 1e-9;

}  // namespace

std::vector<vertex_t> nearest_neighbours(std::span<const double> x, std::span<const double> y, vertex_t k) {
  MATCHBLAS_EXPECTS(x.size() == y.size(), "nearest_neighbours: " + std::to_string(x.size()) + " x coordinates but " +
                                              std::to_string(y.size()) + " y coordinates");
  MATCHBLAS_EXPECTS(x.size() <= static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()),
                    "nearest_neighbours: more than 2^31 - 1 points");
  const auto n = static_cast<std::int64_t>(x.size());
  MATCHBLAS_EXPECTS(k >= 0 && (k == 0 || k < n), "nearest_neighbours: k must be in [0, n - 1] = [0, " +
                                                     std::to_string(std::max<std::int64_t>(n - 1, 0)) + "], got " +
                                                     std::to_string(k));
  std::int64_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t i = 0; i < n; ++i)
    if (!(x[i] >= 0 && x[i] <= 1 && y[i] >= 0 && y[i] <= 1)) first_bad = std::min(first_bad, i);
  MATCHBLAS_EXPECTS(first_bad == n, "nearest_neighbours: point " + std::to_string(first_bad) + " = (" +
                                        (first_bad < n ? std::to_string(x[first_bad]) + ", " +
                                                             std::to_string(y[first_bad])
                                                       : std::string()) +
                                        ") is outside the unit square");
  std::vector<vertex_t> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(k));
  if (k == 0) return out;

  // Cells, and the points sorted by cell (count, exclusive scan, fill).
  const auto g = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::sqrt(double(n) / double(k))));
  const double gd = static_cast<double>(g);
  auto cell_of = [&](double c) { return std::min(g - 1, static_cast<std::int64_t>(c * gd)); };
  std::vector<std::int64_t> start(static_cast<std::size_t>(g * g) + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) ++start[cell_of(y[i]) * g + cell_of(x[i]) + 1];
  for (std::int64_t c = 0; c < g * g; ++c) start[c + 1] += start[c];
  std::vector<double> px(static_cast<std::size_t>(n)), py(px.size());
  std::vector<vertex_t> id(px.size());
  {
    std::vector<std::int64_t> next(start.begin(), start.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t p = next[cell_of(y[i]) * g + cell_of(x[i])]++;
      px[p] = x[i], py[p] = y[i], id[p] = static_cast<vertex_t>(i);
    }
  }

  constexpr double inf = std::numeric_limits<double>::infinity();
#pragma omp parallel
  {
    std::vector<Candidate> heap;  // a max-heap under Candidate's order
    heap.reserve(static_cast<std::size_t>(k));
    // In cell order: consecutive points scan the same cells.
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t p = 0; p < n; ++p) {
      const vertex_t u = id[p];
      const double ux = px[p], uy = py[p];
      const std::int64_t cx = cell_of(ux), cy = cell_of(uy);
      heap.clear();
      auto scan = [&](std::int64_t cell) {
        for (std::int64_t q = start[cell]; q < start[cell + 1]; ++q) {
          if (id[q] == u) continue;
          const Candidate c{CompleteWeights::squared_distance(px[q] - ux, py[q] - uy), id[q]};
          if (heap.size() < static_cast<std::size_t>(k)) {
            heap.push_back(c);
            std::push_heap(heap.begin(), heap.end());
          } else if (c < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = c;
            std::push_heap(heap.begin(), heap.end());
          }
        }
      };
      for (std::int64_t r = 0;; ++r) {
        const std::int64_t x0 = std::max<std::int64_t>(0, cx - r), x1 = std::min(g - 1, cx + r);
        for (std::int64_t j = std::max<std::int64_t>(0, cy - r); j <= std::min(g - 1, cy + r); ++j) {
          if (j == cy - r || j == cy + r) {  // the ring's bottom or top row: all of it
            for (std::int64_t i = x0; i <= x1; ++i) scan(j * g + i);
          } else {  // its left and right cells
            if (cx - r >= 0) scan(j * g + cx - r);
            if (cx + r < g) scan(j * g + cx + r);
          }
        }
        double bound = inf;
        if (cx - r > 0) bound = std::min(bound, ux - double(cx - r) / gd);
        if (cx + r + 1 < g) bound = std::min(bound, double(cx + r + 1) / gd - ux);
        if (cy - r > 0) bound = std::min(bound, uy - double(cy - r) / gd);
        if (cy + r + 1 < g) bound = std::min(bound, double(cy + r + 1) / gd - uy);
        if (bound == inf) break;  // the block is the whole square
        const double safe = bound - margin;
        if (heap.size() == static_cast<std::size_t>(k) && safe > 0 && heap.front().d2 < safe * safe) break;
      }
      std::sort_heap(heap.begin(), heap.end());
      vertex_t* row = out.data() + static_cast<std::size_t>(u) * static_cast<std::size_t>(k);
      for (vertex_t j = 0; j < k; ++j) row[j] = heap[j].id;
    }
  }
  return out;
}

}  // namespace matchblas
