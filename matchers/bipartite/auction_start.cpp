#include "matchers/bipartite/auction_start.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"

namespace matchblas {

vertex_t auction_tail_rows(std::int64_t tail_rows, vertex_t n) {
  return tail_rows < 0 ? 0 : tail_rows == 0 ? n / 2000 : vertex_t(std::min<std::int64_t>(tail_rows, n));
}

AuctionStart epsilon_scaling_auction(const Csr<double>& c, const AuctionStartOptions& o) {
  const vertex_t n = c.n_rows;
  if (c.n_cols != n)
    throw invalid_input("auction start: a square matrix is needed, got " + std::to_string(c.n_rows) + " x " +
                        std::to_string(c.n_cols));
  if (!(o.ratio > 1) || !std::isfinite(o.ratio) || !(o.final_fraction >= 0 && o.final_fraction < 1) ||
      !(o.work_limit >= 0) || std::isnan(o.cost_ceiling))
    throw invalid_input("auction start: ratio must be > 1, final_fraction in [0, 1), work_limit >= 0");
  constexpr double ninf = -std::numeric_limits<double>::infinity();
  AuctionStart a;
  a.price.assign(n, 0);
  a.mates.row_mate.assign(n, -1);
  a.mates.col_mate.assign(n, -1);
  if (n == 0) {
    a.finished = true;
    return a;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double w : c.weights) {
    if (!std::isfinite(w)) throw invalid_input("auction start: a cost is not finite");
    lo = std::min(lo, w);
    hi = std::max(hi, std::min(w, o.cost_ceiling));
  }
  const double span = hi > lo ? hi - lo : 1.0;
  const double last = span * (o.final_fraction > 0 ? o.final_fraction : 1.0 / (4.0 * double(n)));
  const std::size_t tail = std::size_t(auction_tail_rows(o.tail_rows, n));
  const double budget = o.work_limit * double(c.num_entries() + n);
  auto value = [&](offset_t k) { return -std::min(c.weights[k], o.cost_ceiling) - a.price[c.cols[k]]; };
  std::vector<vertex_t> stack;
  std::uint32_t bids = 0;
  for (double eps = std::max(last, span / o.ratio);; eps = std::max(last, eps / o.ratio)) {
    a.epsilon = eps;
    check_interrupt();
    // Keep a row's column while epsilon-complementary slackness holds.
    stack.clear();
    for (vertex_t i = 0; i < n; ++i) {
      const vertex_t mine = a.mates.row_mate[i];
      if (mine >= 0) {
        double best = ninf, own = ninf;
        for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
          const double x = value(k);
          best = std::max(best, x);
          if (c.cols[k] == mine) own = std::max(own, x);
        }
        if (own >= best - eps) continue;
        a.mates.row_mate[i] = a.mates.col_mate[mine] = -1;
      }
      stack.push_back(i);
    }
    a.scanned += c.num_entries();
    while (stack.size() > tail) {
      if (double(a.scanned) > budget) return a;  // not finished
      if (++bids % 65536 == 0) check_interrupt();
      const vertex_t i = stack.back();
      stack.pop_back();
      // Best and second-best value (ties to the smaller column).
      double v1 = ninf, v2 = ninf;
      vertex_t j1 = -1;
      for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k) {
        const double x = value(k);
        const vertex_t j = c.cols[k];
        if (x > v1 || (x == v1 && j < j1)) {
          if (j != j1) v2 = v1;
          v1 = x;
          j1 = j;
        } else if (j != j1) {
          v2 = std::max(v2, x);
        }
      }
      a.scanned += c.offsets[i + 1] - c.offsets[i];
      if (j1 < 0) return a;  // a row without entries: no perfect matching
      // A row with one column bids epsilon above its price.
      a.price[j1] += (v2 == ninf ? 0.0 : v1 - v2) + eps;
      const vertex_t held = a.mates.col_mate[j1];
      if (held >= 0) {
        a.mates.row_mate[held] = -1;
        stack.push_back(held);
      }
      a.mates.col_mate[j1] = i;
      a.mates.row_mate[i] = j1;
    }
    if (eps <= last) break;
  }
  a.mates.matched = n - vertex_t(std::count(a.mates.row_mate.begin(), a.mates.row_mate.end(), no_vertex));
  a.finished = true;
  return a;
}

}  // namespace matchblas
