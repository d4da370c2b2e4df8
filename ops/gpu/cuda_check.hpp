// MATCHBLAS_CUDA_TRY(call): throws cuda_error (out_of_memory for allocation
// failures) naming the call, file, line and CUDA error when call fails.
// MATCHBLAS_CUDA_CHECK_LAUNCH(): the same for the last kernel launch.
// For .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "lib/error.hpp"

namespace matchblas::gpu::detail {

// A failed runtime call also leaves its error as the thread's last error,
// which the next MATCHBLAS_CUDA_CHECK_LAUNCH of any later call would report
// as its own (an invalid device id, once caught, made the next matcher in
// the process fail): cleared here, before the throw. Sticky errors (a
// corrupted context) stay, as they must.
[[noreturn]] inline void throw_cuda(cudaError_t status, const char* what, const char* file, int line) {
  cudaGetLastError();
  std::string msg = std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  if (status == cudaErrorMemoryAllocation) throw out_of_memory("GPU " + msg);
  throw cuda_error(msg);
}

}  // namespace matchblas::gpu::detail

#define MATCHBLAS_CUDA_TRY(call)                                                       \
  do {                                                                                 \
    cudaError_t matchblas_status_ = (call);                                            \
    if (matchblas_status_ != cudaSuccess)                                              \
      ::matchblas::gpu::detail::throw_cuda(matchblas_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define MATCHBLAS_CUDA_CHECK_LAUNCH() MATCHBLAS_CUDA_TRY(cudaGetLastError())
