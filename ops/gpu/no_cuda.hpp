// The GPU entry points in a build without CUDA: each is one line of its
// family's gpu_no_cuda.cpp (the sibling that the build takes instead of the
// family's .cu files), which defines it to throw matchblas::error naming it
// and saying that this build has no CUDA (throw_no_cuda):
//   MATCHBLAS_NO_CUDA(RET, FN, (PARAMS), NAME)    a plain function
//   MATCHBLAS_NO_CUDA_W(RET, FN, (PARAMS), NAME)  a function template on the
//       weight type W, defined and instantiated for W = float and double
// RET FN (PARAMS) is the entry's declaration (its header's, default
// arguments left out); NAME the string the message names, an expression
// that may read parameters named in PARAMS (roma-gpu-1 or -2 by version).
// DeviceGraph and DeviceDense, classes rather than entry points, have stand-ins
// of their own (ops/gpu/device_graph_no_cuda.cpp, device_dense_no_cuda.cpp);
// the ops' GPU backends (ops/gpu/*_gpu_no_cuda.cpp, device_entries_no_cuda.cpp)
// check their arguments first and say "needs CUDA, which this build lacks".
// Plain header, no CUDA.
#pragma once
#include <string>

#include "lib/error.hpp"

namespace matchblas {

// Throws matchblas::error naming `what` and saying that this build has no
// CUDA.
[[noreturn]] inline void throw_no_cuda(const std::string& what) {
  throw error(what + " needs a CUDA GPU: this build has no CUDA (configure with nvcc available, or "
                     "-DMATCHBLAS_CUDA=ON)");
}

}  // namespace matchblas

#define MATCHBLAS_NO_CUDA(ret, fn, params, name) \
  ret fn params { ::matchblas::throw_no_cuda(name); }

// The alias names the instantiated signature (ret params with W replaced),
// one alias per line so that overloads of one name can each have their line.
#define MATCHBLAS_NO_CUDA_CAT2(a, b) a##b
#define MATCHBLAS_NO_CUDA_CAT(a, b) MATCHBLAS_NO_CUDA_CAT2(a, b)
#define MATCHBLAS_NO_CUDA_W(ret, fn, params, name)                                     \
  template <class W>                                                                   \
  ret fn params {                                                                      \
    ::matchblas::throw_no_cuda(name);                                                  \
  }                                                                                    \
  template <class W>                                                                   \
  using MATCHBLAS_NO_CUDA_CAT(fn##_no_cuda_signature_, __LINE__) = ret params;         \
  template MATCHBLAS_NO_CUDA_CAT(fn##_no_cuda_signature_, __LINE__)<float> fn;         \
  template MATCHBLAS_NO_CUDA_CAT(fn##_no_cuda_signature_, __LINE__)<double> fn;
