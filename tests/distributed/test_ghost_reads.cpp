// The batched reads of other ranks' words (matchers/distributed/ghost_reads_mpi.hpp)
// at the number of ranks mpirun gave: every ghost's word as its owner wrote
// it (a vertex's first word is its best neighbour, or -1 when it has none),
// whether a batch names every ghost many times over (the scan of the stamps)
// or a few (the sort; isolated positions, so the owner's datatype has many
// blocks); one get per owner rank and four bytes per distinct ghost not
// known final; a word known final is not read again. And a ghost's position
// from its id, by the table and by the binary search. Both transports: gets,
// and loads from a shared window (every rank on one node here: no gets).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "datasets/generators.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/distributed/vertex_words_mpi.hpp"

using namespace matchblas;
using namespace matchblas::distributed;

TEST_CASE("batched ghost reads return each owner's words; one get per owner, each ghost once") {
  GenOptions o;
  o.seed = 7;
  o.edge_factor = 4;
  const Csr<double> g = rmat<double>(vertex_t(1) << 11, o);
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  const DistGraph part = distribute(g, rank, ranks);
  // The first word of every vertex: its best neighbour (the first entry of
  // its row in the greedy order), from every rank's part built here.
  std::vector<word_t> expected(std::size_t(g.n_rows), no_candidate);
  for (int r = 0; r < ranks; ++r) {
    const DistGraph p = distribute(g, r, ranks);
    for (vertex_t i = 0; i < p.count(); ++i)
      if (p.offsets[i] < p.offsets[i + 1]) expected[std::size_t(p.begin() + i)] = p.cols[p.offsets[i]];
  }
  for (const RemoteReads mode : {RemoteReads::gets, RemoteReads::loads}) {
    CAPTURE(int(mode));
    DistributedStats stats;
    std::string bad;
    {
      VertexWords words(part, stats, mode);
      GhostReads& ghosts = words.ghosts();
      const std::size_t count = part.ghosts.size();
      std::mt19937 rng(unsigned(rank) + 1);
      // Every ghost named three times, shuffled (the scan); then every 41st,
      // twice (the sort); then every ghost again (the finals are known by now).
      std::vector<std::size_t> all;
      for (int t = 0; t < 3; ++t)
        for (std::size_t gi = 0; gi < count; ++gi) all.push_back(gi);
      std::shuffle(all.begin(), all.end(), rng);
      std::vector<std::size_t> few;
      for (std::size_t gi = 0; gi < count; gi += 41) few.push_back(gi), few.push_back(gi);
      std::shuffle(few.begin(), few.end(), rng);
      if (count > 0 && few.size() * 16 >= count) bad = "the second batch does not take the sort path";
      for (const std::vector<std::size_t>* batch : {&all, &few, &all}) {
        std::set<std::size_t> distinct;
        std::set<int> owners;
        for (std::size_t gi : *batch)
          if (!ghosts.known_final(gi)) distinct.insert(gi), owners.insert(part.owner(part.ghosts[gi]));
        const std::int64_t ops = stats.remote_ops, bytes = stats.remote_bytes;
        ghosts.begin();
        for (std::size_t gi : *batch) ghosts.want(gi);
        words.read_ghosts();
        const std::int64_t gets = mode == RemoteReads::gets ? std::int64_t(owners.size()) : 0;
        if (bad.empty() && stats.remote_ops - ops != gets)
          bad = std::to_string(stats.remote_ops - ops) + " gets for " + std::to_string(owners.size()) + " owners";
        if (bad.empty() && stats.remote_bytes - bytes != std::int64_t(4 * distinct.size()))
          bad = std::to_string(stats.remote_bytes - bytes) + " bytes for " + std::to_string(distinct.size()) +
                " distinct ghosts";
        for (std::size_t gi : *batch)
          if (bad.empty() && ghosts.word(gi) != expected[std::size_t(part.ghosts[gi])])
            bad = "ghost " + std::to_string(part.ghosts[gi]) + ": read " + std::to_string(ghosts.word(gi)) +
                  ", its owner wrote " + std::to_string(expected[std::size_t(part.ghosts[gi])]);
      }
      // One ghost at a time agrees too.
      for (std::size_t gi = 0; gi < count && bad.empty(); gi += 5)
        if (words.read_now(part.ghosts[gi]) != expected[std::size_t(part.ghosts[gi])])
          bad = "read_now of ghost " + std::to_string(part.ghosts[gi]);
      MPI_Barrier(MPI_COMM_WORLD);  // no rank frees the window while another reads it
    }
    bad = mpi::first_failure(bad);
    CHECK_MESSAGE(bad.empty(), bad);
    const std::int64_t ghosts_total = mpi::sum_over_ranks(std::int64_t(part.ghosts.size()));
    CHECK((ranks == 1 ? ghosts_total == 0 : ghosts_total > 0));
  }
}

TEST_CASE("a ghost's position from its vertex id: the table (dense parts) and the search (sparse parts)") {
  GenOptions o;
  o.seed = 3;
  o.edge_factor = 4;
  const Csr<double> g = rmat<double>(vertex_t(1) << 11, o);
  std::string bad;
  for (int ranks : {2, 4, 600})  // 600 parts: n > 16 m_r, the search
    for (int rank = 0; rank < ranks && bad.empty(); rank += 1 + ranks / 7) {
      const DistGraph part = distribute(g, rank, ranks);
      DistributedStats stats;
      const GhostReads ghosts(part, stats);  // no MPI call until a read
      for (std::size_t gi = 0; gi < part.ghosts.size() && bad.empty(); ++gi)
        if (ghosts.index(part.ghosts[gi]) != gi)
          bad = "part " + std::to_string(rank) + " of " + std::to_string(ranks) + ": ghost " +
                std::to_string(part.ghosts[gi]) + " at " + std::to_string(ghosts.index(part.ghosts[gi])) +
                ", not " + std::to_string(gi);
    }
  bad = mpi::first_failure(bad);
  CHECK_MESSAGE(bad.empty(), bad);
}
