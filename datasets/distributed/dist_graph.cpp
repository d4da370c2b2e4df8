// The 1D balanced partition and one rank's part (dist_graph.hpp).
#include "datasets/distributed/dist_graph.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <utility>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas {

int DistGraph::owner(vertex_t v) const {
  // The last boundary <= v; empty blocks share their boundary with the next.
  return int(std::upper_bound(first.begin(), first.end() - 1, v) - first.begin()) - 1;
}

std::size_t DistGraph::bytes() const {
  return first.size() * sizeof(vertex_t) + offsets.size() * sizeof(offset_t) + cols.size() * sizeof(vertex_t) +
         weights.size() * sizeof(double) + ghosts.size() * sizeof(vertex_t);
}

double block_vertex_weight(offset_t entries, vertex_t n) {
  return n == 0 ? 1.0 : std::max(1.0, double(entries) / double(n));
}

std::vector<vertex_t> balanced_blocks(const std::vector<offset_t>& offsets, int ranks) {
  MATCHBLAS_EXPECTS(ranks >= 1, "balanced_blocks: ranks must be at least 1");
  MATCHBLAS_EXPECTS(!offsets.empty(), "balanced_blocks: offsets must hold n + 1 entries");
  const vertex_t n = vertex_t(offsets.size() - 1);
  const double w = block_vertex_weight(offsets.back(), n);
  const double total = double(offsets.back()) + w * double(n);
  std::vector<vertex_t> first(std::size_t(ranks) + 1, n);
  first[0] = 0;
  for (int r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    // The first u with offsets[u] + u >= target (a monotone sequence).
    vertex_t lo = first[r - 1], hi = n;
    while (lo < hi) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (double(offsets[mid]) + w * double(mid) >= target) hi = mid;
      else lo = mid + 1;
    }
    first[r] = lo;
  }
  return first;
}

std::vector<vertex_t> equal_blocks(vertex_t n, int ranks) {
  MATCHBLAS_EXPECTS(ranks >= 1, "equal_blocks: ranks must be at least 1");
  std::vector<vertex_t> first(std::size_t(ranks) + 1);
  for (int r = 0; r <= ranks; ++r) first[std::size_t(r)] = vertex_t(std::int64_t(n) * r / ranks);
  return first;
}

namespace {

// The partition, numbering and boundaries of d.
void set_partition(DistGraph& d, Partition partition, std::vector<vertex_t> first) {
  d.partition = partition;
  d.numbering = partition == Partition::spread ? VertexNumbering::spread(d.n) : VertexNumbering{};
  d.first = std::move(first);
}

// d's rows from row(i) = (columns, weights) of its local vertex i (columns
// are ids), each in the greedy order of the ids: a row already in that
// order (as dist_read.hpp's drawn rows arrive) is copied, another sorted as
// (weight, column) pairs; then its columns become labels. Then its
// ghosts (each cross entry's column once, ascending) and cross entries: a
// bit per vertex of the graph, set by each cross entry and read in order,
// when those n / 8 bytes are at most the rank's columns (n <= 32 m_r: every
// part of a graph of average degree 32 / P or more); else every cross entry
// listed, sorted and made unique (O(c log c) for c cross entries).
// in_place: d's offsets, columns and weights already hold the rows (row(i)
// reads them there), so each row is checked, sorted and relabelled where
// it is.
template <class Row>
void fill_rows(DistGraph& d, Row row, bool in_place = false) {
  const vertex_t count = d.count();
  if (!in_place) {
    d.offsets.assign(std::size_t(count) + 1, 0);
    for (vertex_t i = 0; i < count; ++i) d.offsets[i + 1] = d.offsets[i] + offset_t(row(i).first.size());
    d.cols.resize(std::size_t(d.offsets[count]));
    d.weights.resize(d.cols.size());
  }
  const bool bitmap = std::uint64_t(d.n) <= 32 * std::uint64_t(d.offsets[count]);
  std::vector<std::uint64_t> seen(bitmap ? std::size_t(d.n) / 64 + 1 : 0, 0);
  using W = typename std::remove_cvref_t<decltype(row(0).second)>::value_type;
  bool in_range = true;
  offset_t cross = 0;
  AllocationGuard guard;  // a thread's sort buffer and ghost list: bad_alloc thrown after the region
#pragma omp parallel reduction(&& : in_range) reduction(+ : cross)
  {
    std::vector<std::pair<W, vertex_t>> sorted;
    std::vector<vertex_t> ghosts;  // this thread's cross entries' columns (no bitmap)
#pragma omp for schedule(dynamic, 1024) nowait
    for (vertex_t i = 0; i < count; ++i) guard.run([&] {
      const auto [cols, weights] = row(i);
      vertex_t* out_cols = d.cols.data() + d.offsets[i];
      double* out_weights = d.weights.data() + d.offsets[i];
      bool in_order = true;
      for (std::size_t k = 1; k < cols.size() && in_order; ++k)
        in_order = neighbour_beats(weights[k - 1], cols[k - 1], weights[k], cols[k]);
      if (in_order) {
        if (!in_place) {
          std::copy(cols.begin(), cols.end(), out_cols);
          std::copy(weights.begin(), weights.end(), out_weights);  // float -> double keeps the order
        }
      } else {  // (in place too: the row is read whole into `sorted` first)
        sorted.resize(cols.size());
        for (std::size_t k = 0; k < cols.size(); ++k) sorted[k] = {weights[k], cols[k]};
        std::sort(sorted.begin(), sorted.end(),
                  [](const auto& a, const auto& b) { return neighbour_beats(a.first, a.second, b.first, b.second); });
        for (std::size_t k = 0; k < sorted.size(); ++k) {
          out_cols[k] = sorted[k].second;
          out_weights[k] = double(sorted[k].first);
        }
      }
      for (std::size_t k = 0; k < cols.size(); ++k) {
        if (out_cols[k] < 0 || out_cols[k] >= d.n) {
          in_range = false;
          continue;
        }
        const vertex_t v = out_cols[k] = d.numbering.label(out_cols[k]);
        if (!d.owns(v)) {
          ++cross;
          if (bitmap)
            std::atomic_ref<std::uint64_t>(seen[std::size_t(v) / 64])
                .fetch_or(std::uint64_t(1) << (v % 64), std::memory_order_relaxed);
          else ghosts.push_back(v);
        }
      }
    });
    if (!bitmap) {
#pragma omp critical
      guard.run([&] { d.ghosts.insert(d.ghosts.end(), ghosts.begin(), ghosts.end()); });
    }
  }
  guard.rethrow();
  MATCHBLAS_EXPECTS(in_range, "distribute: a column out of range");
  d.cross_entries = cross;
  if (bitmap) {
    std::size_t distinct = 0;
    for (std::uint64_t bits : seen) distinct += std::size_t(std::popcount(bits));
    d.ghosts.reserve(distinct);
    for (std::size_t w = 0; w < seen.size(); ++w)
      for (std::uint64_t bits = seen[w]; bits != 0; bits &= bits - 1)
        d.ghosts.push_back(vertex_t(w * 64 + std::size_t(std::countr_zero(bits))));
    return;
  }
  std::sort(d.ghosts.begin(), d.ghosts.end());
  d.ghosts.erase(std::unique(d.ghosts.begin(), d.ghosts.end()), d.ghosts.end());
  d.ghosts.shrink_to_fit();
}

// Rank `rank`'s part without its rows: the partition `first` (in
// `partition`'s numbering) of a graph on n vertices with `edges` edges.
DistGraph part_of(vertex_t n, offset_t edges, std::vector<vertex_t> first, int rank, Partition partition) {
  MATCHBLAS_EXPECTS(rank >= 0 && std::size_t(rank) + 1 < first.size(), "distribute_rows: rank out of range");
  DistGraph d;
  d.rank = rank;
  d.ranks = int(first.size()) - 1;
  d.n = n;
  d.edges = edges;
  set_partition(d, partition, std::move(first));
  return d;
}

}  // namespace

template <class W>
DistGraph distribute(const Csr<W>& g, int rank, int ranks, Partition partition) {
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "distribute: a general graph is square");
  MATCHBLAS_EXPECTS(ranks >= 1 && rank >= 0 && rank < ranks, "distribute: rank must be in 0..ranks-1");
  DistGraph d;
  d.rank = rank;
  d.ranks = ranks;
  d.n = g.n_rows;
  d.edges = num_edges(g);
  set_partition(d, partition,
                partition == Partition::spread ? equal_blocks(d.n, ranks) : balanced_blocks(g.offsets, ranks));
  const vertex_t begin = d.begin();
  fill_rows(d, [&](vertex_t i) {
    const vertex_t u = d.id(begin + i);
    return std::pair(g.row_cols(u), g.row_weights(u));
  });
  return d;
}

template <class W>
DistGraph distribute_rows(const Csr<W>& rows, vertex_t n, offset_t edges, std::vector<vertex_t> first, int rank,
                          Partition partition) {
  DistGraph d = part_of(n, edges, std::move(first), rank, partition);
  MATCHBLAS_EXPECTS(rows.n_rows == d.count(), "distribute_rows: the rows are not this rank's block");
  fill_rows(d, [&](vertex_t i) { return std::pair(rows.row_cols(i), rows.row_weights(i)); });
  return d;
}

DistGraph distribute_rows(Csr<double>&& rows, vertex_t n, offset_t edges, std::vector<vertex_t> first, int rank,
                          Partition partition) {
  DistGraph d = part_of(n, edges, std::move(first), rank, partition);
  MATCHBLAS_EXPECTS(rows.n_rows == d.count() && rows.offsets.size() == std::size_t(d.count()) + 1,
                    "distribute_rows: the rows are not this rank's block");
  MATCHBLAS_EXPECTS(rows.offsets.front() == 0 && rows.cols.size() == std::size_t(rows.offsets.back()) &&
                        rows.weights.size() == rows.cols.size(),
                    "distribute_rows: the rows' offsets, columns and weights do not agree");
  d.offsets = std::move(rows.offsets);
  d.cols = std::move(rows.cols);
  d.weights = std::move(rows.weights);
  rows = {};
  if (d.cols.capacity() > d.cols.size() + d.cols.size() / 4) {  // room a builder reserved and did not use
    d.cols.shrink_to_fit();
    d.weights.shrink_to_fit();
  }
  fill_rows(
      d,
      [&d](vertex_t i) {
        const std::size_t at = std::size_t(d.offsets[i]), size = std::size_t(d.offsets[i + 1] - d.offsets[i]);
        return std::pair(std::span<const vertex_t>(d.cols.data() + at, size),
                         std::span<const double>(d.weights.data() + at, size));
      },
      /*in_place=*/true);
  return d;
}

template DistGraph distribute_rows(const Csr<float>&, vertex_t, offset_t, std::vector<vertex_t>, int, Partition);
template DistGraph distribute_rows(const Csr<double>&, vertex_t, offset_t, std::vector<vertex_t>, int, Partition);
template DistGraph distribute(const Csr<float>&, int, int, Partition);
template DistGraph distribute(const Csr<double>&, int, int, Partition);

}  // namespace matchblas
