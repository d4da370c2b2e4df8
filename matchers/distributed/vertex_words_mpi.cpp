// The shared vertex words of the distributed matchers (vertex_words_mpi.hpp).
#include "matchers/distributed/vertex_words_mpi.hpp"

#include <algorithm>
#include <string>

#include "lib/error.hpp"

namespace matchblas::distributed {

namespace {
void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw error(std::string("MPI: ") + what + " failed");
}
}  // namespace

VertexWords::VertexWords(const DistGraph& g, DistributedStats& stats) : g_(g), stats_(stats) {
  const vertex_t count = g.count();
  ptr_.assign(std::size_t(count), 0);
  final_.assign(g.ghosts.size(), 0);
  check_mpi(MPI_Win_allocate(MPI_Aint(count) * MPI_Aint(sizeof(word_t)), int(sizeof(word_t)), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &base_, &win_),
            "MPI_Win_allocate of the vertex words");
  int* model = nullptr;
  int flag = 0;
  MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag);
  const bool unified = flag && *model == MPI_WIN_UNIFIED;
  for (vertex_t i = 0; i < count; ++i) {
    base_[i] = target(i);
    if (base_[i] >= 0) ++unresolved_;
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Win_sync(win_);
  MPI_Barrier(MPI_COMM_WORLD);  // every word is written before any rank reads
  if (!unified) {
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
    throw error("the distributed matchers need MPI's unified memory model for one-sided windows (MPI_WIN_UNIFIED)");
  }
}

VertexWords::~VertexWords() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

void VertexWords::set_own(vertex_t i, word_t w) {
  if (own(i) >= 0 && w < 0) --unresolved_;
  std::atomic_ref<word_t>(base_[i]).store(w, std::memory_order_release);
}

bool VertexWords::advance(vertex_t i) {
  ++ptr_[i];
  const vertex_t t = target(i);
  set_own(i, t);  // the next neighbour, or -1
  return t != no_vertex;
}

std::vector<vertex_t> VertexWords::unresolved_vertices() const {
  std::vector<vertex_t> out;
  for (vertex_t i = 0; i < g_.count(); ++i)
    if (unresolved(i)) out.push_back(i);
  return out;
}

std::size_t VertexWords::ghost(vertex_t v) const {
  return std::size_t(std::lower_bound(g_.ghosts.begin(), g_.ghosts.end(), v) - g_.ghosts.begin());
}

word_t VertexWords::read_now(vertex_t v) {
  if (g_.owns(v)) return own(v - g_.begin());
  word_t w = 0;
  sync();
  get(v, &w);
  flush();
  remember(v, w);
  return w;
}

void VertexWords::get(vertex_t v, word_t* into) {
  if (const word_t known = final_[ghost(v)]; known < 0) {
    *into = known;
    return;
  }
  const int r = g_.owner(v);
  MPI_Get(into, 1, MPI_INT32_T, r, MPI_Aint(v - g_.first[r]), 1, MPI_INT32_T, win_);
  ++stats_.remote_ops;
  stats_.remote_bytes += sizeof(word_t);
}

void VertexWords::flush() { MPI_Win_flush_all(win_); }

void VertexWords::sync() { MPI_Win_sync(win_); }

DistributedMatching VertexWords::result() {
  DistributedMatching out;
  out.begin = g_.begin();
  const vertex_t count = g_.count();
  out.mate.assign(std::size_t(count), no_vertex);
  std::vector<word_t> back(std::size_t(count), 0);
  vertex_t unresolved = 0;
  sync();
  for (vertex_t i = 0; i < count; ++i) {
    const word_t w = own(i);
    if (w >= 0) ++unresolved;
    if (w > -2) continue;
    const vertex_t v = -w - 2;
    out.mate[i] = v;
    if (g_.owns(v)) back[i] = own(v - g_.begin());
    else get(v, &back[i]);
    const vertex_t u = g_.begin() + i;
    if (u < v) {
      out.weight += g_.weights[g_.offsets[i] + ptr_[i]];
      ++out.pairs;
    }
  }
  flush();
  for (vertex_t i = 0; i < count && out.violation.empty(); ++i) {
    const vertex_t u = g_.begin() + i;
    if (out.mate[i] != no_vertex && back[i] != matched_word(u))
      out.violation = "vertex " + std::to_string(u) + " is matched with " + std::to_string(out.mate[i]) +
                      ", whose word says " + std::to_string(back[i]);
  }
  if (out.violation.empty() && unresolved > 0)
    out.violation = std::to_string(unresolved) + " vertices left unresolved (a lost wake-up)";
  out.stats = stats_;
  return out;
}

void TargetReads::fetch(const std::vector<vertex_t>& list) {
  got_.resize(list.size());
  of_.resize(list.size());
  const DistGraph& g = w_.graph();
  bool any = false;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const vertex_t t = w_.target(list[k]);
    of_[k] = t;
    if (t != no_vertex && !g.owns(t)) {
      if (!any) w_.sync();
      any = true;
      w_.get(t, &got_[k]);
    }
  }
  if (!any) return;
  w_.flush();
  for (std::size_t k = 0; k < list.size(); ++k)
    if (of_[k] != no_vertex && !g.owns(of_[k])) w_.remember(of_[k], got_[k]);
}

word_t TargetReads::word(const std::vector<vertex_t>& list, std::size_t k) {
  const vertex_t t = w_.target(list[k]);
  const DistGraph& g = w_.graph();
  if (g.owns(t)) return w_.own(t - g.begin());
  return t == of_[k] ? got_[k] : w_.read_now(t);
}

}  // namespace matchblas::distributed
