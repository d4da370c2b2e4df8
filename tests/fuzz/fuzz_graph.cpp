// libFuzzer target: the graph-from-matrix rules (lib/graph_from_matrix) on
// whatever the Matrix Market parser accepts: general (square), bipartite
// (any shape) and complete (square) graphs, float and double. Each general
// graph is checked: sorted columns, no diagonal, no zero or non-finite
// weight, symmetric. Matrices over 4096 rows or columns are skipped: their
// O(n) and O(n^2) allocations are the memory budget's business, not the
// rules' (issue 17, class 4).
#include <cmath>
#include <cstdint>
#include <string_view>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"

namespace {
template <class W>
void check_general(const matchblas::Csr<W>& g) {
  for (matchblas::vertex_t u = 0; u < g.n_rows; ++u)
    for (auto k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const auto v = g.cols[k];
      if (v == u || !(g.weights[k] > 0) || !std::isfinite(double(g.weights[k]))) __builtin_trap();
      if (k > g.offsets[u] && g.cols[k - 1] >= v) __builtin_trap();
      // the reverse edge, same weight
      bool found = false;
      for (auto j = g.offsets[v]; j < g.offsets[v + 1]; ++j) found |= g.cols[j] == u && g.weights[j] == g.weights[k];
      if (!found) __builtin_trap();
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto m = matchblas::read_matrix_market_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    if (m.header.rows > 4096 || m.header.cols > 4096) return 0;
    try {
      (void)matchblas::bipartite_graph<double>(m);
    } catch (const matchblas::error&) {
    }
    if (m.header.rows != m.header.cols) return 0;
    try {
      check_general(matchblas::general_graph<double>(m));
      check_general(matchblas::general_graph<float>(m));
    } catch (const matchblas::error&) {
    }
    if (m.header.rows <= 512) {
      try {
        (void)matchblas::complete_graph_from_matrix<double>(m);
      } catch (const matchblas::error&) {
      }
    }
  } catch (const matchblas::error&) {
  }
  return 0;
}
