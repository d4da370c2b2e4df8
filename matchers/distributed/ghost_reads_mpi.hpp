// Batched reads of ghosts' words (the words of vertices other ranks own) for
// the distributed matchers. A batch names ghosts (begin(), want(), read()):
// each ghost once however often it is named (a stamp of the batch number per
// ghost: R-MAT's hubs are the target of many vertices), none whose word is
// already known final (a resolved word never changes, so once seen it is
// kept and never read again), grouped by the rank that owns them. Then one
// MPI_Get per owner rank, whose target datatype (MPI_Type_indexed over the
// ghosts' positions in that rank's window, runs of consecutive vertices as
// one block) lands the words in a contiguous buffer, and one flush for all.
// Only the transport is batched: what each word is read for, and when,
// is the algorithm's (Thorsen, Merkey 2010, Alg. 3-6), as with one get per
// word; every word is read after this rank's earlier stores (MPI_Win_sync
// before the gets).
// Cost per batch: O(k + P) for k named ghosts, plus the sort of the distinct
// ones (O(k log k), or a scan of every ghost's stamp when k is a large share
// of them); at most P - 1 gets and one flush. A ghost's position from its
// vertex id: O(1) by a bit per vertex with counts per 64 (n / 4 bytes, kept
// when n <= 16 m_r, so at most the rank's columns), else a binary search.
// Memory: 12 bytes per ghost, and that table.
// (How an MPI library moves a non-contiguous get is its own: osc/sm copies
// from the owner's memory, osc/rdma may issue one transfer per block.)
// On one node (load_from: the words in a shared window) a batch is read by
// atomic loads from each owner's segment instead: no gets, no datatypes.
#pragma once
#include <mpi.h>

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas::distributed {

// A vertex's word (vertex_words_mpi.hpp): >= 0 wants that vertex, -1 no
// candidate, <= -2 matched.
using word_t = std::int32_t;

class GhostReads {
 public:
  GhostReads(const DistGraph& g, DistributedStats& stats);

  // v's position in g.ghosts (v owned by another rank).
  std::size_t index(vertex_t v) const {
    if (blocks_.empty()) return search(v);
    const Block& b = blocks_[std::size_t(v) / 64];
    return b.before + std::size_t(std::popcount(b.bits & ((std::uint64_t(1) << (v % 64)) - 1)));
  }
  bool known_final(std::size_t gi) const { return word_[gi] < 0; }

  void begin() { ++batch_; named_.clear(); }  // a new batch, empty
  // Ghost gi's word is read by the next read() (unless already known final).
  void want(std::size_t gi) {
    if (word_[gi] < 0 || stamp_[gi] == batch_) return;
    stamp_[gi] = batch_;
    named_.push_back(std::uint32_t(gi));
  }
  // The batch's gets from window `win` (the vertex words: one word_t per
  // local vertex of each rank), then one flush. Returns the gets issued.
  int read(MPI_Win win);
  // After read(): gi's word as read (or known final before it).
  word_t word(std::size_t gi) const { return word_[gi]; }
  // One ghost's word now: a get and a flush, or a load (none when known
  // final).
  word_t read_one(std::size_t gi, MPI_Win win);
  // From now on, read by loads: segments[r] is rank r's words in a shared
  // window (MPI_Win_shared_query).
  void load_from(std::vector<word_t*> segments) { segments_ = std::move(segments); }
  bool loads() const { return !segments_.empty(); }
  // With loads(): the word of vertex v (owned by any rank) now, by one load
  // from its owner's segment.
  word_t load_vertex(vertex_t v) const {
    const int r = g_.owner(v);
    return std::atomic_ref<word_t>(segments_[std::size_t(r)][v - g_.first[std::size_t(r)]])
        .load(std::memory_order_acquire);
  }

 private:
  struct Block {
    std::uint64_t bits = 0;    // which of 64 consecutive vertices are ghosts
    std::uint32_t before = 0;  // the ghosts before them
  };
  std::size_t search(vertex_t v) const;
  const DistGraph& g_;
  DistributedStats& stats_;
  std::vector<word_t> word_;            // per ghost: the word last read (final when < 0)
  std::vector<std::int64_t> stamp_;     // per ghost: the batch it was last named in
  std::vector<Block> blocks_;           // per 64 vertices of the graph, or none
  std::vector<std::size_t> rank_from_;  // per rank r + 1 boundaries: r's ghosts are [rank_from_[r], rank_from_[r + 1])
  std::int64_t batch_ = 0;
  std::vector<std::uint32_t> named_;    // this batch's ghosts, each once
  std::vector<word_t> buffer_;          // the words as they arrive, in the order of named_ after sorting
  std::vector<int> lengths_, displacements_;
  std::vector<MPI_Datatype> types_;     // freed after the flush
  std::vector<word_t*> segments_;       // per rank: its words in a shared window, or none (gets)
};

}  // namespace matchblas::distributed
