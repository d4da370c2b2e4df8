// mcvitie-wilson-gpu in a build without CUDA: it throws, saying why
// (ops/gpu/no_cuda.hpp).
#include "matchers/marriage/stable_marriage.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA(Marriage, mcvitie_wilson_gpu, (const RankedLists&, int, GpuTimes*), "mcvitie-wilson-gpu")
MATCHBLAS_NO_CUDA(Marriage, mcvitie_wilson_gpu, (const IdenticalPreferences&, int, GpuTimes*), "mcvitie-wilson-gpu")
MATCHBLAS_NO_CUDA(Marriage, mcvitie_wilson_gpu, (const RankedLists&, const GpuOptions&, GpuTimes*), "mcvitie-wilson-gpu")
MATCHBLAS_NO_CUDA(Marriage, mcvitie_wilson_gpu, (const IdenticalPreferences&, const GpuOptions&, GpuTimes*),
                  "mcvitie-wilson-gpu")

}  // namespace matchblas
