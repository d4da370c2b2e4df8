// The MPI process around the distributed matchers: whether this build has
// MPI and this process was started by mpirun, the session (MPI_Init_thread
// .. MPI_Finalize), and the few collectives the command line and the tests
// need (the world's rank and size, the scalar collectives and scatter_graph
// are datasets/distributed/mpi_world.hpp, included here, which the
// distributed graph input below the matchers uses too). No MPI type appears
// here; mpi_session_mpi.cpp implements it, and mpi_session_no_mpi.cpp says
// "needs MPI" in builds without it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/distributed/mpi_world.hpp"
#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas::mpi {

bool built();  // this build has MPI

// Whether a launcher (mpirun / mpiexec: Open MPI, MPICH, PMI or PMIx)
// started this process; MPI is not initialised to ask.
bool launched();

// MPI_Init_thread (funneled) .. MPI_Finalize; one per process. Throws error
// in a build without MPI.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

 private:
  int rank_ = 0, ranks_ = 1;
};

void barrier();
// A barrier that waits without spinning (MPI_Ibarrier polled every
// millisecond): for ranks idle while another works alone.
void idle_barrier();

// The whole mate array on rank 0 (n entries), gathered from every rank's
// part; empty on the other ranks.
std::vector<vertex_t> gather_mates(const DistributedMatching& part, vertex_t n);

// Ends every rank of the job with this status (MPI_Abort): for a failure on
// one rank that the others cannot learn of.
[[noreturn]] void abort_all(int status);

}  // namespace matchblas::mpi
