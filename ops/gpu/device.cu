// Device discovery for the CUDA build: counts the devices this build's
// kernels can run on (compute capability at least the lowest compiled
// architecture).
#include <cuda_runtime.h>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas::gpu {

namespace {
__global__ void probe_kernel(int* out) { *out = 1; }

// Runs one tiny kernel: proves the driver loads this build's device code.
std::string probe() {
  int n = 0;
  cudaError_t status = cudaGetDeviceCount(&n);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error for later calls
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(status);
  }
  if (n == 0) return "no CUDA device";
  int* flag = nullptr;
  if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess) return "cudaMalloc failed";
  probe_kernel<<<1, 1>>>(flag);
  status = cudaDeviceSynchronize();
  if (status == cudaSuccess) status = cudaGetLastError();
  int host = 0;
  if (status == cudaSuccess) status = cudaMemcpy(&host, flag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(flag);
  if (status != cudaSuccess || host != 1)
    return std::string("the device cannot run this build's kernels: ") + cudaGetErrorString(status);
  return "";
}

const std::string& probe_result() {
  static const std::string reason = probe();
  return reason;
}
}  // namespace

int device_count() {
  if (!probe_result().empty()) return 0;
  int n = 0;
  MATCHBLAS_CUDA_TRY(cudaGetDeviceCount(&n));
  return n;
}

std::string unavailable_reason() { return probe_result(); }

std::string device_description(int id) {
  MATCHBLAS_EXPECTS(id >= 0 && id < device_count(), "no GPU with id " + std::to_string(id));
  cudaDeviceProp p{};
  MATCHBLAS_CUDA_TRY(cudaGetDeviceProperties(&p, id));
  char mem[32];
  std::snprintf(mem, sizeof mem, "%.1f GiB", p.totalGlobalMem / 1073741824.0);
  return std::string(p.name) + ", sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         mem;
}

}  // namespace matchblas::gpu
