#include "tests/check/auction_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "lib/error.hpp"

namespace matchblas::check {

AuctionStart epsilon_optimal_auction(const Csr<double>& c, double final_fraction, vertex_t tail) {
  const vertex_t n = c.n_rows;
  if (c.n_cols != n) throw invalid_input("epsilon_optimal_auction: a square matrix is needed");
  if (max_cardinality_bipartite(c).matched != n)
    throw invalid_input("epsilon_optimal_auction: the matrix has no perfect matching");
  constexpr double ninf = -std::numeric_limits<double>::infinity();
  AuctionStart a;
  a.price.assign(n, 0);
  a.mates.row_mate.assign(n, -1);
  a.mates.col_mate.assign(n, -1);
  if (n == 0) return a;
  const auto [lo, hi] = std::minmax_element(c.weights.begin(), c.weights.end());
  const double span = *hi > *lo ? *hi - *lo : 1.0;
  const double last = span * final_fraction;
  std::vector<vertex_t> queue;
  for (double eps = std::max(last, span / 4);; eps = std::max(last, eps / 4)) {
    a.epsilon = eps;
    queue.clear();
    for (vertex_t i = 0; i < n; ++i) {
      const vertex_t mine = a.mates.row_mate[i];
      if (mine >= 0) {  // keep the column while epsilon-complementary slackness holds
        double best = ninf, own = ninf;
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
          const double x = -c.weights[k] - a.price[c.cols[k]];
          best = std::max(best, x);
          if (c.cols[k] == mine) own = std::max(own, x);
        }
        if (own >= best - eps) continue;
        a.mates.row_mate[i] = a.mates.col_mate[mine] = -1;
      }
      queue.push_back(i);
    }
    while (queue.size() > std::size_t(std::max<vertex_t>(tail, 0))) {
      const vertex_t i = queue.back();
      queue.pop_back();
      double v1 = ninf, v2 = ninf;
      vertex_t j1 = -1;
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const double x = -c.weights[k] - a.price[c.cols[k]];
        if (x > v1 || (x == v1 && c.cols[k] < j1)) {
          if (c.cols[k] != j1) v2 = v1;
          v1 = x;
          j1 = c.cols[k];
        } else if (c.cols[k] != j1) {
          v2 = std::max(v2, x);
        }
      }
      const double gap = v2 == ninf ? 0.0 : v1 - v2;
      a.price[j1] += gap + eps;
      const vertex_t held = a.mates.col_mate[j1];
      if (held >= 0) {
        a.mates.row_mate[held] = -1;
        queue.push_back(held);
      }
      a.mates.col_mate[j1] = i;
      a.mates.row_mate[i] = j1;
    }
    if (eps <= last) break;
  }
  a.mates.matched = n - vertex_t(queue.size());
  return a;
}

}  // namespace matchblas::check
