// b-suitor-gpu and b-ld-gpu in a build without CUDA: they throw, saying why.
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

template <class W>
BMatching b_suitor_gpu(const Csr<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("b-suitor-gpu");
}
template <class W>
BMatching b_suitor_gpu(const DeviceGraph<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("b-suitor-gpu");
}
template BMatching b_suitor_gpu(const Csr<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const Csr<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);

template <class W>
BMatching b_ld_gpu(const Csr<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("b-ld-gpu");
}
template <class W>
BMatching b_ld_gpu(const DeviceGraph<W>&, const std::vector<int>&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("b-ld-gpu");
}
template BMatching b_ld_gpu(const Csr<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const Csr<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const DeviceGraph<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const DeviceGraph<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
