// The GPU ops on caller-owned device arrays (ops/gpu_device_entries.hpp
// states the contract): the caller's pointers into the device-level ops,
// 32-bit offsets widened first, the caller's device made current for the
// call and restored after.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "lib/error.hpp"
#include "ops/gpu/argmax_gpu.cuh"
#include "ops/gpu/assign_gpu.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/select_gpu.cuh"
#include "ops/gpu_device_entries.hpp"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

namespace {

// Makes `device` current for a scope (use_device's checks and messages),
// then restores the caller's current device.
class DeviceScope {
 public:
  DeviceScope(const char* who, int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      cudaGetLastError();
      previous_ = -1;
    }
    gpu::use_device(who, device);
  }
  ~DeviceScope() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

__global__ void widen_offsets(const std::int32_t* in, offset_t* out, long long n) {
  for (long long i = gpu::grid_thread(); i < n; i += gpu::grid_threads()) out[i] = in[i];
}

// The caller's CSR as a CsrView, its 32-bit offsets widened into `wide`
// (stream-ordered scratch that must outlive the view's use).
template <class W>
gpu::CsrView<W> view_of(const DeviceCsrArrays<W>& a, gpu::DeviceBuffer<offset_t>& wide, cudaStream_t stream) {
  const offset_t* offsets = a.offsets64;
  if (!offsets) {
    wide = gpu::DeviceBuffer<offset_t>(std::size_t(a.n_rows) + 1, stream);
    const long long n = a.n_rows + 1LL;
    widen_offsets<<<gpu::grid_blocks(n, gpu_threads_per_block), gpu_threads_per_block, 0, stream>>>(a.offsets32,
                                                                                                wide.data(), n);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    offsets = wide.data();
  }
  return {a.n_rows, a.n_cols, offsets, a.cols, a.weights, a.n_entries};
}

}  // namespace

template <class W>
void argmax_rows_on_device(const DeviceCsrArrays<W>& a, const std::uint8_t* active_rows,
                           const std::uint8_t* eligible_cols, const W* floor_weight, const vertex_t* floor_vertex,
                           vertex_t* best, W* best_weight, int device, void* stream_ptr) {
  const DeviceScope scope("argmax on device arrays", device);
  if (a.n_rows == 0) return;
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  int sms = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  gpu::DeviceBuffer<offset_t> wide;
  const gpu::CsrView<W> view = view_of(a, wide, stream);
  gpu::ArgmaxScratch scratch(a.n_rows, stream);
  gpu::argmax_rows(view, gpu::DeviceArgmaxMasks<W>{active_rows, eligible_cols, floor_weight, floor_vertex}, best,
                   best_weight, scratch, sms, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));  // before the scratch is freed; the results are ready
}

template <class T>
void assign_on_device(T* out, std::size_t n, const std::uint8_t* mask, const T* values, T value, int device,
                      void* stream_ptr) {
  const DeviceScope scope("assign on device arrays", device);
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  if (values) gpu::assign<T>(out, mask, values, n, gpu_threads_per_block, stream);
  else gpu::assign<T>(out, mask, value, n, gpu_threads_per_block, stream);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
}

template <class W>
OwnedDeviceCsr<W> select_free_on_device(const DeviceCsrArrays<W>& a, const vertex_t* mate, int device,
                                        void* stream_ptr) {
  if (a.n_rows != a.n_cols)
    throw shape_error("select_free_entries: needs a square matrix; got " + std::to_string(a.n_rows) + " x " +
                      std::to_string(a.n_cols));
  const DeviceScope scope("select on device arrays", device);
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  gpu::DeviceBuffer<offset_t> wide;
  const gpu::CsrView<W> view = view_of(a, wide, stream);
  gpu::DeviceCsr<W> c = gpu::select_free_entries(view, mate, gpu_threads_per_block, stream);  // synchronous
  OwnedDeviceCsr<W> out;
  out.n_entries = offset_t(c.num_entries());
  const auto arrays = c.release();
  out.offsets = arrays.offsets;
  out.cols = arrays.cols;
  out.weights = arrays.weights;
  return out;
}

void free_on_device(void* p, int device) noexcept {
  if (!p) return;
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
  cudaSetDevice(device);
  cudaFree(p);
  if (previous >= 0) cudaSetDevice(previous);
  cudaGetLastError();
}

namespace {

// The bytes of p's allocation from p on (cuMemGetAddressRange, through the
// runtime's driver entry point: no link to libcuda), or 0 when the driver
// cannot say.
std::size_t bytes_from(const void* p) {
  using AddressRange = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);
  static const AddressRange address_range = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      return AddressRange(nullptr);
    }
    return reinterpret_cast<AddressRange>(f);
  }();
  CUdeviceptr base = 0;
  std::size_t size = 0;
  const auto at = reinterpret_cast<CUdeviceptr>(p);
  if (!address_range || address_range(&base, &size, at) != CUDA_SUCCESS) return 0;
  return std::size_t(base + size - at);
}

}  // namespace

void expect_device_array(const void* p, int device, const char* what, std::size_t bytes) {
  if (!p) return;
  const DeviceScope scope("checking device arrays", device);  // no context made on another GPU
  cudaPointerAttributes at{};
  const cudaError_t status = cudaPointerGetAttributes(&at, p);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw invalid_input(std::string(what) + " is not CUDA device memory (" + cudaGetErrorString(status) + ")");
  }
  if (at.type != cudaMemoryTypeManaged) {
    if (at.type != cudaMemoryTypeDevice)
      throw invalid_input(std::string(what) + " is " + (at.type == cudaMemoryTypeHost ? "pinned host" : "host") +
                          " memory, not device memory");
    if (at.device != device)
      throw invalid_input(std::string(what) + " is on GPU " + std::to_string(at.device) + ", not on GPU " +
                          std::to_string(device) + " (the call's device)");
  }
  const std::size_t held = bytes > 0 ? bytes_from(p) : 0;
  if (held > 0 && held < bytes)
    throw invalid_input(std::string(what) + " holds " + std::to_string(held) + " bytes from its address, fewer than the " +
                        std::to_string(bytes) + " the call reads");
}


namespace {

// One copy between the host and GPU `device` (`device_ptr` on its side),
// ordered on the caller's stream and waited for.
void copy_checked(void* dst, const void* src, const void* device_ptr, std::size_t bytes, cudaMemcpyKind kind,
                  int device, void* stream_ptr, const char* what) {
  if (bytes == 0) return;
  DeviceScope scope("the pre-pass on device arrays", device);
  expect_device_array(device_ptr, device, what, bytes);
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace

void copy_from_device(void* host, const void* device_ptr, std::size_t bytes, int device, void* stream,
                      const char* what) {
  copy_checked(host, device_ptr, device_ptr, bytes, cudaMemcpyDeviceToHost, device, stream, what);
}

void copy_to_device(void* device_ptr, const void* host, std::size_t bytes, int device, void* stream,
                    const char* what) {
  copy_checked(device_ptr, host, device_ptr, bytes, cudaMemcpyHostToDevice, device, stream, what);
}

MATCHBLAS_INSTANTIATE_DEVICE_ENTRIES

}  // namespace matchblas::ops
