// DeviceDense in a build without CUDA: uploading or generating one throws,
// saying why.
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/no_cuda.hpp"

namespace matchblas {

template <class W>
struct DeviceDense<W>::Impl {};
template <class W>
DeviceDense<W>::DeviceDense(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
template <class W>
DeviceDense<W> DeviceDense<W>::upload(const Dense<W>&, int, CUstream_st*) {
  throw_no_cuda("DeviceDense");
}
template <class W>
DeviceDense<W> DeviceDense<W>::generate(WeightDist, vertex_t, const GenOptions&, int, CUstream_st*) {
  throw_no_cuda("DeviceDense");
}
template <class W>
DeviceDense<W>::~DeviceDense() = default;
template <class W>
DeviceDense<W>::DeviceDense(DeviceDense&&) noexcept = default;
template <class W>
DeviceDense<W>& DeviceDense<W>::operator=(DeviceDense&&) noexcept = default;
template <class W>
int DeviceDense<W>::device() const noexcept {
  return 0;
}
template <class W>
vertex_t DeviceDense<W>::n() const noexcept {
  return 0;
}
template <class W>
vertex_t DeviceDense<W>::padded_n() const noexcept {
  return 0;
}
template <class W>
double DeviceDense<W>::seconds() const noexcept {
  return 0;
}
template <class W>
Dense<W> DeviceDense<W>::to_host(CUstream_st*) const {
  throw_no_cuda("DeviceDense");
}
template class DeviceDense<float>;
template class DeviceDense<double>;

}  // namespace matchblas
