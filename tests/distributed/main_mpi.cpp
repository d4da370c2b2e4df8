// The doctest main of the MPI suite, run by mpirun at 1-4 ranks (CTest
// tests distributed/*_np*). Every rank runs every test case in the same
// order, so the collectives inside them line up; each check is agreed over
// the ranks before it is asserted, so every rank passes or fails it alike.
// Rank 0 reports; the others print only failures.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "matchers/distributed/mpi_session.hpp"

int main(int argc, char** argv) {
  matchblas::mpi::Session session;
  doctest::Context context(argc, argv);
  if (session.rank() > 0) context.setOption("minimal", true);
  return context.run();
}
