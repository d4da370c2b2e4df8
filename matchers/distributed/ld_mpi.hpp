// The four distributed greedy matchers of Thorsen and Merkey (sync-poll,
// async-poll, sync-notify, async-notify) over MPI-3 one-sided
// communication, and what they return: this rank's part of the matching.
// Every one is collective over MPI_COMM_WORLD (each rank passes its own part
// of the same graph, dist_graph.hpp) and returns exactly the `greedy`
// matching for any number of ranks: a vertex points at its best neighbour
// not known to be matched, under the greedy order (lib/greedy_order.hpp: heavier
// first, then the smaller id), and two vertices pointing at each other are
// matched (a locally dominant edge). One algorithm per file:
// sync_poll_mpi.cpp, async_poll_mpi.cpp, sync_notify_mpi.cpp,
// async_notify_mpi.cpp. Without MPI (ld_mpi_no_mpi.cpp) they throw.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"

namespace matchblas {

// What a rank did: rounds (sync: supersteps; async: sweeps over its active
// vertices) and its one-sided operations to other ranks.
struct DistributedStats {
  std::int64_t rounds = 0;
  std::int64_t remote_ops = 0;     // gets, puts, atomics to other ranks
  std::int64_t remote_bytes = 0;   // their payload
  std::int64_t notifications = 0;  // notify variants: vertices posted to other ranks' queues
  double read_seconds = 0;         // in reads of other ranks' words in batches (gets and their flushes; with
                                   // loads, which are inline with the work, only the batches of the result)
  double wait_seconds = 0;         // in barriers and collectives, and yielding the core while nothing resolves
};

// This rank's part of the matching.
struct DistributedMatching {
  vertex_t begin = 0;              // the first label this rank owns (DistGraph::begin())
  VertexNumbering numbering;       // the graph's labels <-> ids (DistGraph::numbering)
  std::vector<vertex_t> mate;      // mate[i]: the id of the partner of vertex(i), or -1
  double weight = 0;               // the matched edges whose endpoint of smaller label this rank owns
  std::int64_t pairs = 0;          // their number
  DistributedStats stats;
  std::string violation;           // non-empty: a partner's word did not name this rank's vertex back

  vertex_t vertex(std::size_t i) const { return numbering.id(begin + vertex_t(i)); }  // the id of local vertex i
};

// How a rank reads other ranks' vertex words. gets: MPI_Get from a window
// (any placement of the ranks). loads: when every rank runs on one node
// (MPI_COMM_TYPE_SHARED spans MPI_COMM_WORLD), the words live in a shared
// window (MPI_Win_allocate_shared) and are read by plain atomic loads from
// the owner's segment, the same words in the same order of the algorithm;
// an error when the ranks span several nodes. automatic: loads on one node,
// gets otherwise.
enum class RemoteReads { automatic, gets, loads };

DistributedMatching ld_mpi_sync_poll(const DistGraph& g, RemoteReads reads = RemoteReads::automatic);
DistributedMatching ld_mpi_async_poll(const DistGraph& g, RemoteReads reads = RemoteReads::automatic);
DistributedMatching ld_mpi_sync_notify(const DistGraph& g, RemoteReads reads = RemoteReads::automatic);
DistributedMatching ld_mpi_async_notify(const DistGraph& g, RemoteReads reads = RemoteReads::automatic);

}  // namespace matchblas
