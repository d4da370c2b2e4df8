// What every GPU matcher shares: GpuOptions (the device, the thread count
// and the stream to run on), GpuTimes (upload, match, download, measured
// with CUDA events on the matcher's stream) and DeviceGraph (a general graph
// uploaded once, for running several matchers or settings on it). Plain
// header: callable from host code in every build, no CUDA header included
// (a stream is a CUstream_st*, which is what cudaStream_t names); without
// CUDA or without a GPU the entry points throw matchblas::error saying why
// (without CUDA: ops/gpu/no_cuda.hpp). The GPU layer below the matchers:
// ops/gpu/device_graph.cu uploads, device_graph.cpp checks GpuOptions,
// device_graph_no_cuda.cpp stands in without CUDA.
// Streams: every GPU entry point runs its work (copies, kernels, scratch
// allocated from the device's pool) on one stream, the caller's or one it
// creates and owns (ops/gpu/gpu_session.cuh), never on the legacy default
// stream, and waits for that stream alone before it returns host results.
// The matchers themselves are declared in their families' headers beside
// their CPU twins (matchers/general/suitor.hpp, general/ld.hpp,
// general/handshake.hpp, general/roma_sparse.hpp, complete/roma.hpp,
// complete/auction.hpp, b_matching/b_matching.hpp, bipartite/*.hpp,
// marriage/stable_marriage.hpp).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/types.hpp"

struct CUstream_st;  // the CUDA runtime's stream type: cudaStream_t is CUstream_st*

namespace matchblas {

struct GpuOptions {
  int device = 0;               // CUDA device id
  int threads = 0;              // handshake_gpu and ld_gpu: about this many threads per kernel (the handshaking course project
                                // -threads); 0: enough for one per element. The result never depends on it.
  static constexpr int max_threads_per_block = 1024;
  int threads_per_block = 128;  // suitor_gpu's warps (Naim et al. 2015: 128, 192 or 256), handshake_gpu's kernels
  // A cudaStream_t to run on (a stream of GPU `device`); null: the matcher
  // creates and owns one. The matcher synchronises with it before returning
  // host results; it never destroys a stream it was given.
  CUstream_st* stream = nullptr;
  // At most this many bytes of device memory for the run; 0: the device's
  // free memory. b-suitor-gpu and suitor-gpu on a host graph that does not
  // fit with their state stream the graph's rows through the device in
  // batches (ops/gpu/row_batches.cuh; same result); too little for their
  // state and two of the longest row is out_of_memory, naming the bytes.
  std::size_t device_memory = 0;
};

// Throws invalid_input naming the bad field (device >= 0, threads >= 0,
// threads_per_block a multiple of 32 in [32, 1024]).
void check_gpu_options(const GpuOptions& opt);

// Where the time went, measured with CUDA events on the device's stream.
struct GpuTimes {
  double upload_s = 0;    // the graph to the device
  double match_s = 0;     // the kernels, graph resident, result on the device
  double download_s = 0;  // the mate array back
  // The parts of match_s where a matcher reports them (suitor_gpu adaptive:
  // "argmax", "propose+list", "hubs", "warps"), in order.
  std::vector<std::pair<std::string, double>> phases;
};

// A graph uploaded once to GPU `device`, for running several matchers or
// settings on it without copying it again (benchmarks, sweeps). Checks that
// g is square and a consistent CSR (invalid_input), that the GPU exists
// (invalid_input) and that there is one (error). The copy goes on `stream`
// (a cudaStream_t of that GPU; null: one of its own) and is complete when
// the constructor returns. Move-only.
template <class W>
class DeviceGraph {
 public:
  explicit DeviceGraph(const Csr<W>& g, int device = 0, CUstream_st* stream = nullptr);
  ~DeviceGraph();
  DeviceGraph(DeviceGraph&&) noexcept;
  DeviceGraph& operator=(DeviceGraph&&) noexcept;
  int device() const noexcept;
  vertex_t n() const noexcept;
  double upload_seconds() const noexcept;

  struct Impl;  // ops/gpu/gpu_session.cuh
  const Impl& impl() const noexcept { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace matchblas
