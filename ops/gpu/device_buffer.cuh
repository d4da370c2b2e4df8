// Owning device memory and the views kernels take (STYLE 8): DeviceBuffer<T>
// owns an allocation (RAII; a failed allocation is matchblas::out_of_memory,
// not a crash); DeviceCsr<W> owns a CSR on the device and copies it back
// (to_host); CsrView<W> is the trivially copyable view passed to kernels by
// value. .cu files only.
//
// Two kinds of allocation: DeviceBuffer(n) is cudaMalloc (graphs, results:
// long-lived); DeviceBuffer(n, stream) is stream-ordered scratch from the
// device's default memory pool (cudaMallocAsync / cudaFreeAsync on the
// stream), which retain_pool_memory() tells to keep freed memory for the next
// call: a matcher's scratch then costs no driver allocation after the first
// call (suitor-gpu at scale 23: about 0.5 ms of cudaMalloc per call went).
// A cudaMalloc that fails first trims the pool and tries once more, so the
// unused memory the pool keeps does not make a graph upload fail. Without
// memory pools (cudaDevAttrMemoryPoolsSupported), the scratch is cudaMalloc.
#pragma once
#include <cuda_runtime.h>

#include <span>
#include <string>
#include <utility>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"

namespace matchblas::gpu {

// Makes the current device's default memory pool keep freed memory (release
// threshold: unlimited) instead of returning it at every synchronisation.
// Once per device and process; later calls return at once. Does nothing on a
// device without memory pools.
void retain_pool_memory();

// Whether the current device has stream-ordered memory pools (where it has
// none, DeviceBuffer(n, stream) is a plain cudaMalloc).
bool has_memory_pools();

// Returns the unused memory the current device's default pool keeps to the
// driver (after a failed cudaMalloc, before trying again).
void trim_pool_memory();

// Copies bytes from host to device on `stream`. Large copies (64 MiB and
// more) from pageable memory are staged through two page-locked chunks of
// 32 MiB: the threads copy the next chunk while the bus carries the last
// (pageable memory crossed the bus at 6-9 GB/s on the H200 machines, one
// thread staging it; page-locked chunks at the bus's speed); such a copy
// waits for the stream, so host may change once it returns, and where no
// page-locked memory can be had it is one pageable copy. A smaller copy,
// or one from page-locked memory, is one cudaMemcpyAsync, with its rules:
// a page-locked host must not change until the stream has passed it.
void copy_to_device(void* device, const void* host, std::size_t bytes, cudaStream_t stream);

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    cudaError_t status = cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      trim_pool_memory();
      status = cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T));
    }
    if (status != cudaSuccess) fail(status);
  }
  // Stream-ordered scratch: usable by work enqueued on `stream` after this,
  // freed on `stream` (which must outlive the buffer: declare it after the
  // MatcherSession that owns the stream) when it is destroyed.
  DeviceBuffer(std::size_t n, cudaStream_t stream) : DeviceBuffer() {
    if (!has_memory_pools()) {
      *this = DeviceBuffer(n);
      return;
    }
    size_ = n;
    stream_ = stream;
    pooled_ = true;
    if (n == 0) return;
    const cudaError_t status = cudaMallocAsync(reinterpret_cast<void**>(&data_), n * sizeof(T), stream);
    if (status != cudaSuccess) fail(status);
  }
  ~DeviceBuffer() {
    if (!data_) return;
    if (pooled_) cudaFreeAsync(data_, stream_);
    else cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        stream_(o.stream_),
        pooled_(o.pooled_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(stream_, o.stream_);
    std::swap(pooled_, o.pooled_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  // Gives the allocation up (the buffer is left empty): the caller frees it,
  // with cudaFree for DeviceBuffer(n), cudaFreeAsync on the stream for
  // stream-ordered scratch.
  T* release() noexcept {
    size_ = 0;
    return std::exchange(data_, nullptr);
  }
  std::size_t size() const noexcept { return size_; }

  // A buffer holding a copy of host, in `stream`'s order (when host may
  // change: copy_to_device).
  static DeviceBuffer from_host(std::span<const T> host, cudaStream_t stream) {
    DeviceBuffer b(host.size());
    copy_to_device(b.data_, host.data(), host.size_bytes(), stream);
    return b;
  }
  void to_host(std::span<T> host, cudaStream_t stream) const {
    MATCHBLAS_EXPECTS(host.size() == size_, "DeviceBuffer::to_host: sizes differ");
    if (!host.empty())
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(host.data(), data_, host.size_bytes(), cudaMemcpyDeviceToHost, stream));
  }

 private:
  [[noreturn]] void fail(cudaError_t status) {
    cudaGetLastError();  // clear it: the failure is reported by the exception
    data_ = nullptr;
    throw out_of_memory("GPU: cannot allocate " + std::to_string(size_ * sizeof(T)) + " bytes (" +
                        cudaGetErrorString(status) + ")");
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
  bool pooled_ = false;
};

// Page-locked host memory (cudaMallocHost) for staging copies at the bus's
// speed; reserve(n) makes room for n elements, dropping what it held when it
// must grow. A failed allocation is matchblas::out_of_memory.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* reserve(std::size_t n) {
    if (n <= capacity_) return data_;
    if (data_) cudaFreeHost(std::exchange(data_, nullptr));
    capacity_ = 0;
    const cudaError_t status = cudaMallocHost(reinterpret_cast<void**>(&data_), n * sizeof(T));
    if (status != cudaSuccess) {
      cudaGetLastError();
      data_ = nullptr;
      throw out_of_memory("cannot page-lock " + std::to_string(n * sizeof(T)) + " bytes of host memory (" +
                          cudaGetErrorString(status) + ")");
    }
    capacity_ = n;
    return data_;
  }
  T* data() noexcept { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// CUB's two calls: call(nullptr, bytes) sizes the scratch, then
// call(temp, bytes) runs in stream-ordered scratch on s (freed on s after
// the work is enqueued; no wait).
template <class Call>
void cub_call(Call call, cudaStream_t s) {
  std::size_t bytes = 0;
  MATCHBLAS_CUDA_TRY(call(nullptr, bytes));
  DeviceBuffer<char> temp(bytes > 0 ? bytes : 1, s);
  MATCHBLAS_CUDA_TRY(call(temp.data(), bytes));
}

// The value at device address p once s's earlier work is done (waits for s).
template <class T>
T read_scalar(const T* p, cudaStream_t s) {
  T v{};
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&v, p, sizeof(T), cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return v;
}

// offsets has n_rows + 1 entries; cols and weights n_entries (= offsets[n_rows],
// kept here so that host code can size work without reading the device).
template <class W>
struct CsrView {
  vertex_t n_rows;
  vertex_t n_cols;
  const offset_t* offsets;
  const vertex_t* cols;
  const W* weights;
  offset_t n_entries;
};

template <class W>
class DeviceCsr {
 public:
  DeviceCsr(const Csr<W>& a, cudaStream_t stream)
      : n_rows_(a.n_rows),
        n_cols_(a.n_cols),
        offsets_(DeviceBuffer<offset_t>::from_host(a.offsets, stream)),
        cols_(DeviceBuffer<vertex_t>::from_host(a.cols, stream)),
        weights_(DeviceBuffer<W>::from_host(a.weights, stream)) {}
  // Takes ownership of arrays already on the device (offsets has n_rows + 1
  // entries; cols and weights as many as offsets[n_rows]).
  DeviceCsr(vertex_t n_rows, vertex_t n_cols, DeviceBuffer<offset_t> offsets, DeviceBuffer<vertex_t> cols,
            DeviceBuffer<W> weights)
      : n_rows_(n_rows),
        n_cols_(n_cols),
        offsets_(std::move(offsets)),
        cols_(std::move(cols)),
        weights_(std::move(weights)) {}
  vertex_t n_rows() const noexcept { return n_rows_; }
  vertex_t n_cols() const noexcept { return n_cols_; }
  std::size_t num_entries() const noexcept { return cols_.size(); }
  CsrView<W> view() const {
    return {n_rows_, n_cols_, offsets_.data(), cols_.data(), weights_.data(), static_cast<offset_t>(cols_.size())};
  }
  // The three arrays, given up to the caller (DeviceBuffer::release).
  struct Released {
    offset_t* offsets;
    vertex_t* cols;
    W* weights;
  };
  Released release() noexcept { return {offsets_.release(), cols_.release(), weights_.release()}; }
  // A host copy; waits for `stream`, so the copy is complete on return.
  Csr<W> to_host(cudaStream_t stream) const {
    Csr<W> a;
    a.n_rows = n_rows_;
    a.n_cols = n_cols_;
    a.offsets.resize(offsets_.size());
    a.cols.resize(cols_.size());
    a.weights.resize(weights_.size());
    offsets_.to_host(a.offsets, stream);
    cols_.to_host(a.cols, stream);
    weights_.to_host(a.weights, stream);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream));
    return a;
  }

 private:
  vertex_t n_rows_, n_cols_;
  DeviceBuffer<offset_t> offsets_;
  DeviceBuffer<vertex_t> cols_;
  DeviceBuffer<W> weights_;
};

}  // namespace matchblas::gpu
