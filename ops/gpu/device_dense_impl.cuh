// DeviceDense's state (ops/gpu/device_dense.hpp): the padded n x n weights on the
// device. .cu files only.
#pragma once
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas {

template <class W>
struct DeviceDense<W>::Impl {
  int device;
  vertex_t n;       // the graph's order
  vertex_t padded;  // n rounded up to even: the row length on the device
  gpu::DeviceBuffer<W> w;
  double seconds;
};

}  // namespace matchblas
