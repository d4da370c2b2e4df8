// DeviceGraph in a build without CUDA: constructing one throws, saying why.
#include "ops/gpu/device_graph.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

template <class W>
struct DeviceGraph<W>::Impl {};

template <class W>
DeviceGraph<W>::DeviceGraph(const Csr<W>&, int, CUstream_st*) {
  throw_no_cuda("DeviceGraph");
}
template <class W>
DeviceGraph<W>::~DeviceGraph() = default;
template <class W>
DeviceGraph<W>::DeviceGraph(DeviceGraph&&) noexcept = default;
template <class W>
DeviceGraph<W>& DeviceGraph<W>::operator=(DeviceGraph&&) noexcept = default;
template <class W>
int DeviceGraph<W>::device() const noexcept {
  return 0;
}
template <class W>
vertex_t DeviceGraph<W>::n() const noexcept {
  return 0;
}
template <class W>
double DeviceGraph<W>::upload_seconds() const noexcept {
  return 0;
}
template class DeviceGraph<float>;
template class DeviceGraph<double>;

}  // namespace matchblas
