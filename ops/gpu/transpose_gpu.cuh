// transpose on the device: C = A' through cuSPARSE's csr2csc
// (cusparseCsr2cscEx2, CUSPARSE_CSR2CSC_ALG1), the device-level twin of
// ops/transpose.hpp for GPU matchers (ops/gpu/transpose_gpu.cu defines it
// and wraps it for host arrays).
//
//   C = transpose(A): A.n_cols x A.n_rows; row v of C lists the rows u of
//   A's entries (u, v, w) in ascending u (csr2csc walks A's rows in order).
//
// cuSPARSE's csr2csc takes 32-bit offsets and entry counts: the int64
// offsets of A are narrowed on the device before the call and C's widened
// after it, and A may hold at most 2^31 - 1 entries (invalid_input beyond;
// O(1) check). A without entries skips cuSPARSE (C's offsets are zeros), so
// shapes with no rows or no columns never reach it.
// Guarantee: the CPU twin's C for every consistent A with columns in range
// (not checked: device data), for any threads_per_block (a multiple of 32
// from 32 to 1024; invalid_input otherwise).
// Cost: O(rows + cols + entries) work; temporary device memory: 32-bit row
// and column offsets plus cuSPARSE's buffer (its size query). Sets the
// handle's stream to `stream`; synchronous: waits for `stream` before
// freeing the temporaries. W in {float, double}. .cu files only.
#pragma once
#include <cuda_runtime.h>
#include <cusparse.h>

#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

template <class W>
DeviceCsr<W> transpose(const CsrView<W>& a, cusparseHandle_t handle, int threads_per_block, cudaStream_t stream);

}  // namespace matchblas::gpu
