// cardinality-gpu and awpm-gpu in a build without CUDA: each throws, saying why.
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*, GpuSearchCounts*) {
  throw_no_cuda("cardinality-gpu");
}

AwpmResult awpm_gpu(const Csr<double>&, const AwpmOptions&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("awpm-gpu");
}

}  // namespace matchblas
