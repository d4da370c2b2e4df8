// The GPU ops on device arrays a caller owns and keeps (CuPy's, through the
// C interface's matchblas_ops_*_device): the device-level ops of
// ops/gpu/argmax_gpu.cuh, assign_gpu.cuh and select_gpu.cuh on the caller's
// pointers, without copying them. Plain header: no CUDA includes (kernels in
// ops/gpu/device_entries.cu; builds without CUDA link
// ops/gpu/device_entries_no_cuda.cpp, which throws).
//
//   argmax_rows_on_device   = ops::argmax_rows on device arrays
//   assign_on_device        = ops::assign (values, or value when values is null)
//   select_free_on_device   = ops::select_free_entries; the result in device
//                             memory the caller frees with free_on_device
//
// Each makes GPU `device` current for the call (and restores the caller's
// current device after), enqueues its work on `stream` (a cudaStream_t;
// null: the legacy default stream) and waits for it before returning.
// Guarantee: the CPU twin's result for every input (the device-level ops'
// own tests). Errors: invalid_input for a bad device id, error without a
// GPU or a CUDA build, cuda_error / out_of_memory from the device. Device
// arrays are not checked: offsets has n_rows + 1 entries from 0 up to
// n_entries, columns are below n_cols, masks and floors have the lengths of
// ops/argmax.hpp.
// Cost: the device op's; 32-bit offsets are first widened to 64 bits in a
// scratch array (O(rows)).
#pragma once
#include <cstddef>
#include <cstdint>

#include "lib/types.hpp"

namespace matchblas::ops {

// A CSR in caller-owned device memory; exactly one of offsets32 / offsets64.
template <class W>
struct DeviceCsrArrays {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  offset_t n_entries = 0;
  const std::int32_t* offsets32 = nullptr;
  const offset_t* offsets64 = nullptr;
  const vertex_t* cols = nullptr;
  const W* weights = nullptr;
};

// A CSR in device memory allocated here (cudaMalloc); free each array with
// free_on_device.
template <class W>
struct OwnedDeviceCsr {
  offset_t n_entries = 0;
  offset_t* offsets = nullptr;  // n_rows + 1
  vertex_t* cols = nullptr;
  W* weights = nullptr;
};

// W in {float, double}; null masks and floors are "none".
template <class W>
void argmax_rows_on_device(const DeviceCsrArrays<W>& a, const std::uint8_t* active_rows,
                           const std::uint8_t* eligible_cols, const W* floor_weight, const vertex_t* floor_vertex,
                           vertex_t* best, W* best_weight, int device, void* stream);

// T with gpu_assign_type<T> (ops/gpu_ops.hpp).
template <class T>
void assign_on_device(T* out, std::size_t n, const std::uint8_t* mask, const T* values, T value, int device,
                      void* stream);

// shape_error unless a is square (as select_free_entries).
template <class W>
OwnedDeviceCsr<W> select_free_on_device(const DeviceCsrArrays<W>& a, const vertex_t* mate, int device, void* stream);

void free_on_device(void* p, int device) noexcept;

// Copies `bytes` bytes between the host and memory GPU `device` can read
// (device or managed memory), ordered on `stream`, and waits for the copy.
// `what` names the array in the messages: invalid_input when `device_ptr`
// is not such memory (a host pointer passed as a device array, say).
void copy_from_device(void* host, const void* device_ptr, std::size_t bytes, int device, void* stream,
                      const char* what);
void copy_to_device(void* device_ptr, const void* host, std::size_t bytes, int device, void* stream,
                    const char* what);

// invalid_input naming `what` unless GPU `device` can read p (device memory
// on it, or managed memory) and, where the driver can say, p's allocation
// holds at least `bytes` bytes from p on; a null p passes (an array not
// asked for).
void expect_device_array(const void* p, int device, const char* what, std::size_t bytes = 0);

}  // namespace matchblas::ops

// The explicit instantiations, one list for device_entries.cu and its
// stand-in device_entries_no_cuda.cpp (used inside namespace matchblas::ops).
#define MATCHBLAS_DEVICE_ENTRIES_WEIGHT(W)                                                                       \
  template void argmax_rows_on_device<W>(const DeviceCsrArrays<W>&, const std::uint8_t*, const std::uint8_t*,    \
                                         const W*, const vertex_t*, vertex_t*, W*, int, void*);                  \
  template OwnedDeviceCsr<W> select_free_on_device<W>(const DeviceCsrArrays<W>&, const vertex_t*, int, void*);
#define MATCHBLAS_DEVICE_ENTRIES_ASSIGN(T) \
  template void assign_on_device<T>(T*, std::size_t, const std::uint8_t*, const T*, T, int, void*);
#define MATCHBLAS_INSTANTIATE_DEVICE_ENTRIES      \
  MATCHBLAS_DEVICE_ENTRIES_WEIGHT(float)          \
  MATCHBLAS_DEVICE_ENTRIES_WEIGHT(double)         \
  MATCHBLAS_DEVICE_ENTRIES_ASSIGN(std::uint8_t)   \
  MATCHBLAS_DEVICE_ENTRIES_ASSIGN(std::int32_t)   \
  MATCHBLAS_DEVICE_ENTRIES_ASSIGN(std::int64_t)   \
  MATCHBLAS_DEVICE_ENTRIES_ASSIGN(float)          \
  MATCHBLAS_DEVICE_ENTRIES_ASSIGN(double)
