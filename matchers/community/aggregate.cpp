// The Louvain levels' shared steps (aggregate.hpp).
#include "matchers/community/aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "ops/modularity.hpp"
#include "ops/transpose.hpp"

namespace matchblas::community {

namespace {

std::string entry(vertex_t r, vertex_t c) {
  return "entry (" + std::to_string(r + 1) + ", " + std::to_string(c + 1) + ")";
}

}  // namespace

void check_input(const Csr<double>& g, double resolution) {
  if (!(resolution > 0) || !std::isfinite(resolution))
    throw invalid_input("the resolution must be a positive number, got " + std::to_string(resolution));
  if (g.n_rows != g.n_cols)
    throw shape_error("community detection needs a square matrix, this one is " + std::to_string(g.n_rows) + " x " +
                      std::to_string(g.n_cols));
  // The transpose checks the CSR itself first (offsets, column range).
  const Csr<double> t = ops::transpose(g, ops::Backend::plain);
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const double w = g.weights[e];
      if (!(w >= 0) || !std::isfinite(w))
        throw invalid_input(entry(u, g.cols[e]) + " is " + std::to_string(w) +
                            ": community detection needs non-negative finite weights");
    }
  // Symmetry: row u's entries v != u against the transpose's row u.
  const auto sorted_off_diagonal = [](const Csr<double>& a, vertex_t u) {
    std::vector<std::pair<vertex_t, double>> row;
    for (offset_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e)
      if (a.cols[e] != u) row.emplace_back(a.cols[e], a.weights[e]);
    std::sort(row.begin(), row.end());
    return row;
  };
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    const std::vector<std::pair<vertex_t, double>> row = sorted_off_diagonal(g, u), mirror = sorted_off_diagonal(t, u);
    if (row != mirror) {
      std::size_t i = 0;
      while (i < row.size() && i < mirror.size() && row[i] == mirror[i]) ++i;
      const vertex_t v = i < row.size() ? row[i].first : mirror[i].first;
      throw invalid_input("the graph is not symmetric: " + entry(u, v) + " and " + entry(v, u) +
                          " differ (community detection takes undirected graphs)");
    }
  }
}

vertex_t renumber(std::vector<vertex_t>& label) {
  vertex_t max_label = -1;
  for (vertex_t l : label) max_label = std::max(max_label, l);
  std::vector<vertex_t> id(std::size_t(max_label) + 1, no_vertex);
  vertex_t k = 0;
  for (vertex_t& l : label) {
    if (id[std::size_t(l)] == no_vertex) id[std::size_t(l)] = k++;
    l = id[std::size_t(l)];
  }
  return k;
}

Csr<double> aggregate(const Csr<double>& g, const std::vector<vertex_t>& label, vertex_t communities, int threads) {
  // Members of each community, in vertex order (a counting sort).
  std::vector<offset_t> first(std::size_t(communities) + 1, 0);
  for (vertex_t l : label) ++first[std::size_t(l) + 1];
  for (vertex_t c = 0; c < communities; ++c) first[std::size_t(c) + 1] += first[std::size_t(c)];
  std::vector<vertex_t> members(label.size());
  {
    std::vector<offset_t> next(first.begin(), first.end() - 1);
    for (vertex_t u = 0; u < vertex_t(label.size()); ++u) members[std::size_t(next[std::size_t(label[u])]++)] = u;
  }
  // Each community's row: its members' entries by target community,
  // stably sorted, then summed in that order.
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(static_cast<std::size_t>(communities));
  const int t = threads > 0 ? threads : omp_get_max_threads();
  AllocationGuard guard;
#pragma omp parallel num_threads(t)
  {
    std::vector<std::pair<vertex_t, double>> pairs;
#pragma omp for schedule(dynamic, 256)
    for (vertex_t c = 0; c < communities; ++c) guard.run([&] {
      pairs.clear();
      for (offset_t i = first[std::size_t(c)]; i < first[std::size_t(c) + 1]; ++i) {
        const vertex_t u = members[std::size_t(i)];
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
          const vertex_t v = g.cols[e], d = label[std::size_t(v)];
          pairs.emplace_back(d, d != c ? g.weights[e] : v == u ? g.weights[e] : g.weights[e] / 2);
        }
      }
      std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::pair<vertex_t, double>>& row = rows[std::size_t(c)];
      for (const auto& [d, w] : pairs) {
        if (!row.empty() && row.back().first == d) row.back().second += w;
        else row.emplace_back(d, w);
      }
    });
  }
  guard.rethrow();
  Csr<double> a;
  a.n_rows = a.n_cols = communities;
  a.offsets.assign(std::size_t(communities) + 1, 0);
  for (vertex_t c = 0; c < communities; ++c)
    a.offsets[std::size_t(c) + 1] = a.offsets[std::size_t(c)] + offset_t(rows[std::size_t(c)].size());
  a.cols.resize(std::size_t(a.offsets.back()));
  a.weights.resize(a.cols.size());
#pragma omp parallel for num_threads(t) schedule(dynamic, 256)
  for (vertex_t c = 0; c < communities; ++c) {
    offset_t e = a.offsets[std::size_t(c)];
    for (const auto& [d, w] : rows[std::size_t(c)]) {
      a.cols[std::size_t(e)] = d;
      a.weights[std::size_t(e++)] = w;
    }
  }
  return a;
}

MoveState singletons(const Csr<double>& g, double gamma) {
  std::vector<vertex_t> label(std::size_t(g.n_rows));
  for (vertex_t u = 0; u < g.n_rows; ++u) label[std::size_t(u)] = u;
  return from_labels(g, std::move(label), gamma);
}

MoveState from_labels(const Csr<double>& g, std::vector<vertex_t> label, double gamma) {
  MoveState s;
  s.label = std::move(label);
  s.k = ops::weighted_degrees(g);
  s.tot.assign(std::size_t(g.n_rows), 0.0);
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    s.tot[std::size_t(s.label[std::size_t(u)])] += s.k[std::size_t(u)];
    s.two_m += s.k[std::size_t(u)];
  }
  s.gamma = gamma;
  return s;
}

vertex_t local_moves(const Csr<double>& g, MoveState& s, double threshold, int* passes) {
  const vertex_t n = g.n_rows;
  if (s.two_m <= 0) return 0;
  std::vector<double> weight_to(std::size_t(n), 0.0);
  std::vector<vertex_t> seen(std::size_t(n), no_vertex), touched;
  // Communities without members (their ids free for a vertex going alone).
  std::vector<vertex_t> size(std::size_t(n), 0), free_ids;
  for (vertex_t l : s.label) ++size[std::size_t(l)];
  for (vertex_t c = n - 1; c >= 0; --c)
    if (size[std::size_t(c)] == 0) free_ids.push_back(c);
  const double m = s.two_m / 2, slack = 1e-12 * std::max(1.0, s.gamma);  // times k_u: rounding, not a gain
  vertex_t moves = 0;
  for (;;) {
    check_interrupt();
    ++*passes;
    double gained = 0;
    vertex_t moved = 0;
    for (vertex_t u = 0; u < n; ++u) {
      const vertex_t own = s.label[std::size_t(u)];
      const double ku = s.k[std::size_t(u)];
      touched.clear();
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_t v = g.cols[e];
        if (v == u) continue;
        const vertex_t c = s.label[std::size_t(v)];
        if (seen[std::size_t(c)] != u) {
          seen[std::size_t(c)] = u;
          weight_to[std::size_t(c)] = 0;
          touched.push_back(c);
        }
        weight_to[std::size_t(c)] += g.weights[e];
      }
      s.tot[std::size_t(own)] -= ku;
      const auto gain = [&](vertex_t c) {  // times 2m: exact for integer weights and gamma
        const double w = seen[std::size_t(c)] == u ? weight_to[std::size_t(c)] : 0.0;
        return w * s.two_m - s.gamma * s.tot[std::size_t(c)] * ku;
      };
      const double stay = gain(own);
      // The best other choice: a neighbouring community, or (no_vertex)
      // one of its own, gain 0; ties to the smallest label, then alone.
      vertex_t best = no_vertex;
      double best_gain = 0;
      for (vertex_t c : touched) {
        if (c == own) continue;
        const double x = gain(c);
        if (x > best_gain || (x == best_gain && (best == no_vertex || c < best))) {
          best = c;
          best_gain = x;
        }
      }
      vertex_t to = own;
      if (best_gain > stay + slack * ku * s.two_m) {
        if (best != no_vertex) {
          to = best;
        } else if (size[std::size_t(own)] > 1) {  // alone; own has another member, so an id is free
          to = free_ids.back();
          free_ids.pop_back();
        }
      }
      if (to != own) {
        gained += (best_gain - stay) / s.two_m;
        if (--size[std::size_t(own)] == 0) free_ids.push_back(own);
        ++size[std::size_t(to)];
        s.label[std::size_t(u)] = to;
        ++moved;
      }
      s.tot[std::size_t(to)] += ku;
    }
    moves += moved;
    if (moved == 0 || (threshold > 0 && gained / m < threshold)) break;
  }
  return moves;
}

}  // namespace matchblas::community
