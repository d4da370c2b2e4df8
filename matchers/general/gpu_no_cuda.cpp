// suitor-gpu, ld-gpu, handshake-gpu, luby-gpu and roma-sparse-gpu in a build without
// CUDA: each throws, saying why (ops/gpu/no_cuda.hpp). A DeviceGraph cannot
// exist in this build, so the overloads taking one are never reached; they
// throw all the same.
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/luby.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/suitor.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA_W(Matching, suitor_gpu, (const Csr<W>&, const SuitorGpuOptions&, GpuTimes*), "suitor-gpu")
MATCHBLAS_NO_CUDA_W(Matching, suitor_gpu, (const DeviceGraph<W>&, const SuitorGpuOptions&, GpuTimes*), "suitor-gpu")
MATCHBLAS_NO_CUDA_W(Matching, ld_gpu, (const Csr<W>&, const GpuOptions&, GpuTimes*), "ld-gpu")
MATCHBLAS_NO_CUDA_W(Matching, ld_gpu, (const DeviceGraph<W>&, const GpuOptions&, GpuTimes*), "ld-gpu")
MATCHBLAS_NO_CUDA_W(Matching, handshake_gpu, (const Csr<W>&, const GpuOptions&, GpuTimes*), "handshake-gpu")
MATCHBLAS_NO_CUDA_W(Matching, handshake_gpu, (const DeviceGraph<W>&, const GpuOptions&, GpuTimes*), "handshake-gpu")
MATCHBLAS_NO_CUDA_W(Matching, luby_gpu, (const Csr<W>&, std::uint64_t, const GpuOptions&, GpuTimes*, LubyStats*),
                    "luby-gpu")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_sparse_gpu, (const Csr<W>&, const RomaSparseOptions&, const GpuOptions&),
                    "roma-sparse-gpu")

}  // namespace matchblas
