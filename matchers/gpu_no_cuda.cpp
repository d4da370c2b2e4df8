// The GPU matchers in a build without CUDA: each says why it cannot run.
#include "lib/error.hpp"
#include "matchers/gpu.hpp"

namespace matchblas {

namespace {
[[noreturn]] void no_cuda(const char* name) {
  throw error(std::string(name) + " needs a CUDA GPU: this build has no CUDA (configure with nvcc available, or "
                                  "-DMATCHBLAS_CUDA=ON)");
}
}  // namespace

template <class W>
struct DeviceGraph<W>::Impl {};

template <class W>
DeviceGraph<W>::DeviceGraph(const Csr<W>&, int) {
  no_cuda("DeviceGraph");
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

// A DeviceGraph cannot exist in this build, so the overloads taking one are
// never reached; they throw all the same.
#define MATCHBLAS_NO_CUDA_MATCHER(fn, name)                                    \
  template <class W>                                                           \
  Matching fn(const Csr<W>&, const GpuOptions&, GpuTimes*) {                   \
    no_cuda(name);                                                             \
  }                                                                            \
  template <class W>                                                           \
  Matching fn(const DeviceGraph<W>&, const GpuOptions&, GpuTimes*) {           \
    no_cuda(name);                                                             \
  }
MATCHBLAS_NO_CUDA_MATCHER(suitor_gpu, "suitor-gpu")
MATCHBLAS_NO_CUDA_MATCHER(ld_gpu, "ld-gpu")
MATCHBLAS_NO_CUDA_MATCHER(handshake_gpu, "handshake-gpu")

template <class W>
struct DeviceDense<W>::Impl {};
template <class W>
DeviceDense<W>::DeviceDense(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
template <class W>
DeviceDense<W> DeviceDense<W>::upload(const Dense<W>&, int) {
  no_cuda("DeviceDense");
}
template <class W>
DeviceDense<W> DeviceDense<W>::generate(WeightDist, vertex_t, const GenOptions&, int) {
  no_cuda("DeviceDense");
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
Dense<W> DeviceDense<W>::to_host() const {
  no_cuda("DeviceDense");
}
template class DeviceDense<float>;
template class DeviceDense<double>;

template <class W>
RomaRun roma_gpu(const DeviceDense<W>&, const RomaOptions&, const RomaGpuOptions&) {
  no_cuda("roma-gpu");
}
template <class W>
RomaRun roma_gpu(const Dense<W>&, const RomaOptions&, const RomaGpuOptions&) {
  no_cuda("roma-gpu");
}
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>&, int version, const RomaOptions&, int) {
  no_cuda(version == 1 ? "roma-gpu-1" : "roma-gpu-2");
}
template <class W>
RomaRun roma_gpu_thesis(const DeviceDense<W>&, int version, const RomaOptions&) {
  no_cuda(version == 1 ? "roma-gpu-1" : "roma-gpu-2");
}
template <class W>
std::vector<vertex_t> dense_auction_gpu(const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*) {
  no_cuda("auction-gpu");
}
template <class W>
std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<W>&, const AuctionOptions&, AuctionGpuStats*) {
  no_cuda("auction-gpu");
}
Marriage mcvitie_wilson_gpu(const RankedLists&, int, GpuTimes*) { no_cuda("mcvitie-wilson-gpu"); }
Marriage mcvitie_wilson_gpu(const IdenticalPreferences&, int, GpuTimes*) { no_cuda("mcvitie-wilson-gpu"); }

template <class W>
BMatching b_suitor_gpu(const Csr<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  no_cuda("b-suitor-gpu");
}
template <class W>
BMatching b_suitor_gpu(const DeviceGraph<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  no_cuda("b-suitor-gpu");
}
template BMatching b_suitor_gpu(const Csr<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const Csr<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);

template RomaRun roma_gpu(const DeviceDense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const DeviceDense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu_thesis(const Dense<float>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const Dense<double>&, int, const RomaOptions&, int);
template RomaRun roma_gpu_thesis(const DeviceDense<float>&, int, const RomaOptions&);
template RomaRun roma_gpu_thesis(const DeviceDense<double>&, int, const RomaOptions&);
template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<float>&, const AuctionOptions&, AuctionGpuStats*);
template std::vector<vertex_t> dense_auction_gpu(const DeviceDense<double>&, const AuctionOptions&, AuctionGpuStats*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<float>&, const AuctionOptions&,
                                                       AuctionGpuStats*);
template std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<double>&, const AuctionOptions&,
                                                       AuctionGpuStats*);
#undef MATCHBLAS_NO_CUDA_MATCHER

template Matching suitor_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const DeviceGraph<double>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching suitor_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching ld_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const Csr<float>&, const GpuOptions&, GpuTimes*);
template Matching handshake_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
