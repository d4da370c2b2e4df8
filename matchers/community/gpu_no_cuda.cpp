// louvain-gpu in a build without CUDA: it throws, saying why
// (ops/gpu/no_cuda.hpp).
#include "matchers/community/louvain.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA(Communities, louvain_gpu, (const Csr<double>&, const LouvainOptions&, const GpuOptions&),
                  "louvain-gpu")

}  // namespace matchblas
