// roma-sparse-gpu's passes of longer augmentations (length L from 3 to
// max_gpu_length): the search of roma_sparse_long.hpp, a thread per root,
// and the locking rule of the 2-augmentations extended to every vertex of
// the path found.
//
// The lists (GreedyLists): each vertex's first min(degree, kept)
// neighbours in the greedy order (heavier, then smaller column), kept =
// min(candidates, 256) or 256, the CPU lists; made on the device by a
// stable segmented sort of each row on its weights' order keys.
// The search from a root r (find_long): the depth-first search of
// roma_sparse_long.hpp with an explicit stack of at most L frames, the
// positive-gain rule, the budget of 256 added edges, the best prefix
// (ending free, leaving its end free, or closing the cycle back to r's old
// mate s) kept with the weights of its new edges. The path is at most
// 2 L + 1 vertices, so "already on the path" is a scan of it.
// Its application (lock_and_apply_long): the path's vertices and s locked
// all or none (roma_sparse_gpu_state.cuh); under the locks, the mates the
// search read are checked and the gain recomputed from the locked vertices'
// matched weights; applied when it exceeds the threshold. A root that loses
// a race, or whose gain under the locks is too small (a mate and a weight
// read at different moments), is queued and searched again; the phase
// loop runs the queue with one thread once a round fails to shrink it,
// which then applies what it finds (nothing races it). Validity and the
// monotone weight: roma_sparse_omp.cpp's argument (every edge the gain
// counts is at a locked vertex).
// Cost: per root O(256 L) list entries read and O(L) path scans per entry;
// memory: the lists, 4 + sizeof(W) bytes per kept entry, and while they
// are made 4 + 2 sizeof(W) bytes per entry of the graph and CUB's scratch.
// .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <type_traits>

#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_gpu_state.cuh"
#include "matchers/general/roma_sparse_long.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/order_key.cuh"

namespace matchblas::roma_sparse_gpu_detail {

inline constexpr int max_gpu_length = roma_sparse_gpu_max_length;  // new edges per augmentation

using gpu::order_key_of;
using gpu::OrderKey;
using gpu::weight_of_key;

template <class W>
__global__ void keys_of_weights(const W* w, offset_t m, OrderKey<W>* key) {
  for (long long k = gpu::grid_thread(); k < m; k += gpu::grid_threads()) key[k] = order_key_of(w[k]);
}
template <class W>
__global__ void weights_of_keys(const OrderKey<W>* key, offset_t m, W* w) {
  for (long long k = gpu::grid_thread(); k < m; k += gpu::grid_threads()) w[k] = weight_of_key<W>(key[k]);
}

// Each list's length: min(degree, kept), and 0 at n (for the exclusive scan).
template <class W>
__global__ void list_lengths(gpu::CsrView<W> g, offset_t kept, offset_t* length) {
  for (long long v = gpu::grid_thread(); v <= g.n_rows; v += gpu::grid_threads())
    length[v] = v == g.n_rows ? 0 : min(g.offsets[v + 1] - g.offsets[v], kept);
}

// The first min(degree, kept) entries of each sorted row into the lists
// (a warp per row).
template <class W>
__global__ void keep_list_heads(gpu::CsrView<W> g, const vertex_t* sorted_cols, const OrderKey<W>* sorted_keys,
                                const offset_t* at, vertex_t* cols, W* weights) {
  const int lane = threadIdx.x & 31;
  for (long long v = gpu::grid_thread() >> 5; v < g.n_rows; v += gpu::grid_threads() >> 5) {
    const offset_t from = g.offsets[v], to = at[v], count = at[v + 1] - at[v];
    for (offset_t i = lane; i < count; i += 32) {
      cols[to + i] = sorted_cols[from + i];
      weights[to + i] = weight_of_key<W>(sorted_keys[from + i]);
    }
  }
}

// The long search's lists on the device: each vertex's first
// min(degree, kept) neighbours in the greedy order, kept = min(candidates,
// 256) or 256 (no search reads further into a row), as a Csr of their own.
// Made by a stable segmented sort of g's rows on the weights' order keys
// (descending; equal keys keep the rows' ascending columns), then the
// rows' heads copied out.
template <class W>
class GreedyLists {
 public:
  GreedyLists(const gpu::CsrView<W>& g, int candidates, cudaStream_t s)
      : offsets_(std::size_t(g.n_rows) + 1, s) {
    const offset_t kept = candidates > 0 ? std::min(candidates, roma_sparse_detail::long_search_budget)
                                         : roma_sparse_detail::long_search_budget;
    const offset_t m = g.n_entries;
    const unsigned grid = gpu::grid_blocks(std::max<offset_t>(m, g.n_rows + 1LL), 256);
    {
      gpu::DeviceBuffer<offset_t> lengths(std::size_t(g.n_rows) + 1, s);
      list_lengths<W><<<grid, 256, 0, s>>>(g, kept, lengths.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      gpu::cub_call([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, lengths.data(), offsets_.data(), g.n_rows + 1LL, s);
      }, s);
    }
    const offset_t entries = gpu::read_scalar(offsets_.data() + g.n_rows, s);
    cols_ = gpu::DeviceBuffer<vertex_t>(std::size_t(entries), s);
    weights_ = gpu::DeviceBuffer<W>(std::size_t(entries), s);
    view_ = {g.n_rows, g.n_cols, offsets_.data(), cols_.data(), weights_.data(), entries};
    if (m == 0) return;
    gpu::DeviceBuffer<OrderKey<W>> key(std::size_t(m), s), sorted(std::size_t(m), s);
    gpu::DeviceBuffer<vertex_t> sorted_cols(std::size_t(m), s);
    keys_of_weights<W><<<grid, 256, 0, s>>>(g.weights, m, key.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    gpu::cub_call([&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::StableSortPairsDescending(temp, bytes, key.data(), sorted.data(), g.cols,
                                                                 sorted_cols.data(), m, g.n_rows, g.offsets,
                                                                 g.offsets + 1, s);
    }, s);
    keep_list_heads<W><<<gpu::grid_blocks(g.n_rows * 32LL, 256), 256, 0, s>>>(
        g, sorted_cols.data(), sorted.data(), offsets_.data(), cols_.data(), weights_.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }

  const gpu::CsrView<W>& view() const { return view_; }

 private:

  gpu::DeviceBuffer<offset_t> offsets_;
  gpu::DeviceBuffer<vertex_t> cols_;
  gpu::DeviceBuffer<W> weights_;
  gpu::CsrView<W> view_{};
};

// The best augmentation a search found from v[0] = r: new edges (v[0], v[1]),
// (v[2], v[3]), ... of weights w[0], w[1], ..., the matching edges at v[1],
// v[3], ... removed (their mates v[2], v[4], ...), r's matching edge
// (r, s) removed when s is a vertex, and for a cycle (v[size - 1], s) added.
struct LongPath {
  vertex_t s = no_vertex;
  vertex_t v[2 * max_gpu_length + 1];
  double w[max_gpu_length];
  int size = 0;  // 0: none found
  bool closes = false;
  double close_w = 0;
  double gain = 0;
};

// The best augmentation from r gaining more than threshold, on the matching
// as read now (roma_sparse_long.hpp's LongSearch::find); false when none.
template <class W>
__device__ bool find_long(const gpu::CsrView<W>& g, const gpu::CsrView<W>& lists, int length, vertex_t r,
                          double threshold, const State& st, LongPath& best) {
  struct Frame {
    offset_t k, end;  // the list of the path's end: its next entry, its end
    double gain;      // the gain of the path so far
  };
  Frame frame[max_gpu_length];
  vertex_t path[2 * max_gpu_length + 1];
  double path_w[max_gpu_length];
  const vertex_t s = mate_of(st, r);
  best.s = s;
  best.size = 0;
  best.gain = threshold;
  best.closes = false;
  // s's list starts with its heaviest edge: no closing edge weighs more.
  const double heaviest_to_s =
      s != no_vertex && lists.offsets[s] < lists.offsets[s + 1] ? double(lists.weights[lists.offsets[s]]) : 0.0;
  const auto frame_at = [&](vertex_t c, double gain) { return Frame{lists.offsets[c], lists.offsets[c + 1], gain}; };
  const auto on_path = [&](vertex_t a, int len) {
    if (a == s) return true;
    for (int i = 0; i < len; ++i)
      if (path[i] == a) return true;
    return false;
  };
  int depth = 0, added = 0;
  // The path so far (1 + 2 depth vertices) extended by x (and y when
  // matched) as the best yet, if it gains more.
  const auto offer = [&](double gain, vertex_t x, vertex_t y, double w_x, bool closes, double close_w) {
    if (!(gain > best.gain)) return;
    const int len = 1 + 2 * depth;
    for (int i = 0; i < len; ++i) best.v[i] = path[i];
    for (int i = 0; i < depth; ++i) best.w[i] = path_w[i];
    best.v[len] = x;
    best.w[depth] = w_x;
    best.size = len + 1;
    if (y != no_vertex) best.v[best.size++] = y;
    best.closes = closes;
    best.close_w = close_w;
    best.gain = gain;
  };
  path[0] = r;
  frame[0] = frame_at(r, s == no_vertex ? 0.0 : -matched_of(st, r));
  while (depth >= 0) {
    Frame& f = frame[depth];
    if (f.k >= f.end) {
      --depth;
      continue;
    }
    const double w = double(lists.weights[f.k]);
    if (!(f.gain + w > 0)) {  // the positive-gain rule; the rest of the list is lighter
      --depth;
      continue;
    }
    if (++added > roma_sparse_detail::long_search_budget) break;
    const vertex_t x = lists.cols[f.k++];
    const int len = 1 + 2 * depth;
    if (on_path(x, len)) continue;
    const vertex_t y = mate_of(st, x);
    if (y == no_vertex) {
      offer(f.gain + w, x, no_vertex, w, false, 0);
      continue;
    }
    if (on_path(y, len)) continue;
    const double after = f.gain + w - matched_of(st, x);
    offer(after, x, y, w, false, 0);
    if (s != no_vertex && after + heaviest_to_s > best.gain) {  // a closing edge could beat the best
      const double to_s = weight_in_row(g, s, y);
      if (!isnan(to_s)) offer(after + to_s, x, y, w, true, to_s);
    }
    if (depth + 1 < length) {
      path[len] = x;
      path[len + 1] = y;
      path_w[depth] = w;
      frame[depth + 1] = frame_at(y, after);
      ++depth;
    }
  }
  return best.size > 0;
}

// p applied under the locks of its vertices and s when the mates the search
// read are still there and the gain recomputed now exceeds the threshold
// (alone: no other thread runs, so what was read is what is there, and it
// is applied as found); false otherwise.
__device__ inline bool lock_and_apply_long(const State& st, const LongPath& p, double threshold, bool alone) {
  vertex_t set[2 * max_gpu_length + 2];
  for (int i = 0; i < p.size; ++i) set[i] = p.v[i];
  set[p.size] = p.s;
  const int count = distinct_vertices(set, p.size + 1);
  if (!lock_all(st.lock, set, count)) return false;
  const volatile vertex_t* mate = st.mate;
  const volatile double* mw = st.mw;
  bool same = mate[p.v[0]] == p.s;
  for (int i = 1; i < p.size && same; i += 2) same = mate[p.v[i]] == (i + 1 < p.size ? p.v[i + 1] : no_vertex);
  bool applied = false;
  if (same) {
    // The exact gain: the new edges less the matching edges they replace.
    double gain = p.s != no_vertex ? -mw[p.v[0]] : 0.0;
    for (int i = 0; i + 1 < p.size; i += 2) gain += p.w[i / 2];
    for (int i = 1; i + 1 < p.size; i += 2) gain -= mw[p.v[i]];
    if (p.closes) gain += p.close_w;
    if (alone || gain > threshold) {
      for (int i = 0; i < p.size; ++i) unmatch_locked(st, p.v[i]);
      for (int i = 0; i + 1 < p.size; i += 2) match_locked(st, p.v[i], p.v[i + 1], p.w[i / 2]);
      if (p.closes) match_locked(st, p.v[p.size - 1], p.s, p.close_w);
      for (int i = 0; i < count; ++i) st.changed[set[i]] = 1;
      atomicAdd(st.flips, 1ULL);
      applied = true;
    }
  }
  unlock_all(st.lock, set, count);
  return applied;
}

// One round of a long pass over `count` roots in `order`: each thread
// searches its roots and applies what it finds, or queues the root again.
template <class W>
__global__ void long_round(gpu::CsrView<W> g, gpu::CsrView<W> lists, int length, Order order, vertex_t count,
                           State st, double threshold, bool alone) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) {
    const vertex_t r = order(i, count);
    LongPath p;
    if (!find_long(g, lists, length, r, threshold, st, p)) continue;
    if (!lock_and_apply_long(st, p, threshold, alone)) st.again(r);
  }
}

}  // namespace matchblas::roma_sparse_gpu_detail
