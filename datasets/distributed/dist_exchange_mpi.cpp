// The distributed graph input's collectives (dist_exchange_mpi.hpp): the
// threads per rank, failures agreed over the ranks (MPI_Allreduce of the
// lowest failing rank, its exception broadcast), the counts of an exchange,
// and the provisional blocks of step 2 (a histogram of entry ends in
// O(P) buckets, one MPI_Allreduce). Cost: O(entries / P + P) per rank.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "datasets/distributed/dist_exchange_mpi.hpp"
#include "lib/error.hpp"

namespace matchblas::mpi::dist_read_detail {

int threads_per_rank() {
  MPI_Comm host;  // collective on every rank, whatever its environment says
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int local = 1;
  MPI_Comm_size(host, &local);
  MPI_Comm_free(&host);
  // OMP_NUM_THREADS set: the count it gives, up to this rank's share of the
  // cores it may run on (a site-wide setting of every core must not put
  // each rank's threads on all of them).
  if (const char* set = std::getenv("OMP_NUM_THREADS"); set != nullptr && *set != '\0')
    return std::max(1, std::min(omp_get_max_threads(), omp_get_num_procs() / std::max(local, 1)));
  return std::max(1, omp_get_max_threads() / std::max(local, 1));
}

namespace {

void bcast_string(std::string& s, int root) {
  int length = int(s.size());
  MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD);
  s.resize(std::size_t(length));
  MPI_Bcast(s.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
}

}  // namespace

void agree(const Failure& mine) {
  const int rank = world_rank(), ranks = world_size();
  const int me = mine.kind == Failure::none ? ranks : rank;
  int first = ranks;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == ranks) return;
  Failure f = rank == first ? mine : Failure{};
  int head[2] = {int(f.kind), 0};
  long long line = f.line;
  MPI_Bcast(head, 2, MPI_INT, first, MPI_COMM_WORLD);
  MPI_Bcast(&line, 1, MPI_LONG_LONG, first, MPI_COMM_WORLD);
  bcast_string(f.file, first);
  bcast_string(f.reason, first);
  bcast_string(f.what, first);
  f.kind = Failure::Kind(head[0]);
  f.line = line;
  f.raise();
}

int count_of(std::int64_t n) {
  if (n > std::numeric_limits<int>::max())
    throw error("a rank sends or receives more than 2^31 - 1 entries in one exchange (MPI's int counts): use "
                "more ranks, unless one vertex holds that many entries, which a block cannot split");
  return int(n);
}

std::vector<vertex_t> provisional_blocks(const std::vector<Entry>& entries, vertex_t n) {
  const int ranks = world_size();
  std::vector<vertex_t> first(std::size_t(ranks) + 1, n);
  first[0] = 0;
  if (n == 0 || ranks == 1) return first;
  const std::int64_t buckets = std::min<std::int64_t>(n, std::int64_t(1024) * ranks);
  const auto bucket = [&](vertex_t v) { return std::size_t(std::int64_t(v) * buckets / n); };
  const auto lower_edge = [&](std::int64_t b) { return vertex_t((b * n + buckets - 1) / buckets); };
  std::vector<std::int64_t> count(std::size_t(buckets), 0), sum(std::size_t(buckets), 0);
  for (const Entry& e : entries) {
    ++count[bucket(e.r)];
    ++count[bucket(e.c)];
  }
  for (std::int64_t b = 0; b < buckets; ++b) count[b] += world_rank() == 0 ? lower_edge(b + 1) - lower_edge(b) : 0;
  MPI_Allreduce(count.data(), sum.data(), int(buckets), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  std::int64_t total = 0;
  for (const std::int64_t c : sum) total += c;
  std::int64_t below = 0;  // work in the buckets before b
  int r = 1;
  for (std::int64_t b = 0; b < buckets && r < ranks; ++b) {
    while (r < ranks && double(below) >= double(total) * r / ranks) first[r++] = lower_edge(b);
    below += sum[b];
  }
  return first;
}

}  // namespace matchblas::mpi::dist_read_detail
