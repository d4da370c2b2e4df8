#include "tests/check/community_check.hpp"

#include <cmath>
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

std::string partition_violation(const Csr<double>& g, const Communities& c, double gamma) {
  if (c.label.size() != std::size_t(g.n_rows))
    return std::to_string(c.label.size()) + " labels for " + std::to_string(g.n_rows) + " vertices";
  std::vector<char> used(std::size_t(std::max<vertex_t>(c.communities, 0)), 0);
  for (std::size_t u = 0; u < c.label.size(); ++u) {
    if (c.label[u] < 0 || c.label[u] >= c.communities)
      return "vertex " + std::to_string(u) + " has label " + std::to_string(c.label[u]) + " of " +
             std::to_string(c.communities) + " communities";
    used[std::size_t(c.label[u])] = 1;
  }
  for (vertex_t l = 0; l < c.communities; ++l)
    if (!used[std::size_t(l)]) return "community " + std::to_string(l) + " is empty";
  const double q = ops::modularity(g, c.label, gamma);
  if (!(std::fabs(q - c.modularity) <= 1e-9 * std::max(1.0, std::fabs(q))))
    return "reported modularity " + std::to_string(c.modularity) + ", the labels give " + std::to_string(q);
  return "";
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

}  // namespace matchblas::check
