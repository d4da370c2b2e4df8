#include "tests/check/check.hpp"

#include <algorithm>
#include <optional>
#include <functional>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>

namespace matchblas::check {

namespace {
double draw_weight(std::mt19937_64& rng, int ties) {
  if (ties > 0) return double(std::uniform_int_distribution<int>(1, ties)(rng)) / ties;
  return 1.0 - std::uniform_real_distribution<double>(0.0, 1.0)(rng);  // (0, 1]
}
}  // namespace

std::vector<int> random_b(vertex_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> b(static_cast<std::size_t>(n));
  for (int& x : b) x = int(rng() % 5);
  return b;
}

MarriageInstance independent_marriage_lists(vertex_t men, vertex_t women, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MarriageInstance inst;
  inst.men = men;
  inst.women = women;
  const auto side = [&](vertex_t count, vertex_t other, std::vector<offset_t>& off, std::vector<vertex_t>& lists) {
    off.assign(1, 0);
    for (vertex_t a = 0; a < count; ++a) {
      std::vector<vertex_t> list;
      for (vertex_t b = 0; b < other; ++b)
        if (std::uniform_real_distribution<double>(0, 1)(rng) < density) list.push_back(b);
      std::shuffle(list.begin(), list.end(), rng);
      lists.insert(lists.end(), list.begin(), list.end());
      off.push_back(offset_t(lists.size()));
    }
  };
  side(men, women, inst.men_offsets, inst.men_lists);
  side(women, men, inst.women_offsets, inst.women_lists);
  return inst;
}

Csr<double> random_graph(vertex_t n, double density, int ties, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::pair<vertex_t, double>>> adj(n);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = u + 1; v < n; ++v)
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < density) {
        const double w = draw_weight(rng, ties);
        adj[u].push_back({v, w});
        adj[v].push_back({u, w});
      }
  Csr<double> g;
  g.n_rows = g.n_cols = n;
  g.offsets.assign(1, 0);
  for (vertex_t u = 0; u < n; ++u) {
    std::sort(adj[u].begin(), adj[u].end());
    for (auto [v, w] : adj[u]) {
      g.cols.push_back(v);
      g.weights.push_back(w);
    }
    g.offsets.push_back(static_cast<offset_t>(g.cols.size()));
  }
  return g;
}

Csr<double> with_diagonal(const Csr<double>& a, const std::function<double(vertex_t)>& weight) {
  Csr<double> b;
  b.n_rows = a.n_rows;
  b.n_cols = a.n_cols;
  b.offsets.assign(1, 0);
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    bool placed = i >= a.n_cols;
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      if (!placed && a.cols[k] >= i) {
        if (a.cols[k] != i) {
          b.cols.push_back(i);
          b.weights.push_back(weight(i));
        }
        placed = true;
      }
      b.cols.push_back(a.cols[k]);
      b.weights.push_back(a.weights[k]);
    }
    if (!placed) {
      b.cols.push_back(i);
      b.weights.push_back(weight(i));
    }
    b.offsets.push_back(static_cast<offset_t>(b.cols.size()));
  }
  return b;
}

Csr<double> random_matrix(vertex_t rows, vertex_t cols, double density, int ties, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Csr<double> a;
  a.n_rows = rows;
  a.n_cols = cols;
  for (vertex_t u = 0; u < rows; ++u) {
    for (vertex_t v = 0; v < cols; ++v)
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < density) {
        a.cols.push_back(v);
        a.weights.push_back(draw_weight(rng, ties));
      }
    a.offsets.push_back(static_cast<offset_t>(a.cols.size()));
  }
  return a;
}

template <class W>
Csr<W> random_signed_matrix(vertex_t rows, vertex_t cols, double density, std::uint64_t seed) {
  const Csr<double> a = random_matrix(rows, cols, density, 7, seed);
  Csr<W> b{a.n_rows, a.n_cols, a.offsets, a.cols, {}};
  for (double w : a.weights) b.weights.push_back(W(std::lround(7 * w) - 4));
  return b;
}
template Csr<float> random_signed_matrix(vertex_t, vertex_t, double, std::uint64_t);
template Csr<double> random_signed_matrix(vertex_t, vertex_t, double, std::uint64_t);

Csr<double> scramble_rows(const Csr<double>& a, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Csr<double> b;
  b.n_rows = a.n_rows;
  b.n_cols = a.n_cols;
  for (vertex_t u = 0; u < a.n_rows; ++u) {
    std::vector<std::pair<vertex_t, double>> row;
    for (offset_t k = a.offsets[u]; k < a.offsets[u + 1]; ++k) {
      row.push_back({a.cols[k], a.weights[k]});
      if (rng() % 4 == 0) row.push_back({a.cols[k], a.weights[k] + 1});
    }
    std::shuffle(row.begin(), row.end(), rng);
    for (auto [v, w] : row) {
      b.cols.push_back(v);
      b.weights.push_back(w);
    }
    b.offsets.push_back(static_cast<offset_t>(b.cols.size()));
  }
  return b;
}

Dense<double> random_complete_graph(vertex_t n, int ties, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Dense<double> d(n);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = u + 1; v < n; ++v) d(u, v) = d(v, u) = draw_weight(rng, ties);
  return d;
}

namespace {
// best[mask] = heaviest matching inside the vertex set `mask`, by removing
// its lowest vertex u and either leaving u free or matching it to v in mask.
template <class WeightOf>
double brute_force(vertex_t n, bool perfect, WeightOf weight_of) {
  REQUIRE(n <= 20);
  const double none = -std::numeric_limits<double>::infinity();
  std::vector<double> best(std::size_t(1) << n, none);
  best[0] = 0;
  for (std::size_t mask = 1; mask < best.size(); ++mask) {
    const int u = __builtin_ctzll(mask);
    const std::size_t rest = mask & ~(std::size_t(1) << u);
    double b = perfect ? none : best[rest];
    for (int v = u + 1; v < n; ++v) {
      if (!(rest >> v & 1)) continue;
      const double w = weight_of(u, v);  // NaN: no edge
      const double sub = best[rest & ~(std::size_t(1) << v)];
      if (!std::isnan(w) && sub != none) b = std::max(b, w + sub);
    }
    best[mask] = b;
  }
  return best.back();
}
}  // namespace

TwoAugmentation largest_2_augmentation(const Csr<double>& g, const Matching& m, const Csr<double>* lists) {
  const auto w = [&](vertex_t a, vertex_t b) {
    for (offset_t k = g.offsets[a]; k < g.offsets[a + 1]; ++k)
      if (g.cols[k] == b) return g.weights[k];
    FAIL("no edge (" << a << ", " << b << ")");
    return 0.0;
  };
  const auto neighbours_or_none = [&](vertex_t a) {
    std::vector<vertex_t> out = {no_vertex};
    const Csr<double>& from = lists ? *lists : g;
    if (a != no_vertex)
      for (offset_t k = from.offsets[a]; k < from.offsets[a + 1]; ++k) out.push_back(from.cols[k]);
    return out;
  };
  TwoAugmentation best;
  for (vertex_t v = 0; v < g.n_rows; ++v) {
    const vertex_t u = m.mate[v];
    for (vertex_t x : neighbours_or_none(v))
      for (vertex_t y : neighbours_or_none(u)) {
        if ((x == no_vertex && y == no_vertex) || x == u || y == v || (x != no_vertex && x == y)) continue;
        std::vector<std::pair<vertex_t, vertex_t>> added, removed;
        if (x != no_vertex) added.push_back({v, x});
        if (y != no_vertex) added.push_back({u, y});
        for (const auto& [a, b] : added)
          for (vertex_t end : {a, b}) {
            const vertex_t mate = m.mate[end];
            if (mate == no_vertex) continue;
            const std::pair<vertex_t, vertex_t> e{std::min(end, mate), std::max(end, mate)};
            if (std::find(removed.begin(), removed.end(), e) == removed.end()) removed.push_back(e);
          }
        double gain = 0;
        for (const auto& [a, b] : added) gain += w(a, b);
        for (const auto& [a, b] : removed) gain -= w(a, b);
        if (gain > best.gain) best = {gain, v, x, y};
      }
  }
  return best;
}

double largest_alternating_cycle(const Csr<double>& g, const Matching& m, int k) {
  const auto weight = [&](vertex_t a, vertex_t b) {
    for (offset_t e = g.offsets[a]; e < g.offsets[a + 1]; ++e)
      if (g.cols[e] == b) return std::optional<double>(g.weights[e]);
    return std::optional<double>();
  };
  std::vector<char> used(std::size_t(g.n_rows), 0);
  double best = 0;
  // From c (the path's open end), gain so far, j matching edges taken.
  std::function<void(vertex_t, vertex_t, double, int)> walk = [&](vertex_t s, vertex_t c, double gain, int j) {
    if (j > 1) {
      const auto closing = weight(c, s);
      if (closing) best = std::max(best, gain + *closing);
    }
    if (j == k) return;
    for (offset_t e = g.offsets[c]; e < g.offsets[c + 1]; ++e) {
      const vertex_t x = g.cols[e];
      const vertex_t y = x == no_vertex ? no_vertex : m.mate[x];
      if (used[x] || y == no_vertex || used[y]) continue;
      used[x] = used[y] = 1;
      walk(s, y, gain + g.weights[e] - *weight(x, y), j + 1);
      used[x] = used[y] = 0;
    }
  };
  for (vertex_t r = 0; r < g.n_rows; ++r) {
    const vertex_t s = m.mate[r];
    if (s == no_vertex) continue;
    used[r] = used[s] = 1;
    walk(s, r, -*weight(r, s), 1);
    used[r] = used[s] = 0;
  }
  return best;
}

double brute_force_max_weight(const Csr<double>& g, bool perfect) {
  const vertex_t n = g.n_rows;
  std::vector<double> w(std::size_t(n) * n, std::numeric_limits<double>::quiet_NaN());
  for (vertex_t u = 0; u < n; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) w[std::size_t(u) * n + g.cols[k]] = g.weights[k];
  return brute_force(n, perfect, [&](int u, int v) { return w[std::size_t(u) * n + v]; });
}

vertex_t require_partial_derangement(const std::vector<vertex_t>& sigma) {
  const vertex_t n = vertex_t(sigma.size());
  std::vector<char> hit(n, 0);
  vertex_t left = 0;
  for (vertex_t u = 0; u < n; ++u) {
    CAPTURE(u);
    if (sigma[u] == no_vertex) {
      ++left;
      continue;
    }
    REQUIRE(sigma[u] >= 0);
    REQUIRE(sigma[u] < n);
    REQUIRE(sigma[u] != u);
    REQUIRE(!hit[sigma[u]]);
    hit[sigma[u]] = 1;
  }
  return left;
}

void require_derangement(const std::vector<vertex_t>& sigma) { REQUIRE(require_partial_derangement(sigma) == 0); }

double best_derangement(const Dense<double>& g) {
  std::vector<vertex_t> p(g.n);
  std::iota(p.begin(), p.end(), 0);
  double best = -std::numeric_limits<double>::infinity();
  do {
    bool fixed = false;
    for (vertex_t u = 0; u < g.n; ++u) fixed = fixed || p[u] == u;
    if (!fixed) best = std::max(best, assignment_value(g, p));
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

double brute_force_max_weight(const Dense<double>& g, bool perfect) {
  return brute_force(g.n, perfect, [&](int u, int v) { return g(u, v); });
}

std::optional<std::filesystem::path> shared_matrices() {
  std::filesystem::path p = MATCHBLAS_SHARED_MATRICES;
  if (const char* env = std::getenv("MATCHBLAS_MATRICES")) p = env;
  if (std::filesystem::is_regular_file(p / "MANIFEST.tsv")) return p;
  return std::nullopt;
}

std::filesystem::path test_data() { return MATCHBLAS_TEST_DATA; }

temp_dir::temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "matchblas-test-XXXXXX").string();
  REQUIRE(mkdtemp(tmpl.data()) != nullptr);
  path_ = tmpl;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace matchblas::check

