// The four distributed greedy matchers of Thorsen and Merkey (sync-poll,
// async-poll, sync-notify, async-notify) over MPI-3 one-sided
// communication, and what they return: this rank's part of the matching.
// Every one is collective over MPI_COMM_WORLD (each rank passes its own part
// of the same graph, dist_graph.hpp) and returns exactly the `greedy`
// matching for any number of ranks: a vertex points at its best neighbour
// not known to be matched, under the greedy order of DESIGN.md (heavier
// first, then the smaller id), and two vertices pointing at each other are
// matched (a locally dominant edge). One algorithm per file:
// sync_poll_mpi.cpp, async_poll_mpi.cpp, sync_notify_mpi.cpp,
// async_notify_mpi.cpp. Without MPI (ld_mpi_no_mpi.cpp) they throw.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matchers/distributed/dist_graph.hpp"

namespace matchblas {

// What a rank did: rounds (sync: supersteps; async: sweeps over its active
// vertices) and its one-sided operations to other ranks.
struct DistributedStats {
  std::int64_t rounds = 0;
  std::int64_t remote_ops = 0;     // gets, puts, atomics to other ranks
  std::int64_t remote_bytes = 0;   // their payload
  std::int64_t notifications = 0;  // notify variants: vertices posted to other ranks' queues
};

// This rank's part of the matching.
struct DistributedMatching {
  vertex_t begin = 0;              // the first vertex this rank owns
  std::vector<vertex_t> mate;      // mate[i]: the partner (global id) of vertex begin + i, or -1
  double weight = 0;               // the matched edges whose smaller endpoint this rank owns
  std::int64_t pairs = 0;          // their number
  DistributedStats stats;
  std::string violation;           // non-empty: a partner's word did not name this rank's vertex back
};

DistributedMatching ld_mpi_sync_poll(const DistGraph& g);
DistributedMatching ld_mpi_async_poll(const DistGraph& g);
DistributedMatching ld_mpi_sync_notify(const DistGraph& g);
DistributedMatching ld_mpi_async_notify(const DistGraph& g);

}  // namespace matchblas
