// cardinality-gpu, awpm-gpu, max-sum-gpu and max-product-gpu in a build
// without CUDA: each throws, saying why.
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"

namespace matchblas {

BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*, GpuSearchCounts*) {
  throw_no_cuda("cardinality-gpu");
}

AwpmResult awpm_gpu(const Csr<double>&, const AwpmOptions&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("awpm-gpu");
}

DualMatching min_cost_max_cardinality_gpu(const Csr<double>&, const AuctionGpuOptions&, const GpuOptions&,
                                          AuctionGpuReport*) {
  throw_no_cuda("max-sum-gpu and max-product-gpu");
}

}  // namespace matchblas
