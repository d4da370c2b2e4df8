// The distributed graph input in a build without MPI (dist_read.hpp): says so.
#include "lib/error.hpp"
#include "datasets/distributed/dist_read.hpp"

namespace matchblas::mpi {

namespace {
[[noreturn]] void no_mpi() { throw error("reading a graph in parts needs MPI, which this build lacks"); }
}  // namespace

DistGraph read_graph(const MmLayout&, Precision, const GraphRules&, ReadTimes*, Partition) { no_mpi(); }
LoadedPart load_graph(const std::string&, GraphView, Precision, const std::function<void(const MmHeader&)>&,
                      Partition) {
  no_mpi();
}
DistGraph generate_graph(const std::string&, vertex_t, const GenOptions&, Precision, ReadTimes*, Partition) {
  no_mpi();
}

}  // namespace matchblas::mpi
