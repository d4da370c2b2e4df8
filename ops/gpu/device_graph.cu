// DeviceGraph (ops/gpu/device_graph.hpp): a general graph uploaded once to a GPU,
// on the caller's stream or its own, timed with CUDA events on it.
#include <cuda_runtime.h>

#include <string>

#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

template <class W>
DeviceGraph<W>::DeviceGraph(const Csr<W>& g, int device, CUstream_st* stream) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "the GPU matchers need a general (square) graph");
  MATCHBLAS_EXPECTS(g.offsets.size() == std::size_t(g.n_rows) + 1 && g.cols.size() == g.weights.size() &&
                        g.cols.size() == std::size_t(g.num_entries()),
                    "the graph is not a consistent CSR (offsets, cols, weights lengths)");
  // Contents too, O(entries): a column out of range would be an
  // out-of-bounds atomic on the device, not an error message.
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    if (g.offsets[u + 1] < g.offsets[u])
      throw invalid_input("the graph's row offsets decrease at row " + std::to_string(u));
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (g.cols[k] < 0 || g.cols[k] >= g.n_cols || g.cols[k] == u)
        throw invalid_input("the graph's row " + std::to_string(u) + " has column " + std::to_string(g.cols[k]) +
                            (g.cols[k] == u ? " (a self-loop)" : " (out of range)"));
  }
  gpu::use_device("the GPU matchers", device);
  const gpu::StreamSession session(device, stream);
  gpu::Event start, stop;
  start.record(session.stream());
  gpu::DeviceCsr<W> csr(g, session.stream());
  stop.record(session.stream());
  const double upload_s = stop.since(start);  // (waits for the copy)
  impl_ = std::make_unique<Impl>(Impl{device, g.n_rows, std::move(csr), upload_s});
}

template <class W>
DeviceGraph<W>::~DeviceGraph() = default;
template <class W>
DeviceGraph<W>::DeviceGraph(DeviceGraph&&) noexcept = default;
template <class W>
DeviceGraph<W>& DeviceGraph<W>::operator=(DeviceGraph&&) noexcept = default;
template <class W>
int DeviceGraph<W>::device() const noexcept {
  return impl_->device;
}
template <class W>
vertex_t DeviceGraph<W>::n() const noexcept {
  return impl_->n;
}
template <class W>
double DeviceGraph<W>::upload_seconds() const noexcept {
  return impl_->upload_s;
}

template class DeviceGraph<float>;
template class DeviceGraph<double>;

}  // namespace matchblas
