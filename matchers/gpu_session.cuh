// What every GPU matcher does around its kernels (matchers/gpu.hpp): check
// the options and the graph, pick the device, own a stream, upload the graph,
// time the three parts with CUDA events, and bring the mate array back.
// .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/matching.hpp"
#include "matchers/device_graph.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

// A CUDA event, created at its first record (on the device current then).
class Event {
 public:
  Event() = default;
  ~Event() {
    if (e_) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) {
    if (!e_) MATCHBLAS_CUDA_TRY(cudaEventCreate(&e_));
    MATCHBLAS_CUDA_TRY(cudaEventRecord(e_, s));
  }
  // Seconds from `start` to this event (both recorded and complete).
  double since(const Event& start) const {
    float ms = 0;
    MATCHBLAS_CUDA_TRY(cudaEventSynchronize(e_));
    MATCHBLAS_CUDA_TRY(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t e_{};
};

}  // namespace matchblas::gpu

namespace matchblas {

template <class W>
struct DeviceGraph<W>::Impl {
  int device;
  vertex_t n;
  gpu::DeviceCsr<W> csr;
  double upload_s;
};

}  // namespace matchblas

namespace matchblas::gpu {

// One matcher run on a resident graph: the graph's device made current, a
// stream, and the events that time the match and the download.
template <class W>
class MatcherSession {
 public:
  MatcherSession(const char* name, const DeviceGraph<W>& g, const GpuOptions& opt)
      : n_(g.n()), upload_s_(g.upload_seconds()), graph_(g.impl().csr.view()) {
    check_gpu_options(opt);
    if (opt.device != g.device())
      throw invalid_input(std::string(name) + ": the graph is on GPU " + std::to_string(g.device()) +
                          ", the options name GPU " + std::to_string(opt.device));
    MATCHBLAS_CUDA_TRY(cudaSetDevice(g.device()));
    retain_pool_memory();  // the matchers' scratch is stream-ordered (DeviceBuffer(n, stream))
    MATCHBLAS_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, g.device()));
    start_.record(stream_);
  }
  ~MatcherSession() {
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }
  MatcherSession(const MatcherSession&) = delete;
  MatcherSession& operator=(const MatcherSession&) = delete;

  cudaStream_t stream() const { return stream_; }
  int sms() const { return sms_; }
  CsrView<W> graph() const { return graph_; }
  vertex_t n() const { return n_; }

  // Ends the match phase: copies mate (n entries on the device) back, fills
  // times when asked, and returns the matching.
  Matching finish(const DeviceBuffer<vertex_t>& mate, GpuTimes* times) {
    matched_.record(stream_);
    Matching m(n_);
    mate.to_host(std::span(m.mate), stream_);
    done_.record(stream_);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream_));
    if (times) {
      times->upload_s = upload_s_;
      times->match_s = matched_.since(start_);
      times->download_s = done_.since(matched_);
    }
    return m;
  }

 private:
  vertex_t n_;
  double upload_s_;
  CsrView<W> graph_;
  cudaStream_t stream_ = nullptr;
  int sms_ = 0;
  Event start_, matched_, done_;
};

// Grid size for a grid-stride loop over `items` with `block` threads per
// block: enough blocks for one item per thread, at most `cap` blocks (and at
// least 1).
inline unsigned grid_for(long long items, int block, long long cap) {
  const long long want = (items + block - 1) / block;
  return static_cast<unsigned>(std::max(1LL, std::min(want, cap)));
}

}  // namespace matchblas::gpu
