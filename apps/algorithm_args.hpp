// The chosen algorithm of the commands that run a registered algorithm
// (match, bmatch, marry, perm), with its options and run settings, checked
// before any input is read (usage errors, status 2). Which options they
// accept is apps/command_table.*.
#pragma once
#include <exception>
#include <set>
#include <string>

#include "apps/args.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

struct ChosenAlgorithm {
  const MatcherInfo* info = nullptr;
  RunOptions run;  // seed, threads (applied to OpenMP for CPU entries), GPU, the entry's options
};

// Applies --threads (0 or absent: all cores; at most 4 x the cores, as is
// OMP_NUM_THREADS) to OpenMP and starts that many threads once.
void apply_threads(const Args& a);

// The algorithm --algo names, its options checked against its registry
// entry (one it does not take is a usage error naming the algorithms that
// do; --seed only for seeded entries), --gpu only for GPU entries, --threads
// applied, and whether it can run here (error, status 1). --device gpu with
// a CPU algorithm runs its GPU twin; a GPU algorithm with --device cpu is a
// usage error (conflicting options), as is --device with no twin there.
ChosenAlgorithm choose_algorithm(const Args& a, Problem problem, const std::string& command,
                                 Precision precision = Precision::float64);

// The same for an entry the command chose itself (perm's --job): its options
// from the command line, --gpu, --threads, availability.
ChosenAlgorithm configure_algorithm(const MatcherInfo& entry, const Args& a, Precision precision = Precision::float64);

// Usage error unless a distributed entry can start here: MPI in the build,
// the process started by mpirun (apps/cmd_match_distributed.cpp).
void require_distributed(const MatcherInfo& m);

// match with a distributed entry, under mpirun (apps/cmd_match_distributed.cpp).
int command_match_distributed(const Args& a, const ChosenAlgorithm& chosen, GraphView view, Precision precision);

// Under mpirun, for both: ends a failed run on every rank alike (every rank
// calls it): rank 0 prints the one line for `failure` (on rank 0), and only
// then does any rank return the status (mpirun ends the whole job as soon
// as one rank exits non-zero, which could cut rank 0 off before it prints).
int fail_together(bool root, std::exception_ptr failure, const char* command);
// Collective: this rank's part of FILE (mpi::load_graph, with the memory
// check of entry m; progress on rank 0); throws on every rank alike.
mpi::LoadedPart read_part(const Args& a, const std::string& file, GraphView view, Precision precision,
                          const MatcherInfo& m, Partition partition, bool root);

// Whether this run of chosen entry m goes over MPI ranks: m runs there
// (MatcherInfo::over_ranks) and mpirun started this process.
bool over_ranks(const MatcherInfo& m);

// match or bmatch with a GPU entry over MPI ranks, under mpirun
// (apps/cmd_over_ranks.cpp).
int command_over_ranks(const Args& a, const ChosenAlgorithm& chosen, Problem problem, GraphView view,
                       Precision precision);

}  // namespace matchblas::cli
