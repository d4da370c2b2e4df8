// Launch shapes of the grid-stride kernels of ops/gpu (select, assign,
// transpose) in one place: the threads-per-block rule, the grid size, and
// each thread's place in the grid-stride loop. With grid-stride loops the
// grid size changes only the schedule, never the result. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"

namespace matchblas::gpu {

// At most this many blocks per SM; the grid-stride loops cover the rest.
// The cap of ops/gpu/argmax_gpu.cu; not tuned for these kernels (no GPU run
// has swept it for them).
inline constexpr long long max_blocks_per_sm = 32;

// threads_per_block must be a whole number of warps, 32 to 1024 (the
// warp-per-row kernels need whole warps); invalid_input otherwise.
inline void expect_threads_per_block(int threads_per_block, const char* op) {
  if (threads_per_block < 32 || threads_per_block > 1024 || threads_per_block % 32 != 0)
    throw invalid_input(std::string(op) + ": threads_per_block must be a multiple of 32 from 32 to 1024, got " +
                        std::to_string(threads_per_block));
}

// Blocks that give each of `threads` threads its own item, capped at
// max_blocks_per_sm per SM of the current device; 0 (launch nothing) when
// threads is 0.
inline unsigned grid_blocks(long long threads, int threads_per_block) {
  if (threads <= 0) return 0;
  int device = 0, sms = 0;
  MATCHBLAS_CUDA_TRY(cudaGetDevice(&device));
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<unsigned>(
      std::min((threads + threads_per_block - 1) / threads_per_block, max_blocks_per_sm * sms));
}

// This thread's first item, and the stride, of a grid-stride loop.
__device__ inline long long grid_thread() { return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline long long grid_threads() { return static_cast<long long>(gridDim.x) * blockDim.x; }

// Launches kernel(arg) with every block resident at once (a cooperative
// launch, for kernels that call grid.sync()): as many blocks of
// threads_per_block as fit on the device's SMs, on `stream`. Throws error
// on a device without cooperative launch.
template <class Arg>
void launch_cooperative(void (*kernel)(Arg), int threads_per_block, int device, int sms, cudaStream_t stream,
                        Arg arg) {
  int cooperative = 0, per_sm = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (!cooperative) throw error("GPU " + std::to_string(device) + " has no cooperative launch");
  MATCHBLAS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads_per_block, 0));
  void* pointers[] = {static_cast<void*>(&arg)};
  MATCHBLAS_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(unsigned(std::max(1, per_sm) * sms)),
                                                 dim3(unsigned(threads_per_block)), pointers, 0, stream));
}

}  // namespace matchblas::gpu
