// The offers of b-Suitor on the GPU (matchers/b_matching/b_suitor_gpu.cu states the
// algorithm and why it equals b_greedy): the device twin of OfferHeaps and
// ProposedFlags in matchers/b_matching/b_suitor.cpp.
//   per vertex v  a heap of the cap(v) = min(b(v), deg v) best offers made to
//                 it (slots: positions in v's row, the worst on top; v's
//                 slots are [start[v], start[v + 1])), its count and a lock
//                 guarding both, and a floor word read without the lock:
//                 closed (cap 0), room (count < cap), else the worst held
//                 offer (float: suitor_gpu.cu's packed (weight, ~id) key, a
//                 larger key a better offer; other weights: 1 + its
//                 position); floors only rise
//   per proposer  a state word held << 2 | exhausted << 1 | owned (held:
//                 how many of its offers are held) and a cursor (its last
//                 proposal: neighbour and weight)
//   place         an offer under the holder's lock: exact re-check, heap,
//                 floor, both held counts
//   claim         ownership of a proposer whose offer was dropped
//   mutual_offers the pairs holding each other's offer, as a BMatching on
//                 the device (flag, scan, fill, per-vertex sort)
// .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/atomic>
#include <cuda/std/functional>
#include <type_traits>

#include "lib/greedy_order.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu::b_suitor {

using word_t = unsigned long long;

constexpr word_t owned = 1, exhausted = 2, one_held = 4;  // the state word
__device__ inline word_t held_of(word_t state) { return state >> 2; }
constexpr word_t room = 0, closed = ~word_t(0);  // special floor words

// Relaxed device-scope accesses to words other threads write concurrently
// (strong operations: no stale L1 line, no torn read).
template <class T>
__device__ cuda::atomic_ref<T, cuda::thread_scope_device> atomic(T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*p);
}
template <class T>
__device__ T load(const T* p) {
  return atomic(const_cast<T*>(p)).load(cuda::memory_order_relaxed);
}
template <class T>
__device__ void store(T* p, T x) {
  atomic(p).store(x, cuda::memory_order_relaxed);
}

struct PackedFloor {  // float weights
  CsrView<float> g;
  __device__ static word_t pack(float w, vertex_t u) {
    const unsigned bits = __float_as_uint(w + 0.0f);  // -0 + 0 == +0
    const unsigned key = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
    return (word_t(key) << 32) | word_t(~static_cast<unsigned>(u));
  }
  // Does a vertex with this floor take u's offer of weight w?
  __device__ bool takes(float w, vertex_t u, word_t floor) const { return pack(w, u) > floor; }
  __device__ word_t word_of(offset_t k) const { return pack(g.weights[k], g.cols[k]); }
};

template <class W>
struct PositionFloor {  // any weight type
  CsrView<W> g;
  __device__ bool takes(W w, vertex_t u, word_t floor) const {
    return floor == room || (floor != closed && neighbour_beats(w, u, g.weights[floor - 1], g.cols[floor - 1]));
  }
  __device__ word_t word_of(offset_t k) const { return word_t(k) + 1; }
};

template <class W>
using FloorFor = std::conditional_t<std::is_same_v<W, float>, PackedFloor, PositionFloor<W>>;

// Everything the kernels share; passed to them by value.
template <class W, int Classes>
struct Offers {
  CsrView<W> g;
  FloorFor<W> rule;
  const int* b;
  const offset_t* start;  // n + 1 entries
  offset_t* slots;        // start[n] entries; -1 empty
  int* count;
  word_t* floor;
  int* lock;
  word_t* state;
  vertex_t* cursor_v;  // no_vertex before the first proposal
  W* cursor_w;
  vertex_t* next[Classes];  // the next round's lists, one per row class
  int* next_count;
};

template <class W>
__device__ offset_t degree(const CsrView<W>& g, vertex_t u) {
  return g.offsets[u + 1] - g.offsets[u];
}

// The entry of `col` in `row`, or -1.
template <class W>
__device__ offset_t find_entry(const CsrView<W>& g, vertex_t row, vertex_t col) {
  offset_t lo = g.offsets[row], hi = g.offsets[row + 1];
  const offset_t end = hi;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (g.cols[mid] < col) lo = mid + 1;
    else hi = mid;
  }
  return lo < end && g.cols[lo] == col ? lo : -1;
}

// A vertex's heap (positions in its row), the worst offer on top. Under
// the vertex's lock.
template <class W>
struct Heap {
  const CsrView<W>& g;
  offset_t* a;
  __device__ bool worse(offset_t x, offset_t y) const {
    return neighbour_beats(g.weights[y], g.cols[y], g.weights[x], g.cols[x]);
  }
  __device__ void push(int held, offset_t x) {
    int i = held;
    for (; i > 0; i = (i - 1) / 2) {
      const offset_t parent = load(a + (i - 1) / 2);
      if (!worse(x, parent)) break;
      store(a + i, parent);
    }
    store(a + i, x);
  }
  __device__ void replace_top(int held, offset_t x) {
    int i = 0;
    for (int child = 1; child < held; child = 2 * i + 1) {
      offset_t c = load(a + child);
      if (child + 1 < held) {
        const offset_t right = load(a + child + 1);
        if (worse(right, c)) c = right, ++child;
      }
      if (!worse(c, x)) break;
      store(a + i, c);
      i = child;
    }
    store(a + i, x);
  }
};

// The offer of u (weight w) to v, by u's owner (one lane). Waits for v's
// lock unless v's floor, re-read, refuses u (then for good); under it,
// re-checks exactly and places the offer, displacing v's worst when full.
// Returns the displaced proposer (or no_vertex) and its state word after the
// drop. A graph without u in v's row (not symmetric) refuses.
struct Placed {
  vertex_t displaced = no_vertex;
  word_t displaced_state = 0;
};

template <class W, int C>
__device__ Placed place(const Offers<W, C>& o, vertex_t u, vertex_t v, W w) {
  Placed r;
  const offset_t at = find_entry(o.g, v, u);
  if (at < 0) return r;
  auto lock = atomic(o.lock + v);
  for (unsigned pause = 16;; pause = min(2 * pause, 512u)) {
    if (!o.rule.takes(w, u, load(o.floor + v))) return r;
    int free = 0;
    if (lock.load(cuda::memory_order_relaxed) == 0 &&
        lock.compare_exchange_strong(free, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed))
      break;
    __nanosleep(pause);
  }
  Heap<W> heap{o.g, o.slots + o.start[v]};
  const int cap = int(o.start[v + 1] - o.start[v]);
  const int held = load(o.count + v);
  bool placed = false;
  if (held < cap) {
    heap.push(held, at);
    store(o.count + v, held + 1);
    if (held + 1 == cap) store(o.floor + v, o.rule.word_of(load(heap.a)));
    placed = true;
  } else if (const offset_t worst = load(heap.a); neighbour_beats(w, u, o.g.weights[worst], o.g.cols[worst])) {
    r.displaced = o.g.cols[worst];
    heap.replace_top(cap, at);
    store(o.floor + v, o.rule.word_of(load(heap.a)));
    placed = true;
  }
  if (placed) atomic(o.state + u).fetch_add(one_held, cuda::memory_order_relaxed);
  if (r.displaced != no_vertex)
    r.displaced_state = atomic(o.state + r.displaced).fetch_sub(one_held, cuda::memory_order_relaxed) - one_held;
  lock.store(0, cuda::memory_order_release);
  return r;
}

// Takes ownership of x, whose state word was `seen` after one of its offers
// was dropped, unless x is owned (its owner sees the drop: its release
// compare-and-swap fails) or exhausted (nobody takes its offers any more).
// Acquire: the cursor x's last owner stored before releasing is visible.
__device__ inline bool claim(word_t* state, vertex_t x, word_t seen) {
  auto s = atomic(state + x);
  while ((seen & (owned | exhausted)) == 0)
    if (s.compare_exchange_strong(seen, seen | owned, cuda::memory_order_acq_rel, cuda::memory_order_relaxed))
      return true;
  return false;
}

// ---- the mutual offers ------------------------------------------------------

__global__ inline void mark_held(const offset_t* slots, offset_t n_slots, std::uint8_t* held) {
  for (long long s = grid_thread(); s < n_slots; s += grid_threads())
    if (slots[s] >= 0) held[slots[s]] = 1;  // entry k of v's row: v holds the offer of cols[k]
}

// keep[s]: the holder v of slot s (the last v with start[v] <= s) and the
// proposer u = cols[slots[s]] hold each other's offer.
template <class W>
__global__ void flag_mutual(CsrView<W> g, const offset_t* start, const offset_t* slots, offset_t n_slots,
                            const std::uint8_t* held, std::uint8_t* keep) {
  for (long long s = grid_thread(); s < n_slots; s += grid_threads()) {
    bool mutual = false;
    if (const offset_t k = slots[s]; k >= 0) {
      vertex_t lo = 0, hi = g.n_rows;
      while (hi - lo > 1) {
        const vertex_t mid = lo + (hi - lo) / 2;
        if (start[mid] <= s) lo = mid;
        else hi = mid;
      }
      const offset_t back = find_entry(g, g.cols[k], lo);
      mutual = back >= 0 && held[back] != 0;
    }
    keep[s] = mutual;
  }
}

template <class W>
__global__ void fill_partners(CsrView<W> g, const offset_t* slots, offset_t n_slots, const std::uint8_t* keep,
                              const offset_t* pos, const offset_t* start, vertex_t* partners, offset_t* offsets) {
  for (long long s = grid_thread(); s < n_slots; s += grid_threads())
    if (keep[s]) partners[pos[s]] = g.cols[slots[s]];
  for (long long v = grid_thread(); v <= g.n_rows; v += grid_threads()) offsets[v] = pos[start[v]];
}

// CUB's two calls (a null pointer asks for the temporary size, then the
// run), the temporary stream-ordered scratch; waits for the run.
template <class Call>
void with_temp(cudaStream_t s, Call call) {
  std::size_t bytes = 0;
  MATCHBLAS_CUDA_TRY(call(nullptr, bytes));
  DeviceBuffer<std::uint8_t> temp(std::max<std::size_t>(bytes, 1), s);
  MATCHBLAS_CUDA_TRY(call(temp.data(), bytes));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
}

// A BMatching on the device: partners[offsets[v] .. offsets[v + 1]) ascending.
struct DeviceBMatching {
  DeviceBuffer<offset_t> offsets;
  DeviceBuffer<vertex_t> partners;
};

// The pairs holding each other's offer once every proposal is done, in
// STYLE 6's phases: flag each held slot whose proposer holds the holder's
// offer (count), exclusive scan, fill; then a segmented sort (a vertex's
// slots are in heap order). Cost O(slots log n) plus the sort; temporaries:
// 1 byte per entry, 13 per slot. Synchronous on s.
template <class W, int C>
DeviceBMatching mutual_offers(const Offers<W, C>& o, offset_t n_slots, unsigned grid, cudaStream_t s) {
  const CsrView<W>& g = o.g;
  const std::size_t ns = std::size_t(n_slots);
  DeviceBuffer<std::uint8_t> held(std::size_t(g.n_entries), s), keep(ns + 1, s);  // scratch: stream-ordered
  DeviceBuffer<offset_t> pos(ns + 1, s);
  if (g.n_entries > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(held.data(), 0, held.size(), s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(keep.data() + ns, 0, 1, s));
  if (ns > 0) {
    mark_held<<<grid, 256, 0, s>>>(o.slots, n_slots, held.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    flag_mutual<<<grid, 256, 0, s>>>(g, o.start, o.slots, n_slots, held.data(), keep.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  with_temp(s, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, keep.data(), pos.data(), cuda::std::plus<offset_t>{},
                                          offset_t{0}, n_slots + 1, s);
  });
  offset_t kept = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&kept, pos.data() + ns, sizeof kept, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  DeviceBuffer<vertex_t> unsorted{std::size_t(kept), s};
  DeviceBMatching m{DeviceBuffer<offset_t>(std::size_t(g.n_rows) + 1), DeviceBuffer<vertex_t>(std::size_t(kept))};
  fill_partners<<<grid, 256, 0, s>>>(g, o.slots, n_slots, keep.data(), pos.data(), o.start, unsorted.data(),
                                     m.offsets.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  if (kept > 0)
    with_temp(s, [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::SortKeys(temp, bytes, unsorted.data(), m.partners.data(), kept, g.n_rows,
                                                m.offsets.data(), m.offsets.data() + 1, s);
    });
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));  // before the temporaries are freed
  return m;
}

}  // namespace matchblas::gpu::b_suitor
