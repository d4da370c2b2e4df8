// Double weights as floats where every one is a float exactly (integers up
// to 2^24, a pattern's ones, the K values i/K for K a power of two, values
// that came from floats): then every comparison and tie of the floats is
// the doubles', so a matcher whose float path packs (weight, vertex) in one
// word (ops/gpu/offer_word.cuh: suitor-gpu, b-suitor-gpu) returns the same
// edges on them, and faster than its double path, whose keys search the
// holder's row (2.0-2.4x on R-MAT 2^23 on the H200, bench/RESULTS.md).
// Cost: one pass over the entries (8 bytes read, 4 written each) and one
// host synchronisation; 4 bytes an entry of device memory while the
// matcher runs. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <optional>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu {

namespace float_weights_detail {  // a kernel of each .cu file that includes this
namespace {
// out[i] = float(w[i]); *inexact raised where one is not a float exactly
// (a NaN too: not a valid weight).
__global__ void weights_as_floats(const double* w, offset_t n, float* out, unsigned* inexact) {
  bool off = false;
  for (long long i = grid_thread(); i < n; i += grid_threads()) {
    const float f = float(w[i]);
    out[i] = f;
    off |= double(f) != w[i];
  }
  if (off) atomicOr(inexact, 1u);
}
}  // namespace
}  // namespace float_weights_detail

// The graph's weights as floats where every one is a float exactly, else
// nothing (also where the entries' floats do not fit, and for a graph
// without entries). Synchronous on s.
inline std::optional<DeviceBuffer<float>> floats_if_exact(const CsrView<double>& g, long long max_grid,
                                                          cudaStream_t s) {
  std::optional<DeviceBuffer<float>> out;
  if (g.n_entries == 0) return out;
  try {
    out.emplace(std::size_t(g.n_entries), s);
  } catch (const out_of_memory&) {
    return out;
  }
  DeviceBuffer<unsigned> inexact(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(inexact.data(), 0, sizeof(unsigned), s));
  float_weights_detail::weights_as_floats<<<grid_for(g.n_entries, 256, max_grid), 256, 0, s>>>(
      g.weights, g.n_entries, out->data(), inexact.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  unsigned off = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&off, inexact.data(), sizeof off, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  if (off) out.reset();
  return out;
}

// The same graph with the float weights.
inline CsrView<float> with_weights(const CsrView<double>& g, const float* weights) {
  return {g.n_rows, g.n_cols, g.offsets, g.cols, weights, g.n_entries};
}

// The phase name a matcher reports when it ran on the floats.
inline constexpr const char* float_keys_phase = "the double weights as float keys (all floats exactly; before init)";

}  // namespace matchblas::gpu
