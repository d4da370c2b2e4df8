// Maximum weight matchings of paths and cycles by dynamic programming; see
// path_dp.hpp.
#include "matchers/general/path_dp.hpp"

#include <vector>

#include "lib/error.hpp"

namespace matchblas {

namespace {

// Weight of the best matching of the path w, without recording the choice.
double path_value(std::span<const double> w) {
  double b2 = 0, b1 = 0;  // best(i - 2), best(i - 1)
  for (const double x : w) {
    const double with = b2 + x;
    b2 = b1;
    if (with > b1) b1 = with;
  }
  return b1;
}

}  // namespace

double path_max_matching(std::span<const double> w, std::span<std::uint8_t> take) {
  MATCHBLAS_EXPECTS(take.size() == w.size(), "path_max_matching: take must have one entry per edge");
  const std::size_t k = w.size();
  // Forward: take[i] first holds the decision "best(i + 1) uses edge i".
  double b2 = 0, b1 = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const double with = b2 + w[i];
    b2 = b1;
    take[i] = with > b1;
    if (take[i]) b1 = with;
  }
  // Backward: follow the decisions from the last vertex, overwriting them
  // with the final choice (a decision is read before it is overwritten).
  for (std::size_t i = k; i > 0;) {
    if (!take[i - 1]) {
      i -= 1;
    } else if (i >= 2) {
      take[i - 2] = 0;
      i -= 2;
    } else {
      i = 0;
    }
  }
  return b1;
}

double cycle_max_matching(std::span<const double> w, std::span<std::uint8_t> take) {
  MATCHBLAS_EXPECTS(take.size() == w.size(), "cycle_max_matching: take must have one entry per edge");
  MATCHBLAS_EXPECTS(w.size() != 1, "cycle_max_matching: a cycle of one edge is a self-loop");
  const std::size_t k = w.size();
  if (k == 0) return 0;
  const double without_first = path_value(w.subspan(1));
  const double without_last = path_value(w.first(k - 1));
  if (without_last > without_first) {
    take[k - 1] = 0;
    return path_max_matching(w.first(k - 1), take.first(k - 1));
  }
  take[0] = 0;
  return path_max_matching(w.subspan(1), take.subspan(1));
}

template <class W>
void match_paths_and_cycles(std::span<const vertex_t> nbr, std::span<const W> nbr_w, Matching& m) {
  MATCHBLAS_EXPECTS(nbr.size() % 2 == 0 && nbr_w.size() == nbr.size(),
                    "match_paths_and_cycles: two neighbour slots and two weights per vertex");
  const vertex_t n = static_cast<vertex_t>(nbr.size() / 2);
  MATCHBLAS_EXPECTS(m.size() == n, "match_paths_and_cycles: the matching must have one entry per vertex");
  for (const vertex_t v : nbr) MATCHBLAS_EXPECTS(v >= no_vertex && v < n, "match_paths_and_cycles: slot out of range");

  std::vector<std::uint8_t> visited(static_cast<std::size_t>(n), 0), take;
  std::vector<vertex_t> verts;
  std::vector<double> w;
  const auto degree = [&](vertex_t v) { return int{nbr[2 * v] != no_vertex} + int{nbr[2 * v + 1] != no_vertex}; };
  // Appends the step from `cur` to `next` over the edge of slot s of `cur`.
  const auto step = [&](vertex_t cur, int s) {
    const vertex_t next = nbr[2 * cur + s];
    const W x = nbr_w[2 * cur + s];
    const bool back = (nbr[2 * next] == cur && nbr_w[2 * next] == x) ||
                      (nbr[2 * next + 1] == cur && nbr_w[2 * next + 1] == x);
    MATCHBLAS_EXPECTS(back && next != cur, "match_paths_and_cycles: the slots are not a simple symmetric graph");
    w.push_back(static_cast<double>(x));
    return next;
  };
  // Walks from `start` leaving by slot s, until an empty slot (returns false)
  // or back at start (returns true: a cycle).
  const auto walk = [&](vertex_t start, int s) {
    verts.assign(1, start);
    w.clear();
    visited[start] = 1;
    vertex_t prev = start, cur = step(start, s);
    while (cur != start) {
      MATCHBLAS_EXPECTS(!visited[cur], "match_paths_and_cycles: the slots are not a simple symmetric graph");
      visited[cur] = 1;
      verts.push_back(cur);
      const int out = nbr[2 * cur] == prev ? 1 : 0;
      if (nbr[2 * cur + out] == no_vertex) return false;  // the far end of a path
      prev = cur;
      cur = step(cur, out);
    }
    return true;
  };
  const auto apply = [&](bool cycle) {
    const std::size_t k = w.size();
    for (const vertex_t v : verts) MATCHBLAS_EXPECTS(m.is_free(v), "match_paths_and_cycles: a vertex is already matched");
    take.resize(k);
    if (cycle) cycle_max_matching(w, take);
    else path_max_matching(w, take);
    for (std::size_t i = 0; i < k; ++i)
      if (take[i]) m.match(verts[i], verts[(i + 1) % verts.size()]);
  };

  for (vertex_t v = 0; v < n; ++v) {
    if (visited[v] || degree(v) != 1) continue;
    MATCHBLAS_EXPECTS(!walk(v, nbr[2 * v] != no_vertex ? 0 : 1),
                      "match_paths_and_cycles: the slots are not a simple symmetric graph");
    apply(false);
  }
  for (vertex_t v = 0; v < n; ++v) {
    if (visited[v] || degree(v) != 2) continue;
    MATCHBLAS_EXPECTS(walk(v, 0), "match_paths_and_cycles: the slots are not a simple symmetric graph");
    apply(true);
  }
}

template void match_paths_and_cycles(std::span<const vertex_t>, std::span<const float>, Matching&);
template void match_paths_and_cycles(std::span<const vertex_t>, std::span<const double>, Matching&);

}  // namespace matchblas
