// Device discovery for the CUDA build: counts the devices this build's
// kernels can run on (compute capability at least the lowest compiled
// architecture).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

namespace {
__global__ void probe_kernel(int* out) { *out = 1; }

// Whether the operating system shows an NVIDIA GPU: the driver's device
// nodes or its /proc entries (WSL: /dev/dxg). Without one, CUDA's error
// (often "driver version is insufficient", for a missing driver) is not the
// user's problem: there is no GPU.
bool gpu_visible() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists("/dev/dxg", ec)) return true;
  for (int i = 0; i < 64; ++i)
    if (fs::exists("/dev/nvidia" + std::to_string(i), ec)) return true;
  return fs::exists("/proc/driver/nvidia/gpus", ec) && !fs::is_empty("/proc/driver/nvidia/gpus", ec);
}

// Runs one tiny kernel: proves the driver loads this build's device code.
std::string probe() {
  int n = 0;
  cudaError_t status = cudaGetDeviceCount(&n);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error for later calls
    if (status == cudaErrorNoDevice || !gpu_visible()) return "no CUDA GPU found";
    return std::string("a GPU is present but CUDA cannot use it: ") + cudaGetErrorString(status);
  }
  if (n == 0) return "no CUDA GPU found";
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

std::string device_uuid(int id) {
  if (id < 0 || id >= device_count()) return "";
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, id) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  std::string hex;
  for (const char byte : p.uuid.bytes) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", unsigned(static_cast<unsigned char>(byte)));
    hex += two;
  }
  return hex;
}

void use_device(const std::string& who, int id) {
  const int devices = device_count();
  if (devices == 0) throw error(who + " needs a CUDA GPU: " + unavailable_reason());
  if (id < 0 || id >= devices)
    throw invalid_input(who + ": no GPU with id " + std::to_string(id) + " (this machine has " +
                        std::to_string(devices) + ")");
  MATCHBLAS_CUDA_TRY(cudaSetDevice(id));
}

std::size_t device_memory_limit(std::size_t limit) {
  std::size_t free = 0, total = 0;
  MATCHBLAS_CUDA_TRY(cudaMemGetInfo(&free, &total));
  constexpr std::size_t margin = std::size_t(256) << 20;
  const std::size_t usable = free > margin ? free - margin : 0;
  return limit > 0 ? std::min(limit, usable) : usable;
}

bool has_memory_pools() {
  int device = 0, pools = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return pools != 0;
}

void retain_pool_memory() {
  static std::mutex lock;
  static std::set<int> done;
  int device = 0;
  MATCHBLAS_CUDA_TRY(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> hold(lock);
  if (done.count(device) || !has_memory_pools()) return;
  cudaMemPool_t pool{};
  MATCHBLAS_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep_all = std::numeric_limits<std::uint64_t>::max();
  MATCHBLAS_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
  done.insert(device);
}

// (Only DeviceBuffer(n) calls it: an allocation inside CUB or cuSPARSE, or
// by another process, does not trim the pool; the pool holds at most what
// the largest matcher call needed.)
void trim_pool_memory() {
  int device = 0;
  cudaMemPool_t pool{};
  if (cudaGetDevice(&device) != cudaSuccess || !has_memory_pools() ||
      cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  cudaDeviceSynchronize();  // frees still in flight on some stream complete first
  cudaMemPoolTrimTo(pool, 0);
  cudaGetLastError();
}

void copy_to_device(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  constexpr std::size_t chunk = std::size_t(32) << 20, staged_from = 2 * chunk;
  if (bytes == 0) return;
  cudaPointerAttributes where{};
  const cudaError_t asked = cudaPointerGetAttributes(&where, host);
  if (asked != cudaSuccess) cudaGetLastError();  // clear only its own error
  bool staged = bytes >= staged_from && asked == cudaSuccess && where.type == cudaMemoryTypeUnregistered;
  PinnedBuffer<unsigned char> stage[2];
  if (staged) try {
      for (int i = 0; i < 2; ++i) stage[i].reserve(chunk);
    } catch (const out_of_memory&) {  // no page-locked memory to be had
      staged = false;
    }
  if (!staged) {  // small, page-locked already, or no stages: one copy
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  cudaEvent_t carried[2] = {nullptr, nullptr};
  const auto release = [&] {
    cudaStreamSynchronize(stream);  // every queued chunk has crossed before its stage is freed
    for (cudaEvent_t& e : carried)
      if (e) cudaEventDestroy(e);
  };
  try {
    for (int i = 0; i < 2; ++i) MATCHBLAS_CUDA_TRY(cudaEventCreateWithFlags(&carried[i], cudaEventDisableTiming));
    const auto* from = static_cast<const unsigned char*>(host);
    auto* to = static_cast<unsigned char*>(device);
    for (std::size_t at = 0, k = 0; at < bytes; at += chunk, ++k) {
      const std::size_t size = std::min(chunk, bytes - at);
      unsigned char* into = stage[k % 2].data();
      MATCHBLAS_CUDA_TRY(cudaEventSynchronize(carried[k % 2]));  // its last chunk has crossed
      constexpr std::size_t piece = std::size_t(1) << 20;
      const std::int64_t pieces = std::int64_t((size + piece - 1) / piece);
#pragma omp parallel for schedule(static)
      for (std::int64_t p = 0; p < pieces; ++p) {
        const std::size_t a = std::size_t(p) * piece;
        std::memcpy(into + a, from + at + a, std::min(piece, size - a));
      }
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(to + at, into, size, cudaMemcpyHostToDevice, stream));
      MATCHBLAS_CUDA_TRY(cudaEventRecord(carried[k % 2], stream));
    }
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));  // a failed copy is reported here
  } catch (...) {
    release();
    throw;
  }
  release();
}

namespace {

// The best of 5 timed copies of `bytes` from src to dst (after one to warm
// up), in ms; the status of the first failure.
cudaError_t best_copy_ms(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, float& best_ms) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  best_ms = 0;
  cudaError_t status = cudaSuccess;
  for (int rep = 0; rep < 6 && status == cudaSuccess; ++rep) {
    cudaEventRecord(start);
    cudaMemcpy(dst, src, bytes, kind);
    cudaEventRecord(stop);
    status = cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (rep > 0 && (best_ms == 0 || ms < best_ms)) best_ms = ms;  // rep 0 warms up
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return status;
}

}  // namespace

double measure_copy_bandwidth(int id, std::size_t bytes) {
  MATCHBLAS_EXPECTS(id >= 0 && id < device_count(), "no GPU with id " + std::to_string(id));
  MATCHBLAS_CUDA_TRY(cudaSetDevice(id));
  void *a = nullptr, *b = nullptr;
  MATCHBLAS_CUDA_TRY(cudaMalloc(&a, bytes));
  const cudaError_t second = cudaMalloc(&b, bytes);
  if (second != cudaSuccess) {
    cudaFree(a);
    MATCHBLAS_CUDA_TRY(second);
  }
  float best_ms = 0;
  cudaError_t status = cudaMemset(a, 1, bytes);
  if (status == cudaSuccess) status = best_copy_ms(b, a, bytes, cudaMemcpyDeviceToDevice, best_ms);
  cudaFree(a);
  cudaFree(b);
  MATCHBLAS_CUDA_TRY(status);
  return 2.0 * double(bytes) / (best_ms * 1e-3) / 1e9;
}

double measure_host_copy_bandwidth(int id, std::size_t bytes) {
  MATCHBLAS_EXPECTS(id >= 0 && id < device_count(), "no GPU with id " + std::to_string(id));
  MATCHBLAS_CUDA_TRY(cudaSetDevice(id));
  void *host = nullptr, *device = nullptr;
  MATCHBLAS_CUDA_TRY(cudaMallocHost(&host, bytes));
  const cudaError_t second = cudaMalloc(&device, bytes);
  if (second != cudaSuccess) {
    cudaFreeHost(host);
    MATCHBLAS_CUDA_TRY(second);
  }
  std::memset(host, 1, bytes);
  float best_ms = 0;
  const cudaError_t status = best_copy_ms(device, host, bytes, cudaMemcpyHostToDevice, best_ms);
  cudaFreeHost(host);
  cudaFree(device);
  MATCHBLAS_CUDA_TRY(status);
  return double(bytes) / (best_ms * 1e-3) / 1e9;
}

}  // namespace matchblas::gpu
