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

TEST_CASE("whole_offsets gives every rank the whole graph's offsets, hubs and edgeless graphs included") {
  GenOptions o;
  o.seed = 9;
  o.ties = 2;
  const Csr<double> r = rmat<double>(4096, o);  // hubs at low labels
  const Csr<double> sparse = erdos_renyi<double>(50, o);
  Csr<double> lone = erdos_renyi<double>(30, o);
  lone.offsets.assign(lone.offsets.size(), 0);  // no edges at all
  lone.cols.clear();
  lone.weights.clear();
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  for (const Csr<double>* g : {&r, &sparse, static_cast<const Csr<double>*>(&lone)}) {
    const DistGraph part = distribute(*g, rank, ranks, Partition::blocks);
    const std::vector<offset_t> whole = mpi::whole_offsets(part);
    CHECK(mpi::first_failure(whole == g->offsets ? "" : "differs").empty());
  }
}
