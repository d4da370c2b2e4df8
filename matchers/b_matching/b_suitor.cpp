// b-Suitor, sequential and OpenMP; see b_matching.hpp.
// Source: Naim and Manne 2017 sec. 2-3 (b-Suitor: a vertex keeps its b(v) best
// offers; a displaced suitor proposes again); Khan, Pothen, Patwary, Satish,
// Sundaram, Manne, Halappanavar, Dubey, "Efficient approximation algorithms
// for weighted b-matching", SIAM J. Sci. Comput. 38(5), 2016 (a proposer
// never looks back at a neighbour it has passed, rows partially sorted: here
// the heaviest candidates of a row picked a few at a time instead of a
// rescan per proposal; the offers a vertex holds in a min-heap whose root is
// its floor).
//
// Why a proposer never looks back: a vertex's floor (the worst offer it
// holds once it holds b(v)) only rises, so a neighbour that refused u, or
// dropped u's offer for a better one, refuses u for good; and u proposes in
// its order of preference. So u keeps `last`, the entry of its row it last
// looked at, and a proposal goes to the best neighbour after `last` whose
// floor u beats. One pass over u's row comparing weights only picks the
// next few neighbours after `last` in u's order (a sorted buffer of k
// entries, 2 need + 2 to start with), and only those are looked up (a
// random read of one floor each, prefetched together), best first, until u
// has its b(u) offers out; a buffer used up before that makes another pass
// with twice the k. A pass that reaches the end of the row leaves u spent:
// it never proposes again.
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
//
// b(v) <= 1 for every v (b_suitor_single_*): a heap of one slot; a proposer
// has one offer out at most, so a displaced one proposes at once (a chain,
// as in the plain Suitor): no queue, no counts, no spent flags (a vertex
// that finds nobody holds no offer, so it is never displaced again), and
// the scan reads floors as it goes (a floor only for an entry that beats
// the best so far), one pass per proposal.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

namespace {

constexpr vertex_t empty_slot = INT_MAX;   // an offer every offer beats
constexpr vertex_t closed_slot = INT_MIN;  // an offer no offer beats
constexpr vertex_t locked = INT_MIN + 1;   // OpenMP: a root's proposer while its heap is locked

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

bool is_vertex(vertex_t u, vertex_t n) { return u >= 0 && u < n; }

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

  void prefetch(vertex_t v) const { __builtin_prefetch(heap(v)); }
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
constexpr vertex_t parallel_result = 1 << 16;  // vertices

// A proposer's state: the entry of its row it looked at last (-1: none; it
// looks at the entries after it in its order only), its offers held
// somewhere, whether it is spent, whether it is queued.
// Concurrent: `held` is changed by whoever displaces u (atomically) and
// `spent` read by them; `last` only by u's owner.
struct Proposer {
  std::int32_t last;
  std::int32_t held;
  std::uint8_t spent;
  std::uint8_t queued;  // b_suitor_seq: on the stack
};
constexpr Proposer fresh_proposer{-1, 0, 0, 0};

// A candidate: neighbour u of weight w at entry k of the proposer's row
// (relative to the row's start).
template <class W>
struct Candidate {
  W w;
  vertex_t u;
  std::int32_t k;
};

// Entry `last` of u's row as a bound: (w, neighbour), (+inf, -1) before every entry.
template <class W>
Offer<W> entry(const Csr<W>& g, vertex_t u, std::int32_t last) {
  if (last < 0) return {std::numeric_limits<W>::infinity(), -1};
  const offset_t at = g.offsets[u] + last;
  return {g.weights[at], g.cols[at]};
}

// The next neighbours of u after `last` in u's order of preference, at most
// k, best first: one pass over u's row comparing weights only. Returns true
// when the buffer holds every neighbour left (fewer than k).
template <class W>
bool next_neighbours(const Csr<W>& g, vertex_t u, const Offer<W>& last, std::size_t k,
                     std::vector<Candidate<W>>& buf) {
  buf.clear();
  const offset_t begin = g.offsets[u], end = g.offsets[u + 1];
  const vertex_t* cols = g.cols.data() + begin;
  const W* weights = g.weights.data() + begin;
  const auto d = std::int32_t(end - begin);
  // An entry must beat lo (the k-th best so far; none while fewer) and be
  // beaten by last: tested on the weight alone first.
  W lo_w = -std::numeric_limits<W>::infinity();
  vertex_t lo_u = INT_MAX;
  for (std::int32_t i = 0; i < d; ++i) {
    const W w = weights[i];
    if (w < lo_w) continue;  // the common case once full
    const vertex_t v = cols[i];
    if (w == lo_w && v >= lo_u) continue;
    if (w > last.w || (w == last.w && v <= last.u)) continue;  // at or before last
    const Candidate<W> e{w, v, i};
    if (buf.size() < k) buf.push_back(e);
    std::size_t j = buf.size() - 1;  // insertion: e moves up past worse entries
    while (j > 0 && neighbour_beats(e.w, e.u, buf[j - 1].w, buf[j - 1].u)) {
      buf[j] = buf[j - 1];
      --j;
    }
    buf[j] = e;
    if (buf.size() == k) {
      lo_w = buf.back().w;
      lo_u = buf.back().u;
    }
  }
  return buf.size() < k;
}

// A pass's candidates: the buffer, its size bound k, whether it holds every
// neighbour left.
template <class W>
struct Pass {
  std::vector<Candidate<W>> buf;
  std::size_t k = 0;
  bool all = false;
};

// Pass 1 of u's proposals when u has `need` to make: its candidates, each
// floor prefetched.
template <class W, class Prefetch>
void first_pass(const Csr<W>& g, vertex_t u, std::int32_t last, std::int32_t need, Pass<W>& pass,
                Prefetch prefetch) {
  pass.k = 2 * std::size_t(need) + 2;
  pass.all = next_neighbours(g, u, entry(g, u, last), pass.k, pass.buf);
  for (const Candidate<W>& c : pass.buf) prefetch(c.u);
}

// u's proposals until it has `need` more offers out or is spent:
// offer(candidate) makes one (true when taken). `pass` holds pass 1 already
// when scanned (made by first_pass with this need and u's last).
template <class W, class Prefetch, class MakeOffer>
void propose(const Csr<W>& g, vertex_t u, Proposer& p, std::int32_t need, Pass<W>& pass, bool scanned,
             Prefetch prefetch, MakeOffer offer) {
  if (need <= 0) return;
  if (!scanned) first_pass(g, u, p.last, need, pass, prefetch);
  for (;;) {
    std::size_t i = 0;
    for (; i < pass.buf.size() && need > 0; ++i) {
      p.last = pass.buf[i].k;
      if (offer(pass.buf[i])) --need;
    }
    if (pass.all && i == pass.buf.size()) {  // nothing left after last
      p.spent = 1;
      return;
    }
    if (need == 0) return;
    pass.k *= 2;
    pass.all = next_neighbours(g, u, entry(g, u, p.last), pass.k, pass.buf);
    for (const Candidate<W>& c : pass.buf) prefetch(c.u);
  }
}

// Displaced vertices waiting for their turn (any order gives the same
// result), taken `ahead` places behind the last one added while there are
// first proposals to make: the one `ahead` places from its turn has its
// row prefetched (its row start was prefetched when it was added), so a
// turn rarely waits for its row.
template <class W>
class Lookahead {
 public:
  static constexpr std::size_t ahead = 16;
  explicit Lookahead(const Csr<W>& g) : g_(g) {}
  void push(vertex_t v) {
    q_.push_back(v);
    __builtin_prefetch(&g_.offsets[v]);
  }
  bool full() const { return q_.size() - head_ > ahead; }
  bool empty() const { return head_ == q_.size(); }
  // The next vertex; last(x): the entry x looked at last (-1: none).
  template <class Last>
  vertex_t pop(Last last) {
    if (head_ + ahead < q_.size()) {
      const vertex_t x = q_[head_ + ahead];
      const offset_t at = g_.offsets[x] + std::max(last(x), 0);
      __builtin_prefetch(&g_.weights[at]);
      __builtin_prefetch(&g_.cols[at]);
    }
    const vertex_t v = q_[head_++];
    if (head_ == q_.size()) {
      q_.clear();
      head_ = 0;
    } else if (head_ > 1024 && 2 * head_ > q_.size()) {  // drop the spent front
      q_.erase(q_.begin(), q_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
    return v;
  }

 private:
  const Csr<W>& g_;
  std::vector<vertex_t> q_;
  std::size_t head_ = 0;
};

bool all_single(const std::vector<int>& b) {
  return std::all_of(b.begin(), b.end(), [](int x) { return x <= 1; });
}

// b(v) <= 1 for every v: u's best entry after entry `last` whose neighbour's
// floor u beats, -1 when none; one pass, a floor read only for an entry
// that beats the best so far (as the plain Suitor), so every entry u
// prefers to the one returned refused u for good. Concurrent (atomic): the
// floors' weights read without the locks, and a tie taken as a yes (the
// exact test is the caller's, under the lock).
template <class W, bool atomic>
std::int32_t single_choice(const Csr<W>& g, vertex_t u, std::int32_t last, const Holders<W>& holders) {
  const offset_t row = g.offsets[u];
  const W* weights = g.weights.data() + row;
  const vertex_t* cols = g.cols.data() + row;
  const auto d = std::int32_t(g.offsets[u + 1] - row);
  const Offer<W> l = entry(g, u, last);
  std::int32_t best = -1;
  W bw = -std::numeric_limits<W>::infinity();
  vertex_t bu = INT_MAX;
  for (std::int32_t i = 0; i < d; ++i) {
    const W w = weights[i];
    if (w < bw || w > l.w) continue;  // the common cases: worse than the best, or passed over already
    const vertex_t v = cols[i];
    if (!neighbour_beats(w, v, bw, bu) || !neighbour_beats(l.w, l.u, w, v)) continue;
    if constexpr (atomic) {
      if (w < holders.floor_weight_atomic(v)) continue;  // refused for good
    } else {
      const Offer<W>& f = holders.floor(v);
      if (!neighbour_beats(w, u, f.w, f.u)) continue;
    }
    best = i;
    bw = w;
    bu = v;
  }
  return best;
}

template <class W>
BMatching b_suitor_single_seq(const Csr<W>& g, const std::vector<int>& b) {
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  holders.init(g, b, false);
  std::vector<std::int32_t> last(static_cast<std::size_t>(n), -1);
  for (vertex_t first = 0; first < n; ++first) {
    if (b[first] == 0) continue;
    vertex_t u = first;
    while (is_vertex(u, n)) {  // the chain of displaced proposers
      const std::int32_t k = single_choice<W, false>(g, u, last[u], holders);
      if (k < 0) break;  // nobody takes u: it stays free
      last[u] = k;
      const offset_t at = g.offsets[u] + k;
      u = holders.insert(g.cols[at], {g.weights[at], u}).u;
    }
  }
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  mutual_offers(holders, n, m, nullptr);
  return m;
}

// OpenMP, b(v) <= 1 for every v. A vertex is proposed for by one thread at
// a time without owner flags: it proposes first in its own iteration (no
// offer of its own is out before), and again only when displaced, by the
// thread that displaced it (its one offer is out until then). `last[u]` is
// written before u's offer is published (under the holder's lock), so the
// thread that displaces u later reads it.
template <class W>
BMatching b_suitor_single_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  // Not value-initialised: each thread faults in and writes its own part.
  const std::unique_ptr<std::int32_t[]> last(new std::int32_t[std::size_t(n)]);
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  AllocationGuard guard;
#pragma omp parallel num_threads(threads)
  {
    holders.init(g, b, true);
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) last[v] = -1;
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      if (b[first] == 0) continue;
      vertex_t u = first;
      while (is_vertex(u, n)) {
        const std::int32_t k = single_choice<W, true>(g, u, last[u], holders);
        if (k < 0) break;  // nobody takes u: it stays free
        last[u] = k;  // passed over from now on, taken or not
        const offset_t at = g.offsets[u] + k;
        const vertex_t v = g.cols[at];
        const Offer<W> o{g.weights[at], u};
        const vertex_t s = holders.lock(v);
        if (better(o, {holders.floor(v).w, s})) {
          u = holders.unlock_insert(v, s, o).u;  // the displaced proposer, if any, proposes again
        } else {
          holders.unlock(v, s);  // refused: u looks further
        }
      }
    }
    if (n >= parallel_result) mutual_offers(holders, n, m, &guard);
  }
  guard.rethrow();
  if (n < parallel_result) mutual_offers(holders, n, m, nullptr);
  return m;
}

}  // namespace

template <class W>
BMatching b_suitor_seq(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_suitor_seq");
  if (all_single(b)) return b_suitor_single_seq(g, b);
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  holders.init(g, b, false);
  std::vector<Proposer> state(static_cast<std::size_t>(n), fresh_proposer);
  // Displaced vertices wait in `queue`, each at most once at a time
  // (`queued`: a vertex displaced twice before its turn makes one pass for
  // both offers).
  Lookahead<W> queue(g);
  const auto last = [&](vertex_t x) { return state[x].last; };
  const auto prefetch = [&](vertex_t v) { holders.prefetch(v); };
  // Vertices make their first proposals in order 0, 1, ...: the first pass
  // of the next one is made ahead (its state is still the initial one), so
  // that its floors arrive while this one proposes.
  Pass<W> now, next, pass;
  const auto process = [&](vertex_t u, bool scanned) {
    Proposer& p = state[u];
    p.queued = 0;
    if (p.spent || p.held >= b[u]) return;
    propose(g, u, p, b[u] - p.held, scanned ? now : pass, scanned, prefetch, [&](const Candidate<W>& c) {
      const vertex_t v = c.u;
      const Offer<W> o{c.w, u};
      // Cheap test first: a heavier floor refuses, a lighter one takes.
      const Offer<W>& f = holders.floor(v);
      if (c.w < f.w || (c.w == f.w && !better(o, f))) return false;
      const Offer<W> dropped = holders.insert(v, o);
      if (is_vertex(dropped.u, n)) {
        Proposer& q = state[dropped.u];
        --q.held;
        if (!q.queued && !q.spent) {
          q.queued = 1;
          queue.push(dropped.u);
        }
      }
      ++p.held;
      return true;
    });
  };
  if (n > 0) first_pass(g, 0, -1, b[0], next, prefetch);
  for (vertex_t first = 0; first < n; ++first) {
    std::swap(now, next);
    if (first + 1 < n) first_pass(g, first + 1, -1, b[first + 1], next, prefetch);
    process(first, true);
    while (queue.full()) process(queue.pop(last), false);
  }
  while (!queue.empty()) process(queue.pop(last), false);
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  mutual_offers(holders, n, m, nullptr);
  return m;
}

template <class W>
BMatching b_suitor_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  detail::expect_b(g, b, "b_suitor_omp");
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (all_single(b)) return b_suitor_single_omp(g, b, t);
  Holders<W> holders(g, b);
  // Not value-initialised: each thread faults in and writes its own part.
  const std::unique_ptr<Proposer[]> state(new Proposer[std::size_t(n)]);
  const std::unique_ptr<std::uint8_t[]> owned(new std::uint8_t[std::size_t(n)]);

  const auto held = [&](vertex_t u) { return std::atomic_ref<std::int32_t>(state[u].held); };
  const auto spent = [&](vertex_t u) { return std::atomic_ref<std::uint8_t>(state[u].spent); };
  const auto claim = [&](vertex_t u) {
    std::uint8_t free = 0;
    return std::atomic_ref<std::uint8_t>(owned[u]).compare_exchange_strong(free, 1);
  };
  // Needs more offers out and can still make them.
  const auto wants = [&](vertex_t u) { return spent(u).load() == 0 && held(u).load() < b[u]; };

  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  AllocationGuard guard;  // a stack that cannot grow: rethrown after the region
  // One parallel region for the proposals and the result (a region costs
  // more than a small graph's whole run when threads outnumber cores).
#pragma omp parallel num_threads(t)
  {
    holders.init(g, b, true);
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) {
      state[v] = fresh_proposer;
      owned[v] = 0;
    }
    // The displaced vertices this thread owns wait in a queue of its own.
    Lookahead<W> queue(g);
    const auto last = [&](vertex_t x) { return state[x].last; };
    Pass<W> pass;
    const auto process = [&](vertex_t u) {
      for (;;) {
        while (wants(u)) {
          Proposer p{state[u].last, 0, 0, 0};  // u's owner alone writes last and spent
          propose(g, u, p, b[u] - held(u).load(), pass, false, [&](vertex_t v) { holders.prefetch(v); },
                  [&](const Candidate<W>& c) {
                    const vertex_t v = c.u;
                    const Offer<W> o{c.w, u};
                    if (c.w < holders.floor_weight_atomic(v)) return false;  // floors only rise: refused for good
                    const vertex_t s = holders.lock(v);
                    if (!better(o, {holders.floor(v).w, s})) {
                      holders.unlock(v, s);
                      return false;
                    }
                    held(u).fetch_add(1);  // before the insert: whoever displaces o decrements after
                    const Offer<W> dropped = holders.unlock_insert(v, s, o);
                    if (is_vertex(dropped.u, n)) {
                      held(dropped.u).fetch_sub(1);
                      if (claim(dropped.u)) queue.push(dropped.u);
                    }
                    return true;
                  });
          state[u].last = p.last;
          if (p.spent) spent(u).store(1);
        }
        // Release, then look again: a displacement that found u owned
        // counted on this check.
        std::atomic_ref<std::uint8_t>(owned[u]).store(0);
        if (!wants(u) || !claim(u)) break;
      }
    };
#pragma omp for schedule(dynamic, 64) nowait
    for (vertex_t first = 0; first < n; ++first) {
      guard.run([&] {
        if (!claim(first)) return;  // already being processed
        process(first);
        while (queue.full()) process(queue.pop(last));
      });
    }
    guard.run([&] {
      while (!queue.empty()) process(queue.pop(last));
    });
#pragma omp barrier
    // Every proposal is done (the barrier): the mutual offers, in
    // parallel on large graphs (on small ones the barriers cost more).
    if (n >= parallel_result) mutual_offers(holders, n, m, &guard);
  }
  guard.rethrow();
  if (n < parallel_result) mutual_offers(holders, n, m, nullptr);
  return m;
}

template BMatching b_suitor_seq(const Csr<float>&, const std::vector<int>&);
template BMatching b_suitor_seq(const Csr<double>&, const std::vector<int>&);
template BMatching b_suitor_omp(const Csr<float>&, const std::vector<int>&, int);
template BMatching b_suitor_omp(const Csr<double>&, const std::vector<int>&, int);

}  // namespace matchblas
