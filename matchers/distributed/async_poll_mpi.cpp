// async-poll: the distributed greedy matching without barriers. Each rank
// sweeps its active vertices until every one is matched or has no candidate:
// a vertex whose target points back is matched, one whose target is resolved
// moves its pointer on, the others wait for the next sweep. A target never
// changes while it is unresolved and a matched word never changes, so no
// round structure is needed, and the heaviest remaining edge always points
// both ways, so the sweeps cannot deadlock.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.2, Algorithm 4; on MPI-3
// one-sided windows (vertex_words_mpi.hpp). With gets only the transport
// departs from the paper's one remote read per vertex: a sweep's reads are
// grouped (ghost_reads_mpi.hpp: each distinct remote word once, one MPI_Get
// per owner rank, one flush), and a pointer that moves onto another rank's
// vertex waits for the next sweep. With loads (one node) every read is one
// load where the paper makes it, and a pointer walks on in the same sweep.
// Guarantee: equal to `greedy` mate for mate, for any number of ranks.
// Cost: O(m_r) local work per rank plus the polling: each sweep one batch of
// reads of the remote targets of its still active vertices (at most P - 1
// gets and a flush); no collective
// until the final barrier.
#include <thread>

#include "matchers/distributed/vertex_words_mpi.hpp"

namespace matchblas {

DistributedMatching ld_mpi_async_poll(const DistGraph& g, RemoteReads remote) {
  using namespace distributed;
  DistributedStats stats;
  VertexWords words(g, stats, remote);
  TargetReads reads(words);
  std::vector<vertex_t> active = words.unresolved_vertices(), next;
  while (!active.empty()) {
    ++stats.rounds;
    const vertex_t before = words.unresolved_count();
    reads.fetch(active);
    next.clear();
    for (std::size_t k = 0; k < active.size(); ++k) {
      const vertex_t i = active[k];
      if (!words.unresolved(i)) continue;  // matched from this side by a local partner
      word_t wv = reads.word(active, k);
      while (true) {
        if (words.mutual(i, wv)) {
          words.match(i);
          break;
        }
        if (wv >= 0) {  // the target wants another: wait
          next.push_back(i);
          break;
        }
        if (!words.advance(i)) break;  // no candidate left
        const vertex_t t = words.target(i);
        if (words.loads()) {
          wv = words.word_now(t);  // any rank's word, by a load: walk on
          continue;
        }
        if (!g.owns(t)) {
          next.push_back(i);  // read in the next sweep
          break;
        }
        wv = words.own(t - g.begin());
      }
    }
    active.swap(next);
    // Nothing resolved: the others must move first. Give up the core (ranks
    // may outnumber cores).
    if (words.unresolved_count() == before) waited(stats, [] { std::this_thread::yield(); });
  }
  words.sync();
  waited(stats, [] { return MPI_Barrier(MPI_COMM_WORLD); });  // the others may still read this rank's words
  return words.result();
}

}  // namespace matchblas
