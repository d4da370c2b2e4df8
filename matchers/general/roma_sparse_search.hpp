// The search for aug(v) shared by roma-sparse and roma-sparse-omp
// (matchers/general/roma_sparse.hpp states the augmentations and their
// gains): the two best arms at v and at its mate u, the single arms, the
// pair of arms at different vertices, the 4-cycles. The caller supplies how
// a vertex's mate and matched weight are read (plain or atomic) and how the
// weight of (u, y) is looked up for the 4-cycles (a stamped array or a
// binary search in u's row).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <chrono>
#include <cstdint>
#include <vector>

#include "lib/csr.hpp"
#include "lib/matching.hpp"
#include "lib/parallel_scan.hpp"
#include "matchers/general/roma_sparse.hpp"

namespace matchblas::roma_sparse_detail {

inline constexpr std::uint64_t order_stream = 0x524f4d53;  // "ROMS": the phases' vertex orders (rng::Stream)

// What both versions start from (roma_sparse.cpp), on `threads` threads:
// the start matching (suitor: greedy's, by Suitor with compare-and-swap
// offers on more than one thread, the same matching), each vertex's matched
// weight (0: free), min_gain x the largest edge weight.
template <class W>
Matching start_matching(const Csr<W>& g, RomaSparseStart s, int threads = 1);
template <class W>
std::vector<double> matched_weights(const Csr<W>& g, const Matching& m, int threads = 1);
template <class W>
double augmentation_threshold(const Csr<W>& g, double min_gain, int threads = 1);

// Which vertices a phase searches: those whose best 2-augmentation may have
// changed since they were last searched. aug(v) reads the mates of v, of
// u = M[v] and of their neighbours, so when vertex c's mate changes, c, its
// neighbours y and their mates M[y] are marked (a superset: with candidate
// lists, the rows searched are subsets of g's symmetric rows), at the end of
// the phase: a vertex left unmarked was searched on what it would read now
// and found nothing; one whose surroundings change during a phase is
// searched in the next (the full scan might have found its augmentation a
// phase earlier, so the two can end at different matchings). A phase without
// augmentations marks none, so it still proves that no 2-augmentation is
// left anywhere.
class MarkedVertices {
 public:
  explicit MarkedVertices(vertex_t n) : marked_(static_cast<std::size_t>(n), 1) {}
  // Whether v is marked, unmarking it (each v by one thread only).
  bool take(vertex_t v) {
    if (!marked_[v]) return false;
    marked_[v] = 0;
    return true;
  }
  // The marked vertices in increasing order, into `out`, on `threads`
  // threads: a phase's vertices (shuffled by the caller), so that a phase
  // with few costs O(n) bytes read, not a shuffle of all n.
  void list(std::vector<vertex_t>& out, int threads = 1) const {
    indices_where(vertex_t(marked_.size()), out, [&](vertex_t v) { return marked_[std::size_t(v)] != 0; }, threads);
  }
  // Marks around every vertex of `changed` (duplicates allowed; emptied), on
  // `threads` OpenMP threads (their marks are relaxed atomic stores of 1).
  template <class W, class Mate>
  void mark_around(const Csr<W>& g, std::vector<vertex_t>& changed, Mate mate, int threads = 1) {
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    const auto size = std::int64_t(changed.size());
    const auto mark = [&](vertex_t v) { std::atomic_ref(marked_[std::size_t(v)]).store(1, std::memory_order_relaxed); };
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) if (threads > 1 && size > 1024)
    for (std::int64_t i = 0; i < size; ++i) {
      const vertex_t c = changed[std::size_t(i)];
      mark(c);
      for (offset_t k = g.offsets[c]; k < g.offsets[c + 1]; ++k) {
        const vertex_t y = g.cols[k], y_mate = mate(y);
        mark(y);
        if (y_mate != no_vertex) mark(y_mate);
      }
    }
    changed.clear();
  }

 private:
  std::vector<char> marked_;
};

// Throws invalid_input unless phases, min_gain, candidates >= 0 and
// length >= 2; `name` starts the message.
void check_roma_sparse_options(const RomaSparseOptions& opt, const char* name);

// Which phase runs next. Without longer augmentations (length 2): phases
// until one without augmentations. With them: one phase of 2-augmentations
// over every vertex, then passes of longer augmentations while they find
// some (the first from every vertex, each later one from the vertices whose
// mate changed), then 2-augmentation phases while they find some, and so
// on, until a phase of each kind in a row finds none: the run ends at a
// matching that neither search improves (so without 2-augmentations, the
// 2/3 guarantee's premise). The long passes start after one phase, not at
// the 2-augmentations' convergence: they find what the later phases would
// (a 2-augmentation is an alternating path or cycle of two new edges), and
// sooner (bench/RESULTS.md: the same quality at less time).
class PhaseSchedule {
 public:
  explicit PhaseSchedule(bool longer) : longer_(longer) {}
  bool long_pass() const { return long_; }  // the next phase is a pass of longer augmentations
  bool next(std::int64_t flips);             // after a phase with `flips` augmentations: whether another runs

 private:
  bool longer_, long_ = false, other_found_none_ = false;
  int phases_ = 0;
};

// Each vertex's k heaviest neighbours in the greedy order (heavier, then
// smaller index; k <= 0: all), as a directed Csr: row v lists v's
// candidates, sorted by column (for the 2-augmentation search, whose
// roma-sparse-omp looks weights up by binary search) or in the greedy order
// (for the longer augmentations, which stop at the first edge too light).
// O(m log k), the rows on `threads` OpenMP threads (<= 0: all), the same
// lists on any count.
enum class CandidateOrder { column, greedy };
template <class W>
Csr<W> candidate_lists(const Csr<W>& g, int k, CandidateOrder order, int threads);

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The best 2-augmentation centred at v: new edges (v, x) when x != none and
// (u, y) when y != none, u the mate v had when it was found, and the mates
// x and y had then (what roma-sparse-omp checks again under its locks).
struct Augmentation {
  double gain = 0;
  vertex_t u = no_vertex, x = no_vertex, y = no_vertex;
  vertex_t x_mate = no_vertex, y_mate = no_vertex;
  double w_vx = 0, w_uy = 0;
};

// The two largest arms (vertex, value, edge weight) of a centre, distinct
// vertices.
struct TopTwo {
  vertex_t x1 = no_vertex, x2 = no_vertex;
  double a1 = 0, a2 = 0, w1 = 0, w2 = 0;
  void offer(vertex_t x, double a, double w) {
    if (x1 == no_vertex || a > a1) {
      x2 = x1, a2 = a1, w2 = w1;
      x1 = x, a1 = a, w1 = w;
    } else if (x2 == no_vertex || a > a2) {
      x2 = x, a2 = a, w2 = w;
    }
  }
};

// mate(a) and matched(a) read a's mate and its edge's weight (0: free);
// prepare(u) readies weight_to_u(y) (the weight of (u, y), NaN when there
// is no such edge) for u's row.
template <class W, class Mate, class Matched, class Prepare, class WeightToU>
Augmentation best_augmentation(const Csr<W>& g, vertex_t v, Mate mate, Matched matched, Prepare prepare,
                               WeightToU weight_to_u) {
  const vertex_t u = mate(v);
  TopTwo arms_v, arms_u;
  for (offset_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
    const vertex_t x = g.cols[k];
    if (x != u) arms_v.offer(x, double(g.weights[k]) - matched(x), double(g.weights[k]));
  }
  Augmentation best;
  best.u = u;
  const auto consider = [&](double gain, vertex_t x, double w_vx, vertex_t y, double w_uy) {
    if (gain > best.gain) best = {gain, u, x, y, no_vertex, no_vertex, w_vx, w_uy};
  };
  if (u == no_vertex) {
    if (arms_v.x1 != no_vertex) consider(arms_v.a1, arms_v.x1, arms_v.w1, no_vertex, 0);
  } else {
    const double w_uv = matched(v);
    prepare(u);
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const vertex_t y = g.cols[k];
      if (y != v) arms_u.offer(y, double(g.weights[k]) - matched(y), double(g.weights[k]));
    }
    if (arms_v.x1 != no_vertex) consider(arms_v.a1 - w_uv, arms_v.x1, arms_v.w1, no_vertex, 0);
    if (arms_u.x1 != no_vertex) consider(arms_u.a1 - w_uv, no_vertex, 0, arms_u.x1, arms_u.w1);
    // Two arms at different vertices (a 4-cycle's pair counts its shared
    // matching edge twice here, below its gain, which the loop below finds).
    if (arms_v.x1 != no_vertex && arms_u.x1 != no_vertex) {
      if (arms_v.x1 != arms_u.x1) {
        consider(arms_v.a1 + arms_u.a1 - w_uv, arms_v.x1, arms_v.w1, arms_u.x1, arms_u.w1);
      } else {
        if (arms_u.x2 != no_vertex)
          consider(arms_v.a1 + arms_u.a2 - w_uv, arms_v.x1, arms_v.w1, arms_u.x2, arms_u.w2);
        if (arms_v.x2 != no_vertex)
          consider(arms_v.a2 + arms_u.a1 - w_uv, arms_v.x2, arms_v.w2, arms_u.x1, arms_u.w1);
      }
    }
    // 4-cycles v-x, x-y matched, y-u.
    for (offset_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
      const vertex_t x = g.cols[k];
      if (x == u) continue;
      const vertex_t y = mate(x);
      if (y == no_vertex || y == v) continue;
      const double w_uy = weight_to_u(y);
      if (std::isnan(w_uy)) continue;
      const double w_vx = double(g.weights[k]);
      consider(w_vx + w_uy - w_uv - matched(x), x, w_vx, y, w_uy);
    }
  }
  if (best.x != no_vertex) best.x_mate = mate(best.x);
  if (best.y != no_vertex) best.y_mate = mate(best.y);
  return best;
}

// The weight of (a, b) by binary search in a's sorted row; NaN when there
// is no such edge. Branch-free halving (a conditional move per step): the
// searches' outcomes are random, so a branch would mispredict half the time.
template <class W>
double edge_weight(const Csr<W>& g, vertex_t a, vertex_t b) {
  std::size_t base = std::size_t(g.offsets[a]), len = std::size_t(g.offsets[a + 1]) - base;
  if (len == 0) return std::numeric_limits<double>::quiet_NaN();
  const vertex_t* cols = g.cols.data();
  while (len > 1) {  // b, if there, lies in [base, base + len)
    const std::size_t half = len / 2;
    base = cols[base + half] <= b ? base + half : base;
    len -= half;
  }
  return cols[base] == b ? double(g.weights[base]) : std::numeric_limits<double>::quiet_NaN();
}

// The matching's weight from the matched weights, without looking the edges
// up (a phase's report: O(n)). On one thread matching_weight's sum, term for
// term and in its order (each pair once, from its smaller end); on more, the
// same terms summed by ordered_sum (lib/parallel_scan.hpp: the same value at
// any count above one, within rounding of matching_weight's).
template <class Mate, class Matched>
double matched_total(vertex_t n, Mate mate, Matched matched, int threads = 1) {
  const auto term = [&](vertex_t u) {
    const vertex_t v = mate(u);
    return v != no_vertex && v > u ? double(matched(u)) : 0.0;
  };
  if (threads > 1) return ordered_sum(n, term, threads);
  double sum = 0;
  for (vertex_t u = 0; u < n; ++u) sum += term(u);
  return sum;
}

// M := M xor a (the new edges in, every matching edge at their ends out),
// through unmatch(p) (p and its mate made free) and match(p, q, w).
template <class Mate, class Unmatch, class Match>
void apply_augmentation(vertex_t v, const Augmentation& a, Mate mate, Unmatch unmatch, Match match) {
  if (a.u != no_vertex) unmatch(v);
  if (a.x != no_vertex && mate(a.x) != no_vertex) unmatch(a.x);
  if (a.y != no_vertex && mate(a.y) != no_vertex) unmatch(a.y);
  if (a.x != no_vertex) match(v, a.x, a.w_vx);
  if (a.y != no_vertex) match(a.u, a.y, a.w_uy);
}

}  // namespace matchblas::roma_sparse_detail
