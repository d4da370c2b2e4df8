// The graphblas backend of argmax_rows in a build without
// SuiteSparse:GraphBLAS: it says so (ops/argmax.hpp; CMake compiles this file
// instead of argmax_graphblas.cpp when GraphBLAS is not found).
#include "ops/argmax.hpp"
#include "lib/error.hpp"

namespace matchblas::ops {

bool have_graphblas() noexcept { return false; }

namespace detail {

template <class W>
void argmax_rows_graphblas(const Csr<W>&, const ArgmaxMasks<W>&, std::span<vertex_t>, std::span<W>) {
  throw error("the graphblas backend needs SuiteSparse:GraphBLAS, which this build lacks");
}

template void argmax_rows_graphblas<float>(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                           std::span<float>);
template void argmax_rows_graphblas<double>(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                            std::span<double>);

}  // namespace detail
}  // namespace matchblas::ops
