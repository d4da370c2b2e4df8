// The graphblas backend in a build without SuiteSparse:GraphBLAS: it says
// so. CMake compiles this file instead of the *_graphblas.cpp files of
// ops/cpu when GraphBLAS is not found: have_graphblas() is false, a
// GraphBlasGraph cannot be made (so the ops on one are never reached), and
// every entry throws matchblas::error after its argument checks.
#include "lib/error.hpp"
#include "ops/argmax.hpp"
#include "ops/assign.hpp"
#include "ops/graphblas_graph.hpp"
#include "ops/select.hpp"
#include "ops/transpose.hpp"

namespace matchblas::ops {

bool have_graphblas() noexcept { return false; }

namespace {
[[noreturn]] void missing() {
  throw error("the graphblas backend needs SuiteSparse:GraphBLAS, which this build lacks");
}
}  // namespace

template <class W>
struct GraphBlasGraph<W>::Impl {};

template <class W>
GraphBlasGraph<W>::GraphBlasGraph(const Csr<W>&, GraphBlasViews) {
  missing();
}
template <class W>
GraphBlasGraph<W>::GraphBlasGraph(vertex_t, vertex_t, std::unique_ptr<Impl>) {
  missing();
}
template <class W>
GraphBlasGraph<W>::~GraphBlasGraph() = default;
template <class W>
GraphBlasGraph<W>::GraphBlasGraph(GraphBlasGraph&&) noexcept = default;
template <class W>
GraphBlasGraph<W>& GraphBlasGraph<W>::operator=(GraphBlasGraph&&) noexcept = default;
template <class W>
Csr<W> GraphBlasGraph<W>::to_csr() const {
  missing();
}

template <class W>
void argmax_rows(const GraphBlasGraph<W>&, const ArgmaxMasks<W>&, std::span<vertex_t>, std::span<W>, Backend) {
  missing();
}
template <class W>
GraphBlasGraph<W> select_free_entries(const GraphBlasGraph<W>&, std::span<const vertex_t>, Backend) {
  missing();
}
template <class W>
GraphBlasGraph<W> transpose(const GraphBlasGraph<W>&, Backend) {
  missing();
}

namespace detail {
template <class T>
void assign_graphblas(std::span<T>, std::span<const std::uint8_t>, std::span<const T>) {
  missing();
}
template <class T>
void assign_graphblas(std::span<T>, std::span<const std::uint8_t>, T) {
  missing();
}
}  // namespace detail

#define MATCHBLAS_NO_GRAPHBLAS(W)                                                                              \
  template class GraphBlasGraph<W>;                                                                            \
  template void argmax_rows<W>(const GraphBlasGraph<W>&, const ArgmaxMasks<W>&, std::span<vertex_t>,          \
                               std::span<W>, Backend);                                                         \
  template GraphBlasGraph<W> select_free_entries(const GraphBlasGraph<W>&, std::span<const vertex_t>, Backend); \
  template GraphBlasGraph<W> transpose(const GraphBlasGraph<W>&, Backend);
MATCHBLAS_NO_GRAPHBLAS(float)
MATCHBLAS_NO_GRAPHBLAS(double)
#undef MATCHBLAS_NO_GRAPHBLAS

#define MATCHBLAS_NO_GRAPHBLAS_ASSIGN(T)                                                                          \
  template void detail::assign_graphblas<T>(std::span<T>, std::span<const std::uint8_t>, std::span<const T>); \
  template void detail::assign_graphblas<T>(std::span<T>, std::span<const std::uint8_t>, T);
MATCHBLAS_NO_GRAPHBLAS_ASSIGN(std::uint8_t)
MATCHBLAS_NO_GRAPHBLAS_ASSIGN(std::int32_t)
MATCHBLAS_NO_GRAPHBLAS_ASSIGN(std::int64_t)
MATCHBLAS_NO_GRAPHBLAS_ASSIGN(float)
MATCHBLAS_NO_GRAPHBLAS_ASSIGN(double)
#undef MATCHBLAS_NO_GRAPHBLAS_ASSIGN

}  // namespace matchblas::ops
