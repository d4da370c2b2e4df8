// A dense symmetric n-by-n weight matrix, row-major: the complete graph of
// N. H. Hovland, "Maximum weighted matching on a GPU", Master's thesis,
// University of Bergen, 2020. Entry (u, v) is the weight of edge {u, v}; the
// diagonal is ignored. An odd n gets one extra vertex with zero weights
// (Hovland 2020 sec. 5.1) through padded_to_even().
#pragma once
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "lib/error.hpp"
#include "lib/types.hpp"

namespace matchblas {

template <class W>
struct Dense {
  using weight_type = W;
  using eigen_matrix = Eigen::Matrix<W, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  vertex_t n = 0;
  std::vector<W> values;  // n * n entries, row-major

  Dense() = default;
  explicit Dense(vertex_t n_) : n(n_), values(static_cast<std::size_t>(n_) * n_, W(0)) {
    MATCHBLAS_EXPECTS(n_ >= 0, "dense matrix: negative order");
  }

  W operator()(vertex_t u, vertex_t v) const { return values[index(u, v)]; }
  W& operator()(vertex_t u, vertex_t v) { return values[index(u, v)]; }
  offset_t num_edges() const noexcept { return static_cast<offset_t>(n) * (n - 1) / 2; }
  std::size_t bytes() const noexcept { return values.size() * sizeof(W); }

  Eigen::Map<const eigen_matrix> eigen() const { return {values.data(), n, n}; }
  Eigen::Map<eigen_matrix> eigen() { return {values.data(), n, n}; }

 private:
  std::size_t index(vertex_t u, vertex_t v) const {
    return static_cast<std::size_t>(u) * static_cast<std::size_t>(n) + static_cast<std::size_t>(v);
  }
};

// The same graph with one zero-weight vertex added when n is odd.
template <class W>
Dense<W> padded_to_even(const Dense<W>& a) {
  if (a.n % 2 == 0) return a;
  Dense<W> b(a.n + 1);
  for (vertex_t u = 0; u < a.n; ++u)
    for (vertex_t v = 0; v < a.n; ++v) b(u, v) = a(u, v);
  return b;
}

}  // namespace matchblas
