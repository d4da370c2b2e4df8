#include "tests/check/community_check.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <algorithm>
#include <map>

#include "ops/modularity.hpp"

namespace matchblas::check {

namespace {

std::vector<long double> degrees(const Csr<double>& g) {
  std::vector<long double> k(std::size_t(g.n_rows), 0);
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      k[std::size_t(u)] += (g.cols[e] == u ? 2.0L : 1.0L) * g.weights[e];
  return k;
}

}  // namespace

long double modularity_by_pairs(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma) {
  const std::vector<long double> k = degrees(g);
  long double two_m = 0;
  for (long double x : k) two_m += x;
  if (two_m == 0) return 0;
  long double sum = 0;
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (label[std::size_t(g.cols[e])] == label[std::size_t(u)])
        sum += (g.cols[e] == u ? 2.0L : 1.0L) * g.weights[e];
    for (vertex_t v = 0; v < g.n_rows; ++v)
      if (label[std::size_t(v)] == label[std::size_t(u)]) sum -= gamma * k[std::size_t(u)] * k[std::size_t(v)] / two_m;
  }
  return sum / two_m;
}

Csr<double> graph_from_edges(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, double>>& edges) {
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(static_cast<std::size_t>(n));
  for (const auto& [u, v, w] : edges) {
    rows[std::size_t(u)].emplace_back(v, w);
    if (u != v) rows[std::size_t(v)].emplace_back(u, w);
  }
  Csr<double> g;
  g.n_rows = g.n_cols = n;
  for (auto& r : rows) {
    std::sort(r.begin(), r.end());
    for (const auto& [v, w] : r) {
      g.cols.push_back(v);
      g.weights.push_back(w);
    }
    g.offsets.push_back(offset_t(g.cols.size()));
  }
  return g;
}

Csr<double> random_community_graph(vertex_t n, double density, int levels, double loops, std::mt19937& rng) {
  std::bernoulli_distribution edge(density), loop(loops);
  std::uniform_int_distribution<int> level(1, std::max(1, levels));
  std::uniform_real_distribution<double> real(0.01, 3);
  std::vector<std::tuple<vertex_t, vertex_t, double>> edges;
  for (vertex_t u = 0; u < n; ++u) {
    if (loop(rng)) edges.emplace_back(u, u, levels > 0 ? level(rng) : real(rng));
    for (vertex_t v = u + 1; v < n; ++v)
      if (edge(rng)) edges.emplace_back(u, v, levels > 0 ? level(rng) : real(rng));
  }
  return graph_from_edges(n, edges);
}

Csr<double> scaled_by_power_of_two(const Csr<double>& g, int k) {
  Csr<double> scaled = g;
  for (double& w : scaled.weights) w = std::ldexp(w, k);
  return scaled;
}

std::string improving_move(const Csr<double>& g, const std::vector<vertex_t>& label, double gamma) {
  const std::vector<long double> k = degrees(g);
  long double two_m = 0;
  for (long double x : k) two_m += x;
  if (two_m == 0) return "";
  std::map<vertex_t, long double> tot;
  for (vertex_t u = 0; u < g.n_rows; ++u) tot[label[std::size_t(u)]] += k[std::size_t(u)];
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    const vertex_t own = label[std::size_t(u)];
    std::map<vertex_t, long double> to;  // weight from u into each community, loops aside
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (g.cols[e] != u) to[label[std::size_t(g.cols[e])]] += g.weights[e];
    // 2m^2 times the modularity of u joining c (tot without u).
    const auto join = [&](long double w, long double tot_c) { return w * two_m - gamma * tot_c * k[std::size_t(u)]; };
    const long double stay = join(to[own], tot[own] - k[std::size_t(u)]);
    const long double slack = 1e-9L * std::max(1.0, gamma) * k[std::size_t(u)] * two_m;
    if (0 > stay + slack && tot[own] > k[std::size_t(u)])
      return "vertex " + std::to_string(u) + " gains by leaving community " + std::to_string(own) + " for one of its own";
    for (const auto& [c, w] : to)
      if (c != own && join(w, tot[c]) > stay + slack)
        return "vertex " + std::to_string(u) + " gains by moving from community " + std::to_string(own) + " to " +
               std::to_string(c);
  }
  return "";
}

void require_local_optimum(const Csr<double>& g, const Communities& c, double gamma) {
  const std::string bad = communities_violation(g, c, gamma);
  INFO("communities_violation: ", bad);
  REQUIRE(bad.empty());
  const std::string move = improving_move(g, c.label, gamma);
  INFO("improving_move: ", move);
  REQUIRE(move.empty());
}

}  // namespace matchblas::check
