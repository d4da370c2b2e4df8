// The seeded graph generators of datasets/generators.hpp: complete graphs
// (N. H. Hovland, "Maximum weighted matching on a GPU", Master's thesis,
// University of Bergen, 2020, sec. 5.1: uniform [0,1], exponential
// lambda = 3.5, geometric), Erdos-Renyi, R-MAT (Chakrabarti, Zhan, Faloutsos
// 2004, Graph500 quadrant rule without noise or permutation), 2-D grids and
// K_{s,s} (A. Thorsen, P. Merkey, "Approximating weighted matchings using the
// partitioned global address space model", Tech. Report CS-TR-10-02,
// Michigan Technological University, 2010, sec. 6), geometric
// k-nearest-neighbour graphs.
//
// Every draw comes from lib/counter_rng.hpp, keyed by (seed, stream,
// index): drawn edge k of er/rmat takes its endpoints and its weight from
// index k, a grid or bipartite edge from its position, pair u < v of a
// complete graph from v(v-1)/2 + u, point i of a geometric or knn graph
// from i. The loops are OpenMP loops over those indices, so the graph is the
// same for any thread count.
//
// Cost: complete graphs O(n^2) work, parallel over rows; er/rmat O(m) (rmat
// O(m log n)) parallel draws, then csr_from_triples (lib/csr_build.hpp:
// parallel count, scatter and per-row sorts); grid and bipartite O(edges),
// written straight into the Csr in parallel; knn O(n k log k) expected for
// the neighbour search (datasets/nearest_neighbours.cpp), then
// csr_from_triples on both directions of the n k neighbour pairs.
#include "datasets/generators.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "datasets/nearest_neighbours.hpp"
#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"

namespace matchblas {

namespace {

using namespace gen_detail;  // stream ids, tie_value (lib/complete_weights.hpp)

constexpr std::int64_t max_edges = std::int64_t(1) << 32;   // edges drawn or generated
constexpr double max_dense_bytes = 274877906944.0;          // 2^38 bytes of dense weights

// A sparse graph's weight: uniform (0,1], or a tie value.
double sparse_weight(const rng::Stream& s, std::uint64_t i, int ties) {
  return ties > 0 ? tie_value(s, i, ties) : s.uniform_open_closed(i);
}

void check_size(vertex_t n, const GenOptions& opt, const std::string& what) {
  MATCHBLAS_EXPECTS(n >= 0, what + ": the size must be >= 0, got " + std::to_string(n));
  MATCHBLAS_EXPECTS(opt.ties >= 0, what + ": ties must be >= 0, got " + std::to_string(opt.ties));
}

// round(edge_factor * n), checked.
std::int64_t drawn_edges(vertex_t n, const GenOptions& opt, const std::string& what) {
  MATCHBLAS_EXPECTS(std::isfinite(opt.edge_factor) && opt.edge_factor >= 0,
                    what + ": edge_factor must be finite and >= 0, got " +
                        std::to_string(opt.edge_factor));
  const double m = std::round(opt.edge_factor * static_cast<double>(n));
  MATCHBLAS_EXPECTS(m <= static_cast<double>(max_edges),
                    what + ": edge_factor * n = " + std::to_string(m) +
                        " edges is more than the limit of 2^32");
  return static_cast<std::int64_t>(m);
}

// k of knn_graph: round(edge_factor) clamped to [1, n - 1]; 0 for n < 2.
vertex_t knn_neighbours(vertex_t n, const GenOptions& opt) {
  MATCHBLAS_EXPECTS(std::isfinite(opt.edge_factor) && opt.edge_factor >= 0,
                    "knn_graph: edge_factor (k) must be finite and >= 0, got " + std::to_string(opt.edge_factor));
  if (n < 2) return 0;
  const double k = std::clamp(std::round(opt.edge_factor), 1.0, double(n) - 1);
  MATCHBLAS_EXPECTS(k * double(n) <= static_cast<double>(max_edges),
                    "knn_graph: n * k = " + std::to_string(n) + " * " + std::to_string(std::int64_t(k)) +
                        " neighbour pairs is more than the limit of 2^32");
  return static_cast<vertex_t>(k);
}

template <class W>
Csr<W> empty_graph(vertex_t n) {
  Csr<W> g;
  g.n_rows = g.n_cols = n;
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  return g;
}

// The general graph of m drawn edges, edge k = draw(k) with the weight of
// draw index k: both directions as triples, duplicates keep the largest
// weight. A self-loop is written with weight 0, so that csr_from_triples
// drops it (drop_zeros; every other weight is > 0): no compaction pass.
template <class W, class Draw>
Csr<W> graph_from_draws(vertex_t n, std::int64_t m, const GenOptions& opt, Draw draw) {
  const rng::Stream ws(opt.seed, s_weight);
  Triples<W> t;
  t.row.resize(static_cast<std::size_t>(2 * m));
  t.col.resize(static_cast<std::size_t>(2 * m));
  t.val.resize(static_cast<std::size_t>(2 * m));
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < m; ++k) {
    const auto [u, v] = draw(k);
    const W w = u == v ? W(0)
                       : static_cast<W>(sparse_weight(ws, static_cast<std::uint64_t>(k), opt.ties));
    t.row[2 * k] = u, t.col[2 * k] = v, t.val[2 * k] = w;
    t.row[2 * k + 1] = v, t.col[2 * k + 1] = u, t.val[2 * k + 1] = w;
  }
  return csr_from_triples(n, n, t, Duplicates::max, /*drop_zeros=*/true);
}

// The endpoints of drawn edge k of er or rmat, a function of (seed, k)
// alone: erdos_renyi and rmat draw every k, draw_part a range of them.
struct EdgeDraw {
  bool rmat = false;
  std::int64_t m = 0;  // edges drawn
  rng::Stream stream;
  std::uint64_t bound = 0;                // er: n
  int scale = 0;                          // rmat: log2 n
  std::uint64_t ta = 0, tab = 0, tabc = 0;  // rmat: the quadrant thresholds
  std::pair<vertex_t, vertex_t> operator()(std::int64_t k) const {
    const auto i = static_cast<std::uint64_t>(k);
    if (!rmat)
      return {static_cast<vertex_t>(stream.below(2 * i, bound)), static_cast<vertex_t>(stream.below(2 * i + 1, bound))};
    // h = hash(seed, rmat, k) starts a splitmix64 sequence whose words give
    // two 32-bit uniforms each; level l (highest bit first) uses the l-th
    // and picks the quadrant: a top-left, b top-right, c bottom-left, d
    // bottom-right.
    const std::uint64_t h = stream.bits(i);
    std::uint32_t u = 0, v = 0;
    std::uint64_t word = 0;
    for (int l = 0; l < scale; ++l) {
      if (l % 2 == 0) word = rng::mix64(h + static_cast<std::uint64_t>(l / 2) * 0x9E3779B97F4A7C15ull);
      const std::uint64_t r = l % 2 == 0 ? word >> 32 : word & 0xFFFFFFFFull;
      const std::uint32_t down = r >= tab, right = (r >= ta && r < tab) || r >= tabc;
      u = (u << 1) | down, v = (v << 1) | right;
    }
    return {static_cast<vertex_t>(u), static_cast<vertex_t>(v)};
  }
};

// The draw of `kind` ("er" or "rmat") with the arguments checked.
EdgeDraw edge_draw(const std::string& kind, vertex_t n, const GenOptions& opt) {
  const bool is_rmat = kind == "rmat";
  if (!is_rmat && kind != "er")
    throw invalid_input("draw_part: '" + kind + "' is not a drawn generator kind (er, rmat)");
  const std::string what = is_rmat ? "rmat" : "erdos_renyi";
  check_size(n, opt, what);
  EdgeDraw d{is_rmat, 0, rng::Stream(opt.seed, is_rmat ? s_rmat : s_er)};
  if (is_rmat) {
    const double a = opt.rmat_a, b = opt.rmat_b, c = opt.rmat_c;
    MATCHBLAS_EXPECTS(std::isfinite(a) && std::isfinite(b) && std::isfinite(c) && a >= 0 &&
                          b >= 0 && c >= 0 && a + b + c < 1,
                      "rmat: probabilities a, b, c must be >= 0 with a + b + c < 1 (d = 1 - a - b - c "
                      "> 0), got a = " + std::to_string(a) + ", b = " + std::to_string(b) +
                          ", c = " + std::to_string(c));
    MATCHBLAS_EXPECTS((n & (n - 1)) == 0,
                      "rmat needs a power-of-two vertex count, got " + std::to_string(n));
    auto threshold = [](double p) { return static_cast<std::uint64_t>(std::ldexp(p, 32)); };
    d.ta = threshold(a), d.tab = threshold(a + b), d.tabc = threshold(a + b + c);
    d.scale = n < 2 ? 0 : std::countr_zero(static_cast<std::uint32_t>(n));
  }
  d.m = drawn_edges(n, opt, what);
  d.bound = static_cast<std::uint64_t>(n);
  return d;
}

}  // namespace

template <class W>
Dense<W> complete_graph(WeightDist dist, vertex_t n, const GenOptions& opt) {
  check_size(n, opt, "complete graph");
  MATCHBLAS_EXPECTS(static_cast<double>(n) * n * sizeof(W) <= max_dense_bytes,
                    "complete graph: " + std::to_string(n) +
                        " vertices need more than the limit of 2^38 bytes of weights");
  Dense<W> d(n);
  std::vector<double> x, y;
  if (dist == WeightDist::geometric) {
    x.resize(static_cast<std::size_t>(n)), y.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
    for (vertex_t i = 0; i < n; ++i)
      x[i] = CompleteWeights::point_x(opt.seed, i), y[i] = CompleteWeights::point_y(opt.seed, i);
  }
  const CompleteWeights weight(dist, opt.ties, opt.seed, x.data(), y.data());
#pragma omp parallel for schedule(dynamic, 16)
  for (vertex_t u = 0; u < n; ++u) {
    W* row = d.values.data() + static_cast<std::size_t>(u) * static_cast<std::size_t>(n);
    for (vertex_t v = 0; v < n; ++v)
      row[v] = u == v ? W(0) : static_cast<W>(weight(std::min(u, v), std::max(u, v)));
  }
  return d;
}

template <class W>
Csr<W> erdos_renyi(vertex_t n, const GenOptions& opt) {
  const EdgeDraw draw = edge_draw("er", n, opt);
  if (n < 2) return empty_graph<W>(n);
  return graph_from_draws<W>(n, draw.m, opt, draw);
}

template <class W>
Csr<W> rmat(vertex_t n, const GenOptions& opt) {
  const EdgeDraw draw = edge_draw("rmat", n, opt);
  if (n < 2) return empty_graph<W>(n);
  return graph_from_draws<W>(n, draw.m, opt, draw);
}

template <class W>
std::vector<DrawnEdge> draw_part(const std::string& kind, vertex_t n, const GenOptions& opt, int part, int parts,
                                 std::int64_t* drawn) {
  MATCHBLAS_EXPECTS(parts >= 1 && part >= 0 && part < parts, "draw_part: part must be in 0..parts-1");
  const EdgeDraw draw = edge_draw(kind, n, opt);
  if (drawn) *drawn = n < 2 ? 0 : draw.m;
  if (n < 2) return {};
  const std::int64_t k0 = draw.m / parts * part + draw.m % parts * part / parts;
  const std::int64_t k1 = draw.m / parts * (part + 1) + draw.m % parts * (part + 1) / parts;
  const rng::Stream ws(opt.seed, s_weight);
  std::vector<DrawnEdge> out(static_cast<std::size_t>(k1 - k0));
#pragma omp parallel for schedule(static)
  for (std::int64_t k = k0; k < k1; ++k) {
    const auto [u, v] = draw(k);
    const W w = u == v ? W(0) : static_cast<W>(sparse_weight(ws, static_cast<std::uint64_t>(k), opt.ties));
    out[static_cast<std::size_t>(k - k0)] = {u, v, double(w)};
  }
  return out;
}

template <class W>
Csr<W> grid2d(vertex_t side, const GenOptions& opt) {
  check_size(side, opt, "grid2d");
  MATCHBLAS_EXPECTS(std::int64_t(side) * side <= std::numeric_limits<vertex_t>::max(),
                    "grid2d: side " + std::to_string(side) + " gives more than 2^31 - 1 vertices");
  const vertex_t n = side * side;
  Csr<W> g = empty_graph<W>(n);
  const auto s = static_cast<std::int64_t>(side);
  auto degree = [&](std::int64_t r, std::int64_t c) {
    return (r > 0) + (c > 0) + (c + 1 < s) + (r + 1 < s);
  };
  for (std::int64_t u = 0; u < n; ++u) g.offsets[u + 1] = g.offsets[u] + degree(u / s, u % s);
  g.cols.resize(static_cast<std::size_t>(g.offsets[n]));
  g.weights.resize(g.cols.size());
  const rng::Stream ws(opt.seed, s_weight);
  // Edge (r,c)-(r,c+1) has index r(s-1) + c; edge (r,c)-(r+1,c) s(s-1) + rs + c.
  auto right = [&](std::int64_t r, std::int64_t c) {
    return static_cast<W>(sparse_weight(ws, static_cast<std::uint64_t>(r * (s - 1) + c), opt.ties));
  };
  auto down = [&](std::int64_t r, std::int64_t c) {
    return static_cast<W>(
        sparse_weight(ws, static_cast<std::uint64_t>(s * (s - 1) + r * s + c), opt.ties));
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t u = 0; u < n; ++u) {
    const std::int64_t r = u / s, c = u % s;
    offset_t p = g.offsets[u];
    auto put = [&](std::int64_t v, W w) { g.cols[p] = static_cast<vertex_t>(v), g.weights[p++] = w; };
    if (r > 0) put(u - s, down(r - 1, c));
    if (c > 0) put(u - 1, right(r, c - 1));
    if (c + 1 < s) put(u + 1, right(r, c));
    if (r + 1 < s) put(u + s, down(r, c));
  }
  return g;
}

template <class W>
Csr<W> complete_bipartite(vertex_t side, const GenOptions& opt) {
  check_size(side, opt, "complete_bipartite");
  MATCHBLAS_EXPECTS(std::int64_t(side) * 2 <= std::numeric_limits<vertex_t>::max() &&
                        std::int64_t(side) * side <= max_edges,
                    "complete_bipartite: side " + std::to_string(side) +
                        " gives more than 2^32 edges or 2^31 - 1 vertices");
  const auto s = static_cast<std::int64_t>(side);
  Csr<W> g = empty_graph<W>(static_cast<vertex_t>(2 * s));
  for (std::int64_t u = 0; u < 2 * s; ++u) g.offsets[u + 1] = (u + 1) * s;
  g.cols.resize(static_cast<std::size_t>(2 * s * s));
  g.weights.resize(g.cols.size());
  const rng::Stream ws(opt.seed, s_weight);
  // Edge (i, s + j) has index i s + j; row u lists the other side in order.
#pragma omp parallel for schedule(static)
  for (std::int64_t u = 0; u < 2 * s; ++u) {
    const bool left = u < s;
    const std::int64_t me = left ? u : u - s, first = left ? s : 0;
    for (std::int64_t j = 0; j < s; ++j) {
      const std::int64_t idx = left ? me * s + j : j * s + me;
      g.cols[u * s + j] = static_cast<vertex_t>(first + j);
      g.weights[u * s + j] =
          static_cast<W>(sparse_weight(ws, static_cast<std::uint64_t>(idx), opt.ties));
    }
  }
  return g;
}

template <class W>
Csr<W> knn_graph(vertex_t n, const GenOptions& opt) {
  check_size(n, opt, "knn_graph");
  const vertex_t k = knn_neighbours(n, opt);
  if (n < 2) return empty_graph<W>(n);
  const auto nk = static_cast<std::int64_t>(n) * k;
  Triples<W> t;
  {
    std::vector<double> x(static_cast<std::size_t>(n)), y(x.size());
#pragma omp parallel for schedule(static)
    for (vertex_t i = 0; i < n; ++i)
      x[i] = CompleteWeights::point_x(opt.seed, i), y[i] = CompleteWeights::point_y(opt.seed, i);
    const std::vector<vertex_t> near = nearest_neighbours(x, y, k);
    // The complete geometric graph's pair weights; 0 (the same point twice)
    // becomes 2^-53, below every other distance.
    const CompleteWeights weight(WeightDist::geometric, opt.ties, opt.seed, x.data(), y.data());
    t.row.resize(static_cast<std::size_t>(2 * nk));
    t.col.resize(t.row.size());
    t.val.resize(t.row.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < nk; ++i) {
      const auto u = static_cast<vertex_t>(i / k), v = near[i];
      const W w = static_cast<W>(std::max(weight(std::min(u, v), std::max(u, v)), 0x1.0p-53));
      t.row[2 * i] = u, t.col[2 * i] = v, t.val[2 * i] = w;
      t.row[2 * i + 1] = v, t.col[2 * i + 1] = u, t.val[2 * i + 1] = w;
    }
  }
  // A pair that is a neighbour both ways comes twice, with equal weights.
  return csr_from_triples(n, n, t, Duplicates::max, /*drop_zeros=*/false);
}

namespace {
template <class W, WeightDist D>
Dense<W> complete_of(vertex_t n, const GenOptions& opt) {
  return complete_graph<W>(D, n, opt);
}

// Sizes and peak bytes (double weights). Drawn edges (er, rmat): 2m
// triples (32 m), csr_from_triples' entries (32 m) and output (24 m), its
// row arrays (24 n); grid and bipartite write their Csr directly (8 n +
// 24 m); complete: n^2 weights and the geometric kind's points.
GeneratedSize drawn_size(vertex_t n, const GenOptions& opt) {
  const double m = std::round(std::max(0.0, opt.edge_factor) * double(n));
  return {double(n), m, 24.0 * (double(n) + 1) + 88.0 * m};
}
GeneratedSize grid_size(vertex_t side, const GenOptions&) {
  const double v = double(side) * double(side), m = 2 * (v - std::min<double>(v, side));
  return {v, m, 8.0 * (v + 1) + 24.0 * m};
}
GeneratedSize bipartite_size(vertex_t side, const GenOptions&) {
  const double m = double(side) * double(side);
  return {2.0 * side, m, 8.0 * (2.0 * side + 1) + 24.0 * m};
}
// knn: the points (16 n), the sorted copy and cells (24 n) and the
// neighbour lists (4 n k) beside the triples (32 n k); then, as drawn
// edges, triples, csr_from_triples' entries and output (88 n k + 24 n).
GeneratedSize knn_size(vertex_t n, const GenOptions& opt) {
  const double k = n < 2 ? 0 : std::clamp(std::round(std::max(0.0, opt.edge_factor)), 1.0, double(n) - 1);
  const double pairs = double(n) * k;
  return {double(n), std::min(pairs, double(n) * (double(n) - 1) / 2),
          std::max(40.0 * double(n) + 36.0 * pairs, 24.0 * (double(n) + 1) + 88.0 * pairs)};
}
GeneratedSize complete_size(vertex_t n, const GenOptions&) {
  return {double(n), double(n) * (double(n) - 1) / 2, 8.0 * double(n) * double(n) + 16.0 * double(n)};
}

template <WeightDist D>
GeneratorKind complete_kind(std::string name, std::string size) {
  return {std::move(name), true, std::move(size), nullptr, nullptr, &complete_of<float, D>, &complete_of<double, D>,
          &complete_size};
}

template <Csr<float> (*F)(vertex_t, const GenOptions&), Csr<double> (*D)(vertex_t, const GenOptions&)>
GeneratorKind sparse_kind(std::string name, std::string help, GeneratedSize (*size)(vertex_t, const GenOptions&),
                          bool takes_edge_factor) {
  return {std::move(name), false, std::move(help), F, D, nullptr, nullptr, size, takes_edge_factor};
}

[[noreturn]] void unknown_kind(const std::string& kind, bool complete) {
  throw invalid_input("unknown " + std::string(complete ? "complete" : "sparse") + " generator kind '" + kind +
                      "'; valid kinds: " + generator_kind_names(complete));
}
}  // namespace

const std::vector<GeneratorKind>& generator_kinds() {
  static const std::vector<GeneratorKind> kinds = {
      complete_kind<WeightDist::uniform>("complete-uniform", "vertices; weights uniform in [0,1]"),
      complete_kind<WeightDist::exponential>("complete-exponential", "vertices; weights exponential, lambda = 3.5"),
      complete_kind<WeightDist::geometric>("complete-geometric",
                                           "vertices; weights = distances of random points in the unit square"),
      sparse_kind<&erdos_renyi<float>, &erdos_renyi<double>>("er", "vertices; edge_factor * N random edges", &drawn_size,
                                                             true),
      sparse_kind<&rmat<float>, &rmat<double>>("rmat", "vertices, a power of two; edge_factor * N R-MAT edges",
                                                             &drawn_size, true),
      sparse_kind<&grid2d<float>, &grid2d<double>>("grid", "side; N x N vertices, 4-neighbour", &grid_size, false),
      sparse_kind<&complete_bipartite<float>, &complete_bipartite<double>>("bipartite", "side; K_{N,N}, 2N vertices",
                                                                                &bipartite_size, false),
      sparse_kind<&knn_graph<float>, &knn_graph<double>>(
          "knn", "vertices = random points in the unit square, each joined to its k nearest (k = edge_factor rounded, "
                 "1..N-1); weights = distances",
          &knn_size, true),
  };
  return kinds;
}

const GeneratorKind* find_generator_kind(std::string_view name) {
  for (const GeneratorKind& k : generator_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::string generator_kind_names() {
  std::string names;
  for (const GeneratorKind& k : generator_kinds()) names += (names.empty() ? "" : ", ") + k.name;
  return names;
}

std::string generator_kind_names(bool complete) {
  std::string names;
  for (const GeneratorKind& k : generator_kinds())
    if (k.complete == complete) names += (names.empty() ? "" : ", ") + k.name;
  return names;
}

template <class W>
Csr<W> generate_sparse(const std::string& kind, vertex_t n, const GenOptions& opt) {
  const GeneratorKind* k = find_generator_kind(kind);
  if (!k || k->complete) unknown_kind(kind, false);
  if constexpr (std::is_same_v<W, float>) return k->sparse_float(n, opt);
  else return k->sparse_double(n, opt);
}

template <class W>
Dense<W> generate_complete(const std::string& kind, vertex_t n, const GenOptions& opt) {
  const GeneratorKind* k = find_generator_kind(kind);
  if (!k || !k->complete) unknown_kind(kind, true);
  if constexpr (std::is_same_v<W, float>) return k->complete_float(n, opt);
  else return k->complete_double(n, opt);
}

#define MATCHBLAS_INSTANTIATE(W)                                                        \
  template Dense<W> complete_graph<W>(WeightDist, vertex_t, const GenOptions&);         \
  template Csr<W> erdos_renyi<W>(vertex_t, const GenOptions&);                          \
  template Csr<W> rmat<W>(vertex_t, const GenOptions&);                                 \
  template std::vector<DrawnEdge> draw_part<W>(const std::string&, vertex_t, const GenOptions&, int, int,  \
                                               std::int64_t*);                                          \
  template Csr<W> grid2d<W>(vertex_t, const GenOptions&);                               \
  template Csr<W> complete_bipartite<W>(vertex_t, const GenOptions&);                   \
  template Csr<W> knn_graph<W>(vertex_t, const GenOptions&);                            \
  template Csr<W> generate_sparse<W>(const std::string&, vertex_t, const GenOptions&);  \
  template Dense<W> generate_complete<W>(const std::string&, vertex_t, const GenOptions&);
MATCHBLAS_INSTANTIATE(float)
MATCHBLAS_INSTANTIATE(double)
#undef MATCHBLAS_INSTANTIATE

}  // namespace matchblas
