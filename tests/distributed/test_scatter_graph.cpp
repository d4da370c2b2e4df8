// mpi::scatter_graph: rank 0's graph sent in parts gives every rank the
// same DistGraph as distribute() on the whole graph.
#include <doctest/doctest.h>

#include "datasets/generators.hpp"
#include "matchers/distributed/mpi_session.hpp"

using namespace matchblas;

TEST_CASE("scatter_graph gives each rank what distribute gives it") {
  GenOptions o;
  o.seed = 4;
  o.ties = 3;
  const Csr<double> g = rmat<double>(2048, o);
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  const DistGraph sent = mpi::scatter_graph(rank == 0 ? &g : nullptr);
  const DistGraph here = distribute(g, rank, ranks);
  const bool same = sent.n == here.n && sent.edges == here.edges && sent.first == here.first &&
                    sent.offsets == here.offsets && sent.cols == here.cols && sent.weights == here.weights &&
                    sent.ghosts == here.ghosts && sent.cross_entries == here.cross_entries;
  CHECK(mpi::first_failure(same ? "" : "differs").empty());
  const Csr<float> f = erdos_renyi<float>(300, o);
  const DistGraph fs = mpi::scatter_graph(rank == 0 ? &f : nullptr);
  const DistGraph fh = distribute(f, rank, ranks);
  CHECK(mpi::first_failure(fs.cols == fh.cols && fs.weights == fh.weights ? "" : "differs").empty());
}
