// The distributed graph input's steps 2 and 3 (dist_read.hpp): the graph
// rules on one rank's provisional block of rows (lib/graph_from_matrix.hpp's
// general_graph: duplicates summed in ascending order of value, as
// csr_from_triples sums them, w(u, v) = max(|s_uv|, |s_vu|), zeros dropped;
// a generated graph's rows, a duplicate keeping the larger weight, in the
// greedy order), then the final blocks (balanced_blocks' boundaries from a
// prefix sum of the degrees, or equal blocks of labels) and each row sent to
// its owner (MPI_Alltoallv). Guarantee: exactly distribute()'s part of the
// single-process graph. Cost: O(m / P log) sorting per rank, one exchange.
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "datasets/distributed/dist_exchange_mpi.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"

namespace matchblas::mpi::dist_read_detail {

// ---- the graph rules on one block of rows ----------------------------------

// Rows lo..hi-1 of the general graph of a matrix (graph_from_matrix.hpp,
// general_graph) from every off-diagonal entry of the file with an end in
// them: the entries of key (a, b) summed as csr_from_triples sums them (in
// ascending order of value, whatever order they came in), then w(u, v) =
// max(|s_uv|, |s_vu|), zeros dropped, the weights cast to W and checked as
// general_graph checks them (the first bad entry in row order).
template <class W>
Csr<double> general_rows(vertex_t lo, vertex_t hi, vertex_t n, const std::vector<Entry>& in, const MmHeader& h) {
  const bool transpose = h.symmetry != MmSymmetry::general;
  const double sign = h.symmetry == MmSymmetry::skew_symmetric ? -1.0 : 1.0;
  const vertex_t count = hi - lo;
  // s_uv for u in the block; s_vu (as row u, column v), which a symmetric
  // file makes equal to s_uv (the same values summed in the same order).
  // Each bucketed straight from the received entries.
  const auto sums = [&](bool of_rows) {
    return csr_from_entries<double>(
        count, n, std::int64_t(in.size()),
        [&](std::int64_t k, auto emit) {
          const auto key = [&](vertex_t a, vertex_t b, double x) {
            if (!of_rows) std::swap(a, b);
            if (a >= lo && a < hi) emit(a - lo, b, x);
          };
          const Entry& e = in[std::size_t(k)];
          key(e.r, e.c, e.v);
          if (transpose) key(e.c, e.r, sign * e.v);
        },
        Duplicates::sum, /*drop_zeros=*/false);
  };
  const Csr<double> row_sums = sums(true);
  const Csr<double> col_sums = h.symmetry == MmSymmetry::symmetric ? Csr<double>{} : sums(false);
  // w(u, v) = max(|s_uv|, |s_vu|), zero dropped: both lists are sorted by
  // column, so one merge per row (the value csr_from_triples' max gives).
  Csr<double> g;
  g.n_rows = count;
  g.n_cols = n;
  g.offsets.assign(std::size_t(count) + 1, 0);
  g.cols.reserve(row_sums.cols.size() + col_sums.cols.size());
  g.weights.reserve(g.cols.capacity());
  const bool both = col_sums.n_rows > 0;
  for (vertex_t u = 0; u < count; ++u) {
    offset_t i = row_sums.offsets[u], j = both ? col_sums.offsets[u] : 0;
    const offset_t i_end = row_sums.offsets[u + 1], j_end = both ? col_sums.offsets[u + 1] : 0;
    while (i < i_end || j < j_end) {
      vertex_t c;
      double w;
      if (j == j_end || (i < i_end && row_sums.cols[i] < col_sums.cols[j])) {
        c = row_sums.cols[i];
        w = std::fabs(row_sums.weights[i++]);
      } else if (i == i_end || col_sums.cols[j] < row_sums.cols[i]) {
        c = col_sums.cols[j];
        w = std::fabs(col_sums.weights[j++]);
      } else {
        c = row_sums.cols[i];
        w = std::max(std::fabs(row_sums.weights[i++]), std::fabs(col_sums.weights[j++]));
      }
      if (w == 0) continue;
      g.cols.push_back(c);
      g.weights.push_back(w);
    }
    g.offsets[std::size_t(u) + 1] = offset_t(g.cols.size());
  }
  // To W, checked; a weight that underflows to zero in W is dropped.
  offset_t out = 0;
  for (vertex_t u = 0; u < count; ++u) {
    const offset_t first = g.offsets[u], last = g.offsets[u + 1];
    g.offsets[u] = out;
    for (offset_t k = first; k < last; ++k) {
      const W w = checked_weight<W>(g.weights[k], lo + u, g.cols[k]);
      if (w == W(0)) continue;
      g.cols[out] = g.cols[k];
      g.weights[out++] = double(w);
    }
  }
  g.offsets[count] = out;
  g.cols.resize(std::size_t(out));
  g.weights.resize(std::size_t(out));
  return g;
}

template Csr<double> general_rows<float>(vertex_t, vertex_t, vertex_t, const std::vector<Entry>&, const MmHeader&);
template Csr<double> general_rows<double>(vertex_t, vertex_t, vertex_t, const std::vector<Entry>&, const MmHeader&);

// Rows lo..hi-1 of a generated graph from every drawn edge with an end in
// them (weights already W values): both directions, a duplicate keeping the
// larger weight, self-loops (weight 0) dropped; each row bucketed straight
// from the received edges and left in the greedy order, so that its final
// owner only copies it (distribute_rows sorts only rows out of order).
Csr<double> drawn_rows(vertex_t lo, vertex_t hi, vertex_t n, std::vector<Entry>& in) {
  return csr_from_entries<double>(
      hi - lo, n, std::int64_t(in.size()),
      [&](std::int64_t k, auto emit) {
        const Entry& e = in[std::size_t(k)];
        if (e.r >= lo && e.r < hi) emit(e.r - lo, e.c, e.v);
        if (e.c >= lo && e.c < hi) emit(e.c - lo, e.r, e.v);
      },
      Duplicates::max, /*drop_zeros=*/true, RowOrder::greedy, [&in] { std::vector<Entry>().swap(in); });
}

// ---- step 3: the final blocks and the rows sent there ---------------------

namespace {

// The rows a rank keeps: rows [from, to) of its provisional block `rows`
// (starting at id lo; labels are ids: the blocks partition), `entries` in
// all; none when from == to (rows may then be empty).
struct KeptRows {
  Csr<double>& rows;
  vertex_t lo, from, to;
  offset_t entries;
};

DistGraph rows_received(std::vector<Entry> in, const KeptRows& kept, std::vector<vertex_t> first, vertex_t n,
                        offset_t edges, int rank, Partition partition);

// Collective: the boundaries of the blocks partition (balanced_blocks) from
// each rank's rows lo.. of its provisional block: boundary r is the first u
// with offsets[u] + w u >= total r / P over the whole offsets; each rank
// offers the first u of its block that qualifies (f(u) = offsets[u] + w u
// grows with u), n if none, and the smallest offer wins.
std::vector<vertex_t> balanced_boundaries(const Csr<double>& rows, vertex_t lo, vertex_t n, std::int64_t entries) {
  const int ranks = world_size();
  const std::int64_t mine = rows.offsets.back();
  std::int64_t before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank() == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
  const double w = block_vertex_weight(entries, n);
  const double total = double(entries) + w * double(n);
  std::vector<vertex_t> offer(std::size_t(std::max(ranks - 1, 1)), n), first(std::size_t(ranks) + 1, n);
  const vertex_t count = rows.n_rows;
  const auto f = [&](vertex_t u) { return double(before + rows.offsets[u]) + w * double(lo + u); };
  for (int r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    vertex_t a = 0, b = count;
    while (a < b) {
      const vertex_t mid = a + (b - a) / 2;
      if (f(mid) >= target) b = mid;
      else a = mid + 1;
    }
    if (a < count) offer[r - 1] = lo + a;
  }
  if (ranks > 1)
    MPI_Allreduce(offer.data(), first.data() + 1, ranks - 1, MPI_INT32_T, MPI_MIN, MPI_COMM_WORLD);
  first[0] = 0;
  first[ranks] = n;
  return first;
}

}  // namespace

// Collective: from each rank's rows lo.. of its provisional block (columns
// are ids), this rank's DistGraph under `partition`.
DistGraph balance(const std::string& name, Csr<double> rows, vertex_t lo, vertex_t n, Partition partition) {
  const int rank = world_rank(), ranks = world_size();
  const std::int64_t mine = rows.offsets.back();
  std::int64_t entries = 0;
  MPI_Allreduce(&mine, &entries, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const bool spread = partition == Partition::spread;
  std::vector<vertex_t> first = spread ? equal_blocks(n, ranks) : balanced_boundaries(rows, lo, n, entries);
  const VertexNumbering numbering = spread ? VertexNumbering::spread(n) : VertexNumbering{};
  // The rows whose final block is this rank's stay here (the blocks
  // partition, whose labels are the ids; one rank keeps them all), unless
  // they are under 3/8 of its entries: then `rows` is freed before the
  // exchange, which holds the entries twice (keeping 12 bytes an entry of
  // rows instead costs no more when at least 3/8 of them stay). Each other
  // row goes to its owner: (label, column, weight) in row order.
  vertex_t from = spread ? 0 : std::clamp(first[rank] - lo, 0, rows.n_rows),
           to = spread ? 0 : std::clamp(first[rank + 1] - lo, from, rows.n_rows);
  offset_t kept_entries = rows.offsets[to] - rows.offsets[from];
  if (8 * kept_entries < 3 * mine) from = to = 0, kept_entries = 0;
  std::vector<Entry> out = agreed(name, [&] {
    std::vector<Entry> o(static_cast<std::size_t>(mine - kept_entries));
#pragma omp parallel for schedule(dynamic, 1024)
    for (vertex_t u = 0; u < rows.n_rows; ++u) {
      if (u >= from && u < to) continue;
      const vertex_t label = numbering.label(lo + u);
      const offset_t shift = u >= to ? kept_entries : 0;
      for (offset_t k = rows.offsets[u]; k < rows.offsets[u + 1]; ++k)
        o[std::size_t(k - shift)] = {label, rows.cols[k], rows.weights[k]};
    }
    if (from == to) rows = {};
    return o;
  });
  std::vector<Entry> in =
      exchange(name, out, [&first](const Entry& e, auto send) { send(block_of(first, e.r)); });
  return agreed(name, [&] {
    return rows_received(std::move(in), KeptRows{rows, lo, from, to, kept_entries}, std::move(first), n,
                         entries / 2, rank, partition);
  });
}

namespace {

// This rank's DistGraph from the rows it kept and those received (Entry::r
// the row's label): each received row's entries arrive together and in
// order (one sender per row), the rows in any order. So each is one run of
// equal labels in `in`: the runs are found, and each copied to its row's
// place, in parallel, as are the kept rows.
DistGraph rows_received(std::vector<Entry> in, const KeptRows& kept, std::vector<vertex_t> first, vertex_t n,
                        offset_t edges, int rank, Partition partition) {
  const vertex_t base = first[rank];
  if (in.empty() && kept.from == 0 && kept.to > 0 && kept.to == kept.rows.n_rows && kept.lo == base &&
      first[rank + 1] - base == kept.rows.n_rows)  // the rank's rows are the ones it built (one rank): no copy
    return distribute_rows(std::move(kept.rows), n, edges, std::move(first), rank, partition);
  Csr<double> part;
  part.n_rows = first[rank + 1] - base;
  part.n_cols = n;
  part.offsets.assign(std::size_t(part.n_rows) + 1, 0);
  const Csr<double>& rows = kept.rows;
  const offset_t kept_entries = kept.entries;
  const vertex_t kept_at = kept.lo + kept.from - base;  // the first kept row's place (when any)
  part.cols.resize(in.size() + std::size_t(kept_entries));
  part.weights.resize(part.cols.size());
  const std::int64_t size = std::int64_t(in.size());
  const auto starts_run = [&](std::int64_t i) { return i == 0 || in[std::size_t(i)].r != in[std::size_t(i) - 1].r; };
  const auto run_end = [&](std::int64_t i) {
    std::int64_t j = i + 1;
    while (j < size && in[std::size_t(j)].r == in[std::size_t(i)].r) ++j;
    return j;
  };
  // Each row's length at its place; the thread whose slice holds a run's
  // start reads the whole run.
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::int64_t i = 0; i < size; ++i)
    if (starts_run(i)) part.offsets[std::size_t(in[std::size_t(i)].r - base) + 1] = run_end(i) - i;
#pragma omp parallel for schedule(static)
  for (vertex_t u = kept.from; u < kept.to; ++u)
    part.offsets[std::size_t(kept_at + (u - kept.from)) + 1] = rows.offsets[u + 1] - rows.offsets[u];
  for (vertex_t u = 0; u < part.n_rows; ++u) part.offsets[u + 1] += part.offsets[u];
  if (part.offsets.back() != size + kept_entries) throw error("rows_received: a row arrived in two runs");
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::int64_t i = 0; i < size; ++i)
    if (starts_run(i)) {
      offset_t k = part.offsets[std::size_t(in[std::size_t(i)].r - base)];
      for (std::int64_t j = i, end = run_end(i); j < end; ++j, ++k) {
        part.cols[k] = in[std::size_t(j)].c;
        part.weights[k] = in[std::size_t(j)].v;
      }
    }
  in = {};
  if (kept.from < kept.to) {
    const offset_t at = part.offsets[std::size_t(kept_at)], begin = rows.offsets[kept.from];
#pragma omp parallel for schedule(static)
    for (offset_t k = 0; k < kept_entries; ++k) {
      part.cols[at + k] = rows.cols[begin + k];
      part.weights[at + k] = rows.weights[begin + k];
    }
  }
  return distribute_rows(std::move(part), n, edges, std::move(first), rank, partition);  // in place: no copy
}

}  // namespace

}  // namespace matchblas::mpi::dist_read_detail
