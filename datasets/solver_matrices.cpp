#include "datasets/solver_matrices.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"

namespace matchblas {
namespace {

// Draw streams, one per purpose.
enum : std::uint64_t { s_perm = 1, s_value, s_sign, s_count, s_col, s_hub, s_diag };

// A random permutation of 0..n-1.
std::vector<vertex_t> random_permutation(vertex_t n, std::uint64_t seed) {
  std::vector<vertex_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  rng::shuffle(p, rng::Stream(seed, s_perm));
  return p;
}

// |a| = 10^U(lo, hi) with a random sign, for entry draw k.
double log_uniform_value(std::uint64_t seed, std::uint64_t k, double lo, double hi) {
  const double x = std::pow(10.0, lo + (hi - lo) * rng::uniform01(seed, s_value, k));
  return rng::uniform01(seed, s_sign, k) < 0.5 ? -x : x;
}

// The stencil on a grid of `dims` sides, rows permuted.
Csr<double> stencil(vertex_t side, int dims, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(side >= 0, "stencil: side must be >= 0");
  const double rows = std::pow(double(side), dims);
  if (rows > 2e9) throw invalid_input("stencil: " + std::to_string(side) + "^" + std::to_string(dims) + " rows is too many");
  const vertex_t n = vertex_t(rows);
  const std::vector<vertex_t> row_of = random_permutation(n, seed);
  Triples<double> t;
  t.reserve(std::size_t(n) * (2 * dims + 1));
  const std::int64_t stride[3] = {1, side, std::int64_t(side) * side};
  for (vertex_t v = 0; v < n; ++v) {
    auto add = [&](std::int64_t u) { t.push_back(row_of[v], vertex_t(u), log_uniform_value(seed, t.size(), -3, 3)); };
    add(v);
    std::int64_t rest = v;
    for (int d = 0; d < dims; ++d) {
      const std::int64_t coord = rest % side;
      rest /= side;
      if (coord > 0) add(v - stride[d]);
      if (coord + 1 < side) add(v + stride[d]);
    }
  }
  return csr_from_triples(n, n, t, Duplicates::max, false);
}

}  // namespace

Csr<double> stencil2d(vertex_t side, std::uint64_t seed) { return stencil(side, 2, seed); }
Csr<double> stencil3d(vertex_t side, std::uint64_t seed) { return stencil(side, 3, seed); }

Csr<double> circuit(vertex_t n, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(n >= 0, "circuit: n must be >= 0");
  const std::vector<vertex_t> hidden = random_permutation(n, seed);
  const rng::Stream count(seed, s_count), col(seed, s_col), hub(seed, s_hub), diag(seed, s_diag);
  const vertex_t hub_size = vertex_t(std::sqrt(double(n)));
  Triples<double> t;
  t.reserve(std::size_t(n) * 5);
  std::uint64_t draw = 0;
  auto add = [&](vertex_t i, vertex_t j) { t.push_back(i, j, log_uniform_value(seed, t.size(), -6, 2)); };
  for (vertex_t i = 0; i < n; ++i) {
    add(i, hidden[i]);
    if (diag.uniform01(i) < 0.5) add(i, i);
    const int extra = 1 + int(count.exponential(i, 1.0 / 2.0));  // 1 + about geometric, mean 2
    for (int e = 0; e < extra; ++e) add(i, vertex_t(col.below(draw++, std::uint64_t(n))));
    if (i % 1000 == 0)  // a hub row and a hub column
      for (vertex_t h = 0; h < hub_size; ++h) {
        add(i, vertex_t(hub.below(2 * (std::uint64_t(i) * hub_size + h), std::uint64_t(n))));
        add(vertex_t(hub.below(2 * (std::uint64_t(i) * hub_size + h) + 1, std::uint64_t(n))), i);
      }
  }
  return csr_from_triples(n, n, t, Duplicates::max, false);
}

Csr<double> heavy_tailed(vertex_t n, int degree, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(n >= 0 && degree >= 0, "heavy_tailed: n and degree must be >= 0");
  const std::vector<vertex_t> hidden = random_permutation(n, seed);
  const rng::Stream col(seed, s_col), value(seed, s_value);
  Triples<double> t;
  t.reserve(std::size_t(n) * (degree + 1));
  auto add = [&](vertex_t i, vertex_t j) {
    const double x = std::pow(value.uniform_open_closed(t.size()), -1 / 1.5);  // Pareto, minimum 1
    t.push_back(i, j, rng::uniform01(seed, s_sign, t.size()) < 0.5 ? -x : x);
  };
  for (vertex_t i = 0; i < n; ++i) {
    add(i, hidden[i]);
    for (int e = 0; e < degree; ++e) add(i, vertex_t(col.below(std::uint64_t(i) * degree + e, std::uint64_t(n))));
  }
  return csr_from_triples(n, n, t, Duplicates::max, false);
}

Csr<double> solver_matrix(const std::string& spec, std::uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  std::vector<long long> args;
  for (std::size_t at = colon; at != std::string::npos;) {
    const auto next = spec.find(':', at + 1);
    const std::string item = spec.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    try {
      std::size_t used = 0;
      args.push_back(std::stoll(item, &used));
      if (used != item.size() || args.back() < 0 || args.back() > 2000000000) throw std::out_of_range(item);
    } catch (const std::exception&) {
      throw invalid_input("solver matrix '" + spec + "': '" + item + "' is not a size");
    }
    at = next;
  }
  const auto size = [&](std::size_t i, long long fallback) { return i < args.size() ? args[i] : fallback; };
  if (args.empty()) throw invalid_input("solver matrix '" + spec + "': no size (KIND:SIZE)");
  if (kind == "stencil2d" && args.size() == 1) return stencil2d(vertex_t(args[0]), seed);
  if (kind == "stencil3d" && args.size() == 1) return stencil3d(vertex_t(args[0]), seed);
  if (kind == "circuit" && args.size() == 1) return circuit(vertex_t(args[0]), seed);
  if (kind == "heavy" && args.size() <= 2) return heavy_tailed(vertex_t(args[0]), int(size(1, 8)), seed);
  throw invalid_input("solver matrix '" + spec +
                      "': known kinds stencil2d:SIDE, stencil3d:SIDE, circuit:N, heavy:N[:DEGREE]");
}

}  // namespace matchblas
