// roma-sparse (matchers/general/roma_sparse.hpp): the phases, sequential;
// the search for aug(v) is matchers/general/roma_sparse_search.hpp.
#include "matchers/general/roma_sparse.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>

#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace roma_sparse_detail {

template <class W>
Matching start_matching(const Csr<W>& g, RomaSparseStart s) {
  return s == RomaSparseStart::suitor ? suitor_seq(g, 1) : s == RomaSparseStart::gpa ? gpa(g, 1) : Matching(g.n_rows);
}
template Matching start_matching(const Csr<float>&, RomaSparseStart);
template Matching start_matching(const Csr<double>&, RomaSparseStart);

template <class W>
std::vector<double> matched_weights(const Csr<W>& g, const Matching& m) {
  std::vector<double> mw(static_cast<std::size_t>(g.n_rows), 0.0);
  for (vertex_t v = 0; v < g.n_rows; ++v)
    if (m.mate[v] != no_vertex) mw[v] = edge_weight(g, v, m.mate[v]);
  return mw;
}
template std::vector<double> matched_weights(const Csr<float>&, const Matching&);
template std::vector<double> matched_weights(const Csr<double>&, const Matching&);

template <class W>
double augmentation_threshold(const Csr<W>& g, double min_gain) {
  double largest = 0;
  for (const W& w : g.weights) largest = std::max(largest, double(w));
  return min_gain * largest;
}
template double augmentation_threshold(const Csr<float>&, double);
template double augmentation_threshold(const Csr<double>&, double);

}  // namespace roma_sparse_detail

RomaSparseStart parse_roma_sparse_start(std::string_view name) {
  if (name == "suitor") return RomaSparseStart::suitor;
  if (name == "gpa") return RomaSparseStart::gpa;
  if (name == "empty") return RomaSparseStart::empty;
  throw invalid_input("unknown start matching '" + std::string(name) + "' (known: suitor, gpa, empty)");
}

std::string to_string(RomaSparseStart s) {
  return s == RomaSparseStart::suitor ? "suitor" : s == RomaSparseStart::gpa ? "gpa" : "empty";
}

template <class W>
RomaRun roma_sparse(const Csr<W>& g, const RomaSparseOptions& opt) {
  using namespace roma_sparse_detail;
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse needs a general (square) graph");
  MATCHBLAS_EXPECTS(opt.phases >= 0 && opt.min_gain >= 0, "roma-sparse: phases and min-gain must be >= 0");
  const vertex_t n = g.n_rows;
  RomaRun run;
  auto t = std::chrono::steady_clock::now();
  Matching m = start_matching(g, opt.start);
  run.start_seconds = seconds_since(t);
  run.start_weight = matching_weight(g, m);
  std::vector<double> mw = matched_weights(g, m);
  // u's row scattered into a stamped array: the 4-cycles' w(u, y) in O(1).
  std::vector<int> stamp(static_cast<std::size_t>(n), -1);
  std::vector<double> wu(static_cast<std::size_t>(n), 0.0);
  int token = 0;
  const auto mate = [&](vertex_t a) { return m.mate[a]; };
  const auto matched = [&](vertex_t a) { return mw[a]; };
  const auto prepare = [&](vertex_t u) {
    ++token;
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      stamp[g.cols[k]] = token;
      wu[g.cols[k]] = double(g.weights[k]);
    }
  };
  const auto weight_to_u = [&](vertex_t y) { return stamp[y] == token ? wu[y] : std::numeric_limits<double>::quiet_NaN(); };
  const auto unmatch = [&](vertex_t a) {
    const vertex_t b = m.mate[a];
    m.mate[a] = m.mate[b] = no_vertex;
    mw[a] = mw[b] = 0;
  };
  const auto match = [&](vertex_t a, vertex_t b, double w) {
    m.mate[a] = b;
    m.mate[b] = a;
    mw[a] = mw[b] = w;
  };
  const double threshold = augmentation_threshold(g, opt.min_gain);
  std::vector<vertex_t> order(static_cast<std::size_t>(n));
  for (int p = 0; p < opt.phases; ++p) {
    check_interrupt();
    t = std::chrono::steady_clock::now();
    std::iota(order.begin(), order.end(), vertex_t(0));
    rng::shuffle(order, rng::Stream(opt.seed, order_stream + std::uint64_t(p)));
    RomaPhase phase;
    phase.phase = p;
    phase.scanned = n;
    for (vertex_t v : order) {
      const Augmentation a = best_augmentation(g, v, mate, matched, prepare, weight_to_u);
      if (a.gain > threshold) {
        apply_augmentation(v, a, mate, unmatch, match);
        ++phase.flips;
      }
    }
    phase.seconds = seconds_since(t);
    phase.weight = matching_weight(g, m);
    run.phases.push_back(phase);
    if (phase.flips == 0) break;
  }
  run.matching = std::move(m);
  return run;
}

template RomaRun roma_sparse(const Csr<float>&, const RomaSparseOptions&);
template RomaRun roma_sparse(const Csr<double>&, const RomaSparseOptions&);

}  // namespace matchblas
