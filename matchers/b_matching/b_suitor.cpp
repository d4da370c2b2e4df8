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
// The offers each vertex holds, and how the mutual ones are found:
// b_suitor_offers.hpp.
//
// b(v) <= 1 for every v: b_suitor_single.cpp.
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
#include "lib/prefetch.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_offers.hpp"

namespace matchblas {

using namespace b_suitor_detail;

namespace {

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
    matchblas::prefetch(&g_.offsets[v]);
  }
  bool full() const { return q_.size() - head_ > ahead; }
  bool empty() const { return head_ == q_.size(); }
  // The next vertex; last(x): the entry x looked at last (-1: none).
  template <class Last>
  vertex_t pop(Last last) {
    if (head_ + ahead < q_.size()) {
      const vertex_t x = q_[head_ + ahead];
      const offset_t at = g_.offsets[x] + std::max(last(x), 0);
      matchblas::prefetch(g_.weights.data() + at);  // may be one past the end
      matchblas::prefetch(g_.cols.data() + at);
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
