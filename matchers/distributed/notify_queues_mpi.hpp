// The notification queues of the notify variants: each rank owns a queue of
// its vertices that others ask it to look at again, in MPI-3 windows (a
// 64-bit count, the items initialised to -1). A poster reserves room with
// MPI_Fetch_and_op (+k on the count) and writes its items with MPI_Put; the
// owner reads them and marks each read slot -1 again. sync-notify takes the
// whole queue between two barriers (no poster is active) and resets the
// count; async-notify reads up to the count and stops at a slot not yet
// written (-1), to read it next time.
// Departure: Alg. 6 moves async-notify's front back to slot 0 by
// compare-and-swap when the owner caught up, to bound the queue. Here the
// queue is sized to the bound below instead, so the front only moves on:
// MPI_Compare_and_swap on the calling rank's own window crashes Open MPI
// 4.1's osc/rdma over shared memory (btl/vader, Debian 12), and a CPU
// compare-and-swap on window memory is not atomic with a network's atomics.
// Source: A. Thorsen, P. Merkey, Approximating weighted matchings using the
// partitioned global address space model, Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 5.3-5.4.
// Capacity: a rank is told about its vertex x at most three times per remote
// neighbour u (u's pointer reaches x; u is matched while x points at u; u is
// matched with x), so 3 x cross entries of memory never overflows.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "matchers/distributed/ld_mpi.hpp"

namespace matchblas::distributed {

class NotifyQueues {
 public:
  NotifyQueues(const DistGraph& g, DistributedStats& stats);  // collective
  ~NotifyQueues();                                          // collective
  NotifyQueues(const NotifyQueues&) = delete;
  NotifyQueues& operator=(const NotifyQueues&) = delete;

  // Appends items (vertices rank dest owns; copied) to dest's queue; they
  // are written when complete() returns. Throws error past dest's capacity.
  void post(int dest, const vertex_t* items, int k);
  void complete();
  // sync-notify: every item in this rank's queue (as local indices), the
  // count reset to 0. No rank may post meanwhile.
  void take_all(std::vector<vertex_t>& out);
  // async-notify: the items written so far, appended to out (local indices).
  void take_ready(std::vector<vertex_t>& out);

 private:
  const DistGraph& g_;
  DistributedStats& stats_;
  std::vector<std::int64_t> capacity_;  // every rank's
  MPI_Win count_win_ = MPI_WIN_NULL, items_win_ = MPI_WIN_NULL;
  std::int64_t* count_ = nullptr;
  std::int32_t* items_ = nullptr;
  std::int64_t front_ = 0;  // async: the next slot to read (never moves back)
  std::deque<std::vector<std::int32_t>> staged_;  // the items of puts not yet complete
};

}  // namespace matchblas::distributed
