// The gpu backend of ops::select_free_entries in a build without CUDA: it
// says so, after the same argument checks as the CUDA build.
#include "lib/error.hpp"
#include "ops/gpu_ops.hpp"
#include "ops/select.hpp"

namespace matchblas::ops {

template <class W>
Csr<W> select_free_entries_gpu(const Csr<W>& a, std::span<const vertex_t> mate, int) {
  detail::expect_free_entries_args(a, mate);
  throw error("select_free_entries_gpu needs CUDA, which this build lacks");
}

template Csr<float> select_free_entries_gpu(const Csr<float>&, std::span<const vertex_t>, int);
template Csr<double> select_free_entries_gpu(const Csr<double>&, std::span<const vertex_t>, int);

}  // namespace matchblas::ops
