// DeviceDense (ops/gpu/device_dense.hpp): a complete graph's weights on the GPU,
// uploaded from the host or generated there, on the caller's stream or one of
// its own (gpu::StreamSession), timed with CUDA events on it.
// Generation draws weight (a, b) from lib/complete_weights.hpp, the
// function the CPU generator uses (Hovland 2020 sec. 5.1 distributions): a thread
// per entry of the padded n x n matrix, the padding vertex's row and column
// zero, geometric points drawn first (2n doubles).
// Cost: upload n^2 sizeof(W) bytes over the bus; generation n^2 draws and
// one write of the matrix (bandwidth-bound: a few mixes per entry).
#include <cuda_runtime.h>

#include <optional>
#include <string>

#include "lib/complete_weights.hpp"
#include "lib/error.hpp"
#include "ops/gpu/device_dense_impl.cuh"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

__global__ void draw_points(std::uint64_t seed, vertex_t n, double* x, double* y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  x[i] = CompleteWeights::point_x(seed, static_cast<std::uint64_t>(i));
  y[i] = CompleteWeights::point_y(seed, static_cast<std::uint64_t>(i));
}

// Rows strided over blockIdx.y, columns over the x blocks.
template <class W>
__global__ void draw_weights(CompleteWeights weight, vertex_t n, vertex_t padded, W* w) {
  for (vertex_t u = static_cast<vertex_t>(blockIdx.y); u < padded; u += static_cast<vertex_t>(gridDim.y)) {
    W* row = w + static_cast<long long>(u) * padded;
    for (long long v = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; v < padded;
         v += static_cast<long long>(gridDim.x) * blockDim.x) {
      const vertex_t b = static_cast<vertex_t>(v);
      row[v] = (u == b || u >= n || b >= n) ? W(0) : static_cast<W>(weight(min(u, b), max(u, b)));
    }
  }
}

void check_order(vertex_t n, const char* who) {
  MATCHBLAS_EXPECTS(n >= 0 && n < (1 << 30),
                    std::string(who) + ": the order must be in [0, 2^30), got " + std::to_string(n));
}

}  // namespace

template <class W>
DeviceDense<W>::DeviceDense(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

template <class W>
DeviceDense<W> DeviceDense<W>::upload(const Dense<W>& g, int device, CUstream_st* stream) {
  check_order(g.n, "DeviceDense::upload");
  MATCHBLAS_EXPECTS(g.values.size() == std::size_t(g.n) * std::size_t(g.n),
                    "DeviceDense::upload: the dense matrix holds " + std::to_string(g.values.size()) +
                        " values, not n^2 = " + std::to_string(std::size_t(g.n) * std::size_t(g.n)));
  gpu::use_device("DeviceDense", device);
  std::optional<Dense<W>> padded;
  if (g.n % 2 != 0) padded = padded_to_even(g);
  const Dense<W>& even = padded ? *padded : g;
  const gpu::StreamSession session(device, stream);
  gpu::Event start, stop;
  start.record(session.stream());
  auto w = gpu::DeviceBuffer<W>::from_host(even.values, session.stream());
  stop.record(session.stream());
  const double s = stop.since(start);  // (waits for the copy)
  return DeviceDense(std::make_unique<Impl>(Impl{device, g.n, even.n, std::move(w), s}));
}

template <class W>
DeviceDense<W> DeviceDense<W>::generate(WeightDist dist, vertex_t n, const GenOptions& opt, int device,
                                        CUstream_st* stream) {
  check_order(n, "DeviceDense::generate");
  MATCHBLAS_EXPECTS(opt.ties >= 0, "DeviceDense::generate: ties must be >= 0, got " + std::to_string(opt.ties));
  gpu::use_device("DeviceDense", device);
  const vertex_t padded = n + n % 2;
  const gpu::StreamSession session(device, stream);
  const cudaStream_t st = session.stream();
  gpu::Event start, stop;
  start.record(st);
  gpu::DeviceBuffer<W> w(std::size_t(padded) * std::size_t(padded));  // out_of_memory when it does not fit
  gpu::DeviceBuffer<double> x, y;  // scratch: stream-ordered, freed on st after the wait below
  if (dist == WeightDist::geometric && n > 0) {
    x = gpu::DeviceBuffer<double>(std::size_t(n), st);
    y = gpu::DeviceBuffer<double>(std::size_t(n), st);
    draw_points<<<(n + 255) / 256, 256, 0, st>>>(opt.seed, n, x.data(), y.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  if (padded > 0) {
    const CompleteWeights weight(dist, opt.ties, opt.seed, x.data(), y.data());
    const dim3 grid(static_cast<unsigned>(std::min<long long>((padded + 255) / 256, 64)),
                    static_cast<unsigned>(std::min<vertex_t>(padded, 65535)));
    draw_weights<W><<<grid, 256, 0, st>>>(weight, n, padded, w.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  stop.record(st);
  const double s = stop.since(start);  // (waits for the weights)
  return DeviceDense(std::make_unique<Impl>(Impl{device, n, padded, std::move(w), s}));
}

template <class W>
DeviceDense<W>::~DeviceDense() = default;
template <class W>
DeviceDense<W>::DeviceDense(DeviceDense&&) noexcept = default;
template <class W>
DeviceDense<W>& DeviceDense<W>::operator=(DeviceDense&&) noexcept = default;
template <class W>
int DeviceDense<W>::device() const noexcept {
  return impl_->device;
}
template <class W>
vertex_t DeviceDense<W>::n() const noexcept {
  return impl_->n;
}
template <class W>
vertex_t DeviceDense<W>::padded_n() const noexcept {
  return impl_->padded;
}
template <class W>
double DeviceDense<W>::seconds() const noexcept {
  return impl_->seconds;
}

template <class W>
Dense<W> DeviceDense<W>::to_host(CUstream_st* stream) const {
  const gpu::StreamSession session(impl_->device, stream);
  const vertex_t n = impl_->n, p = impl_->padded;
  Dense<W> d(n);
  if (n > 0) {
    MATCHBLAS_CUDA_TRY(cudaMemcpy2DAsync(d.values.data(), std::size_t(n) * sizeof(W), impl_->w.data(),
                                         std::size_t(p) * sizeof(W), std::size_t(n) * sizeof(W), std::size_t(n),
                                         cudaMemcpyDeviceToHost, session.stream()));
    session.synchronize();
  }
  return d;
}

template class DeviceDense<float>;
template class DeviceDense<double>;

}  // namespace matchblas
