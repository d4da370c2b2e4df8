// sync-poll: the distributed greedy matching in supersteps. Each round every
// rank checks its active vertices for a partner that points back (a locally
// dominant edge, matched), a barrier, then every unmatched vertex moves its
// pointer past the neighbours now known to be matched (its mate_u = h(C_u)),
// a barrier, until no rank has an active vertex.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.1, Algorithm 3; on MPI-3
// one-sided windows (vertex_words_mpi.hpp), the shared S as an allreduce.
// With gets only the transport departs from the paper's one remote read per
// vertex: the reads of a batch are grouped (ghost_reads_mpi.hpp: each
// distinct remote word once, one MPI_Get per owner rank, one flush). With
// loads (one node) every read is one load where the paper makes it.
// Guarantee: equal to `greedy` mate for mate, for any number of ranks (the
// greedy order of lib/greedy_order.hpp; every matched edge is locally dominant).
// Cost: O(m_r) local work per rank in all; per round one batch of reads of
// the remote targets of the active vertices, one more per pointer move onto
// a remote neighbour, two barriers and an allreduce.
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/distributed/vertex_words_mpi.hpp"

namespace matchblas {

DistributedMatching ld_mpi_sync_poll(const DistGraph& g, RemoteReads remote) {
  using namespace distributed;
  DistributedStats stats;
  VertexWords words(g, stats, remote);  // mate_u = h(N_u): the first of each sorted row
  TargetReads reads(words);
  std::vector<vertex_t> active = words.unresolved_vertices(), pending, next;
  while (true) {
    ++stats.rounds;
    // Match the vertices whose target points back (the first loop of Alg. 3).
    reads.fetch(active);
    for (std::size_t k = 0; k < active.size(); ++k)
      if (words.mutual(active[k], reads.word(active, k))) words.match(active[k]);
    words.sync();
    waited(stats, [] { return MPI_Barrier(MPI_COMM_WORLD); });
    words.sync();
    // mate_u = h(C_u) for the others: skip the neighbours now resolved. In
    // this phase no word becomes matched, so what a read says is final.
    pending.clear();
    for (vertex_t i : active)
      if (words.unresolved(i)) pending.push_back(i);
    while (!pending.empty()) {
      reads.fetch(pending);
      next.clear();
      for (std::size_t k = 0; k < pending.size(); ++k) {
        const vertex_t i = pending[k];
        word_t wv = reads.word(pending, k);
        while (wv < 0 && !words.mutual(i, wv) && words.advance(i)) {
          const vertex_t t = words.target(i);
          if (words.loads()) {
            wv = words.word_now(t);  // any rank's word, by a load: walk on
            continue;
          }
          if (!g.owns(t)) {
            next.push_back(i);  // its word in the next batch
            break;
          }
          wv = words.own(t - g.begin());
        }
      }
      pending.swap(next);
    }
    next.clear();
    for (vertex_t i : active)
      if (words.unresolved(i)) next.push_back(i);
    active.swap(next);
    words.sync();
    const std::int64_t left = waited(stats, [&] { return mpi::sum_over_ranks(std::int64_t(active.size())); });
    if (left == 0) break;  // the barrier ending the round
  }
  return words.result();
}

}  // namespace matchblas
