// For the GPU tests (CUDA builds only): DeviceArray<T>, a cudaMalloc'd copy
// of a host vector (or n zeros) freed with the object, and from_device, a
// host copy of n device entries. Failures are doctest REQUIRE failures.
#pragma once
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace matchblas::check {

template <class T>
std::vector<T> from_device(const T* p, std::size_t n) {
  std::vector<T> h(n);
  if (n) REQUIRE(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}

template <class T>
struct DeviceArray {
  T* p = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(const std::vector<T>& host) : n(host.size()) {
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(n, 1) * sizeof(T)) == cudaSuccess);
    if (n) REQUIRE(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  explicit DeviceArray(std::size_t count) : DeviceArray(std::vector<T>(count)) {}
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  std::vector<T> host() const { return from_device(p, n); }
};

}  // namespace matchblas::check
