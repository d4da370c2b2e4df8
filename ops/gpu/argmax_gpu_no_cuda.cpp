// The gpu backend of argmax_rows in a build without CUDA: it says so.
#include "lib/error.hpp"
#include "ops/argmax.hpp"

namespace matchblas::ops::detail {

template <class W>
void argmax_rows_gpu(const Csr<W>&, const ArgmaxMasks<W>&, std::span<vertex_t>, std::span<W>) {
  throw error("the gpu backend of argmax_rows needs CUDA, which this build lacks");
}

template void argmax_rows_gpu(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>, std::span<float>);
template void argmax_rows_gpu(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                              std::span<double>);

}  // namespace matchblas::ops::detail
