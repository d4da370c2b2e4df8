// roma-sparse-omp (matchers/general/roma_sparse.hpp): the phases of
// roma-sparse with the vertices of a phase augmented by OpenMP threads.
//
// A thread finds aug(v) on the matching as it reads it (mates and matched
// weights read atomically, relaxed: other threads change them meanwhile),
// then locks every vertex the augmentation touches: v, its mate u, x and
// y and their mates, at most six, each by a compare-and-swap on its own
// lock byte, in increasing order, none waited for: when one is taken, the
// ones it holds are released and v goes to the thread's retry list. Holding
// them, it checks that v, x and y still have the mates the search saw (the
// locks keep them) and recomputes the gain from the locked vertices' matched
// weights; only when that exact gain exceeds the threshold is the
// augmentation applied. After the parallel loop the retry lists are
// augmented sequentially. Locks come from Hovland's (2020) atomicFlip (Hovland
// 2020, Alg. 7: lock the four vertices of a flip or give up), extended to
// the six of a 2-augmentation.
//
// Why this is right (the analogue of Hovland's Lemma 4.1.1):
//  - Valid: an augmentation changes only the mates of locked vertices, and
//    removes every matching edge at the ends of its new edges (their other
//    ends are locked too), so no vertex ends with two mates.
//  - The weight never falls: the gain that decides is computed under the
//    locks from the edges actually removed, and the locks keep those edges
//    until the augmentation is applied.
//  - Progress and the end: a phase in which nothing is applied changes no
//    mate, so every search in it read the final matching exactly; the ones
//    that lost a lock race were searched again sequentially. So a phase
//    without augmentations proves what roma-sparse's proves: no
//    2-augmentation gains more than the threshold. Two threads can make each
//    other give up (each holding a lock the other wants), but the retry pass
//    is sequential and gives up nothing, so every phase evaluates every
//    vertex and the phases stop as roma-sparse's do.
// With length > 2, passes of longer augmentations (roma_sparse_long.hpp)
// run between the phases, on the threads the same way: each thread searches
// from its roots with its own LongSearch, locks every vertex of the path
// found and the root's mate (up to 2 L + 2) or gives the root up to the
// retry list, checks that their mates are the ones it read, and applies the
// augmentation when its gain recomputed under the locks exceeds the
// threshold; the roots given up, or whose search read a mate and a weight
// of different moments (the gain under the locks too small), are searched
// again on one thread. The same argument holds: the locks cover every edge
// the gain counts.
// Not deterministic (the races decide which augmentations win).
#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>

#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_long.hpp"
#include "matchers/general/roma_sparse_search.hpp"

namespace matchblas {

namespace {

using namespace roma_sparse_detail;

template <class W>
class SharedMatching {
 public:
  SharedMatching(const Csr<W>& g, Matching m, int threads)
      : mate_(std::move(m.mate)), mw_(matched_weights(g, matching(), threads)), lock_(mate_.size()) {}

  vertex_t mate(vertex_t a) const { return std::atomic_ref(mate_[a]).load(std::memory_order_relaxed); }
  double matched(vertex_t a) const { return std::atomic_ref(mw_[a]).load(std::memory_order_relaxed); }

  // Locks the distinct vertices of `set` (no_vertex entries ignored) in
  // increasing order, giving up at the first one taken; count: how many
  // distinct ones lead set after the call (unlock's).
  template <class Set>
  bool try_lock(Set& set, int& count) {
    std::sort(set.begin(), set.end());
    count = int(std::unique(set.begin(), set.end()) - set.begin());
    int held = 0;
    for (int i = 0; i < count; ++i) {
      if (set[i] == no_vertex) continue;
      std::uint8_t expected = 0;
      if (!lock_[set[i]].compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
        for (int j = 0; j < i; ++j)
          if (set[j] != no_vertex) lock_[set[j]].store(0, std::memory_order_release);
        return false;
      }
      ++held;
    }
    return true;
  }
  template <class Set>
  void unlock(const Set& set, int count) {
    for (int i = 0; i < count; ++i)
      if (set[i] != no_vertex) lock_[set[i]].store(0, std::memory_order_release);
  }

  // a's exact gain on the matching as it is now (the caller holds the locks):
  // the new edges less every matching edge at their ends, each once.
  double gain_now(vertex_t v, const Augmentation& a) const {
    double gain = 0;
    vertex_t removed[3][2];
    int n_removed = 0;
    const auto remove_at = [&](vertex_t p) {
      const vertex_t q = mate(p);
      if (q == no_vertex) return;
      for (int i = 0; i < n_removed; ++i)
        if ((removed[i][0] == p && removed[i][1] == q) || (removed[i][0] == q && removed[i][1] == p)) return;
      removed[n_removed][0] = p;
      removed[n_removed][1] = q;
      ++n_removed;
      gain -= matched(p);
    };
    remove_at(v);
    if (a.x != no_vertex) {
      gain += a.w_vx;
      remove_at(a.x);
    }
    if (a.y != no_vertex) {
      gain += a.w_uy;
      remove_at(a.y);
    }
    return gain;
  }

  void apply(vertex_t v, const Augmentation& a) {
    apply_augmentation(
        v, a, [&](vertex_t p) { return mate(p); }, [&](vertex_t p) { unmatch(p); },
        [&](vertex_t p, vertex_t q, double w) { match(p, q, w); });
  }
  // p and its mate made free; p and q paired by an edge of weight w (the
  // caller holds their locks, or no other thread runs).
  void unmatch(vertex_t p) {
    const vertex_t q = mate(p);
    set(p, no_vertex, 0);
    set(q, no_vertex, 0);
  }
  void match(vertex_t p, vertex_t q, double w) {
    set(p, q, w);
    set(q, p, w);
  }

  Matching matching() const {
    Matching m;
    m.mate = mate_;
    return m;
  }

 private:
  void set(vertex_t a, vertex_t mate, double w) {
    std::atomic_ref(mate_[a]).store(mate, std::memory_order_relaxed);
    std::atomic_ref(mw_[a]).store(w, std::memory_order_relaxed);
  }

  std::vector<vertex_t> mate_;
  std::vector<double> mw_;
  std::vector<std::atomic<std::uint8_t>> lock_;
};

// The loop of both kinds of pass: body(state, i, retry, done, scanned) for
// each i in [0, n), in dynamic chunks, with each thread's own `state`
// (make_state(), called on the thread), its own retry list (merged into
// `retry`, unsorted) and counts (added to done and scanned). An exception
// ends the loop (none may leave a worksharing loop or the parallel region)
// and is thrown again after it.
template <class MakeState, class Body>
void on_threads(vertex_t n, int chunk, MakeState make_state, Body body, std::vector<vertex_t>& retry,
                std::int64_t& done, std::int64_t& scanned) {
  std::int64_t d = 0, s = 0;
  std::exception_ptr failure;
  AllocationGuard guard;
#pragma omp parallel reduction(+ : d, s)
  try {
    auto state = make_state();
    std::vector<vertex_t> mine;
#pragma omp for schedule(dynamic, chunk) nowait
    for (vertex_t i = 0; i < n; ++i) guard.run([&] { body(state, i, mine, d, s); });
#pragma omp critical
    retry.insert(retry.end(), mine.begin(), mine.end());
  } catch (...) {
#pragma omp critical
    if (!failure) failure = std::current_exception();
  }
  if (failure) std::rethrow_exception(failure);
  guard.rethrow();
  done += d;
  scanned += s;
}

// The vertices flagged in `flag`, in increasing order, into `changed` (its
// contents replaced), their flags cleared; on `threads` threads.
void take_changed(std::vector<char>& flag, std::vector<vertex_t>& changed, int threads) {
  indices_where(vertex_t(flag.size()), changed, [&](vertex_t v) { return flag[std::size_t(v)] != 0; }, threads);
  for (vertex_t v : changed) flag[std::size_t(v)] = 0;
}

// A pass of longer augmentations on the threads from the roots of `order`
// (the header: the locks, the check, the retries); returns the
// augmentations applied, sets `searched`, and flags in changed_flag every
// vertex whose mate changed.
template <class W>
std::int64_t long_pass_omp(LongAugmentations<W>& longer, std::vector<std::optional<LongSearch<W>>>& searches,
                           SharedMatching<W>& state, const std::vector<vertex_t>& order, double threshold,
                           std::vector<char>& changed_flag, std::int64_t& searched) {
  const auto mate = [&](vertex_t a) { return state.mate(a); };
  const auto matched = [&](vertex_t a) { return state.matched(a); };
  const vertex_t n = vertex_t(order.size());
  std::int64_t applied = 0, scanned = 0;
  std::vector<vertex_t> retry;
  struct ThreadState {
    LongSearch<W>* search;
    std::vector<vertex_t> set;  // the vertices a found augmentation touches
  };
  const auto make_state = [&] {
    std::optional<LongSearch<W>>& search = searches[std::size_t(omp_get_thread_num())];
    if (!search) search.emplace(longer);
    return ThreadState{&*search, {}};
  };
  const auto body = [&](ThreadState& t, vertex_t i, std::vector<vertex_t>& mine, std::int64_t& done,
                        std::int64_t& searched_here) {
    const vertex_t r = order[i];
    ++searched_here;
    if (!t.search->find(r, threshold, mate, matched)) return;
    t.search->touched(t.set);
    int count = 0;
    bool again = true;  // unless applied: the race lost, a mate changed, or a mate and a weight read apart
    if (state.try_lock(t.set, count)) {  // nothing below allocates while the locks are held
      if (t.search->still_there(mate) && t.search->gain_now(matched) > threshold) {
        for (int k = 0; k < count; ++k)  // locked by this thread: nobody else writes these bytes now
          if (t.set[std::size_t(k)] != no_vertex) changed_flag[t.set[std::size_t(k)]] = 1;
        t.search->apply(mate, [&](vertex_t a) { state.unmatch(a); },
                        [&](vertex_t a, vertex_t b, double w) { state.match(a, b, w); });
        ++done;
        again = false;
      }
      state.unlock(t.set, count);
    }
    if (again) mine.push_back(r);
  };
  on_threads(n, 64, make_state, body, retry, applied, scanned);
  // The roots that lost a race, again, one at a time.
  std::sort(retry.begin(), retry.end());
  if (!searches[0]) searches[0].emplace(longer);
  LongSearch<W>& search = *searches[0];
  for (vertex_t r : retry) {
    if (!search.find(r, threshold, mate, matched)) continue;
    std::vector<vertex_t> set;
    search.touched(set);
    for (vertex_t p : set)
      if (p != no_vertex) changed_flag[p] = 1;
    search.apply(mate, [&](vertex_t a) { state.unmatch(a); },
                 [&](vertex_t a, vertex_t b, double w) { state.match(a, b, w); });
    ++applied;
  }
  searched = scanned + std::int64_t(retry.size());
  return applied;
}

}  // namespace

template <class W>
RomaRun roma_sparse_omp(const Csr<W>& g, const RomaSparseOptions& opt, int threads) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse-omp needs a general (square) graph");
  check_roma_sparse_options(opt, "roma-sparse-omp");
  const ScopedThreads scope(threads);
  const int team = omp_get_max_threads();
  const vertex_t n = g.n_rows;
  RomaRun run;
  auto t = std::chrono::steady_clock::now();
  SharedMatching<W> state(g, start_matching(g, opt.start, team), team);
  run.start_seconds = seconds_since(t);
  run.start_weight = matched_total(n, [&](vertex_t a) { return state.mate(a); },
                                   [&](vertex_t a) { return state.matched(a); }, team);
  const double threshold = augmentation_threshold(g, opt.min_gain, team);
  const auto mate = [&](vertex_t a) { return state.mate(a); };
  const auto matched = [&](vertex_t a) { return state.matched(a); };
  const Csr<W> lists =
      opt.candidates > 0 ? candidate_lists(g, opt.candidates, CandidateOrder::column, team) : Csr<W>{};
  const Csr<W>& search = opt.candidates > 0 ? lists : g;
  std::optional<LongAugmentations<W>> longer;
  if (opt.length > 2) longer.emplace(g, opt.length, opt.candidates, team);
  std::vector<std::optional<LongSearch<W>>> searches(static_cast<std::size_t>(team));
  std::vector<vertex_t> order;
  order.reserve(std::size_t(n));
  PhaseSchedule schedule(longer.has_value());
  MarkedVertices marked(n);
  std::vector<vertex_t> changed;  // the vertices whose mate changed in this phase
  std::vector<char> changed_flag(static_cast<std::size_t>(n), 0);  // the same, set by the threads
  for (int p = 0; p < opt.phases; ++p) {
    check_interrupt();
    t = std::chrono::steady_clock::now();
    // The phase's vertices (the long pass's roots, or the marked ones) in a
    // fresh seeded random order.
    if (schedule.long_pass()) longer->roots(mate, order, team);
    else marked.list(order, team);
    rng::shuffle(order, rng::Stream(opt.seed, order_stream + std::uint64_t(p)));
    const vertex_t listed = vertex_t(order.size());
    if (schedule.long_pass()) {
      RomaPhase phase;
      phase.phase = p;
      phase.kernel = "long";
      phase.flips = long_pass_omp(*longer, searches, state, order, threshold, changed_flag, phase.scanned);
      take_changed(changed_flag, changed, team);
      marked.mark_around(g, changed, mate, team);
      phase.seconds = seconds_since(t);
      phase.weight = matched_total(n, mate, matched, team);
      run.phases.push_back(phase);
      if (!schedule.next(phase.flips)) break;
      continue;
    }
    std::int64_t flips = 0, scanned = 0;
    std::vector<vertex_t> retry;
    const auto body = [&](vertex_t& u_row, vertex_t i, std::vector<vertex_t>& mine, std::int64_t& done,
                          std::int64_t& searched_here) {
      const vertex_t v = order[i];
      marked.take(v);  // listed: marked
      ++searched_here;
      const auto prepare = [&](vertex_t u) { u_row = u; };
      const auto weight_to_u = [&](vertex_t y) { return edge_weight(search, u_row, y); };
      const Augmentation a = best_augmentation(search, v, mate, matched, prepare, weight_to_u);
      if (!(a.gain > threshold)) return;
      std::array<vertex_t, 6> set = {v, a.u, a.x, a.x_mate, a.y, a.y_mate};
      int count = 0;
      bool again = true;  // the race lost or a mate changed
      if (state.try_lock(set, count)) {  // nothing below allocates while the locks are held
        // The mates the search saw, still there? Then the exact gain decides.
        const bool same = state.mate(v) == a.u && (a.x == no_vertex || state.mate(a.x) == a.x_mate) &&
                          (a.y == no_vertex || state.mate(a.y) == a.y_mate);
        again = !same;
        if (same && state.gain_now(v, a) > threshold) {
          for (int k = 0; k < count; ++k)  // locked by this thread: nobody else writes these bytes now
            if (set[k] != no_vertex) changed_flag[set[k]] = 1;
          state.apply(v, a);
          ++done;
        }
        state.unlock(set, count);
      }
      if (again) mine.push_back(v);
    };
    on_threads(listed, 256, [] { return no_vertex; }, body, retry, flips, scanned);
    take_changed(changed_flag, changed, team);
    // The searches that lost a race, again, one at a time.
    std::sort(retry.begin(), retry.end());
    vertex_t u_row = no_vertex;
    const auto prepare = [&](vertex_t u) { u_row = u; };
    const auto weight_to_u = [&](vertex_t y) { return edge_weight(search, u_row, y); };
    for (vertex_t v : retry) {
      const Augmentation a = best_augmentation(search, v, mate, matched, prepare, weight_to_u);
      if (a.gain > threshold) {
        for (vertex_t p : {v, a.u, a.x, a.x_mate, a.y, a.y_mate})
          if (p != no_vertex) changed.push_back(p);
        state.apply(v, a);
        ++flips;
      }
    }
    marked.mark_around(g, changed, mate, team);
    RomaPhase phase;
    phase.phase = p;
    phase.scanned = scanned + std::int64_t(retry.size());
    phase.flips = flips;
    phase.seconds = seconds_since(t);
    phase.weight = matched_total(n, mate, matched, team);
    run.phases.push_back(phase);
    if (!schedule.next(flips)) break;
  }
  run.matching = state.matching();
  return run;
}

template RomaRun roma_sparse_omp(const Csr<float>&, const RomaSparseOptions&, int);
template RomaRun roma_sparse_omp(const Csr<double>&, const RomaSparseOptions&, int);

}  // namespace matchblas
