// The notification queues of the notify variants (notify_queues_mpi.hpp).
#include "matchers/distributed/notify_queues_mpi.hpp"

#include <atomic>
#include <string>

#include "lib/error.hpp"

namespace matchblas::distributed {

NotifyQueues::NotifyQueues(const DistGraph& g, DistributedStats& stats)
    : g_(g), stats_(stats), capacity_(std::size_t(g.ranks), 0) {
  const std::int64_t mine = 3 * g.cross_entries;
  MPI_Allgather(&mine, 1, MPI_INT64_T, capacity_.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  MPI_Win_allocate(MPI_Aint(sizeof(std::int64_t)), int(sizeof(std::int64_t)), MPI_INFO_NULL, MPI_COMM_WORLD, &count_,
                   &count_win_);
  MPI_Win_allocate(MPI_Aint(mine) * MPI_Aint(sizeof(std::int32_t)), int(sizeof(std::int32_t)), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &items_, &items_win_);
  *count_ = 0;
  for (std::int64_t k = 0; k < mine; ++k) items_[k] = -1;
  MPI_Win_lock_all(MPI_MODE_NOCHECK, count_win_);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, items_win_);
  MPI_Win_sync(count_win_);
  MPI_Win_sync(items_win_);
  MPI_Barrier(MPI_COMM_WORLD);
}

NotifyQueues::~NotifyQueues() {
  MPI_Win_unlock_all(items_win_);
  MPI_Win_unlock_all(count_win_);
  MPI_Win_free(&items_win_);
  MPI_Win_free(&count_win_);
}

void NotifyQueues::post(int dest, const vertex_t* items, int k) {
  if (k == 0) return;
  const std::int64_t add = k;
  std::int64_t at = 0;
  MPI_Fetch_and_op(&add, &at, MPI_INT64_T, dest, 0, MPI_SUM, count_win_);
  MPI_Win_flush(dest, count_win_);
  if (at + k > capacity_[std::size_t(dest)])
    throw error("notification queue of rank " + std::to_string(dest) + " overflowed (" + std::to_string(at + k) +
                " > " + std::to_string(capacity_[std::size_t(dest)]) + ")");
  const std::vector<std::int32_t>& copy = staged_.emplace_back(items, items + k);
  MPI_Put(copy.data(), k, MPI_INT32_T, dest, MPI_Aint(at), k, MPI_INT32_T, items_win_);
  stats_.remote_ops += 2;
  stats_.remote_bytes += std::int64_t(sizeof(std::int64_t)) + std::int64_t(k) * std::int64_t(sizeof(std::int32_t));
  stats_.notifications += k;
}

void NotifyQueues::complete() {
  MPI_Win_flush_all(items_win_);
  staged_.clear();
}

void NotifyQueues::take_all(std::vector<vertex_t>& out) {
  const std::int64_t zero = 0;
  std::int64_t n = 0;
  MPI_Fetch_and_op(&zero, &n, MPI_INT64_T, g_.rank, 0, MPI_REPLACE, count_win_);
  MPI_Win_flush(g_.rank, count_win_);
  MPI_Win_sync(items_win_);
  for (std::int64_t k = 0; k < n; ++k) {
    out.push_back(items_[k] - g_.begin());
    items_[k] = -1;
  }
  MPI_Win_sync(items_win_);
}

void NotifyQueues::take_ready(std::vector<vertex_t>& out) {
  std::int64_t n = 0;
  MPI_Fetch_and_op(nullptr, &n, MPI_INT64_T, g_.rank, 0, MPI_NO_OP, count_win_);
  MPI_Win_flush(g_.rank, count_win_);
  if (n == front_) return;
  MPI_Win_sync(items_win_);
  for (; front_ < n; ++front_) {
    std::atomic_ref<std::int32_t> slot(items_[front_]);
    const std::int32_t v = slot.load(std::memory_order_acquire);
    if (v < 0) return;  // reserved, not yet written: read it next time
    out.push_back(v - g_.begin());
    slot.store(-1, std::memory_order_relaxed);
  }
}

}  // namespace matchblas::distributed
