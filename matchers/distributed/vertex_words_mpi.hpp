// The shared array of the distributed matchers: one 32-bit word per vertex
// in an MPI-3 window (MPI_Win_allocate, passive target, lock_all for the
// whole run), written only by the vertex's owner and read by every rank:
//   w >= 0   unmatched, wants vertex w (its mate_u of Thorsen-Merkey)
//   w == -1  unmatched, no candidate left (every neighbour is matched)
//   w <= -2  matched with -w - 2
// so one read tells another rank both mate_v and matched_v. Words only move
// towards "resolved" (w < 0): a pointer moves to a later neighbour only when
// its target is resolved, and a matched word never changes.
// The owner stores its own words with atomic stores; other ranks read them
// with MPI_Get. This relies on MPI's unified memory model (checked when the
// window is made: Open MPI and MPICH have it on shared memory and RDMA
// networks); MPI_Win_sync orders the owner's stores before its later reads.
// A ghost's word once seen resolved is kept and never read again.
// Source: the shared mate_v and matched_v of Thorsen, Merkey 2010, sec. 5.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas::distributed {

using word_t = std::int32_t;
inline constexpr word_t no_candidate = -1;
constexpr word_t matched_word(vertex_t partner) { return -partner - 2; }

class VertexWords {
 public:
  // Collective. Every vertex wants its first (best) neighbour, or has none.
  VertexWords(const DistGraph& g, DistributedStats& stats);
  ~VertexWords();  // collective (MPI_Win_free)
  VertexWords(const VertexWords&) = delete;
  VertexWords& operator=(const VertexWords&) = delete;

  const DistGraph& graph() const { return g_; }
  word_t own(vertex_t i) const { return std::atomic_ref<word_t>(base_[i]).load(std::memory_order_acquire); }
  // The current target of local vertex i (the neighbour its pointer is at), or -1.
  vertex_t target(vertex_t i) const {
    const offset_t k = g_.offsets[i] + ptr_[i];
    return k < g_.offsets[i + 1] ? g_.cols[k] : no_vertex;
  }
  bool unresolved(vertex_t i) const { return own(i) >= 0; }
  offset_t position(vertex_t i) const { return ptr_[i]; }  // of i's pointer in its row
  vertex_t unresolved_count() const { return unresolved_; }
  std::vector<vertex_t> unresolved_vertices() const;  // local indices, ascending
  // Whether word wv, read from i's target, says that the target wants i or
  // is matched with i.
  bool mutual(vertex_t i, word_t wv) const {
    const vertex_t u = g_.begin() + i;
    return wv == u || wv == matched_word(u);
  }
  // Local vertex i is matched with its target.
  void match(vertex_t i) { set_own(i, matched_word(target(i))); }
  // i's target is resolved without i: the pointer moves on. Returns false
  // when i has no candidate left (its word becomes -1).
  bool advance(vertex_t i);
  // The word of vertex v now: a load when this rank owns v, else a get and a
  // flush.
  word_t read_now(vertex_t v);

  // Batched reads of other ranks' words: get(v, into) starts one (v owned
  // elsewhere; none when v's final word is known: *into is set at once),
  // flush() completes all started. After a flush, remember(v, w) keeps a
  // resolved word (final: it never changes) so that v is not read again.
  void get(vertex_t v, word_t* into);
  void flush();
  void remember(vertex_t v, word_t w) {
    if (w < 0) final_[ghost(v)] = w;
  }
  bool known_final(vertex_t v) const { return final_[ghost(v)] < 0; }
  // MPI_Win_sync: this rank's stores before its later reads (a full fence).
  void sync();

  // After a barrier that every rank passed when done: this rank's part,
  // with each matched pair checked from this side (the partner's word names
  // this rank's vertex), and any word still unresolved reported.
  DistributedMatching result();

 private:
  void set_own(vertex_t i, word_t w);
  std::size_t ghost(vertex_t v) const;  // v's position in g_.ghosts
  const DistGraph& g_;
  DistributedStats& stats_;
  std::vector<offset_t> ptr_;  // position of each local vertex's pointer in its row
  std::vector<word_t> final_;  // per ghost: its word once seen resolved (< 0), else 0
  vertex_t unresolved_ = 0;
  MPI_Win win_ = MPI_WIN_NULL;
  word_t* base_ = nullptr;
};

// Reads of the remote targets of a list of local vertices, batched: one get
// each (into a slot per vertex), one flush.
class TargetReads {
 public:
  explicit TargetReads(VertexWords& w) : w_(w) {}
  // Starts the reads of the targets of `list` that another rank owns.
  void fetch(const std::vector<vertex_t>& list);
  // The word of list[k]'s target: fetched, or loaded when local (read now
  // when its pointer moved since the fetch: a vertex listed twice).
  word_t word(const std::vector<vertex_t>& list, std::size_t k);

 private:
  VertexWords& w_;
  std::vector<word_t> got_;
  std::vector<vertex_t> of_;  // the target each slot was fetched for
};

}  // namespace matchblas::distributed
