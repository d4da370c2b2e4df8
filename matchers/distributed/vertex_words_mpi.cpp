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

// Whether every rank of MPI_COMM_WORLD shares memory with every other (one
// node). The same answer on every rank.
bool one_node() {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int node_size = 0, world_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_free(&node);
  return node_size == world_size;
}

}  // namespace

VertexWords::VertexWords(const DistGraph& g, DistributedStats& stats, RemoteReads reads)
    : g_(g), stats_(stats), ghosts_(g, stats) {
  const vertex_t count = g.count();
  ptr_.assign(std::size_t(count), 0);
  const MPI_Aint bytes = MPI_Aint(count) * MPI_Aint(sizeof(word_t));
  const bool shared = reads != RemoteReads::gets && g.ranks > 1 && one_node();
  if (reads == RemoteReads::loads && g.ranks > 1 && !shared)
    throw invalid_input("reads=loads needs every MPI rank on one node (they span several); use reads=gets or auto");
  if (shared) {
    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each rank's segment on its own pages
    const int rc = MPI_Win_allocate_shared(bytes, int(sizeof(word_t)), info, MPI_COMM_WORLD, &base_, &win_);
    MPI_Info_free(&info);
    check_mpi(rc, "MPI_Win_allocate_shared of the vertex words");
    std::vector<word_t*> segments(std::size_t(g.ranks));
    for (int r = 0; r < g.ranks; ++r) {
      MPI_Aint size = 0;
      int unit = 0;
      check_mpi(MPI_Win_shared_query(win_, r, &size, &unit, &segments[std::size_t(r)]), "MPI_Win_shared_query");
    }
    ghosts_.load_from(std::move(segments));
  } else {
    check_mpi(MPI_Win_allocate(bytes, int(sizeof(word_t)), MPI_INFO_NULL, MPI_COMM_WORLD, &base_, &win_),
              "MPI_Win_allocate of the vertex words");
  }
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

word_t VertexWords::read_now(vertex_t v) {
  if (g_.owns(v) || loads()) return word_now(v);
  return ghosts_.read_one(ghosts_.index(v), win_);
}

void VertexWords::sync() { MPI_Win_sync(win_); }

DistributedMatching VertexWords::result() {
  DistributedMatching out;
  out.begin = g_.begin();
  out.numbering = g_.numbering;
  const vertex_t count = g_.count();
  out.mate.assign(std::size_t(count), no_vertex);
  vertex_t unresolved = 0;
  sync();
  ghosts_.begin();
  for (vertex_t i = 0; i < count; ++i) {
    const word_t w = own(i);
    if (w >= 0) ++unresolved;
    if (w > -2) continue;
    const vertex_t v = -w - 2;
    out.mate[i] = v;
    if (!g_.owns(v)) ghosts_.want(ghosts_.index(v));
    const vertex_t u = g_.begin() + i;
    if (u < v) {
      out.weight += g_.weights[g_.offsets[i] + ptr_[i]];
      ++out.pairs;
    }
  }
  read_ghosts();
  for (vertex_t i = 0; i < count && out.violation.empty(); ++i) {
    const vertex_t u = g_.begin() + i, v = out.mate[i];
    if (v == no_vertex) continue;
    const word_t back = g_.owns(v) ? own(v - g_.begin()) : ghosts_.word(ghosts_.index(v));
    if (back != matched_word(u)) {
      // A label's id (a word out of range, which no correct run writes, as it is).
      const auto name = [&](std::int64_t l) {
        return l >= 0 && l < g_.n ? std::to_string(g_.id(vertex_t(l))) : "(label " + std::to_string(l) + ")";
      };
      const std::string says = back <= -2 ? "matched with vertex " + name(-std::int64_t(back) - 2)
                               : back >= 0 ? "pointing at vertex " + name(back)
                                           : "word " + std::to_string(back);
      out.violation = "vertex " + name(u) + " is matched with vertex " + name(v) + ", which is " + says;
    }
  }
  // Labels to ids, for the caller.
  if (!g_.numbering.identity())
    for (vertex_t& v : out.mate)
      if (v != no_vertex) v = g_.id(v);
  if (out.violation.empty() && unresolved > 0)
    out.violation = std::to_string(unresolved) + " vertices left unresolved (a lost wake-up)";
  stats_.remote_bytes += remote_loads_ * std::int64_t(sizeof(word_t));
  remote_loads_ = 0;
  out.stats = stats_;
  return out;
}

void TargetReads::fetch(const std::vector<vertex_t>& list) {
  if (w_.loads()) {
    w_.sync();  // this rank's stores before the loads of the batch
    return;
  }
  of_.resize(list.size());
  ghost_.resize(list.size());
  const DistGraph& g = w_.graph();
  GhostReads& ghosts = w_.ghosts();
  ghosts.begin();
  for (std::size_t k = 0; k < list.size(); ++k) {
    const vertex_t i = list[k], t = w_.target(i);
    of_[k] = t;
    if (t != no_vertex && !g.owns(t)) {
      if (known_target_[i] != t) {
        known_target_[i] = t;
        known_ghost_[i] = std::uint32_t(ghosts.index(t));
      }
      ghost_[k] = known_ghost_[i];
      ghosts.want(ghost_[k]);
    }
  }
  w_.read_ghosts();
}

word_t TargetReads::word(const std::vector<vertex_t>& list, std::size_t k) {
  const vertex_t t = w_.target(list[k]);
  const DistGraph& g = w_.graph();
  if (t == no_vertex) return no_candidate;
  if (w_.loads()) return w_.word_now(t);
  if (g.owns(t)) return w_.own(t - g.begin());
  return t == of_[k] ? w_.ghosts().word(ghost_[k]) : w_.read_now(t);
}

}  // namespace matchblas::distributed
