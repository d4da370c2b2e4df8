// Compressed sparse row storage on the host.
// A general graph is a square Csr holding both directions of every edge
// (row u lists v and row v lists u, with the same weight), no diagonal, no
// explicit zeros, columns sorted within each row. A bipartite graph is a
// rectangular Csr whose rows and columns are the two sides.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

template <class W>
struct Csr {
  using weight_type = W;

  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  std::vector<offset_t> offsets{0};  // n_rows + 1 entries, offsets[0] == 0
  std::vector<vertex_t> cols;        // offsets[n_rows] entries
  std::vector<W> weights;            // same length as cols

  offset_t num_entries() const noexcept { return offsets.empty() ? 0 : offsets.back(); }
  offset_t degree(vertex_t u) const { return offsets[u + 1] - offsets[u]; }
  std::span<const vertex_t> row_cols(vertex_t u) const {
    return {cols.data() + offsets[u], static_cast<std::size_t>(degree(u))};
  }
  std::span<const W> row_weights(vertex_t u) const {
    return {weights.data() + offsets[u], static_cast<std::size_t>(degree(u))};
  }
  std::size_t bytes() const noexcept {
    return offsets.size() * sizeof(offset_t) + cols.size() * sizeof(vertex_t) +
           weights.size() * sizeof(W);
  }
};

// Number of undirected edges of a general graph (half its entries).
template <class W>
offset_t num_edges(const Csr<W>& g) {
  return g.num_entries() / 2;
}

}  // namespace matchblas
