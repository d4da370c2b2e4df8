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
// with MPI_Get, or, when every rank runs on one node, with atomic loads from
// the owner's segment of a shared window (MPI_Win_allocate_shared). This relies on MPI's unified memory model (checked when the
// window is made: Open MPI and MPICH have it on shared memory and RDMA
// networks); MPI_Win_sync orders the owner's stores before its later reads.
// With gets, other ranks' words are read in batches (ghost_reads_mpi.hpp):
// each ghost once per batch, one get per owner rank; a ghost's word once
// seen resolved is kept and never read again. With loads (one node), a
// word is loaded where the algorithm reads it (word_now): one access to
// the owner's segment, as cheap as a ghost's copy would be, so a pointer
// walks on across other ranks' vertices in the same sweep, as it does
// across its own (with gets it waits for the next batch).
// Source: the shared mate_v and matched_v of Thorsen, Merkey 2010, sec. 5.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "matchers/distributed/ghost_reads_mpi.hpp"
#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas::distributed {

inline constexpr word_t no_candidate = -1;

// Runs f (a barrier, a collective, a yield of the core) and counts its time
// in stats.wait_seconds.
template <class F>
decltype(auto) waited(DistributedStats& stats, F&& f) {
  struct Clock {
    DistributedStats& s;
    double start = MPI_Wtime();
    ~Clock() { s.wait_seconds += MPI_Wtime() - start; }
  } clock{stats};
  return f();
}
constexpr word_t matched_word(vertex_t partner) { return -partner - 2; }

class VertexWords {
 public:
  // Collective. Every vertex wants its first (best) neighbour, or has none.
  // `reads` chooses how other ranks' words are read (ld_mpi.hpp).
  VertexWords(const DistGraph& g, DistributedStats& stats, RemoteReads reads);
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
  // The word of vertex v now: a load when this rank owns v or loads(), else
  // a get and a flush (none when its final word is known).
  word_t read_now(vertex_t v);
  // Whether other ranks' words are read by loads from a shared window.
  bool loads() const { return ghosts_.loads(); }
  // With loads(): the word of any vertex v now, by one load.
  word_t word_now(vertex_t v) {
    if (g_.owns(v)) return own(v - g_.begin());
    ++remote_loads_;
    return ghosts_.load_vertex(v);
  }

  // Batched reads of other ranks' words: ghosts().begin(), want(gi) for
  // each, read_ghosts(), then ghosts().word(gi).
  GhostReads& ghosts() { return ghosts_; }
  void read_ghosts() { ghosts_.read(win_); }
  // MPI_Win_sync: this rank's stores before its later reads (a full fence).
  void sync();

  // After a barrier that every rank passed when done: this rank's part,
  // with each matched pair checked from this side (the partner's word names
  // this rank's vertex), and any word still unresolved reported.
  DistributedMatching result();

 private:
  void set_own(vertex_t i, word_t w);
  const DistGraph& g_;
  DistributedStats& stats_;
  GhostReads ghosts_;
  std::vector<offset_t> ptr_;  // position of each local vertex's pointer in its row
  vertex_t unresolved_ = 0;
  std::int64_t remote_loads_ = 0;  // word_now's loads of other ranks' words
  MPI_Win win_ = MPI_WIN_NULL;
  word_t* base_ = nullptr;
};

// Reads of the remote targets of a list of local vertices, batched
// (GhostReads: each distinct target once, one get per owner rank, one flush).
// Each vertex keeps its target's ghost position until its pointer moves (a
// waiting vertex is listed sweep after sweep: no search each time). With
// loads (VertexWords::loads) nothing is fetched ahead: word() loads.
class TargetReads {
 public:
  explicit TargetReads(VertexWords& w)
      : w_(w), known_target_(std::size_t(w.graph().count()), no_vertex), known_ghost_(known_target_.size(), 0) {}
  // Starts the reads of the targets of `list` that another rank owns.
  void fetch(const std::vector<vertex_t>& list);
  // The word of list[k]'s target: fetched, or loaded when local (read now
  // when its pointer moved since the fetch: a vertex listed twice).
  word_t word(const std::vector<vertex_t>& list, std::size_t k);

 private:
  VertexWords& w_;
  std::vector<vertex_t> of_;       // the target each slot was fetched for
  std::vector<std::size_t> ghost_; // its position among the ghosts (remote targets)
  std::vector<vertex_t> known_target_;     // per local vertex: the remote target whose position is known
  std::vector<std::uint32_t> known_ghost_; // that position
};

}  // namespace matchblas::distributed
