// The work of the notify variants on one rank: the vertices it was told to
// look at again, processed until none is left here. A vertex whose target
// points back is matched (with a local target too), and then update() of
// Thorsen-Merkey: its neighbours that point at it are woken (local ones
// here, remote ones by a notification to their owner after reading their
// words); a remote partner's owner is notified of the match; a vertex that
// starts to wait on a remote target notifies that target's owner once; a
// vertex whose target is resolved moves its pointer on. Notifications go to
// post(rank, vertex): aggregated by sync-notify, posted at once by
// async-notify.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.3-5.4, Algorithms 5-6
// (the loop body and update()).
// Why no wake-up is lost: a waiting vertex u (pointing at an unresolved v)
// must look again when v is resolved or points at u. u stores its word, then
// reads v's; v's owner stores v's word, then reads u's (both with
// MPI_Win_sync between): one of the two sees the other's store. The
// notification of a new target and of a match cover the rest.
#pragma once
#include <vector>

#include "matchers/distributed/vertex_words_mpi.hpp"

namespace matchblas::distributed {

class NotifySweep {
 public:
  explicit NotifySweep(VertexWords& w)
      : w_(w), reads_(w), notified_(std::size_t(w.graph().count()), -1), seen_(std::size_t(w.graph().count()), 0) {}

  // Processes `work` (local indices; duplicates and resolved ones are
  // skipped) until no local work is left; leaves `work` empty.
  template <class Post>
  void run(std::vector<vertex_t>& work, Post post) {
    const DistGraph& g = w_.graph();
    while (!work.empty()) {
      ++batch_;
      std::size_t kept = 0;
      for (vertex_t i : work)
        if (w_.unresolved(i) && seen_[i] != batch_) {
          seen_[i] = batch_;
          work[kept++] = i;
        }
      work.resize(kept);
      reads_.fetch(work);
      next_.clear();
      matched_.clear();
      for (std::size_t k = 0; k < work.size(); ++k) {
        const vertex_t i = work[k];
        if (!w_.unresolved(i)) continue;  // matched above by a local partner
        word_t wv = reads_.word(work, k);
        while (true) {
          const vertex_t v = w_.target(i);
          if (w_.mutual(i, wv)) {
            w_.match(i);
            matched_.push_back(i);
            if (g.owns(v)) {
              if (w_.unresolved(v - g.begin())) {
                w_.match(v - g.begin());  // it points at i
                matched_.push_back(v - g.begin());
              }
            } else if (wv >= 0) {
              w_.sync();
              post(g.owner(v), v);  // v's owner learns of the match
            }
            break;
          }
          if (wv >= 0) {  // v wants another: wait for a notification
            if (!g.owns(v) && notified_[i] != w_.position(i)) {
              notified_[i] = w_.position(i);
              w_.sync();
              post(g.owner(v), v);
            }
            break;
          }
          if (!w_.advance(i)) break;  // no candidate left
          const vertex_t t = w_.target(i);
          if (!g.owns(t)) {
            next_.push_back(i);  // its target's word in the next batch
            break;
          }
          wv = w_.own(t - g.begin());
        }
      }
      update(next_, post);
      work.swap(next_);
    }
  }

 private:
  // update(u, C_u \ {v}) for every vertex matched in this batch.
  template <class Post>
  void update(std::vector<vertex_t>& wake, Post post) {
    const DistGraph& g = w_.graph();
    GhostReads& ghosts = w_.ghosts();
    remote_.clear();
    ghosts.begin();
    for (vertex_t i : matched_) {
      const vertex_t u = g.begin() + i, partner = w_.target(i);
      for (offset_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const vertex_t x = g.cols[k];
        if (x == partner) continue;
        if (g.owns(x)) {
          if (w_.own(x - g.begin()) == u) wake.push_back(x - g.begin());
        } else if (const std::size_t gi = ghosts.index(x); !ghosts.known_final(gi)) {  // a resolved x points at nobody
          remote_.push_back({x, u, gi});
          ghosts.want(gi);
        }
      }
    }
    if (remote_.empty()) return;
    w_.read_ghosts();  // each remote neighbour's word once, one get per owner rank
    for (const Pending& p : remote_)
      if (ghosts.word(p.gi) == p.u) post(g.owner(p.x), p.x);
  }

  struct Pending {
    vertex_t x, u;   // remote neighbour x of the matched vertex u
    std::size_t gi;  // x's position among the ghosts
  };
  VertexWords& w_;
  TargetReads reads_;
  std::vector<offset_t> notified_;  // the pointer position a vertex last notified its target from
  std::vector<std::int64_t> seen_;  // the batch a vertex was last listed in (each once per batch)
  std::int64_t batch_ = 0;
  std::vector<vertex_t> next_, matched_;
  std::vector<Pending> remote_;
};

}  // namespace matchblas::distributed
