// The MPI world as the distributed graph input needs it (below the
// matchers, so that dist_read.hpp can use it): this process's rank and the
// number of ranks, scalar collectives over them, and scatter_graph (rank
// 0's whole graph sent to the ranks as distribute() cuts it). No MPI type
// appears here; mpi_world_mpi.cpp implements it, mpi_world_no_mpi.cpp is
// the one-rank world of a build without MPI. The session itself
// (MPI_Init .. MPI_Finalize) and the matchers' collectives are
// matchers/distributed/mpi_session.hpp, which includes this header.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "lib/csr.hpp"

namespace matchblas::mpi {

// This process's rank in MPI_COMM_WORLD and their number (0 and 1 without MPI).
int world_rank();
int world_size();

// This process's rank among the ranks on its node (MPI_COMM_TYPE_SHARED;
// 0 without MPI): the default choice of its GPU.
int local_rank();

// Collective: "" when every rank passed "", else the message of the lowest
// rank that did not, prefixed "rank R: " when there are several, on every rank.
std::string first_failure(const std::string& mine);

// Collective: every rank's `mine` concatenated in rank order, on rank 0
// (empty on the others).
std::vector<std::int64_t> gather_on_root(const std::vector<std::int64_t>& mine);

// Collective: the maximum or sum of x over the ranks (x itself without MPI).
double max_over_ranks(double x);
double sum_over_ranks(double x);
std::int64_t sum_over_ranks(std::int64_t x);
std::int64_t max_over_ranks(std::int64_t x);

// Collective: the whole graph's row offsets (n + 1 prefix sums of every
// vertex's degree, in label order) from g's blocks of rows, on every rank;
// the degrees travel as 4-byte counts, the sums are taken on the threads.
// Without MPI (one rank holding every row), g's own offsets.
std::vector<offset_t> whole_offsets(const DistGraph& g);

// Collective: rank 0's graph (g, null on the other ranks) partitioned as
// distribute() does, each rank sent its rows (point to point; rank 0 holds
// the whole graph, the others only their part). Throws error without MPI.
template <class W>
DistGraph scatter_graph(const Csr<W>* g, Partition partition = Partition::blocks);

}  // namespace matchblas::mpi
