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
// its order of preference. So u keeps `last`, the last neighbour it looked
// at, and a proposal goes to the best neighbour after `last` whose floor u
// beats. One pass over u's row comparing weights only picks the next few
// neighbours after `last` in u's order (a sorted buffer of k entries, 2
// need + 2 to start with), and only those are looked up (a random read of
// one floor each, prefetched together), best first, until u has its b(u)
// offers out; a buffer used up before that makes another pass with twice
// the k. A pass that reaches the end of the row leaves u spent: it never
// proposes again.
//
// Which offers are mutual: a byte per stored entry (u, k) says that u's
// offer is held by cols[k]; u sets it with the offer, the vertex that drops
// the offer clears it (each held offer remembers its entry). At the end v's
// partners are the neighbours whose flag in v's row is set and whose offer
// v holds: one streaming pass, v's partners ascending as its row is.
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

// An offer of weight w by u, made through entry k of u's row (k relative to
// the row's start); in a buffer of candidates, neighbour u at entry k.
template <class W>
struct Offer {
  W w;
  vertex_t u;
  std::int32_t k;
};

template <class W>
bool better(const Offer<W>& a, const Offer<W>& b) {
  return neighbour_beats(a.w, a.u, b.w, b.u);
}

// The offers every vertex v holds: a heap of cap(v) = min(b(v), degree(v))
// offers with the worst one (under neighbour_beats) at its root, and v's
// floor: that root once v holds cap(v) offers, else (-inf, INT_MAX), which
// every offer beats; (+inf, 0) when cap(v) = 0. v takes (w, u) when it
// beats the floor; the floor only rises. The floor, the count and where the
// heap lies share one 32-byte record per vertex (a proposal's look-up and
// its insert touch one line, then the heap); a heap of one offer is the
// floor itself. Plus the flags of mutual offers (above).
// Concurrent use (b_suitor_omp): `size` is also v's lock (negative while
// held: ~size); the floor's weight is written under the lock and read
// without it (an atomic word: a value it once had, so an offer below it is
// refused for good), the rest of the record only under the lock; flags are
// atomic bytes (set under the holder's lock, cleared after it by the one
// that displaced the offer under the same lock).
template <class W>
class Holders {
 public:
  Holders(const Csr<W>& g, const std::vector<int>& b)
      : g_(g), vertex_(std::size_t(g.n_rows)), flag_(g.cols.size(), 0) {
    constexpr W inf = std::numeric_limits<W>::infinity();
    offset_t total = 0;
    for (vertex_t v = 0; v < g.n_rows; ++v) {
      const auto cap = std::int32_t(std::min<offset_t>(b[v], g.offsets[v + 1] - g.offsets[v]));
      vertex_[v] = {cap > 0 ? Offer<W>{-inf, INT_MAX, -1} : Offer<W>{inf, 0, -1}, 0, cap, total};
      if (cap > 1) total += cap;
    }
    slots_.resize(std::size_t(total));
  }

  void prefetch(vertex_t v) const { __builtin_prefetch(&vertex_[v]); }
  const Offer<W>& floor(vertex_t v) const { return vertex_[v].floor; }
  W floor_weight_atomic(vertex_t v) const {
    return std::atomic_ref<const W>(vertex_[v].floor.w).load(std::memory_order_relaxed);
  }
  bool takes(vertex_t v, const Offer<W>& o) const { return better(o, vertex_[v].floor); }

  // v takes o (it beats v's floor): o joins v's offers; returns the offer it
  // displaces (u = no_vertex when none). size: v's offers before.
  Offer<W> insert(vertex_t v, const Offer<W>& o, std::int32_t size) {
    Vertex& x = vertex_[v];
    Offer<W> dropped{W{}, no_vertex, -1};
    if (x.cap == 1) {
      if (size > 0) dropped = x.floor;
      set_floor(x, o);
      return dropped;
    }
    Offer<W>* heap = slots_.data() + x.start;
    if (size < x.cap) {  // sift up
      std::int32_t i = size;
      while (i > 0) {
        const std::int32_t parent = (i - 1) / 2;
        if (!better(heap[parent], o)) break;  // the parent is worse: o stays below
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = o;
      if (size + 1 < x.cap) return dropped;
    } else {  // replace the root, sift down
      dropped = heap[0];
      std::int32_t i = 0;
      for (;;) {
        std::int32_t child = 2 * i + 1;
        if (child >= x.cap) break;
        if (child + 1 < x.cap && better(heap[child], heap[child + 1])) ++child;  // the worse child
        if (!better(o, heap[child])) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = o;
    }
    set_floor(x, heap[0]);
    return dropped;
  }

  // Sequential: v's offers before an insert.
  std::int32_t& size(vertex_t v) { return vertex_[v].size; }

  // Concurrent: locks v, returns its offers' count; unlock writes it back.
  // Spins, yielding now and then: with more threads than cores the holder
  // may be off its core.
  std::int32_t lock(vertex_t v) {
    std::atomic_ref<std::int32_t> word(vertex_[v].size);
    for (int spins = 1;; ++spins) {
      std::int32_t s = word.load(std::memory_order_relaxed);
      if (s >= 0 && word.compare_exchange_weak(s, ~s, std::memory_order_acquire)) return s;
      if (spins % 64 == 0) std::this_thread::yield();
    }
  }
  void unlock(vertex_t v, std::int32_t size) {
    std::atomic_ref<std::int32_t>(vertex_[v].size).store(size, std::memory_order_release);
  }

  // Entry `at` (absolute) of a proposer's row: its offer is held there, or not.
  void flag(offset_t at, bool on) { std::atomic_ref<std::uint8_t>(flag_[std::size_t(at)]).store(on, std::memory_order_relaxed); }

  // After every proposal, v's mutual offers ({u, v} when each holds the
  // other's): their count (out == nullptr; sorts v's heap when large), or
  // written to out, ascending.
  offset_t partners(vertex_t v, vertex_t* out) {
    Vertex& x = vertex_[v];
    if (x.size == 0) return 0;
    Offer<W>* first = x.cap == 1 ? &x.floor : slots_.data() + x.start;
    Offer<W>* last = first + x.size;
    const auto by_u = [](const Offer<W>& a, const Offer<W>& b) { return a.u < b.u; };
    if (!out && x.size > 8) std::sort(first, last, by_u);
    const auto holds = [&](vertex_t u) {
      if (x.size > 8) return std::binary_search(first, last, Offer<W>{W{}, u, 0}, by_u);
      for (const Offer<W>* o = first; o != last; ++o)
        if (o->u == u) return true;
      return false;
    };
    offset_t c = 0;
    for (offset_t k = g_.offsets[v]; k < g_.offsets[v + 1]; ++k)
      if (flag_[std::size_t(k)] && holds(g_.cols[k])) {
        if (out) out[c] = g_.cols[k];
        ++c;
      }
    return c;
  }

 private:
  struct alignas(32) Vertex {
    Offer<W> floor;
    std::int32_t size;  // offers held (the lock word when concurrent)
    std::int32_t cap;
    offset_t start;     // cap > 1: the heap is slots_[start, start + cap)
  };
  static_assert(sizeof(Vertex) == 32);

  static void set_floor(Vertex& x, const Offer<W>& o) {
    x.floor.u = o.u;
    x.floor.k = o.k;
    std::atomic_ref<W>(x.floor.w).store(o.w, std::memory_order_relaxed);
  }

  const Csr<W>& g_;
  std::vector<Vertex> vertex_;
  std::vector<Offer<W>> slots_;
  std::vector<std::uint8_t> flag_;
};

// A proposer's state: the last neighbour it looked at (it looks at the rest
// of its row only), its offers held somewhere, and whether it is spent.
// Concurrent: `held` is changed by whoever displaces u (atomically) and
// `spent` read by them; `last` only by u's owner.
template <class W>
struct Proposer {
  Offer<W> last{std::numeric_limits<W>::infinity(), -1, -1};  // before every entry
  std::int32_t held = 0;
  std::uint8_t spent = 0;
  std::uint8_t queued = 0;  // b_suitor_seq: on the stack
};

// The next neighbours of u after `last` in u's order of preference, at most
// k, best first: one pass over u's row comparing weights only. Returns true
// when the buffer holds every neighbour left (fewer than k).
template <class W>
bool next_neighbours(const Csr<W>& g, vertex_t u, const Offer<W>& last, std::size_t k, std::vector<Offer<W>>& buf) {
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
    const Offer<W> e{w, v, i};
    if (buf.size() < k) buf.push_back(e);
    std::size_t j = buf.size() - 1;  // insertion: e moves up past worse entries
    while (j > 0 && better(e, buf[j - 1])) {
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
  std::vector<Offer<W>> buf;
  std::size_t k = 0;
  bool all = false;
};

// Pass 1 of u's proposals when u has `need` to make: its candidates, each
// floor prefetched.
template <class W, class Prefetch>
void first_pass(const Csr<W>& g, vertex_t u, const Offer<W>& last, std::int32_t need, Pass<W>& pass,
                Prefetch prefetch) {
  pass.k = 2 * std::size_t(need) + 2;
  pass.all = next_neighbours(g, u, last, pass.k, pass.buf);
  for (const Offer<W>& c : pass.buf) prefetch(c.u);
}

// u's proposals until it has `need` more offers out or is spent:
// offer(candidate) makes one (true when taken). `pass` holds pass 1 already
// when scanned (made by first_pass with this need and u's last).
template <class W, class Prefetch, class MakeOffer>
void propose(const Csr<W>& g, vertex_t u, Proposer<W>& p, std::int32_t need, Pass<W>& pass, bool scanned,
             Prefetch prefetch, MakeOffer offer) {
  if (need <= 0) return;
  if (!scanned) first_pass(g, u, p.last, need, pass, prefetch);
  for (;;) {
    std::size_t i = 0;
    for (; i < pass.buf.size() && need > 0; ++i) {
      p.last = pass.buf[i];
      if (offer(pass.buf[i])) --need;
    }
    if (pass.all && i == pass.buf.size()) {  // nothing left after last
      p.spent = 1;
      return;
    }
    if (need == 0) return;
    pass.k *= 2;
    pass.all = next_neighbours(g, u, p.last, pass.k, pass.buf);
    for (const Offer<W>& c : pass.buf) prefetch(c.u);
  }
}

// m (offsets all 0) = the mutual offers of holders, one thread.
template <class W>
void mutual_offers(Holders<W>& holders, vertex_t n, BMatching& m) {
  for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = m.offsets[v] + holders.partners(v, nullptr);
  m.partners.resize(std::size_t(m.offsets[n]));
  for (vertex_t v = 0; v < n; ++v) holders.partners(v, m.partners.data() + m.offsets[v]);
}

// ---- b(v) <= 1 for every vertex ----
// Then a vertex holds at most one offer, and its floor is that offer: one
// 16-byte word pair per vertex (8 for float), no heap, no count; a proposer
// has at most one offer out, so a displaced one proposes again at once (a
// chain, as in the plain Suitor) and needs no queue, no count and no
// spent flag (one that finds nobody is never displaced again); its
// state is the entry of its row it looked at last (4 bytes). The mutual
// offers are {v, u} with u holding v's offer and v holding u's: a pass
// over the vertices, no flags.
template <class W>
struct Single {
  W w;
  vertex_t u;  // 0 <= u < n: v holds u's offer; INT_MAX: none yet; -1: b(v) = 0
};

template <class W>
bool all_single(const std::vector<int>& b) {
  return std::all_of(b.begin(), b.end(), [](int x) { return x <= 1; });
}

// The best entry of u's row (relative index) after entry `last` in u's
// order of preference (-1: before all), and the floor of that neighbour
// read: the best one whose floor u beats, scanning once (as the plain
// Suitor: a floor is read only for an entry that beats the best so far, so
// every entry u prefers to the one returned refused). -1: none.
template <class W>
std::int32_t single_choice(const Csr<W>& g, vertex_t u, std::int32_t last, const std::vector<Single<W>>& held) {
  const offset_t row = g.offsets[u];
  const W* weights = g.weights.data() + row;
  const vertex_t* cols = g.cols.data() + row;
  const auto d = std::int32_t(g.offsets[u + 1] - row);
  W lw = std::numeric_limits<W>::infinity();
  vertex_t lu = -1;
  if (last >= 0) {
    lw = weights[last];
    lu = cols[last];
  }
  std::int32_t best = -1;
  W bw = -std::numeric_limits<W>::infinity();
  vertex_t bu = INT_MAX;
  for (std::int32_t i = 0; i < d; ++i) {
    const W w = weights[i];
    if (w < bw || w > lw) continue;  // the common cases: worse than the best, or passed over already
    const vertex_t v = cols[i];
    if (!neighbour_beats(w, v, bw, bu) || !neighbour_beats(lw, lu, w, v)) continue;
    const Single<W>& f = held[v];
    if (!neighbour_beats(w, u, f.w, f.u)) continue;  // v refuses u for good
    best = i;
    bw = w;
    bu = v;
  }
  return best;
}

// v's partner when {v, held[v].u} is a mutual offer, else -1.
template <class W>
vertex_t single_partner(const Single<W>* held, vertex_t n, vertex_t v) {
  const vertex_t u = held[v].u;
  return u >= 0 && u < n && held[u].u == v ? u : -1;
}

// m (offsets all 0) = the mutual offers of held, one thread.
template <class W>
void single_result(const Single<W>* held, vertex_t n, BMatching& m) {
  for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = m.offsets[v] + (single_partner(held, n, v) >= 0 ? 1 : 0);
  m.partners.resize(std::size_t(m.offsets[n]));
  for (vertex_t v = 0; v < n; ++v)
    if (m.offsets[v + 1] > m.offsets[v]) m.partners[std::size_t(m.offsets[v])] = held[v].u;
}

// The same inside a parallel region, every thread calling it.
template <class W>
void single_result_parallel(const Single<W>* held, vertex_t n, BMatching& m, AllocationGuard& guard) {
#pragma omp for schedule(static)
  for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = single_partner(held, n, v) >= 0 ? 1 : 0;
#pragma omp single
  guard.run([&] {
    for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] += m.offsets[v];
    m.partners.resize(std::size_t(m.offsets[n]));
  });
  if (m.partners.size() != std::size_t(m.offsets[n])) return;  // the resize failed (rethrown after the region)
#pragma omp for schedule(static)
  for (vertex_t v = 0; v < n; ++v)
    if (m.offsets[v + 1] > m.offsets[v]) m.partners[std::size_t(m.offsets[v])] = held[v].u;
}

template <class W>
BMatching b_suitor_single_seq(const Csr<W>& g, const std::vector<int>& b) {
  const vertex_t n = g.n_rows;
  constexpr W inf = std::numeric_limits<W>::infinity();
  std::vector<Single<W>> held(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) held[v] = b[v] > 0 ? Single<W>{-inf, INT_MAX} : Single<W>{inf, -1};
  std::vector<std::int32_t> last(static_cast<std::size_t>(n), -1);
  for (vertex_t first = 0; first < n; ++first) {
    if (b[first] == 0) continue;
    vertex_t u = first;
    while (u >= 0 && u < n) {  // the chain of displaced proposers
      const std::int32_t k = single_choice(g, u, last[u], held);
      if (k < 0) break;  // nobody takes u: it stays free
      last[u] = k;
      Single<W>& f = held[g.cols[g.offsets[u] + k]];
      const vertex_t displaced = f.u;
      f = {g.weights[g.offsets[u] + k], u};
      u = displaced;
    }
  }
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  single_result(held.data(), n, m);
  return m;
}

// OpenMP, b(v) <= 1 for every vertex: held[v].u is also v's lock (`locked`
// while held); the offer's weight is written under it and read without it
// (an offer lighter than a weight the floor once had is refused for good),
// the exact test runs under it. A vertex is proposed for by one thread at a
// time without owner flags: it proposes first in its own iteration (no
// offer of its own is out before), and again only when displaced, by the
// thread that displaced it (its one offer is out until then). `last[u]` is
// written before u's offer is published (under the holder's lock), so the
// thread that displaces u later reads it.
template <class W>
BMatching b_suitor_single_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  const vertex_t n = g.n_rows;
  constexpr W inf = std::numeric_limits<W>::infinity();
  constexpr vertex_t locked = INT_MIN;
  // Not value-initialised: each thread faults in and writes its own part.
  const std::unique_ptr<Single<W>[]> held(new Single<W>[std::size_t(n)]);
  const std::unique_ptr<std::int32_t[]> last(new std::int32_t[std::size_t(n)]);
  const auto weight = [&](vertex_t v) { return std::atomic_ref<W>(held[v].w); };
  const auto word = [&](vertex_t v) { return std::atomic_ref<vertex_t>(held[v].u); };
  const auto lock = [&](vertex_t v) {
    auto w = word(v);
    for (int spins = 1;; ++spins) {
      vertex_t s = w.load(std::memory_order_relaxed);
      if (s != locked && w.compare_exchange_weak(s, locked, std::memory_order_acquire)) return s;
      if (spins % 64 == 0) std::this_thread::yield();
    }
  };
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  AllocationGuard guard;
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) {
      held[v] = b[v] > 0 ? Single<W>{-inf, INT_MAX} : Single<W>{inf, -1};
      last[v] = -1;
    }
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      if (b[first] == 0) continue;
      vertex_t u = first;
      while (u >= 0 && u < n) {
        const offset_t row = g.offsets[u];
        const W* weights = g.weights.data() + row;
        const vertex_t* cols = g.cols.data() + row;
        const auto d = std::int32_t(g.offsets[u + 1] - row);
        // The best entry after last[u] not refused for good (as
        // single_choice, the floors' weights read without the locks).
        std::int32_t k = -1;
        for (;;) {
          const std::int32_t l = last[u];
          const W lw = l >= 0 ? weights[l] : inf;
          const vertex_t lu = l >= 0 ? cols[l] : -1;
          k = -1;
          W bw = -inf;
          vertex_t bu = INT_MAX;
          for (std::int32_t i = 0; i < d; ++i) {
            const W w = weights[i];
            if (w < bw || w > lw) continue;
            const vertex_t v = cols[i];
            if (!neighbour_beats(w, v, bw, bu) || !neighbour_beats(lw, lu, w, v)) continue;
            if (w < weight(v).load(std::memory_order_relaxed)) continue;  // refused for good
            k = i;
            bw = w;
            bu = v;
          }
          if (k < 0) break;
          last[u] = k;  // passed over from now on, taken or not
          const vertex_t s = lock(bu);
          Single<W>& f = held[bu];
          if (neighbour_beats(bw, u, f.w, s)) {
            weight(bu).store(bw, std::memory_order_relaxed);
            word(bu).store(u, std::memory_order_release);
            u = s;  // the displaced proposer, if any, proposes again
            break;
          }
          word(bu).store(s, std::memory_order_release);
        }
        if (k < 0) break;  // nobody takes u: it stays free
      }
    }
    if (n >= (1 << 16)) single_result_parallel(held.get(), n, m, guard);
  }
  guard.rethrow();
  if (n < (1 << 16)) single_result(held.get(), n, m);
  return m;
}

}  // namespace

template <class W>
BMatching b_suitor_seq(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_suitor_seq");
  if (all_single<W>(b)) return b_suitor_single_seq(g, b);
  const vertex_t n = g.n_rows;
  Holders<W> holders(g, b);
  std::vector<Proposer<W>> state(static_cast<std::size_t>(n));
  // Vertices to process, each at most once at a time (`queued`): a vertex
  // displaced twice before its turn makes one pass for both offers.
  std::vector<vertex_t> stack;
  const auto prefetch = [&](vertex_t v) { holders.prefetch(v); };
  // Vertices make their first proposals in order 0, 1, ...: the first pass
  // of the next one is made ahead (its state is still the initial one), so
  // that its floors arrive while this one proposes.
  Pass<W> now, ahead, pass;
  const Offer<W> before_all = Proposer<W>{}.last;
  if (n > 0) first_pass(g, 0, before_all, b[0], ahead, prefetch);
  for (vertex_t first = 0; first < n; ++first) {
    std::swap(now, ahead);
    if (first + 1 < n) first_pass(g, first + 1, before_all, b[first + 1], ahead, prefetch);
    stack.push_back(first);
    bool fresh = true;  // the next pop is `first`'s first: its pass 1 is in `now`
    while (!stack.empty()) {
      const vertex_t u = stack.back();
      stack.pop_back();
      Proposer<W>& p = state[u];
      p.queued = 0;
      const bool scanned = fresh;
      fresh = false;
      if (p.spent || p.held >= b[u]) continue;
      const offset_t row = g.offsets[u];
      propose(g, u, p, b[u] - p.held, scanned ? now : pass, scanned, prefetch, [&](const Offer<W>& c) {
        const vertex_t v = c.u;
        const Offer<W> o{c.w, u, c.k};
        // Cheap test first: a heavier floor refuses, a lighter one takes.
        const W f = holders.floor(v).w;
        if (c.w < f || (c.w == f && !holders.takes(v, o))) return false;
        std::int32_t& size = holders.size(v);
        const Offer<W> dropped = holders.insert(v, o, size);
        holders.flag(row + c.k, true);
        if (dropped.u == no_vertex) {
          ++size;
        } else {
          Proposer<W>& q = state[dropped.u];
          holders.flag(g.offsets[dropped.u] + dropped.k, false);
          --q.held;
          if (!q.queued && !q.spent) {
            q.queued = 1;
            stack.push_back(dropped.u);
          }
        }
        ++p.held;
        return true;
      });
    }
  }
  BMatching m;
  m.offsets.assign(std::size_t(n) + 1, 0);
  mutual_offers(holders, n, m);
  return m;
}

template <class W>
BMatching b_suitor_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  detail::expect_b(g, b, "b_suitor_omp");
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (all_single<W>(b)) return b_suitor_single_omp(g, b, t);
  Holders<W> holders(g, b);
  std::vector<Proposer<W>> state(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> owned(static_cast<std::size_t>(n), 0);

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
  constexpr vertex_t parallel_result = 1 << 16;  // vertices
  AllocationGuard guard;  // a stack that cannot grow: rethrown after the region
  // One parallel region for the proposals and the result (a region costs
  // more than a small graph's whole run when threads outnumber cores).
#pragma omp parallel num_threads(t)
  {
    std::vector<vertex_t> stack;
    Pass<W> pass;
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      guard.run([&] {
        if (!claim(first)) return;  // already being processed
        stack.push_back(first);
        while (!stack.empty()) {
          const vertex_t u = stack.back();
          stack.pop_back();
          const offset_t row = g.offsets[u];
          for (;;) {
            while (wants(u)) {
              Proposer<W> p{state[u].last, 0, 0, 0};  // u's owner alone writes last and spent
              propose(g, u, p, b[u] - held(u).load(), pass, false, [&](vertex_t v) { holders.prefetch(v); },
                      [&](const Offer<W>& c) {
                        const vertex_t v = c.u;
                        const Offer<W> o{c.w, u, c.k};
                        if (c.w < holders.floor_weight_atomic(v)) return false;  // floors only rise: refused for good
                        const std::int32_t size = holders.lock(v);
                        if (!holders.takes(v, o)) {
                          holders.unlock(v, size);
                          return false;
                        }
                        held(u).fetch_add(1);  // before the insert: whoever displaces o decrements after
                        holders.flag(row + c.k, true);
                        const Offer<W> dropped = holders.insert(v, o, size);
                        holders.unlock(v, dropped.u == no_vertex ? size + 1 : size);
                        if (dropped.u != no_vertex) {
                          holders.flag(g.offsets[dropped.u] + dropped.k, false);
                          held(dropped.u).fetch_sub(1);
                          if (claim(dropped.u)) stack.push_back(dropped.u);
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
        }
      });
    }
    // Every proposal is done (the loop's barrier): the mutual offers, in
    // parallel on large graphs (on small ones the barriers cost more).
    if (n >= parallel_result) {
#pragma omp for schedule(dynamic, 4096)
      for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] = holders.partners(v, nullptr);
#pragma omp single
      guard.run([&] {
        for (vertex_t v = 0; v < n; ++v) m.offsets[v + 1] += m.offsets[v];
        m.partners.resize(std::size_t(m.offsets[n]));
      });
#pragma omp for schedule(dynamic, 4096)
      for (vertex_t v = 0; v < n; ++v) guard.run([&] { holders.partners(v, m.partners.data() + m.offsets[v]); });
    }
  }
  guard.rethrow();
  if (n < parallel_result) mutual_offers(holders, n, m);
  return m;
}

template BMatching b_suitor_seq(const Csr<float>&, const std::vector<int>&);
template BMatching b_suitor_seq(const Csr<double>&, const std::vector<int>&);
template BMatching b_suitor_omp(const Csr<float>&, const std::vector<int>&, int);
template BMatching b_suitor_omp(const Csr<double>&, const std::vector<int>&, int);

}  // namespace matchblas
