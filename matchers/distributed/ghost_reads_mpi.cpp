// Batched reads of ghosts' words (ghost_reads_mpi.hpp).
#include "matchers/distributed/ghost_reads_mpi.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "lib/error.hpp"

namespace matchblas::distributed {

namespace {
void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw error(std::string("MPI: ") + what + " failed");
}
}  // namespace

GhostReads::GhostReads(const DistGraph& g, DistributedStats& stats)
    : g_(g), stats_(stats), word_(g.ghosts.size(), 0), stamp_(g.ghosts.size(), 0) {
  MATCHBLAS_EXPECTS(g.ghosts.size() < (std::size_t(1) << 32), "GhostReads: more than 2^32 ghosts");
  if (std::uint64_t(g.n) <= 16 * std::uint64_t(g.cols.size())) {
    blocks_.resize(std::size_t(g.n) / 64 + 1);
    for (vertex_t v : g.ghosts) blocks_[std::size_t(v) / 64].bits |= std::uint64_t(1) << (v % 64);
    std::uint32_t before = 0;
    for (Block& b : blocks_) {
      b.before = before;
      before += std::uint32_t(std::popcount(b.bits));
    }
  }
  rank_from_.resize(std::size_t(g.ranks) + 1);
  for (int r = 0; r <= g.ranks; ++r)
    rank_from_[std::size_t(r)] =
        std::size_t(std::lower_bound(g.ghosts.begin(), g.ghosts.end(), g.first[std::size_t(r)]) - g.ghosts.begin());
}

std::size_t GhostReads::search(vertex_t v) const {
  return std::size_t(std::lower_bound(g_.ghosts.begin(), g_.ghosts.end(), v) - g_.ghosts.begin());
}

int GhostReads::read(MPI_Win win) {
  if (named_.empty()) return 0;
  if (!segments_.empty()) {
    const double start = MPI_Wtime();
    check_mpi(MPI_Win_sync(win), "MPI_Win_sync before reading ghosts");
    for (std::uint32_t gi : named_) word_[gi] = load_vertex(g_.ghosts[gi]);
    stats_.remote_bytes += std::int64_t(named_.size()) * std::int64_t(sizeof(word_t));
    stats_.read_seconds += MPI_Wtime() - start;
    named_.clear();
    return 0;
  }
  // The distinct ghosts in ascending order: then each owner's are one range,
  // in the order of its window. Sorting k of them or scanning every stamp,
  // whichever is cheaper.
  if (named_.size() * 16 >= stamp_.size()) {
    named_.clear();
    for (std::size_t gi = 0; gi < stamp_.size(); ++gi)
      if (stamp_[gi] == batch_) named_.push_back(std::uint32_t(gi));
  } else {
    std::sort(named_.begin(), named_.end());
  }
  buffer_.resize(named_.size());
  const double start = MPI_Wtime();
  check_mpi(MPI_Win_sync(win), "MPI_Win_sync before reading ghosts");
  int gets = 0;
  std::size_t s = 0;
  int r = 0;
  while (s < named_.size()) {
    while (named_[s] >= rank_from_[std::size_t(r) + 1]) ++r;
    std::size_t e = s;
    lengths_.clear();
    displacements_.clear();
    const vertex_t base = g_.first[std::size_t(r)];
    for (; e < named_.size() && named_[e] < rank_from_[std::size_t(r) + 1]; ++e) {
      const int d = int(g_.ghosts[named_[e]] - base);
      if (!displacements_.empty() && displacements_.back() + lengths_.back() == d) {
        ++lengths_.back();
      } else {
        displacements_.push_back(d);
        lengths_.push_back(1);
      }
    }
    const int count = int(e - s);
    if (displacements_.size() == 1) {
      check_mpi(MPI_Get(buffer_.data() + s, count, MPI_INT32_T, r, MPI_Aint(displacements_[0]), count, MPI_INT32_T,
                        win),
                "MPI_Get of ghosts' words");
    } else {
      MPI_Datatype type = MPI_DATATYPE_NULL;
      check_mpi(MPI_Type_indexed(int(lengths_.size()), lengths_.data(), displacements_.data(), MPI_INT32_T, &type),
                "MPI_Type_indexed of ghosts' positions");
      types_.push_back(type);
      check_mpi(MPI_Type_commit(&types_.back()), "MPI_Type_commit");
      check_mpi(MPI_Get(buffer_.data() + s, count, MPI_INT32_T, r, 0, 1, types_.back(), win),
                "MPI_Get of ghosts' words");
    }
    ++gets;
    ++stats_.remote_ops;
    stats_.remote_bytes += std::int64_t(count) * std::int64_t(sizeof(word_t));
    s = e;
  }
  check_mpi(MPI_Win_flush_all(win), "MPI_Win_flush_all after reading ghosts");
  stats_.read_seconds += MPI_Wtime() - start;
  for (MPI_Datatype& t : types_) MPI_Type_free(&t);
  types_.clear();
  for (std::size_t k = 0; k < named_.size(); ++k) word_[named_[k]] = buffer_[k];
  named_.clear();
  return gets;
}

word_t GhostReads::read_one(std::size_t gi, MPI_Win win) {
  if (word_[gi] < 0) return word_[gi];
  if (!segments_.empty()) {
    check_mpi(MPI_Win_sync(win), "MPI_Win_sync before reading a ghost");
    stats_.remote_bytes += std::int64_t(sizeof(word_t));
    return word_[gi] = load_vertex(g_.ghosts[gi]);
  }
  const vertex_t v = g_.ghosts[gi];
  const int r = g_.owner(v);
  word_t w = 0;
  const double start = MPI_Wtime();
  check_mpi(MPI_Win_sync(win), "MPI_Win_sync before reading a ghost");
  check_mpi(MPI_Get(&w, 1, MPI_INT32_T, r, MPI_Aint(v - g_.first[std::size_t(r)]), 1, MPI_INT32_T, win),
            "MPI_Get of a ghost's word");
  check_mpi(MPI_Win_flush(r, win), "MPI_Win_flush after reading a ghost");
  stats_.read_seconds += MPI_Wtime() - start;
  ++stats_.remote_ops;
  stats_.remote_bytes += std::int64_t(sizeof(word_t));
  word_[gi] = w;
  return w;
}

}  // namespace matchblas::distributed
