// b-ld-gpu (declared in matchers/b_matching/b_matching.hpp): the greedy
// b-matching of a general graph on the GPU in bulk-synchronous rounds of
// prune, refill and select over per-vertex lists T(u) of the best live
// neighbours; {u, v} is taken when each is among the other's best r.
// Source: the locally dominant rule (Naim et al. 2015 Alg. 1-2; Preis, STACS
// 1999; Manne and Bisseling, PPAM 2007), widened to the best r at both ends.
// Guarantee: exactly b_greedy's edge set for any b and any schedule (the
// rounds are deterministic); 1/2-approximate. Preconditions: as b_suitor_seq.
// Cost: a round reads the listed vertices' lists and rescans the rows that ran
// short (10-15 rounds on 2^20-vertex graphs); one host sync per round.
// The rounds, the proof and device memory: docs/algorithms/b_ld_gpu.md.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lib/greedy_order.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_gpu_offers.cuh"
#include "ops/gpu/device_graph.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/row_scan.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas {

namespace {

namespace cg = cooperative_groups;
using gpu::b_suitor::DeviceBMatching;
using gpu::b_suitor::degree;
using gpu::b_suitor::sort_in_thread;
using gpu::append_by_warp;

constexpr int refill_k = 8;    // entries a lane keeps per scan: one scan fills T(u) when cap(u) <= 8
// Refill groups by row length (b-suitor-gpu's classes less its 8-lane one): a tile of 4 lanes
// for rows of <= 32 entries, a warp up to 1024, a block of 256 beyond.
constexpr offset_t small_row = 32, hub_row = 1024;
constexpr int small_tile = 4, row_tile = 32, hub_block = 256, tile_block = 128;
constexpr int classes = 3;

// A vertex's selection threshold (set_threshold); v = every_live: any live
// neighbour is among its first r.
template <class W>
struct Threshold {
  W w;
  vertex_t v;
};
constexpr vertex_t every_live = -2;

// The state of the rounds, in device memory (a view passed by value). A
// vertex's list and its partners share its slot range [start[u], start[u + 1]).
template <class W>
struct Rounds {
  gpu::CsrView<W> g;
  const offset_t* start;
  vertex_t* list_v;     // T(u), best first
  W* list_w;
  int* list_size;
  vertex_t* cursor_v;   // the last entry appended to T(u); no_vertex: none yet
  W* cursor_w;
  unsigned char* exhausted;
  int* room;            // r this round (read only in both launches)
  int* room_next;       // r after this round's selections (a listed vertex's; copied to room after it)
  vertex_t* partners;   // u's partners so far, unsorted
  int* taken;           // how many
  int* taken_before;    // how many before the last round: the last round's are after them
  vertex_t* next;       // the vertices listed for the next round
  int* next_count;
  unsigned long long* selected;  // edges taken this round, counted at both ends
  Threshold<W>* threshold;       // each listed vertex's, set by prune or refill
  vertex_t* refill[classes];     // the vertices prune found short, by row class
  int* refill_count;             // classes counters
};

// Lists u in r.next when `listed`, one atomic per warp.
template <class W>
__device__ void list_by_warp(const Rounds<W>& r, vertex_t u, bool listed) {
  if (listed) append_by_warp(r.next, r.next_count, u);
}

// Lists u for a refill in class c's list (c < 0: not), one atomic per warp
// and class (one per vertex would serialise millions of atomics on three
// words, as b-suitor-gpu's listing once did).
template <class W>
__device__ void list_for_refill(const Rounds<W>& r, vertex_t u, int c) {
  gpu::append_by_class(r.refill, r.refill_count, c, u);
}

template <class W>
__global__ void init_rounds(Rounds<W> r) {
  for (long long i = gpu::grid_thread(); i < r.g.n_rows; i += gpu::grid_threads()) {
    const vertex_t u = vertex_t(i);
    const int cap = int(r.start[u + 1] - r.start[u]);
    r.room[u] = cap;
    r.list_size[u] = 0;
    r.cursor_v[u] = no_vertex;
    r.exhausted[u] = cap == 0;
    r.taken[u] = r.taken_before[u] = 0;
    list_by_warp(r, u, cap > 0);
  }
}

// The threshold of u once T(u) holds `kept` live entries in order: the
// entry a neighbour must reach to be among u's first r(u), the r(u)-th of
// T(u); when T(u) holds fewer (u is exhausted), every live neighbour is in it.
template <class W>
__device__ void set_threshold(const Rounds<W>& r, vertex_t u, offset_t first, int kept, int room) {
  r.threshold[u] = kept >= room ? Threshold<W>{r.list_w[first + room - 1], r.list_v[first + room - 1]}
                                : Threshold<W>{W(0), every_live};
}

// Prune, a thread per listed vertex u: drop the dead entries of T(u) (no
// room, or taken last round), in order; then u's threshold, or, when fewer
// than r(u) entries are left and its row is not exhausted, u is listed for
// a refill by its row class.
template <class W>
__global__ void prune(Rounds<W> r, const vertex_t* listed, int count) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) {
    const vertex_t u = listed[i];
    const offset_t first = r.start[u];
    const int size = r.list_size[u], from = r.taken_before[u], to = r.taken[u], room = r.room[u];
    int kept = 0;
    for (int j = 0; j < size; ++j) {
      const vertex_t v = r.list_v[first + j];
      bool keep = r.room[v] > 0;
      for (int q = from; q < to && keep; ++q) keep = r.partners[first + q] != v;
      if (!keep) continue;
      if (kept != j) {
        r.list_v[first + kept] = v;
        r.list_w[first + kept] = r.list_w[first + j];
      }
      ++kept;
    }
    r.list_size[u] = kept;
    const bool short_of = kept < room && !r.exhausted[u];
    if (!short_of) set_threshold(r, u, first, kept, room);
    const offset_t d = degree(r.g, u);
    list_for_refill(r, u, !short_of ? -1 : d <= small_row ? 0 : d <= hub_row ? 1 : 2);
  }
}

// Refill of u by a group: append u's best live entries strictly below its
// cursor until T(u) holds r(u) (filling up to cap(u)) or the row is
// exhausted. Each pass ranks the entries below the cursor by weight alone
// (each lane its best `limit`, the group's best `limit` of those); the
// leader then reads each candidate's room once and appends the live ones in
// order; the cursor moves past every candidate (the dead ones stay dead).
// Once a pass finds more dead candidates than live ones, the scans read the
// room of each entry that would enter a lane's list instead (few live
// entries left). Then u's threshold.
template <class Group, class W>
__device__ void refill_one(const Group& group, const Rounds<W>& r, vertex_t u) {
  const offset_t first = r.start[u];
  const int cap = int(r.start[u + 1] - first), room = r.room[u];
  int kept = r.list_size[u];
  bool exhausted = false, check_in_scan = false;
  vertex_t cv = r.cursor_v[u];
  W cw = cv == no_vertex ? W(0) : r.cursor_w[u];
  while (kept < room && !exhausted) {
    const int limit = min(cap - kept, refill_k);
    gpu::LaneTop<W, refill_k> top;
    gpu::for_strided_entries(r.g, u, group.rank(), Group::size, [&](vertex_t v, W w) {
      if (cv != no_vertex && !neighbour_beats(cw, cv, w, v)) return;
      if (!top.admits(v, w, limit)) return;
      if (check_in_scan && r.room[v] <= 0) return;
      top.insert(v, w, limit);
    });
    const gpu::Candidates<W, refill_k> best = gpu::merge_candidates(group, top, limit);
    int live = 0;
    if (group.leader()) {
      int rooms[refill_k];
#pragma unroll
      for (int j = 0; j < refill_k; ++j) rooms[j] = j < best.size ? (check_in_scan ? 1 : r.room[best.v[j]]) : 0;
#pragma unroll
      for (int j = 0; j < refill_k; ++j)
        if (rooms[j] > 0) {
          r.list_v[first + kept + live] = best.v[j];
          r.list_w[first + kept + live] = best.w[j];
          ++live;
        }
    }
    live = group.from_leader(live);
    if (best.size > 0) {  // the last candidate
      cv = gpu::pick(best.v, best.size - 1);
      cw = gpu::pick(best.w, best.size - 1);
    }
    kept += live;
    exhausted = best.size < limit;
    check_in_scan = check_in_scan || 2 * live < best.size;
  }
  if (group.leader()) {
    r.list_size[u] = kept;
    r.cursor_v[u] = cv;
    r.cursor_w[u] = cw;
    r.exhausted[u] = exhausted;
    set_threshold(r, u, first, kept, room);
  }
}

template <int G, class W>
__global__ void refill_tiles(Rounds<W> r, const vertex_t* list, int count) {
  const gpu::TileGroup<G> group{cg::tiled_partition<G>(cg::this_thread_block())};
  const long long t = gpu::grid_thread() / G;
  if (t < count) refill_one(group, r, list[t]);
}

template <class W>
__global__ void refill_hubs(Rounds<W> r, const vertex_t* list) {
  __shared__ vertex_t warp_v[hub_block / 32];
  __shared__ W warp_w[hub_block / 32];
  __shared__ unsigned long long word;
  const gpu::BlockGroup<hub_block, W> group{warp_v, warp_w, &word};
  refill_one(group, r, list[blockIdx.x]);
}

unsigned tiles_grid(int listed, int width) { return unsigned((listed * 1LL * width + tile_block - 1) / tile_block); }

// Selection: u takes {u, v} for each v among the first r(u) entries of T(u)
// that has u among its own first r(v); u stays listed while it has room and
// entries or a row to refill from.
template <class W>
__global__ void select(Rounds<W> r, const vertex_t* listed, int count) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) {
    const vertex_t u = listed[i];
    const offset_t first = r.start[u];
    const int room = r.room[u], size = r.list_size[u], before = r.taken[u];
    int took = 0;
    for (int k = 0; k < min(room, size); ++k) {
      const vertex_t v = r.list_v[first + k];
      const Threshold<W> t = r.threshold[v];
      const W w = r.list_w[first + k];
      if (t.v == every_live || t.v == u || neighbour_beats(w, u, t.w, t.v)) r.partners[first + before + took++] = v;
    }
    r.taken_before[u] = before;
    r.taken[u] = before + took;
    const int left = room - took;
    const bool more = left > 0 && (size > took || !r.exhausted[u]);
    r.room_next[u] = more ? left : 0;  // a finished vertex shows no room to the others
    list_by_warp(r, u, more);
    const cg::coalesced_group all = cg::coalesced_threads();
    const unsigned long long sum = cg::reduce(all, (unsigned long long)took, cg::plus<unsigned long long>());
    if (all.thread_rank() == 0 && sum > 0) atomicAdd(r.selected, sum);
  }
}

// The listed vertices' new room becomes the room the next round reads.
template <class W>
__global__ void commit_room(Rounds<W> r, const vertex_t* listed, int count) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) r.room[listed[i]] = r.room_next[listed[i]];
}

__global__ void widen(const int* from, offset_t* to, vertex_t n) {
  for (long long i = gpu::grid_thread(); i < n; i += gpu::grid_threads()) to[i] = from[i];
}

// Each vertex's partners, ascending, at offsets[u] (sorted in the thread
// up to sort_in_thread partners, else `unsorted` is raised).
template <class W>
__global__ void fill_partners(Rounds<W> r, const offset_t* offsets, vertex_t* out, int* unsorted) {
  for (long long i = gpu::grid_thread(); i < r.g.n_rows; i += gpu::grid_threads()) {
    const vertex_t u = vertex_t(i);
    const int k = r.taken[u];
    vertex_t* to = out + offsets[u];
    for (int j = 0; j < k; ++j) to[j] = r.partners[r.start[u] + j];
    gpu::b_suitor::sort_if_short(to, k);
    if (k > sort_in_thread) atomicOr(unsorted, 1);
  }
}

}  // namespace

template <class W>
BMatching b_ld_gpu(const Csr<W>& g, const std::vector<int>& b, const GpuOptions& opt, GpuTimes* times) {
  detail::expect_b(g, b, "b_ld_gpu");
  return gpu::with_device_graph("b-ld-gpu", g, opt,
                                [&](const DeviceGraph<W>& dg) { return b_ld_gpu(dg, b, opt, times); });
}

template <class W>
BMatching b_ld_gpu(const DeviceGraph<W>& dg, const std::vector<int>& b, const GpuOptions& opt, GpuTimes* times) {
  detail::expect_b(dg.n(), b, "b_ld_gpu");
  gpu::MatcherSession<W> session("b-ld-gpu", dg, opt);
  const cudaStream_t s = session.stream();
  const gpu::CsrView<W> g = session.graph();
  const vertex_t n = g.n_rows;
  const std::size_t un = std::size_t(n);
  const long long max_grid = 32LL * session.sms();
  gpu::Event marks[5], fetched;  // b upload, init, rounds, extract
  marks[0].record(s);
  const auto d_b = gpu::DeviceBuffer<int>::from_host(b, s);
  marks[1].record(s);

  const unsigned grid = gpu::grid_for(n + 1LL, 256, max_grid);
  gpu::DeviceBuffer<offset_t> start(un + 1, s);
  const offset_t n_slots = gpu::b_suitor::slot_starts(g, d_b.data(), 0, start, grid, s);
  gpu::DeviceBuffer<vertex_t> list_v(std::size_t(n_slots), s), partners(std::size_t(n_slots), s), cursor_v(un, s),
      lists(2 * un, s);
  gpu::DeviceBuffer<W> list_w(std::size_t(n_slots), s), cursor_w(un, s);
  gpu::DeviceBuffer<int> list_size(un, s), room(2 * un, s), taken(un, s), taken_before(un, s), counts(2, s);
  gpu::DeviceBuffer<unsigned char> exhausted(un, s);
  gpu::DeviceBuffer<unsigned long long> selected(1, s);
  gpu::DeviceBuffer<Threshold<W>> threshold(un, s);
  gpu::DeviceBuffer<vertex_t> refill_lists(classes * un, s);
  gpu::DeviceBuffer<int> refill_count(classes, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(int), s));
  Rounds<W> r{g,           start.data(),     list_v.data(), list_w.data(),       list_size.data(),
              cursor_v.data(), cursor_w.data(), exhausted.data(), room.data(),     room.data() + un,
              partners.data(), taken.data(),    taken_before.data(), lists.data(), counts.data(),
              selected.data(),   threshold.data(), {}, refill_count.data()};
  for (int c = 0; c < classes; ++c) r.refill[c] = refill_lists.data() + c * un;
  if (n > 0) {
    init_rounds<<<grid, 256, 0, s>>>(r);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  int listed = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&listed, counts.data(), sizeof listed, cudaMemcpyDeviceToHost, s));
  marks[2].record(s);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));

  long long rounds = 0;
  while (listed > 0) {
    // Every round that continues takes an edge, so this bound is never
    // reached; it turns a bug into an error.
    if (rounds > g.n_entries + n) throw error("b-ld-gpu: no progress after " + std::to_string(rounds) + " rounds");
    const int cur = int(rounds % 2), nxt = 1 - cur;
    const vertex_t* current = lists.data() + cur * un;
    r.next = lists.data() + nxt * un;
    r.next_count = counts.data() + nxt;
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(r.next_count, 0, sizeof(int), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(r.selected, 0, sizeof(unsigned long long), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(r.refill_count, 0, classes * sizeof(int), s));
    prune<W><<<gpu::grid_for(listed, 256, max_grid), 256, 0, s>>>(r, current, listed);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    int short_of[classes] = {};
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(short_of, r.refill_count, sizeof short_of, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    if (short_of[0] > 0) {
      refill_tiles<small_tile, W><<<tiles_grid(short_of[0], small_tile), tile_block, 0, s>>>(r, r.refill[0],
                                                                                             short_of[0]);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
    if (short_of[1] > 0) {
      refill_tiles<row_tile, W><<<tiles_grid(short_of[1], row_tile), tile_block, 0, s>>>(r, r.refill[1],
                                                                                         short_of[1]);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
    if (short_of[2] > 0) {
      refill_hubs<W><<<unsigned(short_of[2]), hub_block, 0, s>>>(r, r.refill[2]);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
    select<W><<<gpu::grid_for(listed, 256, max_grid), 256, 0, s>>>(r, current, listed);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    commit_room<W><<<gpu::grid_for(listed, 256, max_grid), 256, 0, s>>>(r, current, listed);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    ++rounds;
    unsigned long long took = 0;
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&listed, r.next_count, sizeof listed, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&took, r.selected, sizeof took, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    if (took == 0) break;  // no live edge is left (the best one would have been taken)
  }
  marks[3].record(s);

  // The partners: counts, exclusive scan, fill sorted.
  const DeviceBMatching d_m = gpu::b_suitor::partner_lists(
      n, s,
      [&](offset_t* kept) {
        widen<<<grid, 256, 0, s>>>(taken.data(), kept, n);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      },
      [&](const offset_t* offsets, vertex_t* out, int* unsorted) {
        fill_partners<<<grid, 256, 0, s>>>(r, offsets, out, unsorted);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      });
  marks[4].record(s);
  BMatching m;
  m.offsets.resize(un + 1);
  m.partners.resize(d_m.partners.size());
  d_m.offsets.to_host(std::span(m.offsets), s);
  d_m.partners.to_host(std::span(m.partners), s);
  fetched.record(s);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  if (times) {
    times->upload_s = dg.upload_seconds() + marks[1].since(marks[0]);
    times->match_s = marks[4].since(marks[1]);
    times->download_s = fetched.since(marks[4]);
    times->phases = {{"init", marks[2].since(marks[1])},
                     {"rounds (" + std::to_string(rounds) + ")", marks[3].since(marks[2])},
                     {"extract", marks[4].since(marks[3])}};
  }
  return m;
}

template BMatching b_ld_gpu(const Csr<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const Csr<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const DeviceGraph<float>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);
template BMatching b_ld_gpu(const DeviceGraph<double>&, const std::vector<int>&, const GpuOptions&, GpuTimes*);

}  // namespace matchblas
