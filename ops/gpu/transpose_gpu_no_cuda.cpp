// The gpu backend of ops::transpose in a build without CUDA: it says so,
// after the same argument checks as the CUDA build.
#include "lib/error.hpp"
#include "ops/gpu_ops.hpp"
#include "ops/transpose.hpp"

namespace matchblas::ops {

template <class W>
Csr<W> transpose_gpu(const Csr<W>& a, int) {
  detail::expect_transposable(a);
  throw error("transpose_gpu needs CUDA, which this build lacks");
}

template Csr<float> transpose_gpu(const Csr<float>&, int);
template Csr<double> transpose_gpu(const Csr<double>&, int);

}  // namespace matchblas::ops
