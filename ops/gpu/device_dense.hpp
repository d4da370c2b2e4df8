// DeviceDense: a complete graph resident on the GPU, uploaded or generated
// there (ops/gpu/device_dense.cu; device_dense_no_cuda.cpp stands in without
// CUDA), the operand of the complete family's GPU matchers
// (matchers/complete/). Plain header (no CUDA header: a stream is a
// CUstream_st*, what cudaStream_t names).
#pragma once
#include <memory>

#include "lib/dense.hpp"
#include "lib/generation.hpp"
#include "lib/types.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st* (ops/gpu/device_graph.hpp)

namespace matchblas {

// A complete graph's weights resident on GPU `device`: n x n,
// row-major, an odd order padded with one zero-weight vertex (as the ROMA
// matchers match it). upload() copies a host Dense; generate() draws the
// weights on the GPU, the same as complete_graph(dist, n, opt) of
// datasets/generators.hpp (lib/complete_weights.hpp is the one pair
// weight function both use; the device's log1p may differ from the host's in
// a double's last bit), so that n = 131072 (64 GiB of float) never exists on
// the host. Each runs on `stream` (a cudaStream_t of GPU `device`; null: a
// stream of its own, ops/gpu/gpu_session.cuh) and returns once the weights
// are on the device; to_host() likewise copies on `stream` and waits for
// it. Move-only.
template <class W>
class DeviceDense {
 public:
  static DeviceDense upload(const Dense<W>& g, int device = 0, CUstream_st* stream = nullptr);
  static DeviceDense generate(WeightDist dist, vertex_t n, const GenOptions& opt = {}, int device = 0,
                              CUstream_st* stream = nullptr);
  ~DeviceDense();
  DeviceDense(DeviceDense&&) noexcept;
  DeviceDense& operator=(DeviceDense&&) noexcept;
  int device() const noexcept;
  vertex_t n() const noexcept;         // the graph's order
  vertex_t padded_n() const noexcept;  // n, or n + 1 when n is odd
  double seconds() const noexcept;     // the upload or the generation (CUDA events)
  Dense<W> to_host(CUstream_st* stream = nullptr) const;  // the n x n weights, without the padding

  struct Impl;  // ops/gpu/device_dense_impl.cuh
  const Impl& impl() const noexcept { return *impl_; }

 private:
  explicit DeviceDense(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace matchblas
