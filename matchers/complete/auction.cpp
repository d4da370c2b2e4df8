// Bertsekas's auction for the dense assignment problem, and the perfect
// matching read off its permutation (matchers/complete/auction.hpp has the algorithm,
// its source, guarantee and cost).
#include "matchers/complete/auction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"

namespace matchblas {

void check_auction_options(const AuctionOptions& opt) {
  if (!(opt.final_epsilon > 0) || !std::isfinite(opt.final_epsilon))
    throw invalid_input("auction: final epsilon must be finite and > 0, got " + std::to_string(opt.final_epsilon));
  if (!(opt.ratio > 1) || !std::isfinite(opt.ratio))
    throw invalid_input("auction: the epsilon ratio must be finite and > 1, got " + std::to_string(opt.ratio));
  if (!(opt.unassigned >= 0 && opt.unassigned < 1))
    throw invalid_input("auction: the unassigned fraction must be in [0, 1), got " + std::to_string(opt.unassigned));
  if (!(opt.bids_per_person >= 0) || !std::isfinite(opt.bids_per_person))
    throw invalid_input("auction: bids per person must be finite and >= 0, got " +
                        std::to_string(opt.bids_per_person));
}

std::size_t unassigned_allowed(const AuctionOptions& opt, vertex_t n) {
  return static_cast<std::size_t>(opt.unassigned * n);
}

std::uint64_t bids_allowed(const AuctionOptions& opt, vertex_t n) {
  const double bids = opt.bids_per_person * n;
  if (opt.bids_per_person == 0 || bids >= 1e19) return std::numeric_limits<std::uint64_t>::max();
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(bids));
}

namespace {

// The largest |w(u, v)|, u != v; throws for an entry that is not finite.
template <class W>
double largest_weight(const Dense<W>& g) {
  double largest = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    for (vertex_t v = 0; v < g.n; ++v) {
      if (u == v) continue;
      const double w = g(u, v);
      if (!std::isfinite(w))
        throw invalid_input("auction: weight (" + std::to_string(u) + ", " + std::to_string(v) + ") is " +
                            std::to_string(w) + "; the assignment start needs finite weights");
      largest = std::max(largest, std::abs(w));
    }
  return largest;
}

}  // namespace

template <class W>
std::vector<vertex_t> dense_auction(const Dense<W>& g, const AuctionOptions& opt) {
  check_auction_options(opt);
  const vertex_t n = g.n;
  if (n == 0) return {};
  MATCHBLAS_EXPECTS(n >= 2, "auction: a vertex cannot be assigned to itself; n must be 0 or >= 2, got " +
                                std::to_string(n));
  const double largest = largest_weight(g);
  const double scale = largest > 0 ? largest : 1.0;  // all weights 0: any epsilon > 0 will do
  const double final_epsilon = opt.final_epsilon * scale;
  const std::size_t leave = unassigned_allowed(opt, n);
  const std::uint64_t max_bids = bids_allowed(opt, n);
  std::vector<double> price(n, 0.0);
  std::vector<vertex_t> owner(n), sigma(n), waiting;
  for (double epsilon = std::max(scale / 4, final_epsilon);; epsilon = std::max(epsilon / opt.ratio, final_epsilon)) {
    check_interrupt();
    std::fill(owner.begin(), owner.end(), no_vertex);
    std::fill(sigma.begin(), sigma.end(), no_vertex);
    waiting.resize(n);
    for (vertex_t u = 0; u < n; ++u) waiting[u] = n - 1 - u;  // popped from the back: 0 first
    for (std::uint64_t bids = 0; waiting.size() > leave && bids < max_bids; ++bids) {
      const vertex_t u = waiting.back();
      waiting.pop_back();
      double first = -std::numeric_limits<double>::infinity(), second = first;
      vertex_t best = no_vertex;
      for (vertex_t j = 0; j < n; ++j) {
        if (j == u) continue;
        const double value = double(g(u, j)) - price[j];
        if (value > first) {
          second = first;
          first = value;
          best = j;
        } else if (value > second) {
          second = value;
        }
      }
      // n == 2: one object, no second best; any bid above the price will do.
      price[best] += (n == 2 ? 0.0 : first - second) + epsilon;
      const vertex_t previous = owner[best];
      owner[best] = u;
      sigma[u] = best;
      if (previous != no_vertex) {
        sigma[previous] = no_vertex;
        waiting.push_back(previous);
      }
    }
    if (epsilon <= final_epsilon) break;
  }
  return sigma;
}

std::vector<vertex_t> matching_from_assignment(std::span<const vertex_t> sigma,
                                               std::span<const double> weight_to_sigma) {
  const auto n = static_cast<vertex_t>(sigma.size());
  MATCHBLAS_EXPECTS(n % 2 == 0, "matching_from_assignment: the order must be even (pad it first), got " +
                                    std::to_string(n));
  MATCHBLAS_EXPECTS(weight_to_sigma.size() == sigma.size(),
                    "matching_from_assignment: " + std::to_string(weight_to_sigma.size()) + " weights for " +
                        std::to_string(n) + " vertices");
  std::vector<vertex_t> mate(n, no_vertex), walk;
  std::vector<char> owned(n, 0), seen(n, 0);
  for (vertex_t u = 0; u < n; ++u) {
    const vertex_t j = sigma[u];
    if (j == no_vertex) continue;
    if (j < 0 || j >= n || j == u || owned[j]++)
      throw invalid_input("matching_from_assignment: sigma is not a partial permutation without fixed points "
                          "(sigma[" + std::to_string(u) + "] = " + std::to_string(j) + ")");
  }
  const auto pair = [&](vertex_t a, vertex_t b) {
    mate[a] = b;
    mate[b] = a;
  };
  // Pairs (walk[k + 2e], walk[k + 2e + 1]) for e < pairs, walk[i] wrapping
  // around when the walk is a cycle.
  const auto take = [&](std::size_t k, std::size_t pairs) {
    const std::size_t len = walk.size();
    for (std::size_t e = 0; e < pairs; ++e) pair(walk[(k + 2 * e) % len], walk[(k + 2 * e + 1) % len]);
  };
  // Edge (walk[i], walk[i + 1]) is (u, sigma(u)), of weight
  // weight_to_sigma[walk[i]].
  const auto edge = [&](std::size_t i) { return weight_to_sigma[walk[i % walk.size()]]; };
  const auto sum_from = [&](std::size_t k, std::size_t pairs) {
    double w = 0;
    for (std::size_t e = 0; e < pairs; ++e) w += edge(k + 2 * e);
    return w;
  };
  // Paths first: each starts at an object no one holds and ends at a person
  // holding none. The heavier of its two alternating edge sets.
  for (vertex_t s = 0; s < n; ++s) {
    if (owned[s]) continue;
    walk.clear();
    for (vertex_t u = s; u != no_vertex; u = sigma[u]) {
      seen[u] = 1;
      walk.push_back(u);
    }
    const std::size_t edges = walk.size() - 1, from0 = (edges + 1) / 2, from1 = edges / 2;
    if (from1 > 0 && sum_from(1, from1) > sum_from(0, from0)) take(1, from1);
    else take(0, from0);
  }
  // Then cycles: the best start k of alternating edges: 0 or 1 for an even
  // cycle, any k for an odd one, whose weight from start k + 2 is that from
  // k less the edge at k plus the edge at k - 1, so all starts take O(len).
  for (vertex_t s = 0; s < n; ++s) {
    if (seen[s]) continue;
    walk.clear();
    for (vertex_t u = s; !seen[u]; u = sigma[u]) {
      seen[u] = 1;
      walk.push_back(u);
    }
    const std::size_t len = walk.size(), pairs = len / 2;
    double weight = sum_from(0, pairs), best_weight = weight;
    std::size_t best_start = 0;
    if (len % 2 == 0) {
      if (sum_from(1, pairs) > best_weight) best_start = 1;
    } else {
      for (std::size_t step = 1, k = 0; step < len; ++step) {
        weight += edge(k + len - 1) - edge(k);
        k = (k + 2) % len;
        if (weight > best_weight) {
          best_weight = weight;
          best_start = k;
        }
      }
    }
    take(best_start, pairs);
  }
  vertex_t left = no_vertex;  // the vertices left out of odd cycles and paths, paired in index order
  for (vertex_t u = 0; u < n; ++u) {
    if (mate[u] != no_vertex) continue;
    if (left == no_vertex) {
      left = u;
    } else {
      pair(left, u);
      left = no_vertex;
    }
  }
  return mate;
}

template <class W>
std::vector<vertex_t> assignment_matching(const Dense<W>& g, const AuctionOptions& opt) {
  MATCHBLAS_EXPECTS(g.n % 2 == 0, "assignment_matching: the order must be even (pad it first), got " +
                                      std::to_string(g.n));
  const std::vector<vertex_t> sigma = dense_auction(g, opt);
  std::vector<double> weight(sigma.size());
  for (std::size_t u = 0; u < sigma.size(); ++u)
    if (sigma[u] != no_vertex) weight[u] = g(static_cast<vertex_t>(u), sigma[u]);
  return matching_from_assignment(sigma, weight);
}

template std::vector<vertex_t> dense_auction(const Dense<float>&, const AuctionOptions&);
template std::vector<vertex_t> dense_auction(const Dense<double>&, const AuctionOptions&);
template std::vector<vertex_t> assignment_matching(const Dense<float>&, const AuctionOptions&);
template std::vector<vertex_t> assignment_matching(const Dense<double>&, const AuctionOptions&);

}  // namespace matchblas
