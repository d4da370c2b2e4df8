// The MPI process around the distributed matchers (mpi_session.hpp).
#include <mpi.h>

#include <time.h>

#include <cstdlib>
#include <limits>
#include <type_traits>

#include "lib/error.hpp"
#include "matchers/distributed/mpi_session.hpp"

namespace matchblas::mpi {

bool built() { return true; }

bool launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(name); v && *v) return true;
  return false;
}

Session::Session() {
  int ready = 0;
  MPI_Initialized(&ready);
  if (ready) throw error("MPI is already initialised in this process");
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw error("MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

Session::~Session() { MPI_Finalize(); }

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

void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

void idle_barrier() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
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

std::vector<vertex_t> gather_mates(const DistributedMatching& part, vertex_t n) {
  const int rank = world_rank(), ranks = world_size();
  const int mine = int(part.mate.size());
  std::vector<int> counts(std::size_t(ranks), 0), displs(std::size_t(ranks), 0);
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<vertex_t> all;
  if (rank == 0) {
    for (int r = 1; r < ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    all.assign(std::size_t(n), no_vertex);
  }
  MPI_Gatherv(part.mate.data(), mine, MPI_INT32_T, all.data(), counts.data(), displs.data(), MPI_INT32_T, 0,
              MPI_COMM_WORLD);
  // The blocks are consecutive in labels: all[l] is the mate of label l.
  if (rank == 0 && !part.numbering.identity()) {
    std::vector<vertex_t> by_id(std::size_t(n), no_vertex);
    for (vertex_t l = 0; l < n; ++l) by_id[std::size_t(part.numbering.id(l))] = all[std::size_t(l)];
    all.swap(by_id);
  }
  return all;
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

void abort_all(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // not reached
}

}  // namespace matchblas::mpi
