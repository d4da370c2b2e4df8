// roma-sparse (matchers/general/roma_sparse.hpp): the search for aug(v) and
// the phases.
#include "matchers/general/roma_sparse.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {

namespace {

constexpr std::uint64_t order_stream = 0x524f4d53;  // "ROMS": the phases' vertex orders

// The two largest arms (a vertex and its arm value) of a centre, distinct
// vertices; `none` where fewer exist.
struct TopTwo {
  vertex_t x1 = no_vertex, x2 = no_vertex;
  double a1 = 0, a2 = 0;
  void offer(vertex_t x, double a) {
    if (x1 == no_vertex || a > a1) {
      x2 = x1, a2 = a1;
      x1 = x, a1 = a;
    } else if (x2 == no_vertex || a > a2) {
      x2 = x, a2 = a;
    }
  }
};

// The best 2-augmentation centred at a vertex: new edges (v, x) and, when
// y != none, (u, y) with u = M[v]; x == none for a single arm at u.
struct Augmentation {
  double gain = 0;
  vertex_t x = no_vertex, y = no_vertex;
  double w_vx = 0, w_uy = 0;
};

template <class W>
class RomaSparse {
 public:
  RomaSparse(const Csr<W>& g, Matching start) : g_(g), m_(std::move(start)), mw_(g.n_rows, 0.0),
                                                stamp_(g.n_rows, -1), wu_(g.n_rows, 0.0) {
    for (vertex_t v = 0; v < g.n_rows; ++v)
      for (offset_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k)
        if (g.cols[k] == m_.mate[v]) mw_[v] = double(g.weights[k]);
  }

  const Matching& matching() const { return m_; }

  // aug(v): the best 2-augmentation centred at v (gain 0 when none gains).
  Augmentation best(vertex_t v) {
    const vertex_t u = m_.mate[v];
    TopTwo arms_v, arms_u;
    for (offset_t k = g_.offsets[v]; k < g_.offsets[v + 1]; ++k) {
      const vertex_t x = g_.cols[k];
      if (x != u) arms_v.offer(x, double(g_.weights[k]) - mw_[x]);
    }
    Augmentation best;
    const auto consider = [&](double gain, vertex_t x, vertex_t y) {
      if (gain > best.gain) best = {gain, x, y, 0, 0};
    };
    if (u == no_vertex) {
      if (arms_v.x1 != no_vertex) consider(arms_v.a1, arms_v.x1, no_vertex);
      return with_weights(v, best);
    }
    const double w_uv = mw_[v];
    ++token_;
    for (offset_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k) {
      const vertex_t y = g_.cols[k];
      if (y == v) continue;
      stamp_[y] = token_;
      wu_[y] = double(g_.weights[k]);
      arms_u.offer(y, double(g_.weights[k]) - mw_[y]);
    }
    if (arms_v.x1 != no_vertex) consider(arms_v.a1 - w_uv, arms_v.x1, no_vertex);
    if (arms_u.x1 != no_vertex) consider(arms_u.a1 - w_uv, no_vertex, arms_u.x1);
    // Two arms at different vertices (a 4-cycle's pair counts its shared
    // matching edge twice here, below its gain, which the loop below finds).
    if (arms_v.x1 != no_vertex && arms_u.x1 != no_vertex) {
      if (arms_v.x1 != arms_u.x1) {
        consider(arms_v.a1 + arms_u.a1 - w_uv, arms_v.x1, arms_u.x1);
      } else {
        if (arms_u.x2 != no_vertex) consider(arms_v.a1 + arms_u.a2 - w_uv, arms_v.x1, arms_u.x2);
        if (arms_v.x2 != no_vertex) consider(arms_v.a2 + arms_u.a1 - w_uv, arms_v.x2, arms_u.x1);
      }
    }
    // 4-cycles v-x, x-y matched, y-u.
    for (offset_t k = g_.offsets[v]; k < g_.offsets[v + 1]; ++k) {
      const vertex_t x = g_.cols[k], y = x == u ? no_vertex : m_.mate[x];
      if (y == no_vertex || stamp_[y] != token_) continue;
      consider(double(g_.weights[k]) + wu_[y] - w_uv - mw_[x], x, y);
    }
    return with_weights(v, best);
  }

  // M := M xor the augmentation: the new edges in, every matching edge at
  // their ends out.
  void apply(vertex_t v, const Augmentation& a) {
    const vertex_t u = m_.mate[v];
    if (u != no_vertex) unmatch(v);
    if (a.x != no_vertex && m_.mate[a.x] != no_vertex) unmatch(a.x);
    if (a.y != no_vertex && m_.mate[a.y] != no_vertex) unmatch(a.y);
    if (a.x != no_vertex) match(v, a.x, a.w_vx);
    if (a.y != no_vertex) match(u, a.y, a.w_uy);
  }

 private:
  // Fills in the new edges' weights (from v's and u's rows, binary search:
  // only for the augmentation applied).
  Augmentation with_weights(vertex_t v, Augmentation a) const {
    if (a.x != no_vertex) a.w_vx = weight(v, a.x);
    if (a.y != no_vertex) a.w_uy = weight(m_.mate[v], a.y);
    return a;
  }
  double weight(vertex_t a, vertex_t b) const {
    const auto first = g_.cols.begin() + g_.offsets[a], last = g_.cols.begin() + g_.offsets[a + 1];
    const auto it = std::lower_bound(first, last, b);
    MATCHBLAS_EXPECTS(it != last && *it == b, "roma-sparse: an augmentation's edge is not in the graph");
    return double(g_.weights[std::size_t(it - g_.cols.begin())]);
  }
  void unmatch(vertex_t a) {
    const vertex_t b = m_.mate[a];
    m_.mate[a] = m_.mate[b] = no_vertex;
    mw_[a] = mw_[b] = 0;
  }
  void match(vertex_t a, vertex_t b, double w) {
    m_.mate[a] = b;
    m_.mate[b] = a;
    mw_[a] = mw_[b] = w;
  }

  const Csr<W>& g_;
  Matching m_;
  std::vector<double> mw_;     // the weight of each vertex's matching edge (0: free)
  std::vector<int> stamp_;     // stamp_[y] == token_: y is a neighbour of the current mate, weight wu_[y]
  std::vector<double> wu_;
  int token_ = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

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
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse needs a general (square) graph");
  MATCHBLAS_EXPECTS(opt.phases >= 0 && opt.min_gain >= 0, "roma-sparse: phases and min-gain must be >= 0");
  const vertex_t n = g.n_rows;
  RomaRun run;
  auto t = std::chrono::steady_clock::now();
  RomaSparse<W> state(g, opt.start == RomaSparseStart::suitor ? suitor_seq(g, 1)
                         : opt.start == RomaSparseStart::gpa  ? gpa(g, 1)
                                                              : Matching(n));
  run.start_seconds = seconds_since(t);
  run.start_weight = matching_weight(g, state.matching());
  double largest = 0;
  for (const W& w : g.weights) largest = std::max(largest, double(w));
  const double threshold = opt.min_gain * largest;
  std::vector<vertex_t> order(static_cast<std::size_t>(n));
  for (int p = 0; p < opt.phases; ++p) {
    t = std::chrono::steady_clock::now();
    std::iota(order.begin(), order.end(), vertex_t(0));
    rng::shuffle(order, rng::Stream(opt.seed, order_stream + std::uint64_t(p)));
    RomaPhase phase;
    phase.phase = p;
    phase.scanned = n;
    for (vertex_t v : order) {
      const Augmentation a = state.best(v);
      if (a.gain > threshold) {
        state.apply(v, a);
        ++phase.flips;
      }
    }
    phase.seconds = seconds_since(t);
    phase.weight = matching_weight(g, state.matching());
    run.phases.push_back(phase);
    if (phase.flips == 0) break;
  }
  run.matching = state.matching();
  return run;
}

template RomaRun roma_sparse(const Csr<float>&, const RomaSparseOptions&);
template RomaRun roma_sparse(const Csr<double>&, const RomaSparseOptions&);

}  // namespace matchblas
