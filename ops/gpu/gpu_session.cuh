// What every GPU entry point does around its kernels (ops/gpu/device_graph.hpp
// states the stream contract): StreamSession makes the device current and
// holds the one stream all of the call's work goes on (the caller's, or one
// it owns), and says how many SMs the device has; Event times work on that
// stream; MatcherSession adds, for the sparse matchers on a DeviceGraph, the
// option checks, the events that time match and download, and the mate array
// back; with_device_graph is the host-graph form of every entry that takes a
// DeviceGraph (upload, then that entry). The dense family
// (matchers/complete/), the bipartite family's rectangular matrices and
// mcvitie-wilson-gpu use StreamSession directly. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/matching.hpp"
#include "ops/gpu/device_graph.hpp"
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

// One call's stream on GPU `device`, which it makes current: `stream` when
// given (the caller's: never destroyed here), else a non-blocking stream it
// creates and, at its end, synchronises and destroys. Every copy, memset,
// kernel and event of the call goes on stream(), never on the legacy default
// stream; the call waits for it (synchronize(), or an Event's since()) before
// it reads results on the host. The device's default memory pool keeps freed
// memory (retain_pool_memory), so scratch taken on the stream
// (DeviceBuffer(n, stream)) costs no driver allocation after the first call;
// declare such buffers after the session, so that they are freed on its
// stream before an owned stream is destroyed. The caller checks `device`
// first (use_device, or a resident graph's own device).
class StreamSession {
 public:
  StreamSession(int device, cudaStream_t stream) : device_(device), stream_(stream) {
    MATCHBLAS_CUDA_TRY(cudaSetDevice(device));
    retain_pool_memory();
    MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
    if (!stream_) {
      MATCHBLAS_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      owned_ = true;
    }
  }
  ~StreamSession() {
    if (owned_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }
  StreamSession(const StreamSession&) = delete;
  StreamSession& operator=(const StreamSession&) = delete;

  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }
  int sms() const { return sms_; }
  // Waits for the work enqueued on the stream (this stream only).
  void synchronize() const { MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(stream_)); }

 private:
  int device_;
  cudaStream_t stream_;
  bool owned_ = false;
  int sms_ = 0;
};

// One matcher run on a resident graph: the options checked against the
// graph, a StreamSession on the graph's device (opt.stream, or its own), and
// the events that time the match and the download.
template <class W>
class MatcherSession : public StreamSession {
 public:
  MatcherSession(const char* name, const DeviceGraph<W>& g, const GpuOptions& opt)
      : StreamSession(checked_device(name, g, opt), opt.stream),
        n_(g.n()),
        upload_s_(g.upload_seconds()),
        graph_(g.impl().csr.view()) {
    start_.record(stream());
  }

  CsrView<W> graph() const { return graph_; }
  vertex_t n() const { return n_; }

  // Ends the match phase: copies mate (n entries on the device) back, waits
  // for the stream, fills times when asked, and returns the matching.
  Matching finish(const DeviceBuffer<vertex_t>& mate, GpuTimes* times) {
    matched_.record(stream());
    Matching m(n_);
    mate.to_host(std::span(m.mate), stream());
    done_.record(stream());
    synchronize();
    if (times) {
      times->upload_s = upload_s_;
      times->match_s = matched_.since(start_);
      times->download_s = done_.since(matched_);
    }
    return m;
  }

 private:
  // The graph's device, once the options are checked and name it.
  static int checked_device(const char* name, const DeviceGraph<W>& g, const GpuOptions& opt) {
    MATCHBLAS_DEBUG_CHECK(check_gpu_options(opt));  // checked where the options were read
    if (opt.device != g.device())
      throw invalid_input(std::string(name) + ": the graph is on GPU " + std::to_string(g.device()) +
                          ", the options name GPU " + std::to_string(opt.device));
    return g.device();
  }

  vertex_t n_;
  double upload_s_;
  CsrView<W> graph_;
  Event start_, matched_, done_;
};

// The host-graph form of a GPU entry point, for every entry that also takes
// a DeviceGraph: opt as checked where it was read (check_gpu_options, in
// debug builds again here), makes GPU opt.device current
// for `name` (use_device: a missing GPU or a bad id is named after the
// entry), uploads g there on opt.stream (DeviceGraph: its checks of g) and
// returns run(dg), the entry on the resident graph, which reports that
// graph's upload in GpuTimes::upload_s (MatcherSession::finish, or its own
// sum), so the host-graph run's times are upload + match + download. The
// graph is freed when run returns. Checks of the entry's other arguments go
// before the call, so that nothing is uploaded for a bad call.
template <class W, class Run>
auto with_device_graph(const char* name, const Csr<W>& g, const GpuOptions& opt, Run&& run) {
  MATCHBLAS_DEBUG_CHECK(check_gpu_options(opt));  // checked where the options were read
  use_device(name, opt.device);
  const DeviceGraph<W> dg(g, opt.device, opt.stream);
  return std::forward<Run>(run)(dg);
}

// Grid size for a grid-stride loop over `items` with `block` threads per
// block: enough blocks for one item per thread, at most `cap` blocks (and at
// least 1).
inline unsigned grid_for(long long items, int block, long long cap) {
  const long long want = (items + block - 1) / block;
  return static_cast<unsigned>(std::max(1LL, std::min(want, cap)));
}

}  // namespace matchblas::gpu
