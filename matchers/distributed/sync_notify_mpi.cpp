// sync-notify: the distributed greedy matching driven by notifications in
// supersteps. Each round a rank works through the vertices it was told to
// look at (notify_sweep_mpi.hpp), aggregating the notifications for each
// other rank; then it posts them in one bulk step per rank (MPI_Fetch_and_op
// on the target's count, MPI_Put of the items), a barrier, each rank takes
// its queue, a barrier, until no rank has work.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.3, Algorithm 5; on MPI-3
// one-sided windows (vertex_words_mpi.hpp, notify_queues_mpi.hpp). Only the
// transport departs from the paper's one remote read per word: a batch's
// reads are grouped (ghost_reads_mpi.hpp: each distinct remote word once,
// one MPI_Get per owner rank, one flush).
// Guarantee: equal to `greedy` mate for mate, for any number of ranks.
// Cost: O(m_r) local work and reads per rank in all (each matched vertex
// reads its remote neighbours' words once); per round one post per other
// rank with work for it, two barriers and an allreduce.
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/distributed/notify_queues_mpi.hpp"
#include "matchers/distributed/notify_sweep_mpi.hpp"

namespace matchblas {

DistributedMatching ld_mpi_sync_notify(const DistGraph& g, RemoteReads remote) {
  using namespace distributed;
  DistributedStats stats;
  VertexWords words(g, stats, remote);
  NotifyQueues queues(g, stats);
  NotifySweep sweep(words);
  std::vector<std::vector<vertex_t>> outbox(std::size_t(g.ranks));
  std::vector<vertex_t> work = words.unresolved_vertices();
  while (true) {
    ++stats.rounds;
    sweep.run(work, [&](int r, vertex_t v) { outbox[std::size_t(r)].push_back(v); });
    words.sync();
    for (int r = 0; r < g.ranks; ++r) {
      std::vector<vertex_t>& box = outbox[std::size_t(r)];
      queues.post(r, box.data(), int(box.size()));
      box.clear();
    }
    queues.complete();
    waited(stats, [] { return MPI_Barrier(MPI_COMM_WORLD); });
    queues.take_all(work);
    words.sync();
    const std::int64_t left = waited(stats, [&] { return mpi::sum_over_ranks(std::int64_t(work.size())); });
    if (left == 0) break;  // no post before every take
  }
  return words.result();
}

}  // namespace matchblas
