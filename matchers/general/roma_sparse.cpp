// roma-sparse (matchers/general/roma_sparse.hpp): the phases, sequential;
// the search for aug(v) is matchers/general/roma_sparse_search.hpp.
#include "matchers/general/roma_sparse.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "lib/radix_sort.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/general/roma_sparse_long.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace roma_sparse_detail {

template <class W>
Matching start_matching(const Csr<W>& g, RomaSparseStart s, int threads) {
  switch (s) {
    case RomaSparseStart::suitor:
      return threads > 1 ? suitor_cas(g, threads) : suitor_seq(g, 1);
    case RomaSparseStart::gpa:
      return gpa(g, std::max(threads, 1));
    case RomaSparseStart::empty:
      break;
  }
  return Matching(g.n_rows);
}
template Matching start_matching(const Csr<float>&, RomaSparseStart, int);
template Matching start_matching(const Csr<double>&, RomaSparseStart, int);

template <class W>
std::vector<double> matched_weights(const Csr<W>& g, const Matching& m, int threads) {
  std::vector<double> mw(static_cast<std::size_t>(g.n_rows), 0.0);
#pragma omp parallel for schedule(static, 4096) num_threads(threads) if (threads > 1)
  for (vertex_t v = 0; v < g.n_rows; ++v)
    if (m.mate[v] != no_vertex) mw[v] = edge_weight(g, v, m.mate[v]);
  return mw;
}
template std::vector<double> matched_weights(const Csr<float>&, const Matching&, int);
template std::vector<double> matched_weights(const Csr<double>&, const Matching&, int);

template <class W>
double augmentation_threshold(const Csr<W>& g, double min_gain, int threads) {
  double largest = 0;
  const auto size = std::int64_t(g.weights.size());
#pragma omp parallel for reduction(max : largest) schedule(static) num_threads(threads) if (threads > 1)
  for (std::int64_t k = 0; k < size; ++k) largest = std::max(largest, double(g.weights[std::size_t(k)]));
  return min_gain * largest;
}
template double augmentation_threshold(const Csr<float>&, double, int);
template double augmentation_threshold(const Csr<double>&, double, int);

void check_roma_sparse_options(const RomaSparseOptions& opt, const char* name) {
  MATCHBLAS_EXPECTS(opt.phases >= 0 && opt.min_gain >= 0, std::string(name) + ": phases and min-gain must be >= 0");
  MATCHBLAS_EXPECTS(opt.candidates >= 0, std::string(name) + ": candidates must be >= 0");
  MATCHBLAS_EXPECTS(opt.length >= 2, std::string(name) + ": length must be >= 2");
}

bool PhaseSchedule::next(std::int64_t flips) {
  const bool first = phases_++ == 0;
  if (flips == 0) {
    if (!longer_ || other_found_none_) return false;  // neither kind finds anything on this matching
    other_found_none_ = true;
    long_ = !long_;
    return true;
  }
  other_found_none_ = false;
  if (first && longer_) long_ = true;  // one phase of 2-augmentations over every vertex, then the long passes
  return true;
}

template <class W>
Csr<W> candidate_lists(const Csr<W>& g, int k, CandidateOrder order, int threads) {
  const vertex_t n = g.n_rows;
  const auto kept = [&](vertex_t v) {
    const offset_t degree = g.offsets[v + 1] - g.offsets[v];
    return k > 0 ? std::min(offset_t(k), degree) : degree;
  };
  Csr<W> c;
  c.n_rows = n;
  c.n_cols = g.n_cols;
  c.offsets.assign(std::size_t(n) + 1, 0);
  for (vertex_t v = 0; v < n; ++v) c.offsets[std::size_t(v) + 1] = c.offsets[v] + kept(v);
  c.cols.resize(std::size_t(c.offsets[n]));
  c.weights.resize(std::size_t(c.offsets[n]));
  // The greedy order on integers: a weight's order_key (lib/radix_sort.hpp:
  // the weights' order, -0 and +0 one key), larger first, then the smaller
  // column; neighbour_beats' order on weights that are not NaN, at a
  // fraction of its cost (the floating-point compares were most of the
  // lists' time). A weight comes back by from_order_key (a zero as +0).
  struct Ranked {
    std::uint64_t key;
    vertex_t col;
  };
  const auto heavier = [](const Ranked& a, const Ranked& b) {
    return a.key > b.key || (a.key == b.key && a.col < b.col);
  };
  // Each row on its own: the same lists on any thread count.
  AllocationGuard guard;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<Ranked> row;
#pragma omp for schedule(dynamic, 1024)
    for (vertex_t v = 0; v < n; ++v) guard.run([&] {
      row.clear();
      for (offset_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
        row.push_back({order_key(double(g.weights[e])), g.cols[e]});
      const auto keep = std::ptrdiff_t(kept(v));
      if (keep == std::ptrdiff_t(row.size())) std::sort(row.begin(), row.end(), heavier);
      else std::partial_sort(row.begin(), row.begin() + keep, row.end(), heavier);
      row.resize(std::size_t(keep));
      if (order == CandidateOrder::column)
        std::sort(row.begin(), row.end(), [](const Ranked& a, const Ranked& b) { return a.col < b.col; });
      offset_t out = c.offsets[v];
      for (const Ranked& r : row) {
        c.cols[std::size_t(out)] = r.col;
        c.weights[std::size_t(out++)] = W(from_order_key(r.key));
      }
    });
  }
  guard.rethrow();
  return c;
}
template Csr<float> candidate_lists(const Csr<float>&, int, CandidateOrder, int);
template Csr<double> candidate_lists(const Csr<double>&, int, CandidateOrder, int);

}  // namespace roma_sparse_detail

RomaSparseStart parse_roma_sparse_start(std::string_view name) {
  return parse_named(roma_sparse_start_names, name, "start matching");
}

std::string to_string(RomaSparseStart s) {
  return name_of(roma_sparse_start_names, s);
}

template <class W>
RomaRun roma_sparse(const Csr<W>& g, const RomaSparseOptions& opt) {
  using namespace roma_sparse_detail;
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse needs a general (square) graph");
  check_roma_sparse_options(opt, "roma-sparse");
  const vertex_t n = g.n_rows;
  RomaRun run;
  auto t = std::chrono::steady_clock::now();
  Matching m = start_matching(g, opt.start);
  run.start_seconds = seconds_since(t);
  run.start_weight = matching_weight(g, m);
  std::vector<double> mw = matched_weights(g, m);
  const Csr<W> lists = opt.candidates > 0 ? candidate_lists(g, opt.candidates, CandidateOrder::column, 1) : Csr<W>{};
  const Csr<W>& search = opt.candidates > 0 ? lists : g;
  // u's row scattered into a stamped array: the 4-cycles' w(u, y) in O(1).
  std::vector<int> stamp(static_cast<std::size_t>(n), -1);
  std::vector<double> wu(static_cast<std::size_t>(n), 0.0);
  int token = 0;
  const auto mate = [&](vertex_t a) { return m.mate[a]; };
  const auto matched = [&](vertex_t a) { return mw[a]; };
  const auto prepare = [&](vertex_t u) {
    ++token;
    for (offset_t k = search.offsets[u]; k < search.offsets[u + 1]; ++k) {
      stamp[search.cols[k]] = token;
      wu[search.cols[k]] = double(search.weights[k]);
    }
  };
  const auto weight_to_u = [&](vertex_t y) { return stamp[y] == token ? wu[y] : std::numeric_limits<double>::quiet_NaN(); };
  std::vector<vertex_t> changed;  // the vertices whose mate changed in this phase
  MarkedVertices marked(n);
  const auto unmatch = [&](vertex_t a) {
    const vertex_t b = m.mate[a];
    m.mate[a] = m.mate[b] = no_vertex;
    mw[a] = mw[b] = 0;
    changed.push_back(a);
    changed.push_back(b);
  };
  const auto match = [&](vertex_t a, vertex_t b, double w) {
    m.mate[a] = b;
    m.mate[b] = a;
    mw[a] = mw[b] = w;
    changed.push_back(a);
    changed.push_back(b);
  };
  const double threshold = augmentation_threshold(g, opt.min_gain);
  std::optional<LongAugmentations<W>> longer;
  if (opt.length > 2) longer.emplace(g, opt.length, opt.candidates, 1);
  std::vector<vertex_t> order;
  order.reserve(std::size_t(n));
  PhaseSchedule schedule(longer.has_value());
  for (int p = 0; p < opt.phases; ++p) {
    check_interrupt();
    t = std::chrono::steady_clock::now();
    // The phase's vertices (the long pass's roots, or the marked ones) in a
    // fresh seeded random order.
    if (schedule.long_pass()) longer->roots(mate, order);
    else marked.list(order);
    rng::shuffle(order, rng::Stream(opt.seed, order_stream + std::uint64_t(p)));
    RomaPhase phase;
    phase.phase = p;
    phase.scanned = std::int64_t(order.size());
    if (schedule.long_pass()) {
      phase.kernel = "long";
      phase.flips = longer->pass(order, threshold, mate, matched, unmatch, match);
    } else {
      for (vertex_t v : order) {
        marked.take(v);
        const Augmentation a = best_augmentation(search, v, mate, matched, prepare, weight_to_u);
        if (a.gain > threshold) {
          apply_augmentation(v, a, mate, unmatch, match);
          ++phase.flips;
        }
      }
    }
    marked.mark_around(g, changed, mate);
    phase.seconds = seconds_since(t);
    phase.weight = matched_total(n, mate, matched);
    run.phases.push_back(phase);
    if (!schedule.next(phase.flips)) break;
  }
  run.matching = std::move(m);
  return run;
}

template RomaRun roma_sparse(const Csr<float>&, const RomaSparseOptions&);
template RomaRun roma_sparse(const Csr<double>&, const RomaSparseOptions&);

}  // namespace matchblas
