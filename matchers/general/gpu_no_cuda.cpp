// suitor-gpu, ld-gpu, handshake-gpu and roma-sparse-gpu in a build without
// CUDA: each throws, saying why.
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

// A DeviceGraph cannot exist in this build, so the overloads taking one are
// never reached; they throw all the same.
#define MATCHBLAS_NO_CUDA_MATCHER(fn, Options, name)                                    \
  template <class W>                                                           \
  Matching fn(const Csr<W>&, const Options&, GpuTimes*) {                   \
    throw_no_cuda(name);                                                             \
  }                                                                            \
  template <class W>                                                           \
  Matching fn(const DeviceGraph<W>&, const Options&, GpuTimes*) {           \
    throw_no_cuda(name);                                                             \
  }
MATCHBLAS_NO_CUDA_MATCHER(suitor_gpu, SuitorGpuOptions, "suitor-gpu")
MATCHBLAS_NO_CUDA_MATCHER(ld_gpu, GpuOptions, "ld-gpu")
MATCHBLAS_NO_CUDA_MATCHER(handshake_gpu, GpuOptions, "handshake-gpu")
#undef MATCHBLAS_NO_CUDA_MATCHER

template Matching suitor_gpu(const DeviceGraph<float>&, const SuitorGpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<double>&, const SuitorGpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<float>&, const SuitorGpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<double>&, const SuitorGpuOptions&, GpuTimes*);
template Matching ld_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);

template <class W>
RomaRun roma_sparse_gpu(const Csr<W>&, const RomaSparseOptions&, const GpuOptions&) {
  throw_no_cuda("roma-sparse-gpu");
}
template RomaRun roma_sparse_gpu(const Csr<float>&, const RomaSparseOptions&, const GpuOptions&);
template RomaRun roma_sparse_gpu(const Csr<double>&, const RomaSparseOptions&, const GpuOptions&);

}  // namespace matchblas
