// The offers of b-Suitor on the GPU (matchers/b_matching/b_suitor_gpu.cu states the
// algorithm and why it equals b_greedy): the device twin of OfferHeaps in
// matchers/b_matching/b_suitor.cpp.
//   offer key     a held offer as one word, so that a holder compares and
//                 stores offers without reading the graph: float weights
//                 use suitor-gpu's packed (weight, ~proposer) word
//                 (suitor_gpu_search.cuh; a larger key a better offer); other weights 1 + the
//                 proposer's position in the holder's row
//   per vertex v  a heap of the keys of the cap(v) = min(b(v), deg v) best
//                 offers made to it (the worst on top; v's slots are
//                 [start[v], start[v + 1])), its count and a lock guarding
//                 both, and a floor word read without the lock: closed
//                 (cap 0), room (count < cap), else the key of the worst
//                 held offer; floors only rise. A vertex of cap 1 has no
//                 heap and no lock: its floor is its one held offer, placed
//                 by compare-and-swap (suitor-gpu's offer word)
//   per proposer  a state word held << 2 | exhausted << 1 | owned (held:
//                 how many of its offers are held) and a cursor (its last
//                 proposal: neighbour and weight)
//   place         an offer: compare-and-swap on the floor (cap 1) or, under
//                 the holder's lock, exact re-check, heap, floor; both held
//                 counts
//   claim         ownership of a proposer whose offer was dropped
//   mutual_offers the pairs holding each other's offer, as a BMatching on
//                 the device (count, scan, fill, per-vertex sort), from each
//                 holder's keys, its cursor and the proposer's floor
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
#include "matchers/general/suitor_gpu_search.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu::b_suitor {

using word_t = unsigned long long;

constexpr word_t owned = 1, exhausted = 2, one_held = 4;  // the state word
__device__ inline word_t held_of(word_t state) { return state >> 2; }
constexpr word_t room = 0, closed = ~word_t(0);  // special floor words; never a key

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

// Offer keys. key(holder, u, w): u's offer of weight w to holder (room when
// u is not in holder's row: a graph that is not symmetric); better(a, b):
// offer a beats offer b at the same holder (neighbour_beats); takes(w, u,
// floor): a holder with this floor takes u's offer; proposer and weight of
// a key. Neither room nor closed is ever a key.
struct PackedKeys {  // float weights: suitor-gpu's offer word
  CsrView<float> g;
  __device__ static word_t pack(float w, vertex_t u) { return suitor_gpu_detail::PackedOffers::pack(w, u); }
  __device__ word_t key(vertex_t /*holder*/, vertex_t u, float w) const { return pack(w, u); }
  __device__ bool better(word_t a, word_t b) const { return a > b; }
  __device__ bool takes(float w, vertex_t u, word_t floor) const { return pack(w, u) > floor; }
  __device__ vertex_t proposer(word_t k) const { return static_cast<vertex_t>(~static_cast<unsigned>(k)); }
  __device__ float weight(word_t k) const { return suitor_gpu_detail::PackedOffers::weight(k); }
};

template <class W>
struct PositionKeys {  // any weight type
  CsrView<W> g;
  __device__ word_t key(vertex_t holder, vertex_t u, W /*w*/) const {
    const offset_t at = find_entry(g, holder, u);
    return at < 0 ? room : word_t(at) + 1;
  }
  __device__ bool better(word_t a, word_t b) const {
    return neighbour_beats(g.weights[a - 1], g.cols[a - 1], g.weights[b - 1], g.cols[b - 1]);
  }
  __device__ bool takes(W w, vertex_t u, word_t floor) const {
    return floor == room || (floor != closed && neighbour_beats(w, u, g.weights[floor - 1], g.cols[floor - 1]));
  }
  __device__ vertex_t proposer(word_t k) const { return g.cols[k - 1]; }
  __device__ W weight(word_t k) const { return g.weights[k - 1]; }
};

template <class W>
using KeysFor = std::conditional_t<std::is_same_v<W, float>, PackedKeys, PositionKeys<W>>;

// Everything the kernels share; passed to them by value.
template <class W, int Classes>
struct Offers {
  CsrView<W> g;
  KeysFor<W> keys;
  const int* b;
  const offset_t* start;  // n + 1 entries
  word_t* slots;          // start[n] keys; v's first count[v] are its heap (cap >= 2)
  int* count;
  word_t* floor;
  int* lock;
  word_t* state;
  vertex_t* cursor_v;  // no_vertex before the first proposal
  W* cursor_w;
  vertex_t* next[Classes];  // the next round's lists, one per row class
  int* next_count;
};

// A vertex's heap of offer keys, the worst on top. Under the vertex's lock.
template <class Keys>
struct Heap {
  const Keys& keys;
  word_t* a;
  __device__ bool worse(word_t x, word_t y) const { return keys.better(y, x); }
  __device__ void push(int held, word_t x) {
    int i = held;
    for (; i > 0; i = (i - 1) / 2) {
      const word_t parent = load(a + (i - 1) / 2);
      if (!worse(x, parent)) break;
      store(a + i, parent);
    }
    store(a + i, x);
  }
  __device__ void replace_top(int held, word_t x) {
    int i = 0;
    for (int child = 1; child < held; child = 2 * i + 1) {
      word_t c = load(a + child);
      if (child + 1 < held) {
        const word_t right = load(a + child + 1);
        if (worse(right, c)) c = right, ++child;
      }
      if (!worse(c, x)) break;
      store(a + i, c);
      i = child;
    }
    store(a + i, x);
  }
};

// The offer of u (weight w) to v, by u's owner (one lane). Returns the
// displaced proposer (or no_vertex) and its state word after the drop. A
// graph without u in v's row (not symmetric) refuses.
//   cap(v) = 1  compare-and-swap of v's floor while u's offer beats it; u's
//               held count is raised before (and lowered again if refused),
//               so a displacer, who acts only after seeing u's key (acquire
//               of the release that published it), never lowers it below 0
//   cap(v) > 1  waits for v's lock unless v's floor, re-read, refuses u (then
//               for good); under it, re-checks exactly and places the offer,
//               displacing v's worst when full; both counts under the lock.
struct Placed {
  bool placed = false;
  vertex_t displaced = no_vertex;
  word_t displaced_state = 0;
};

template <class W, int C>
__device__ Placed place_single(const Offers<W, C>& o, vertex_t u, vertex_t v, W w, word_t key) {
  Placed r;
  auto floor = atomic(o.floor + v);
  word_t seen = floor.load(cuda::memory_order_relaxed);
  if (!o.keys.takes(w, u, seen)) return r;
  auto state = atomic(o.state + u);
  state.fetch_add(one_held, cuda::memory_order_relaxed);
  while (!floor.compare_exchange_strong(seen, key, cuda::memory_order_acq_rel, cuda::memory_order_acquire))
    if (!o.keys.takes(w, u, seen)) {
      state.fetch_sub(one_held, cuda::memory_order_relaxed);
      return r;
    }
  r.placed = true;
  if (seen != room) {
    r.displaced = o.keys.proposer(seen);
    r.displaced_state = atomic(o.state + r.displaced).fetch_sub(one_held, cuda::memory_order_acq_rel) - one_held;
  }
  return r;
}

template <class W, int C>
__device__ Placed place(const Offers<W, C>& o, vertex_t u, vertex_t v, W w) {
  Placed r;
  const word_t key = o.keys.key(v, u, w);
  if (key == room) return r;
  const int cap = int(o.start[v + 1] - o.start[v]);
  if (cap == 1) return place_single(o, u, v, w, key);
  auto lock = atomic(o.lock + v);
  for (unsigned pause = 16;; pause = min(2 * pause, 512u)) {
    if (!o.keys.takes(w, u, load(o.floor + v))) return r;
    int free = 0;
    if (lock.load(cuda::memory_order_relaxed) == 0 &&
        lock.compare_exchange_strong(free, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed))
      break;
    __nanosleep(pause);
  }
  Heap<KeysFor<W>> heap{o.keys, o.slots + o.start[v]};
  const int held = load(o.count + v);
  if (held < cap) {
    heap.push(held, key);
    store(o.count + v, held + 1);
    if (held + 1 == cap) store(o.floor + v, load(heap.a));
    r.placed = true;
  } else if (const word_t worst = load(heap.a); o.keys.better(key, worst)) {
    r.displaced = o.keys.proposer(worst);
    heap.replace_top(cap, key);
    store(o.floor + v, load(heap.a));
    r.placed = true;
  }
  if (r.placed) atomic(o.state + u).fetch_add(one_held, cuda::memory_order_relaxed);
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

// The keys v holds once every proposal is done: its floor (cap 1) or its
// heap.
template <class W, int C>
struct HeldKeys {
  const word_t* first;
  int size;
  word_t single;
  __device__ HeldKeys(const Offers<W, C>& o, vertex_t v) {
    const int cap = int(o.start[v + 1] - o.start[v]);
    single = cap == 1 ? o.floor[v] : room;
    first = cap == 1 ? &single : o.slots + o.start[v];
    size = cap == 1 ? int(single != room) : cap == 0 ? 0 : o.count[v];
  }
};

// v holds the offer with this key; does its proposer u hold v's offer? v
// proposed to u iff u ranks at or above v's cursor (v's last proposal: v
// proposes down its row, and an entry passed over refused v for good); u
// kept it iff u has room or v's offer is at or above u's floor (floors only
// rise: a refused or dropped offer stays below it). Two reads: v's cursor
// (cv, cw, given) and u's floor.
template <class W, int C>
__device__ vertex_t mutual_partner(const Offers<W, C>& o, vertex_t v, word_t key, vertex_t cv, W cw) {
  const vertex_t u = o.keys.proposer(key);
  const W w = o.keys.weight(key);
  if (cv == no_vertex || (u != cv && !neighbour_beats(w, u, cw, cv))) return no_vertex;
  const word_t fu = o.floor[u];
  if (fu == room) return u;
  const word_t back = o.keys.key(u, v, w);
  return fu != closed && back != room && (back == fu || o.keys.better(back, fu)) ? u : no_vertex;
}

template <class W, int C>
__global__ void count_mutual(Offers<W, C> o, offset_t* kept) {
  for (long long i = grid_thread(); i <= o.g.n_rows; i += grid_threads()) {
    const vertex_t v = vertex_t(i);
    offset_t k = 0;
    if (v < o.g.n_rows) {
      const HeldKeys<W, C> held(o, v);
      const vertex_t cv = o.cursor_v[v];
      const W cw = cv == no_vertex ? W(0) : o.cursor_w[v];
      for (int j = 0; j < held.size; ++j) k += mutual_partner(o, v, held.first[j], cv, cw) != no_vertex;
    }
    kept[v] = k;
  }
}

// Each vertex's partners at offsets[v], ascending: an insertion sort of up
// to sort_in_thread, else `unsorted` is raised for a segmented sort.
constexpr int sort_in_thread = 64;

template <class W, int C>
__global__ void fill_mutual(Offers<W, C> o, const offset_t* offsets, vertex_t* partners, int* unsorted) {
  for (long long i = grid_thread(); i < o.g.n_rows; i += grid_threads()) {
    const vertex_t v = vertex_t(i);
    const HeldKeys<W, C> held(o, v);
    const vertex_t cv = o.cursor_v[v];
    const W cw = cv == no_vertex ? W(0) : o.cursor_w[v];
    vertex_t* out = partners + offsets[v];
    const int k = int(offsets[v + 1] - offsets[v]);
    int filled = 0;
    for (int j = 0; j < held.size; ++j) {
      const vertex_t u = mutual_partner(o, v, held.first[j], cv, cw);
      if (u == no_vertex) continue;
      int at = filled++;
      if (k <= sort_in_thread)
        for (; at > 0 && out[at - 1] > u; --at) out[at] = out[at - 1];
      out[at] = u;
    }
    if (k > sort_in_thread) atomicOr(unsorted, 1);
  }
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

// Sorts each vertex's partners in place (a segmented sort of m's n lists,
// total entries in all): for lists too long for a thread's insertion sort.
// Synchronous on s.
inline void sort_partner_lists(DeviceBMatching& m, vertex_t n, offset_t total, cudaStream_t s) {
  if (total == 0) return;
  DeviceBuffer<vertex_t> copy(std::size_t(total), s);
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(copy.data(), m.partners.data(), copy.size() * sizeof(vertex_t),
                                     cudaMemcpyDeviceToDevice, s));
  with_temp(s, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortKeys(temp, bytes, copy.data(), m.partners.data(), total, n,
                                              m.offsets.data(), m.offsets.data() + 1, s);
  });
}

// cap(v) = min(b(v), deg v), and caps[n] = 0 for the exclusive scan.
template <class W>
__global__ void slot_caps(CsrView<W> g, const int* b, int* caps) {
  for (long long v = grid_thread(); v <= g.n_rows; v += grid_threads())
    caps[v] = v == g.n_rows ? 0 : int(min(offset_t(b[v]), degree(g, vertex_t(v))));
}

// Each vertex's slot range [start[v], start[v + 1]) of cap(v) slots
// (start: n + 1 entries); returns the number of slots. Synchronous on s.
template <class W>
offset_t slot_starts(const CsrView<W>& g, const int* b, DeviceBuffer<offset_t>& start, unsigned grid,
                     cudaStream_t s) {
  DeviceBuffer<int> caps(std::size_t(g.n_rows) + 1, s);
  slot_caps<<<grid, 256, 0, s>>>(g, b, caps.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  with_temp(s, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, caps.data(), start.data(), cuda::std::plus<offset_t>{},
                                          offset_t{0}, g.n_rows + 1LL, s);
  });
  offset_t n_slots = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&n_slots, start.data() + g.n_rows, sizeof n_slots, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return n_slots;
}

// A BMatching on the device from n per-vertex lists: count(kept) writes
// each vertex's partner count to kept[0..n); fill(offsets, partners,
// unsorted) writes vertex v's partners from offsets[v], ascending when it
// sorts them in its thread (up to sort_in_thread), else raising *unsorted,
// and the lists are then sorted here. Neither is called when n is 0.
// Synchronous on s.
template <class Count, class Fill>
DeviceBMatching partner_lists(vertex_t n, cudaStream_t s, Count count, Fill fill) {
  DeviceBMatching m{DeviceBuffer<offset_t>(std::size_t(n) + 1), DeviceBuffer<vertex_t>()};
  DeviceBuffer<offset_t> kept(std::size_t(n) + 1, s);
  DeviceBuffer<int> unsorted(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(unsorted.data(), 0, sizeof(int), s));
  if (n > 0) count(kept.data());
  with_temp(s, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, kept.data(), m.offsets.data(), cuda::std::plus<offset_t>{},
                                          offset_t{0}, n + 1LL, s);
  });
  offset_t total = 0;
  int needs_sort = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&total, m.offsets.data() + n, sizeof total, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  m.partners = DeviceBuffer<vertex_t>(std::size_t(total));
  if (n > 0) fill(m.offsets.data(), m.partners.data(), unsorted.data());
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&needs_sort, unsorted.data(), sizeof needs_sort, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  if (needs_sort) sort_partner_lists(m, n, total, s);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));  // before the temporaries are freed
  return m;
}

// The pairs holding each other's offer once every proposal is done, in
// STYLE 6's phases: count each vertex's held offers whose proposer holds
// its offer back (mutual_partner), exclusive scan, fill (sorted in the
// thread; a segmented sort only if some vertex has more than
// sort_in_thread partners). Cost O(slots) reads, two per held offer (its
// holder's cursor, its proposer's floor; plus a row search for non-float
// weights), twice. Synchronous on s.
template <class W, int C>
DeviceBMatching mutual_offers(const Offers<W, C>& o, unsigned grid, cudaStream_t s) {
  return partner_lists(
      o.g.n_rows, s,
      [&](offset_t* kept) {
        count_mutual<<<grid, 256, 0, s>>>(o, kept);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      },
      [&](const offset_t* offsets, vertex_t* partners, int* unsorted) {
        fill_mutual<<<grid, 256, 0, s>>>(o, offsets, partners, unsorted);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      });
}

}  // namespace matchblas::gpu::b_suitor
