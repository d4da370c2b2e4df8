// cardinality-gpu in a build without CUDA: it throws, saying why.
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

BipartiteMates max_cardinality_bipartite_gpu(const Csr<double>&, const GpuOptions&, GpuTimes*, GpuSearchCounts*) {
  throw_no_cuda("cardinality-gpu");
}

}  // namespace matchblas
