// Row argmax on data already on the device (the op of ops/argmax.hpp: same
// contract, masks and tie rule), for the GPU matchers. Rows are binned by
// degree so that rows of very different degree are balanced: a group of 4
// lanes per row of degree <= 32, 8 lanes up to 128, a warp up to 4096, a
// 256-thread block per longer row. Inactive and empty rows get (-1, 0) in the binning
// pass. ops/gpu/argmax_gpu.cu. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "lib/types.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

// Device arrays of ArgmaxMasks; a null pointer is an empty mask.
template <class W>
struct DeviceArgmaxMasks {
  const std::uint8_t* active_rows = nullptr;
  const std::uint8_t* eligible_cols = nullptr;
  const W* floor_weight = nullptr;    // with floor_vertex, or both null
  const vertex_t* floor_vertex = nullptr;
};

// Scratch space of the lists of long rows for a matrix of up to n rows;
// reuse it across calls (a matcher's rounds) to avoid reallocating. After a
// call, counts()[0] and counts()[1] (device memory) hold how many active rows
// have 129 to 4096 entries, and more than 4096.
class ArgmaxScratch {
 public:
  explicit ArgmaxScratch(vertex_t n) : rows_(std::size_t(n)), counts_(2), n_(n) {}
  // Stream-ordered scratch (DeviceBuffer(n, stream)) for a call on `stream`.
  ArgmaxScratch(vertex_t n, cudaStream_t stream) : rows_(std::size_t(n), stream), counts_(2, stream), n_(n) {}
  vertex_t capacity() const noexcept { return n_; }
  vertex_t* rows() noexcept { return rows_.data(); }
  int* counts() noexcept { return counts_.data(); }

 private:
  DeviceBuffer<vertex_t> rows_;
  DeviceBuffer<int> counts_;
  vertex_t n_;
};

// best[u], best_weight[u] for every row u of a (device arrays of a.n_rows
// entries), enqueued on `stream` (no synchronisation). scratch.capacity() must
// be at least a.n_rows. sms: the device's multiprocessor count (grid size).
template <class W>
void argmax_rows(const CsrView<W>& a, const DeviceArgmaxMasks<W>& masks, vertex_t* best, W* best_weight,
                 ArgmaxScratch& scratch, int sms, cudaStream_t stream);

}  // namespace matchblas::gpu
