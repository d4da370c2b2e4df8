// The offers of b-Suitor on the GPU (matchers/b_matching/b_suitor_gpu.cu states the
// algorithm and why it equals b_greedy): what OfferHeaps are in
// matchers/b_matching/b_suitor.cpp, as sorted words kept without a lock.
//   offer key     a held offer as one word, so that a holder compares and
//                 stores offers without reading the graph: float weights
//                 use suitor-gpu's packed (weight, ~proposer) word
//                 (ops/gpu/offer_word.cuh; a larger key a better offer); other weights 1 + the
//                 proposer's position in the holder's row
//   per vertex v  the keys of the cap(v) = min(b(v), deg v) best offers
//                 made to it, sorted best first in cap(v) words: its slots
//                 [start[v], start[v + 1]) and, last, its floor word (its
//                 worst held offer's key; room while v has room, closed
//                 when cap(v) = 0), read without a lock; words only rise
//   per proposer  a state word held << 2 | exhausted << 1 | owned (held:
//                 how many of its offers are held) and a cursor (its last
//                 proposal: neighbour and weight)
//   place         an offer: insert_sorted down v's words by atomic maxima
//                 (no lock); the held counts of u and of whoever v drops
//   claim         ownership of a proposer whose offer was dropped
//   pairs         the first round's proposals, written for the sorted
//                 placement (b_suitor_gpu_sorted.cuh) instead of placed
//   mutual_offers the pairs holding each other's offer, as a BMatching on
//                 the device (found once per vertex into scratch, scan,
//                 gather, per-vertex sort), from each holder's keys, its
//                 cursor and the proposer's floor
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
#include "matchers/b_matching/b_matching.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/offer_word.cuh"

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
  __device__ static word_t pack(float w, vertex_t u) { return pack_offer(w, u); }
  __device__ word_t key(vertex_t /*holder*/, vertex_t u, float w) const { return pack(w, u); }
  __device__ bool better(word_t a, word_t b) const { return a > b; }
  __device__ bool takes(float w, vertex_t u, word_t floor) const { return pack(w, u) > floor; }
  __device__ vertex_t proposer(word_t k) const { return offer_proposer(k); }
  __device__ float weight(word_t k) const { return offer_weight(k); }
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

// Over several ranks (b_suitor_gpu_ranks): this rank owns the vertices
// [lo, hi); an offer to another rank's vertex, and the drop of another
// rank's proposer, are appended to a box (16-byte messages) for the round's
// exchange instead of being placed or claimed here. Inactive (boxes null)
// on one GPU.
struct RemoteBoxes {
  vertex_t lo = 0, hi = 0;
  BSuitorMessage* proposals = nullptr;
  unsigned long long* proposals_n = nullptr;
  BSuitorMessage* drops = nullptr;
  unsigned long long* drops_n = nullptr;
  unsigned long long proposals_capacity = 0, drops_capacity = 0;  // a box's overflow is counted, not written
  __device__ bool active() const { return proposals != nullptr; }
  __device__ bool owns(vertex_t v) const { return v >= lo && v < hi; }
  __device__ void propose(vertex_t u, vertex_t v, word_t key) const {
    const unsigned long long i = atomicAdd(proposals_n, 1ULL);
    if (i < proposals_capacity) proposals[i] = BSuitorMessage{u, v, key};
  }
  __device__ void drop(vertex_t u, vertex_t v, word_t floor) const {
    const unsigned long long i = atomicAdd(drops_n, 1ULL);
    if (i < drops_capacity) drops[i] = BSuitorMessage{u, v, floor};
  }
};

// The first round's proposals written as pairs instead of placed (the
// sorted placement, b_suitor_gpu_sorted.cuh): u's go to [at[u], at[u + 1]),
// each its target, its key, and its rank among the proposals to that target
// (count[target] raised by one atomic). Inactive (at null) otherwise.
struct FirstRoundPairs {
  const offset_t* at = nullptr;
  vertex_t* target = nullptr;  // no_vertex: a place u did not use
  unsigned* rank = nullptr;
  word_t* key = nullptr;
  unsigned* count = nullptr;  // per target
  __device__ bool active() const { return at != nullptr; }
  __device__ void write(offset_t i, vertex_t v, word_t k) const {
    target[i] = v;
    key[i] = k;
    rank[i] = atomicAdd(count + v, 1u);
  }
};

// Everything the kernels share; passed to them by value.
template <class W>
struct Offers {
  CsrView<W> g;
  KeysFor<W> keys;
  const int* b;
  const offset_t* start;  // n + 1 entries: v's first cap(v) - 1 held keys are slots[start[v], start[v + 1])
  word_t* slots;
  word_t* floor;          // v's last held key (closed when cap(v) = 0)
  word_t* state;
  vertex_t* cursor_v;  // no_vertex before the first proposal
  W* cursor_w;
  RemoteBoxes remote{};  // over ranks: the other ranks' vertices (float keys only)
  FirstRoundPairs pairs{};  // the sorted first round (float keys only)
};

// Whether key x beats the slot value `held` (room: an empty slot).
template <class Keys>
__device__ bool beats(const Keys& keys, word_t x, word_t held) {
  return held == room || keys.better(x, held);
}

// Atomically the better of *slot and x into *slot; returns the old value.
// Keys ordered as words (float) by one fetch_max; the others by a
// compare-and-swap loop with the keys' order.
__device__ inline word_t max_into(const PackedKeys&, word_t* slot, word_t x) {
  return atomic(slot).fetch_max(x, cuda::memory_order_acq_rel);
}
template <class W>
__device__ word_t max_into(const PositionKeys<W>& keys, word_t* slot, word_t x) {
  auto a = atomic(slot);
  word_t old = a.load(cuda::memory_order_acquire);
  while (beats(keys, x, old) &&
         !a.compare_exchange_weak(old, x, cuda::memory_order_acq_rel, cuda::memory_order_acquire)) {
  }
  return old;
}

// Inserts key x into a vertex v's held keys, kept sorted best first in
// cap(v) = k + 1 words (its k slots from `first`, then its floor word; room
// for an empty one) without a lock:
// x goes down the words, each one max_into keeping the better key and
// passing the other on, until an empty word takes what is carried or the
// floor word passes a key out. Returns that key (x itself when v refuses
// it), or room. Why this keeps v's cap(v) best offers under any
// interleaving: a word only rises, and whatever passes from word i to word
// i + 1 is at most word i's value, so the words stay sorted at every
// instant; the keys held or carried are the keys inserted less those passed
// out, each at most the floor word at that time. So v keeps its best cap(v)
// keys, the floor word is its worst held key (room while v has room), and
// a key passed out is refused by v for good. The words that x does not
// beat when first read are skipped (they only rise; up to read_at_once
// words are read together). Cap >= 1.
constexpr int read_at_once = 8;

template <class Keys>
__device__ word_t insert_sorted(const Keys& keys, word_t* first, int k, word_t* floor, word_t x) {
  int i = 0;
  if (k <= read_at_once) {  // the words read together, then the first that x beats
    word_t held[read_at_once];
#pragma unroll
    for (int j = 0; j < read_at_once; ++j) held[j] = j < k ? load(first + j) : room;
    i = k;
#pragma unroll
    for (int j = read_at_once - 1; j >= 0; --j)
      if (j < k && beats(keys, x, held[j])) i = j;
  } else {
    while (i < k && !beats(keys, x, load(first + i))) ++i;
  }
  for (; i < k && x != room; ++i) {
    const word_t old = max_into(keys, first + i, x);
    if (beats(keys, x, old)) x = old;
  }
  if (x == room) return room;
  const word_t old = max_into(keys, floor, x);
  return beats(keys, x, old) ? old : x;
}

// The offer of u (weight w) to v, by u's owner (one lane): insert_sorted
// unless v's floor refuses it. Returns the displaced proposer (or
// no_vertex) and its state word after the drop. u's held count is raised
// before the insertion and lowered again if v passes u's own key out, so a
// displacer, who acts only after receiving u's key through a chain of
// acquire-release updates of v's words, never lowers it below 0. A graph
// without u in v's row (not symmetric) refuses.
struct Placed {
  vertex_t displaced = no_vertex;
  word_t displaced_state = 0;
};

template <class W>
__device__ Placed place(const Offers<W>& o, vertex_t u, vertex_t v, W w) {
  Placed r;
  const word_t floor = load(o.floor + v);
  const offset_t first = o.start[v], end = o.start[v + 1];  // read with the floor, not after it
  if (!o.keys.takes(w, u, floor)) return r;
  const word_t key = o.keys.key(v, u, w);
  if (key == room) return r;
  auto state = atomic(o.state + u);
  state.fetch_add(one_held, cuda::memory_order_relaxed);
  if (o.remote.active() && !o.remote.owns(v)) {  // v's rank takes it after the round; held until dropped
    o.remote.propose(u, v, key);
    return r;
  }
  const word_t out = insert_sorted(o.keys, o.slots + first, int(end - first), o.floor + v, key);
  if (out == key) {
    state.fetch_sub(one_held, cuda::memory_order_relaxed);
  } else if (out != room) {
    const vertex_t x = o.keys.proposer(out);
    if (o.remote.active() && !o.remote.owns(x)) {
      o.remote.drop(x, v, load(o.floor + v));  // x's rank lowers its count
    } else {
      r.displaced = x;
      r.displaced_state = atomic(o.state + x).fetch_sub(one_held, cuda::memory_order_acq_rel) - one_held;
    }
  }
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

// The keys v holds once every proposal is done: its slots and its floor
// word, less the empty ones (room sorts last, so they end the list).
template <class W>
struct HeldKeys {
  const Offers<W>& o;
  vertex_t v;
  int slots;
  __device__ HeldKeys(const Offers<W>& o, vertex_t v) : o(o), v(v), slots(int(o.start[v + 1] - o.start[v])) {}
  // The j-th best held key (j <= slots), or room past the last.
  __device__ word_t operator[](int j) const {
    const word_t k = j < slots ? o.slots[o.start[v] + j] : o.floor[v];
    return k == closed ? room : k;
  }
  __device__ int words() const { return slots + 1; }
};

// v holds the offer with this key; does its proposer u hold v's offer? v
// proposed to u iff u ranks at or above v's cursor (v's last proposal: v
// proposes down its row, and an entry passed over refused v for good); u
// kept it iff u has room or v's offer is at or above u's floor (floors only
// rise: a refused or dropped offer stays below it). Two reads: v's cursor
// (cv, cw, given) and u's floor.
template <class W>
__device__ vertex_t mutual_partner(const Offers<W>& o, vertex_t v, word_t key, vertex_t cv, W cw) {
  const vertex_t u = o.keys.proposer(key);
  const W w = o.keys.weight(key);
  if (cv == no_vertex || (u != cv && !neighbour_beats(w, u, cw, cv))) return no_vertex;
  const word_t fu = o.floor[u];
  if (fu == room) return u;
  const word_t back = o.keys.key(u, v, w);
  return fu != closed && back != room && (back == fu || o.keys.better(back, fu)) ? u : no_vertex;
}

// A vertex's partners a[0..k) sorted ascending in its thread when there
// are at most sort_in_thread of them (an insertion sort); longer lists are
// left to partner_lists' segmented sort.
constexpr int sort_in_thread = 64;

__device__ inline void sort_if_short(vertex_t* a, offset_t k) {
  if (k > sort_in_thread) return;
  for (offset_t j = 1; j < k; ++j) {
    const vertex_t x = a[j];
    offset_t at = j;
    for (; at > 0 && a[at - 1] > x; --at) a[at] = a[at - 1];
    a[at] = x;
  }
}

// Each vertex's partners, found once: v's mutual offers into its own
// range of `found` (from start[v] + v: its slots and its floor word bound
// them), sorted there (sort_if_short); their number into kept[v] (and
// kept[n] = 0).
template <class W>
__global__ void find_mutual(Offers<W> o, vertex_t* found, offset_t* kept) {
  for (long long i = grid_thread(); i <= o.g.n_rows; i += grid_threads()) {
    const vertex_t v = vertex_t(i);
    offset_t k = 0;
    if (v < o.g.n_rows) {
      const HeldKeys<W> held(o, v);
      const vertex_t cv = o.cursor_v[v];
      const W cw = cv == no_vertex ? W(0) : o.cursor_w[v];
      vertex_t* out = found + o.start[v] + v;
      for (int j = 0; j < held.words() && held[j] != room; ++j)
        if (const vertex_t u = mutual_partner(o, v, held[j], cv, cw); u != no_vertex) out[k++] = u;
      sort_if_short(out, k);
    }
    kept[v] = k;
  }
}

// The found partners at offsets[v] (sorted unless a vertex has more than
// sort_in_thread: then `unsorted` is raised for a segmented sort).
template <class W>
__global__ void gather_mutual(Offers<W> o, const vertex_t* found, const offset_t* offsets, vertex_t* partners,
                              int* unsorted) {
  for (long long i = grid_thread(); i < o.g.n_rows; i += grid_threads()) {
    const vertex_t v = vertex_t(i);
    const vertex_t* from = found + o.start[v] + v;
    const offset_t k = offsets[v + 1] - offsets[v];
    for (offset_t j = 0; j < k; ++j) partners[offsets[v] + j] = from[j];
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

// cap(v) = min(b(v), deg v) less `elsewhere` (at least 0) slots per
// vertex, and caps[n] = 0 for the exclusive scan.
template <class W>
__global__ void slot_caps(CsrView<W> g, const int* b, int elsewhere, int* caps) {
  for (long long v = grid_thread(); v <= g.n_rows; v += grid_threads())
    caps[v] = v == g.n_rows ? 0 : int(max(min(offset_t(b[v]), degree(g, vertex_t(v))) - elsewhere, offset_t(0)));
}

// Each vertex's slot range [start[v], start[v + 1]) of cap(v) - elsewhere
// slots (at least 0; b-Suitor keeps one offer in the floor word); start:
// n + 1 entries. Returns the number of slots. Synchronous on s.
template <class W>
offset_t slot_starts(const CsrView<W>& g, const int* b, int elsewhere, DeviceBuffer<offset_t>& start, unsigned grid,
                     cudaStream_t s) {
  DeviceBuffer<int> caps(std::size_t(g.n_rows) + 1, s);
  slot_caps<<<grid, 256, 0, s>>>(g, b, elsewhere, caps.data());
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
// each vertex's partner count to kept[0..n) (kept[n] may be anything);
// fill(offsets, partners, unsorted) writes vertex v's partners from
// offsets[v], ascending when they were sorted in a thread (up to
// sort_in_thread), else raising *unsorted, and the lists are then sorted
// here. Neither is called when n is 0.
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
// STYLE 6's phases: each vertex's held offers whose proposer holds its
// offer back (mutual_partner) found once into a scratch range per vertex
// (found: n_slots + n entries; sorted there in the thread), exclusive scan
// of their numbers, gather (a segmented sort only if some vertex has more
// than sort_in_thread partners). Cost O(slots) reads, two per held
// offer (its holder's cursor, its proposer's floor; plus a row search for
// non-float weights), and the found partners copied once. Synchronous on s.
template <class W>
DeviceBMatching mutual_offers(const Offers<W>& o, offset_t n_slots, unsigned grid, cudaStream_t s) {
  DeviceBuffer<vertex_t> found(std::size_t(n_slots) + std::size_t(o.g.n_rows), s);
  return partner_lists(
      o.g.n_rows, s,
      [&](offset_t* kept) {
        find_mutual<<<grid, 256, 0, s>>>(o, found.data(), kept);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      },
      [&](const offset_t* offsets, vertex_t* partners, int* unsorted) {
        gather_mutual<<<grid, 256, 0, s>>>(o, found.data(), offsets, partners, unsorted);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      });
}

}  // namespace matchblas::gpu::b_suitor
