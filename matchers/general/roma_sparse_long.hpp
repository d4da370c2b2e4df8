// Longer augmentations for roma-sparse and roma-sparse-omp (option length
// L > 2): alternating paths and cycles of up to L new edges, found by a
// bounded depth-first search with Lin and Kernighan's positive-gain rule.
// Source: the gain criterion of S. Lin and B. W. Kernighan, "An effective
// heuristic algorithm for the traveling-salesman problem", Operations
// Research 21(2), 1973, sec. 2 (every improving sequence of exchanges has a
// cyclic rotation whose partial gains are all positive); the augmentations
// are Pettie and Sanders' (2004) with more than two new edges. Ours: the
// search, its budget and the passes below.
//
// The search from a root r: remove r's matching edge (r, s) when r is
// matched, then repeatedly add an edge (c, x) from the current end c to a
// candidate x off the path and, when x is matched, remove (x, y = M[x]) and
// continue from y. Every prefix is a candidate augmentation: it ends at a
// free x, at y (left free), or, when r was matched, closes the cycle with
// (y, s) when that edge exists. The best one found whose gain exceeds the
// threshold is applied (its new edges in, every matching edge at its
// vertices out).
//   candidates  each vertex's list: its K heaviest neighbours in the greedy
//               order (heavier, then smaller index; K = 0: all, but never
//               more than the budget below, which no search of a row passes),
//               kept in that order so that the search stops scanning a list
//               at the first edge the positive-gain rule rejects
//   gain rule   an edge (c, x) is added only when the gain so far plus
//               w(c, x) is positive; by Lin and Kernighan's lemma every
//               improving alternating cycle is still found from one of its
//               vertices (paths with matched ends can be missed)
//   budget      at most 256 added edges per root, so a root costs O(256 L)
//               whatever the degrees
// Passes: the first searches from every vertex; each later one only from the
// vertices whose mate changed since the previous pass began (elsewhere the
// search would read what it read before, unless a changed vertex lies on its
// path: a heuristic, measured in bench/RESULTS.md). A pass runs on one
// thread (LongAugmentations::pass) or on many (roma_sparse_omp.cpp: each
// thread its own LongSearch; an augmentation is applied under the locks of
// every vertex it touches, after checking that their mates are the ones
// the search saw).
//
// Guarantee: every applied augmentation gains more than the threshold, so
// the matching stays valid and its weight rises. Not exhaustive: a pass that
// finds nothing proves no improving cycle of at most L new edges within the
// lists (when no root hit its budget), not the absence of every improving
// path.
// Cost: O(m log K) for the lists, O(n K) memory (and n bytes per searching
// thread); a pass O(256 L log d) per root (a closing edge's weight by binary
// search in the root's mate's row).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "lib/csr.hpp"
#include "lib/greedy_order.hpp"
#include "lib/matching.hpp"
#include "lib/prefetch.hpp"
#include "matchers/general/roma_sparse_search.hpp"

namespace matchblas::roma_sparse_detail {

inline constexpr int long_search_budget = 256;  // added edges per root
inline constexpr offset_t prefetched_candidates = 8;  // of a row, whose next rows are fetched ahead

template <class W>
class LongAugmentations;

// One thread's search for the best longer augmentation from a root
// (find), the vertices it touches (touched), whether the matching still
// holds what it read (still_there) and its application (apply).
template <class W>
class LongSearch {
 public:
  explicit LongSearch(const LongAugmentations<W>& shared)
      : g_(shared.graph()), lists_(shared.lists()), length_(shared.length()),
        on_path_(std::size_t(g_.n_rows), 0) {}

  // The best augmentation from r gaining more than threshold, on the
  // matching read through mate(a) / matched(a); false when none.
  template <class Mate, class Matched>
  bool find(vertex_t r, double threshold, Mate mate, Matched matched) {
    s_ = mate(r);
    best_gain_ = threshold;
    best_.clear();
    path_.assign(1, r);
    added_ = 0;
    on_path_[r] = 1;
    heaviest_to_s_ = 0;
    if (s_ != no_vertex) {
      on_path_[s_] = 1;
      // s's list starts with its heaviest edge (the greedy order).
      if (lists_.offsets[s_] < lists_.offsets[s_ + 1]) heaviest_to_s_ = double(lists_.weights[lists_.offsets[s_]]);
    }
    extend(r, 0, s_ == no_vertex ? 0.0 : -matched(r), mate, matched);
    on_path_[r] = 0;
    if (s_ != no_vertex) on_path_[s_] = 0;
    return !best_.empty();
  }

  // The vertices whose mates the found augmentation changes: the path's and
  // the root's mate (no_vertex entries possible).
  void touched(std::vector<vertex_t>& out) const {
    out.assign(best_.begin(), best_.end());
    out.push_back(s_);
  }

  // Whether the mates the search read along the found path are still
  // there: r's mate s, and x's mate y for each (x, y) of the path (none for
  // a free end).
  template <class Mate>
  bool still_there(Mate mate) const {
    if (mate(best_[0]) != s_) return false;
    for (std::size_t i = 1; i < best_.size(); i += 2) {
      const vertex_t y = i + 1 < best_.size() ? best_[i + 1] : no_vertex;
      if (mate(best_[i]) != y) return false;
    }
    return true;
  }

  // The found augmentation's gain on the matching as it is now (the caller
  // holds the locks of its vertices, or no other thread runs): its new
  // edges less the matching edges at its vertices.
  template <class Matched>
  double gain_now(Matched matched) const {
    double gain = s_ != no_vertex ? -matched(best_[0]) : 0.0;
    for (std::size_t i = 0; i + 1 < best_.size(); i += 2) gain += edge_weight(g_, best_[i], best_[i + 1]);
    for (std::size_t i = 1; i + 1 < best_.size(); i += 2) gain -= matched(best_[i]);
    if (best_closes_) gain += edge_weight(g_, s_, best_.back());  // looked up as the search did
    return gain;
  }

  // M := M xor the found augmentation (best_ = r, x1, y1, x2, y2, ...: new
  // edges (r, x1), (y1, x2), ... and, for a cycle, (y_last, s)).
  template <class Mate, class Unmatch, class Match>
  void apply(Mate mate, Unmatch unmatch, Match match) const {
    for (vertex_t a : best_)
      if (mate(a) != no_vertex) unmatch(a);
    for (std::size_t i = 0; i + 1 < best_.size(); i += 2)
      match(best_[i], best_[i + 1], edge_weight(g_, best_[i], best_[i + 1]));
    if (best_closes_) match(best_.back(), s_, edge_weight(g_, s_, best_.back()));
  }

 private:
  template <class Mate, class Matched>
  void extend(vertex_t c, int depth, double gain, Mate mate, Matched matched) {
    const offset_t begin = lists_.offsets[c], end = lists_.offsets[c + 1];
    // The search is bound by the rows it enters next (each a cache miss):
    // the row pointers of the first candidates' mates are fetched ahead,
    // and each candidate's next one's row while this one is searched.
    const bool deeper = depth + 1 < length_;
    const offset_t ahead = std::min(end, begin + prefetched_candidates);
    if (deeper)
      for (offset_t k = begin; k < ahead; ++k)
        if (const vertex_t y = mate(lists_.cols[k]); y != no_vertex) matchblas::prefetch(lists_.offsets.data() + y);
    for (offset_t k = begin; k < end; ++k) {
      if (deeper && k + 1 < ahead)
        if (const vertex_t y = mate(lists_.cols[k + 1]); y != no_vertex) {
          matchblas::prefetch(lists_.weights.data() + lists_.offsets[y]);  // one past the end for an empty last row
          matchblas::prefetch(lists_.cols.data() + lists_.offsets[y]);
        }
      const double w = double(lists_.weights[k]);
      if (!(gain + w > 0)) return;  // the positive-gain rule; the rest of the list is lighter
      if (++added_ > long_search_budget) return;
      const vertex_t x = lists_.cols[k];
      if (on_path_[x]) continue;
      const vertex_t y = mate(x);
      if (y == no_vertex) {
        offer(gain + w, x, no_vertex, false);
        continue;
      }
      if (on_path_[y]) continue;
      const double after = gain + w - matched(x);
      offer(after, x, y, false);
      if (s_ != no_vertex && after + heaviest_to_s_ > best_gain_) {  // a closing edge could beat the best
        const double to_s = edge_weight(g_, s_, y);
        if (!std::isnan(to_s)) offer(after + to_s, x, y, true);
      }
      if (depth + 1 < length_) {
        on_path_[x] = on_path_[y] = 1;
        path_.push_back(x);
        path_.push_back(y);
        extend(y, depth + 1, after, mate, matched);
        path_.resize(path_.size() - 2);
        on_path_[x] = on_path_[y] = 0;
      }
    }
  }

  // The path so far extended by x (and y when matched) as the best yet, if
  // it gains more.
  void offer(double gain, vertex_t x, vertex_t y, bool closes) {
    if (!(gain > best_gain_)) return;
    best_gain_ = gain;
    best_ = path_;
    best_.push_back(x);
    if (y != no_vertex) best_.push_back(y);
    best_closes_ = closes;
  }

  const Csr<W>& g_;
  const Csr<W>& lists_;
  int length_;
  std::vector<char> on_path_;
  vertex_t s_ = no_vertex;
  std::vector<vertex_t> path_, best_;
  double best_gain_ = 0;
  double heaviest_to_s_ = 0;  // the heaviest edge at s: no closing edge weighs more
  bool best_closes_ = false;
  int added_ = 0;
};

// What the passes share: the graph, the candidate lists, the length, and
// each vertex's mate when the previous pass began.
template <class W>
class LongAugmentations {
 public:
  // g: the whole graph (the closing edges are looked up in it); length >= 3.
  // threads: those that build the lists. A search never reads more than
  // the budget's entries of a row, so no list is longer.
  LongAugmentations(const Csr<W>& g, int length, int candidates, int threads)
      : g_(g),
        lists_(candidate_lists(g, candidates > 0 ? std::min(candidates, long_search_budget) : long_search_budget,
                               CandidateOrder::greedy, threads)),
        length_(length),
        previous_(std::size_t(g.n_rows), no_vertex) {}

  const Csr<W>& graph() const { return g_; }
  const Csr<W>& lists() const { return lists_; }
  int length() const { return length_; }

  // The next pass's roots, in increasing order, into `out` (found on
  // `threads` threads): every vertex in the first pass, then those whose
  // mate changed since the previous pass began.
  template <class Mate>
  void roots(Mate mate, std::vector<vertex_t>& out, int threads = 1) {
    indices_where(g_.n_rows, out, [&](vertex_t v) { return first_ || mate(v) != previous_[std::size_t(v)]; },
                  threads);
    const auto size = std::int64_t(out.size());  // the others' mates are the ones they hold
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && size > scan_block)
    for (std::int64_t i = 0; i < size; ++i) previous_[std::size_t(out[std::size_t(i)])] = mate(out[std::size_t(i)]);
    first_ = 0;
  }

  // One pass on one thread from the roots of `order` (roots() shuffled);
  // returns the augmentations applied. mate(a) / matched(a) read the
  // matching, unmatch(a) frees a and its mate, match(a, b, w) pairs them
  // (the functions of roma_sparse_search.hpp).
  template <class Mate, class Matched, class Unmatch, class Match>
  std::int64_t pass(const std::vector<vertex_t>& order, double threshold, Mate mate, Matched matched,
                    Unmatch unmatch, Match match) {
    if (!search_) search_.emplace(*this);
    std::int64_t applied = 0;
    for (vertex_t r : order) {
      if (!search_->find(r, threshold, mate, matched)) continue;
      search_->apply(mate, unmatch, match);
      ++applied;
    }
    return applied;
  }

 private:
  const Csr<W>& g_;
  Csr<W> lists_;
  int length_;
  std::vector<vertex_t> previous_;  // each vertex's mate when the previous pass began
  char first_ = 1;
  std::optional<LongSearch<W>> search_;  // pass's
};

}  // namespace matchblas::roma_sparse_detail
