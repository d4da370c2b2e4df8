// cardinality-gpu, awpm-gpu, max-sum-gpu, max-product-gpu and the pre-pass
// on device arrays in a build without CUDA: each throws, saying why
// (ops/gpu/no_cuda.hpp).
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/prepass_device.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA(BipartiteMates, max_cardinality_bipartite_gpu,
                  (const Csr<double>&, const GpuOptions&, GpuTimes*, GpuSearchCounts*), "cardinality-gpu")
MATCHBLAS_NO_CUDA(AwpmResult, awpm_gpu, (const Csr<double>&, const AwpmOptions&, const GpuOptions&, GpuTimes*),
                  "awpm-gpu")
MATCHBLAS_NO_CUDA(DualMatching, min_cost_max_cardinality_gpu,
                  (const Csr<double>&, const AuctionGpuOptions&, const GpuOptions&, AuctionGpuReport*),
                  "max-sum-gpu and max-product-gpu")
MATCHBLAS_NO_CUDA(PrepassOnDevice, prepass_on_device,
                  (const DeviceSparseArrays&, int, bool, int, void*, const PrepassDeviceOutputs&),
                  "the pre-pass on device arrays")

}  // namespace matchblas
