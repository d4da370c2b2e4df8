// mpi::scatter_graph: rank 0's graph sent in parts gives every rank the
// same DistGraph as distribute() on the whole graph, for either partition.
#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "matchers/distributed/mpi_session.hpp"

using namespace matchblas;

TEST_CASE("scatter_graph gives each rank what distribute gives it, under either partition") {
  GenOptions o;
  o.seed = 4;
  o.ties = 3;
  const Csr<double> g = rmat<double>(2048, o);
  const Csr<float> f = erdos_renyi<float>(300, o);
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  for (const Partition partition : {Partition::blocks, Partition::spread}) {
    CAPTURE(int(partition));
    const DistGraph sent = mpi::scatter_graph(rank == 0 ? &g : nullptr, partition);
    const DistGraph here = distribute(g, rank, ranks, partition);
    const bool same = sent.n == here.n && sent.edges == here.edges && sent.first == here.first &&
                      sent.partition == here.partition && sent.numbering == here.numbering &&
                      sent.offsets == here.offsets && sent.cols == here.cols && sent.weights == here.weights &&
                      sent.ghosts == here.ghosts && sent.cross_entries == here.cross_entries;
    CHECK(mpi::first_failure(same ? "" : "differs").empty());
    const DistGraph fs = mpi::scatter_graph(rank == 0 ? &f : nullptr, partition);
    const DistGraph fh = distribute(f, rank, ranks, partition);
    CHECK(mpi::first_failure(fs.cols == fh.cols && fs.weights == fh.weights ? "" : "differs").empty());
  }
}
