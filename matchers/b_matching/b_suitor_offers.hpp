// Private to b_suitor*.cpp: the offers every vertex holds in b-Suitor
// (Naim and Manne 2017; Khan et al. 2016), shared by the general path
// (b_suitor.cpp) and the b = 1 path (b_suitor_single.cpp).
//
// The offers v holds: a min-heap of cap(v) = min(b(v), degree(v)) slots,
// worst at the root, that starts full of empty offers (-inf, INT_MAX),
// which every offer beats: the root is v's floor at all times, and taking
// an offer is always "replace the root, sift down"; the root it replaces
// is the dropped offer (an empty one displaces nobody). A vertex with
// cap(v) = 0 has one closed slot (+inf, INT_MIN) that refuses every offer;
// slots past cap(v), when the heaps share one width, are closed too (never
// the worse child, so a sift never enters them). No count, no floor copy:
// a proposal's look-up and its insert read the same lines.
//
// Which offers are mutual: at the end, {u, v} where u is in v's heap and v
// in u's; each heap is searched from its smaller end's side (independent
// random reads, prefetched a few vertices ahead), both slots marked (~u),
// then each vertex's marked slots are its partners, sorted.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "lib/prefetch.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas::b_suitor_detail {

inline constexpr vertex_t empty_slot = INT_MAX;   // an offer every offer beats
inline constexpr vertex_t closed_slot = INT_MIN;  // an offer no offer beats
inline constexpr vertex_t locked = INT_MIN + 1;   // OpenMP: a root's proposer while its heap is locked

// v holds u's offer of weight w (u = empty_slot or closed_slot: none).
template <class W>
struct Offer {
  W w;
  vertex_t u;
};

template <class W>
bool better(const Offer<W>& a, const Offer<W>& b) {
  return neighbour_beats(a.w, a.u, b.w, b.u);
}

inline bool is_vertex(vertex_t u, vertex_t n) { return u >= 0 && u < n; }

// The heaps of every vertex, side by side: slots [at(v), at(v) + width(v)).
// One width for all (the largest cap, at least 1) when that costs at most
// 4 times the slots of a width per vertex; else a start per vertex, whose
// read is one more dependent miss per look-up (R-MAT 2^20, b = 5: 2.3
// times the slots, 10% faster with one width).
// Concurrent use (b_suitor_omp): the root's u is also v's lock (`locked`
// while held); the root's weight is written under it and read without it
// (an atomic word: a value it once had, so an offer below it is refused for
// good); every other slot only under the lock, or after the proposals.
template <class W>
class Holders {
 public:
  // Every thread of the caller's region calls init (parallel) after the
  // constructor, or one thread outside a region.
  Holders(const Csr<W>& g, const std::vector<int>& b) : n_(g.n_rows) {
    offset_t total = 0, widest = 1;
    for (vertex_t v = 0; v < n_; ++v) {
      const offset_t c = std::max<offset_t>(1, cap(g, b, v));
      total += c;
      widest = std::max(widest, c);
    }
    if (widest * offset_t(n_) <= 4 * total) {
      width_ = widest;
      total = widest * offset_t(n_);
    } else {
      start_.resize(std::size_t(n_) + 1);
      start_[0] = 0;
      for (vertex_t v = 0; v < n_; ++v) start_[v + 1] = start_[v] + std::max<offset_t>(1, cap(g, b, v));
    }
    slots_.reset(new Offer<W>[std::size_t(total)]);  // written by init
  }

  void init(const Csr<W>& g, const std::vector<int>& b, bool parallel) {
    constexpr W inf = std::numeric_limits<W>::infinity();
    const auto fill = [&](vertex_t v) {
      Offer<W>* h = heap(v);
      const offset_t c = cap(g, b, v), w = width(v);
      for (offset_t i = 0; i < w; ++i) h[i] = i < c ? Offer<W>{-inf, empty_slot} : Offer<W>{inf, closed_slot};
    };
    if (parallel) {
#pragma omp for schedule(static)
      for (vertex_t v = 0; v < n_; ++v) fill(v);
    } else {
      for (vertex_t v = 0; v < n_; ++v) fill(v);
    }
  }

  Offer<W>* heap(vertex_t v) const { return slots_.get() + (width_ ? offset_t(v) * width_ : start_[v]); }
  offset_t width(vertex_t v) const { return width_ ? width_ : start_[v + 1] - start_[v]; }

  void prefetch(vertex_t v) const { matchblas::prefetch(heap(v)); }
  const Offer<W>& floor(vertex_t v) const { return heap(v)[0]; }
  W floor_weight_atomic(vertex_t v) const {
    return std::atomic_ref<const W>(heap(v)[0].w).load(std::memory_order_relaxed);
  }

  // v takes o (o beats v's floor): o replaces the root and sifts down;
  // returns the root it replaced (the dropped offer; empty_slot: none).
  Offer<W> insert(vertex_t v, const Offer<W>& o) {
    Offer<W>* h = heap(v);
    const Offer<W> dropped = h[0];
    sift(h, width(v), o);
    return dropped;
  }

  // Concurrent: locks v, returns its root's proposer; unlock_insert puts o
  // in (it beats the root: root_u is the dropped offer's proposer) and
  // unlocks, unlock leaves the heap as it was. Spins, yielding now and
  // then: with more threads than cores the holder may be off its core.
  vertex_t lock(vertex_t v) {
    std::atomic_ref<vertex_t> word(heap(v)[0].u);
    for (int spins = 1;; ++spins) {
      vertex_t s = word.load(std::memory_order_relaxed);
      if (s != locked && word.compare_exchange_weak(s, locked, std::memory_order_acquire)) return s;
      if (spins % 64 == 0) std::this_thread::yield();
    }
  }
  void unlock(vertex_t v, vertex_t root_u) {
    std::atomic_ref<vertex_t>(heap(v)[0].u).store(root_u, std::memory_order_release);
  }
  Offer<W> unlock_insert(vertex_t v, vertex_t root_u, const Offer<W>& o) {
    Offer<W>* h = heap(v);
    const Offer<W> dropped{h[0].w, root_u};
    const offset_t w = width(v);
    // The new root: o, or the worse child when o beats it (o sifts down
    // from there); the root's words are written last, the lock word last of all.
    Offer<W> root = o;
    offset_t c = 1;
    if (c < w) {
      if (c + 1 < w && better(h[1], h[2])) c = 2;
      if (better(o, h[c])) {
        root = h[c];
        sift_from(h, w, c, o);
      }
    }
    std::atomic_ref<W>(h[0].w).store(root.w, std::memory_order_relaxed);
    unlock(v, root.u);
    return dropped;
  }

  // v holds u's offer (u's slot, marked or not).
  bool holds(vertex_t v, vertex_t u) const {
    const Offer<W>* h = heap(v);
    const offset_t w = width(v);
    for (offset_t i = 0; i < w; ++i) {
      const vertex_t x = std::atomic_ref<const vertex_t>(h[i].u).load(std::memory_order_relaxed);
      if (x == u || x == ~u) return true;
    }
    return false;
  }
  // Marks v's slot of u's offer (a partner).
  void mark(vertex_t v, vertex_t u) {
    Offer<W>* h = heap(v);
    const offset_t w = width(v);
    for (offset_t i = 0; i < w; ++i)
      if (std::atomic_ref<vertex_t>(h[i].u).load(std::memory_order_relaxed) == u) {
        std::atomic_ref<vertex_t>(h[i].u).store(~u, std::memory_order_relaxed);
        return;
      }
  }

  // The heaps mark_mutual(v) will search.
  void prefetch_partners(vertex_t v) const {
    const Offer<W>* h = heap(v);
    const offset_t w = width(v);
    for (offset_t i = 0; i < w; ++i) {
      const vertex_t u = std::atomic_ref<const vertex_t>(h[i].u).load(std::memory_order_relaxed);
      if (is_vertex(u, n_) && u > v) prefetch(u);
    }
  }
  // After every proposal: marks v's mutual offers with a larger partner at
  // both ends (every thread may mark at once; a slot's word is read and
  // written atomically).
  void mark_mutual(vertex_t v) {
    const Offer<W>* h = heap(v);
    const offset_t w = width(v);
    for (offset_t i = 0; i < w; ++i) {
      const vertex_t u = std::atomic_ref<const vertex_t>(h[i].u).load(std::memory_order_relaxed);
      if (is_vertex(u, n_) && u > v && holds(u, v)) {
        std::atomic_ref<vertex_t>(heap(v)[i].u).store(~u, std::memory_order_relaxed);
        mark(u, v);
      }
    }
  }
  // After every mark: v's partners (count; written to out ascending unless null).
  offset_t partners(vertex_t v, vertex_t* out) const {
    const Offer<W>* h = heap(v);
    const offset_t w = width(v);
    offset_t c = 0;
    for (offset_t i = 0; i < w; ++i) {
      const vertex_t x = h[i].u;
      if (x < 0 && x >= -n_) {
        if (out) {
          offset_t j = c;  // insertion: ascending
          for (; j > 0 && out[j - 1] > ~x; --j) out[j] = out[j - 1];
          out[j] = ~x;
        }
        ++c;
      }
    }
    return c;
  }

 private:
  static offset_t cap(const Csr<W>& g, const std::vector<int>& b, vertex_t v) {
    return std::min<offset_t>(b[v], g.offsets[v + 1] - g.offsets[v]);
  }
  // o into the heap h (width w) whose root it replaces.
  static void sift(Offer<W>* h, offset_t w, const Offer<W>& o) { sift_from(h, w, 0, o); }
  static void sift_from(Offer<W>* h, offset_t w, offset_t i, const Offer<W>& o) {
    for (;;) {
      offset_t child = 2 * i + 1;
      if (child >= w) break;
      if (child + 1 < w && better(h[child], h[child + 1])) ++child;  // the worse child
      if (!better(o, h[child])) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = o;
  }

  vertex_t n_;
  offset_t width_ = 0;
  std::vector<offset_t> start_;
  std::unique_ptr<Offer<W>[]> slots_;
};

// m = the mutual offers of holders. Sequential: one thread; else every
// thread of the caller's region calls it (a barrier after each step).
template <class W>
void mutual_offers(Holders<W>& holders, vertex_t n, BMatching& m, AllocationGuard* parallel) {
  constexpr vertex_t ahead = 4;
  if (!parallel) {
    for (vertex_t v = 0; v < n; ++v) {
      if (v + ahead < n) holders.prefetch_partners(v + ahead);
      holders.mark_mutual(v);
    }
    for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = m.offsets[v] + holders.partners(v, nullptr);
    m.partners.resize(std::size_t(m.offsets[n]));
    for (vertex_t v = 0; v < n; ++v) holders.partners(v, m.partners.data() + m.offsets[v]);
    return;
  }
#pragma omp for schedule(dynamic, 4096)
  for (vertex_t v = 0; v < n; ++v) {
    if (v + ahead < n) holders.prefetch_partners(v + ahead);
    holders.mark_mutual(v);
  }
#pragma omp for schedule(static)
  for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = holders.partners(v, nullptr);
#pragma omp single
  parallel->run([&] {
    for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] += m.offsets[v];
    m.partners.resize(std::size_t(m.offsets[n]));
  });
  if (m.partners.size() != std::size_t(m.offsets[n])) return;  // the resize failed: rethrown after the region
#pragma omp for schedule(static)
  for (vertex_t v = 0; v < n; ++v) holders.partners(v, m.partners.data() + m.offsets[v]);
}

// Small graphs: the result in one thread after the region (its barriers
// cost more than the work).
inline constexpr vertex_t parallel_result = 1 << 16;  // vertices

// Entry `last` of u's row as a bound: (w, neighbour), (+inf, -1) before every entry.
template <class W>
Offer<W> entry(const Csr<W>& g, vertex_t u, std::int32_t last) {
  if (last < 0) return {std::numeric_limits<W>::infinity(), -1};
  const offset_t at = g.offsets[u] + last;
  return {g.weights[at], g.cols[at]};
}

// b(v) <= 1 for every v (b_suitor_single.cpp): a heap of one slot, a chain
// of displaced proposers; W = float or double.
template <class W>
BMatching b_suitor_single_seq(const Csr<W>& g, const std::vector<int>& b);
template <class W>
BMatching b_suitor_single_omp(const Csr<W>& g, const std::vector<int>& b, int threads);

}  // namespace matchblas::b_suitor_detail
