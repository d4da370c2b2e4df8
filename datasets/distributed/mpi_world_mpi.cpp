// The MPI world of the distributed graph input (mpi_world.hpp): rank, size,
// rank on the node, scalar collectives over MPI_COMM_WORLD, the agreed first
// failure, a gather on rank 0, the whole graph's offsets from the blocks,
// and scatter_graph (rank 0 sends each rank its block of rows, point to
// point: offsets, columns, weights).
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "datasets/distributed/mpi_world.hpp"
#include "lib/error.hpp"

namespace matchblas::mpi {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

int local_rank() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

std::string first_failure(const std::string& mine) {
  const int rank = world_rank(), ranks = world_size();
  const int me = mine.empty() ? ranks : rank;
  int first = ranks;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == ranks) return "";
  int length = rank == first ? int(mine.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string text = rank == first ? mine : std::string(std::size_t(length), ' ');
  MPI_Bcast(text.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  return ranks > 1 ? "rank " + std::to_string(first) + ": " + text : text;
}

std::vector<std::int64_t> gather_on_root(const std::vector<std::int64_t>& mine) {
  const int rank = world_rank(), ranks = world_size();
  const long long count = (long long)mine.size();
  std::vector<long long> counts(std::size_t(ranks), 0);
  MPI_Gather(&count, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::vector<int> sizes(std::size_t(ranks), 0), at(std::size_t(ranks), 0);
  long long total = 0;
  bool fits = true;
  if (rank == 0)
    for (int r = 0; r < ranks; ++r) {
      fits = fits && total + counts[std::size_t(r)] <= std::numeric_limits<int>::max();
      at[std::size_t(r)] = int(std::min<long long>(total, std::numeric_limits<int>::max()));
      sizes[std::size_t(r)] = int(std::min<long long>(counts[std::size_t(r)], std::numeric_limits<int>::max()));
      total += counts[std::size_t(r)];
    }
  int ok = fits ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) throw error("gathering on rank 0: over 2^31 values");
  std::vector<std::int64_t> all(rank == 0 ? std::size_t(total) : 0);
  MPI_Gatherv(mine.data(), int(count), MPI_INT64_T, all.data(), sizes.data(), at.data(), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  return all;
}

double max_over_ranks(double x) {
  double y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return y;
}

double sum_over_ranks(double x) {
  double y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return y;
}

std::int64_t sum_over_ranks(std::int64_t x) {
  std::int64_t y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return y;
}

std::int64_t max_over_ranks(std::int64_t x) {
  std::int64_t y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return y;
}

std::vector<offset_t> whole_offsets(const DistGraph& g) {
  const int ranks = g.ranks;
  MATCHBLAS_EXPECTS(g.partition == Partition::blocks && g.first.size() == std::size_t(ranks) + 1 &&
                        g.offsets.size() == std::size_t(g.count()) + 1,
                    "whole_offsets: a blocks partition's rows");
  std::vector<int> counts(static_cast<std::size_t>(ranks)), at(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    counts[std::size_t(r)] = int(g.first[std::size_t(r) + 1] - g.first[std::size_t(r)]);
    at[std::size_t(r)] = int(g.first[std::size_t(r)]);
  }
  // Degrees travel as 4 bytes: a row of 2^31 entries or more is refused.
  const std::int64_t own = g.count(), n = g.n;
  offset_t longest = 0;
#pragma omp parallel for schedule(static) reduction(max : longest)
  for (std::int64_t i = 0; i < own; ++i)
    longest = std::max(longest, g.offsets[std::size_t(i) + 1] - g.offsets[std::size_t(i)]);
  std::unique_ptr<std::int32_t[]> mine, degrees;  // not zeroed: every entry is written
  std::vector<offset_t> offsets;
  std::string failure;  // a rank's failure is every rank's: none waits
  if (longest > offset_t(std::numeric_limits<std::int32_t>::max()))
    failure = "whole_offsets: a row of " + std::to_string(longest) + " entries (at most 2^31 - 1)";
  if (failure.empty()) try {
    mine.reset(new std::int32_t[std::size_t(std::max<std::int64_t>(own, 1))]);
    degrees.reset(new std::int32_t[std::size_t(std::max<std::int64_t>(n, 1))]);
    offsets.resize(std::size_t(n) + 1);
  } catch (const std::bad_alloc&) {
    failure = "whole_offsets: out of memory for the degrees and offsets of " + std::to_string(n) + " vertices";
  }
  if (const std::string why = first_failure(failure); !why.empty()) {
    if (why.find("out of memory") != std::string::npos) throw out_of_memory(why);
    throw invalid_input(why);
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < own; ++i)
    mine[std::size_t(i)] = std::int32_t(g.offsets[std::size_t(i) + 1] - g.offsets[std::size_t(i)]);
  if (MPI_Allgatherv(mine.get(), int(own), MPI_INT32_T, degrees.get(), counts.data(), at.data(), MPI_INT32_T,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
    throw error("whole_offsets: MPI_Allgatherv failed");
  mine.reset();
  // A prefix sum on the threads: each sums its block, the blocks' sums are
  // scanned, then each writes its block's offsets.
  std::vector<offset_t> block_sum;
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
#pragma omp single
    block_sum.assign(std::size_t(threads) + 1, 0);
    const std::int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
    offset_t sum = 0;
    for (std::int64_t v = lo; v < hi; ++v) sum += degrees[std::size_t(v)];
    block_sum[std::size_t(t) + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int k = 0; k < threads; ++k) block_sum[std::size_t(k) + 1] += block_sum[std::size_t(k)];
    offset_t at_v = block_sum[std::size_t(t)];
    for (std::int64_t v = lo; v < hi; ++v) {
      offsets[std::size_t(v)] = at_v;
      at_v += degrees[std::size_t(v)];
    }
  }
  offsets[std::size_t(n)] = block_sum.back();
  return offsets;
}

namespace {
template <class T>
MPI_Datatype type_of() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  else return MPI_INT64_T;
}

int message_count(std::size_t n) {
  if (n > std::size_t(std::numeric_limits<int>::max()))
    throw error("scatter_graph: a rank's part has more than 2^31 - 1 entries; use more ranks");
  return int(n);
}
}  // namespace

template <class W>
DistGraph scatter_graph(const Csr<W>* g, Partition partition) {
  const int rank = world_rank(), ranks = world_size();
  std::int64_t head[2] = {0, 0};  // n, edges
  std::vector<vertex_t> first(std::size_t(ranks) + 1, 0);
  if (rank == 0) {
    MATCHBLAS_EXPECTS(g && g->n_rows == g->n_cols, "scatter_graph: rank 0 passes a general graph");
    head[0] = g->n_rows;
    head[1] = num_edges(*g);
    first = partition == Partition::spread ? equal_blocks(g->n_rows, ranks) : balanced_blocks(g->offsets, ranks);
  }
  MPI_Bcast(head, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(first.data(), ranks + 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
  const VertexNumbering numbering =
      partition == Partition::spread ? VertexNumbering::spread(vertex_t(head[0])) : VertexNumbering{};
  // Rank r's rows on rank 0: the vertices of labels first[r] .. first[r + 1] - 1.
  const auto rows_of = [&](int r) {
    Csr<W> rows;
    rows.n_rows = first[r + 1] - first[r];
    rows.n_cols = g->n_cols;
    rows.offsets.assign(std::size_t(rows.n_rows) + 1, 0);
    for (vertex_t i = 0; i < rows.n_rows; ++i) {
      const vertex_t u = numbering.id(first[r] + i);
      rows.offsets[i + 1] = rows.offsets[i] + (g->offsets[u + 1] - g->offsets[u]);
    }
    rows.cols.reserve(std::size_t(rows.offsets.back()));
    rows.weights.reserve(rows.cols.capacity());
    for (vertex_t i = 0; i < rows.n_rows; ++i) {
      const vertex_t u = numbering.id(first[r] + i);
      rows.cols.insert(rows.cols.end(), g->cols.begin() + g->offsets[u], g->cols.begin() + g->offsets[u + 1]);
      rows.weights.insert(rows.weights.end(), g->weights.begin() + g->offsets[u],
                          g->weights.begin() + g->offsets[u + 1]);
    }
    return rows;
  };
  Csr<W> rows;
  rows.n_rows = first[rank + 1] - first[rank];
  rows.n_cols = vertex_t(head[0]);
  if (rank == 0) {
    for (int r = 1; r < ranks; ++r) {
      const Csr<W> sent = rows_of(r);
      MPI_Send(sent.offsets.data(), message_count(sent.offsets.size()), MPI_INT64_T, r, 0, MPI_COMM_WORLD);
      MPI_Send(sent.cols.data(), message_count(sent.cols.size()), MPI_INT32_T, r, 1, MPI_COMM_WORLD);
      MPI_Send(sent.weights.data(), message_count(sent.weights.size()), type_of<W>(), r, 2, MPI_COMM_WORLD);
    }
    rows = rows_of(0);
  } else {
    rows.offsets.resize(std::size_t(rows.n_rows) + 1);
    MPI_Recv(rows.offsets.data(), int(rows.offsets.size()), MPI_INT64_T, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    rows.cols.resize(std::size_t(rows.offsets.back()));
    rows.weights.resize(rows.cols.size());
    MPI_Recv(rows.cols.data(), int(rows.cols.size()), MPI_INT32_T, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(rows.weights.data(), int(rows.weights.size()), type_of<W>(), 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return distribute_rows(rows, vertex_t(head[0]), head[1], std::move(first), rank, partition);
}

template DistGraph scatter_graph(const Csr<float>*, Partition);
template DistGraph scatter_graph(const Csr<double>*, Partition);

}  // namespace matchblas::mpi
