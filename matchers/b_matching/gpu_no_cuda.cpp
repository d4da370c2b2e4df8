// b-suitor-gpu (also one rank's part over several) and b-ld-gpu in a build without CUDA: they throw, saying why
// (ops/gpu/no_cuda.hpp).
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_gpu_ranks.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA_W(BMatching, b_suitor_gpu,
                    (const Csr<W>&, const std::vector<int>&, const BSuitorGpuOptions&, GpuTimes*), "b-suitor-gpu")
MATCHBLAS_NO_CUDA_W(BMatching, b_suitor_gpu,
                    (const DeviceGraph<W>&, const std::vector<int>&, const BSuitorGpuOptions&, GpuTimes*),
                    "b-suitor-gpu")
BMatching b_suitor_gpu_rank(const std::vector<offset_t>&, const std::vector<vertex_t>&, std::span<const float>,
                            const std::vector<int>&, const BSuitorRankExchange&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("b-suitor-gpu");
}

MATCHBLAS_NO_CUDA_W(BMatching, b_ld_gpu, (const Csr<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*),
                    "b-ld-gpu")
MATCHBLAS_NO_CUDA_W(BMatching, b_ld_gpu, (const DeviceGraph<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*),
                    "b-ld-gpu")

}  // namespace matchblas
