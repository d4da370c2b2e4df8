// DeviceDense, the GPU auction and the GPU ROMA matchers in a build without CUDA: each throws, saying why.
#include "matchers/complete/auction.hpp"
#include "matchers/complete/device_dense.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/device_graph.hpp"

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

template <class W>
std::vector<vertex_t> dense_auction_gpu(const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*, CUstream_st*) {
  throw_no_cuda("auction-gpu");
}
template <class W>
std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*,
                                              CUstream_st*) {
  throw_no_cuda("auction-gpu");
}

template <class W>
RomaRun roma_gpu(const DeviceDense<W>&, const RomaOptions&, const RomaGpuOptions&) {
  throw_no_cuda("roma-gpu");
}
template <class W>
RomaRun roma_gpu(const Dense<W>&, const RomaOptions&, const RomaGpuOptions&) {
  throw_no_cuda("roma-gpu");
}
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>&, int version, const RomaOptions&, int) {
  throw_no_cuda(version == 1 ? "roma-gpu-1" : "roma-gpu-2");
}
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>&, int version, const RomaOptions&, const GpuOptions&) {
  throw_no_cuda(version == 1 ? "roma-gpu-1" : "roma-gpu-2");
}
template <class W>
RomaRun roma_gpu_thesis(const DeviceDense<W>&, int version, const RomaOptions&, CUstream_st*) {
  throw_no_cuda(version == 1 ? "roma-gpu-1" : "roma-gpu-2");
}

template RomaRun roma_gpu(const DeviceDense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const DeviceDense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, const GpuOptions&);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, const GpuOptions&);
template RomaRun roma_gpu_thesis(const DeviceDense<float>&, int, const RomaOptions&, CUstream_st*);
template RomaRun roma_gpu_thesis(const DeviceDense<double>&, int, const RomaOptions&, CUstream_st*);
template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<float>&, const AuctionOptions&, AuctionGpuStats*,
                                                 CUstream_st*);
template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<double>&, const AuctionOptions&, AuctionGpuStats*,
                                                 CUstream_st*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<float>&, const AuctionOptions&,
                                                       AuctionGpuStats*, CUstream_st*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<double>&, const AuctionOptions&,
                                                       AuctionGpuStats*, CUstream_st*);

}  // namespace matchblas
