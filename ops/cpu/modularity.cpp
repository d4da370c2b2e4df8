// modularity and weighted_degrees (ops/modularity.hpp): rows in parallel,
// long double sums.
#include "ops/modularity.hpp"

#include <algorithm>
#include <string>

#include "lib/error.hpp"

namespace matchblas::ops {

std::vector<double> weighted_degrees(const Csr<double>& g) {
  std::vector<double> k(std::size_t(g.n_rows), 0.0);
#pragma omp parallel for schedule(static, 1024)
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    double s = 0;
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) s += g.cols[e] == u ? 2 * g.weights[e] : g.weights[e];
    k[std::size_t(u)] = s;
  }
  return k;
}

double modularity(const Csr<double>& g, std::span<const vertex_t> label, double gamma) {
  if (label.size() != std::size_t(g.n_rows))
    throw invalid_input("modularity: " + std::to_string(label.size()) + " labels for a graph of " +
                        std::to_string(g.n_rows) + " vertices");
  vertex_t communities = 0;
  for (std::size_t u = 0; u < label.size(); ++u) {
    if (label[u] < 0) throw invalid_input("modularity: vertex " + std::to_string(u) + " has a negative label");
    communities = std::max(communities, label[u] + 1);
  }
  // Per row in parallel, then summed in row order: the same bits at any
  // thread count.
  std::vector<long double> inside_of(label.size()), degree_of(label.size());
#pragma omp parallel for schedule(static, 1024)
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    long double inside = 0, degree = 0;
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t v = g.cols[e];
      const long double w = g.weights[e];
      degree += u == v ? 2 * w : w;
      if (label[std::size_t(u)] == label[std::size_t(v)]) inside += u == v ? w : w / 2;
    }
    inside_of[std::size_t(u)] = inside;
    degree_of[std::size_t(u)] = degree;
  }
  std::vector<long double> a(std::size_t(communities), 0.0L);
  long double inside = 0, two_m = 0;
  for (std::size_t u = 0; u < label.size(); ++u) {
    inside += inside_of[u];
    two_m += degree_of[u];
    a[std::size_t(label[u])] += degree_of[u];
  }
  if (two_m == 0) return 0.0;
  long double expected = 0;
  for (long double ac : a) expected += ac * ac;
  return double(inside / (two_m / 2) - (long double)gamma * expected / (two_m * two_m));
}

}  // namespace matchblas::ops
