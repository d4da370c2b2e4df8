// The GPU auction and the GPU ROMA matchers in a build without CUDA: each
// throws, saying why (ops/gpu/no_cuda.hpp; DeviceDense's stand-in is
// ops/gpu/device_dense_no_cuda.cpp).
#include "matchers/complete/auction.hpp"
#include "matchers/complete/roma.hpp"
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/device_graph.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

MATCHBLAS_NO_CUDA_W(std::vector<vertex_t>, dense_auction_gpu,
                    (const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*, CUstream_st*), "auction-gpu")
MATCHBLAS_NO_CUDA_W(std::vector<vertex_t>, assignment_matching_gpu,
                    (const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*, CUstream_st*), "auction-gpu")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_gpu, (const DeviceDense<W>&, const RomaOptions&, const RomaGpuOptions&), "roma-gpu")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_gpu, (const Dense<W>&, const RomaOptions&, const RomaGpuOptions&), "roma-gpu")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_gpu_thesis, (const Dense<W>&, int version, const RomaOptions&, int),
                    version == 1 ? "roma-gpu-1" : "roma-gpu-2")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_gpu_thesis, (const Dense<W>&, int version, const RomaOptions&, const GpuOptions&),
                    version == 1 ? "roma-gpu-1" : "roma-gpu-2")
MATCHBLAS_NO_CUDA_W(RomaRun, roma_gpu_thesis, (const DeviceDense<W>&, int version, const RomaOptions&, CUstream_st*),
                    version == 1 ? "roma-gpu-1" : "roma-gpu-2")

}  // namespace matchblas
