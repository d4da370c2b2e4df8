// async-notify: the distributed greedy matching driven by notifications
// without barriers. A rank works through the vertices it was told to look at
// (notify_sweep_mpi.hpp), posting each notification at once (MPI_Fetch_and_op
// on the target's count, MPI_Put of the item), then reads what has arrived in
// its own queue, until every vertex it owns is matched or has no candidate.
// The queue is sized to hold every notification of the run, so its front
// is not reset by compare-and-swap as in Alg. 6 (notify_queues_mpi.hpp says
// why). Ends when this rank's vertices are resolved: a
// notification is only ever about the receiver's own vertices, so Alg. 6's
// global test V = {} is not needed for that.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.4, Algorithm 6; on MPI-3
// one-sided windows. Only the transport departs from the paper's one remote
// read per word: a batch's reads are grouped (ghost_reads_mpi.hpp: each
// distinct remote word once, one MPI_Get per owner rank, one flush).
// Guarantee: equal to `greedy` mate for mate, for any number of ranks.
// Cost: O(m_r) local work and reads per rank in all; two one-sided
// operations and a flush per notification; no collective until the final
// barrier.
#include <thread>

#include "matchers/distributed/notify_queues_mpi.hpp"
#include "matchers/distributed/notify_sweep_mpi.hpp"

namespace matchblas {

DistributedMatching ld_mpi_async_notify(const DistGraph& g, RemoteReads remote) {
  using namespace distributed;
  DistributedStats stats;
  VertexWords words(g, stats, remote);
  NotifyQueues queues(g, stats);
  NotifySweep sweep(words);
  std::vector<vertex_t> work = words.unresolved_vertices();
  while (words.unresolved_count() > 0) {
    if (!work.empty()) {
      ++stats.rounds;
      sweep.run(work, [&](int r, vertex_t v) { queues.post(r, &v, 1); });
      queues.complete();
    }
    queues.take_ready(work);
    if (work.empty()) waited(stats, [] { std::this_thread::yield(); });  // waiting for others (ranks may outnumber cores)
  }
  words.sync();
  waited(stats, [] { return MPI_Barrier(MPI_COMM_WORLD); });  // the others may still read and post here
  return words.result();
}

}  // namespace matchblas
