// Weight ranks over the MPI ranks by a sample sort; see dist_weight_ranks.hpp.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/distributed/dist_weight_ranks.hpp"
#include "lib/error.hpp"
#include "lib/weight_ranks.hpp"

namespace matchblas::mpi {

namespace {

void mpi_try(int status, const char* what) {
  if (status != MPI_SUCCESS) throw error(std::string("weight ranks over the ranks: ") + what + " failed");
}

// counts as MPI's int counts; the start of each.
std::vector<int> starts_of(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) at[i] = at[i - 1] + counts[i - 1];
  return at;
}

constexpr std::uint32_t smallest_normal = 0x00800000u, largest_finite = 0x7f7fffffu;

}  // namespace

std::vector<float> weight_ranks_over_ranks(const std::vector<double>& weights, int threads) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  int ranks = 1;
  mpi_try(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");
  // A NaN anywhere: every rank throws.
  int nan_here = 0, nan_any = 0;
  const std::int64_t entries = std::int64_t(weights.size());
#pragma omp parallel for schedule(static) num_threads(t) reduction(| : nan_here)
  for (std::int64_t k = 0; k < entries; ++k) nan_here |= std::isnan(weights[std::size_t(k)]) ? 1 : 0;
  mpi_try(MPI_Allreduce(&nan_here, &nan_any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
  if (nan_any) throw invalid_input("weight ranks over the ranks: a NaN weight");
  const DistinctValues<double> local = distinct_values(weights, t);
  const std::vector<double>& distinct = local.values;
  if (distinct.size() > std::size_t(INT_MAX)) throw error("weight ranks over the ranks: a part over 2^31 weights");

  // Splitters: P evenly spaced samples of each rank's distinct weights.
  std::vector<double> samples;
  for (int i = 0; i < ranks && !distinct.empty(); ++i)
    samples.push_back(distinct[std::size_t(i) * distinct.size() / std::size_t(ranks)]);
  const int mine = int(samples.size());
  std::vector<int> sample_counts(static_cast<std::size_t>(ranks));
  mpi_try(MPI_Allgather(&mine, 1, MPI_INT, sample_counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  std::vector<int> sample_at = starts_of(sample_counts);
  std::vector<double> all_samples(std::size_t(sample_at.back() + sample_counts.back()));
  mpi_try(MPI_Allgatherv(samples.data(), mine, MPI_DOUBLE, all_samples.data(), sample_counts.data(), sample_at.data(),
                         MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Allgatherv");
  std::sort(all_samples.begin(), all_samples.end());
  std::vector<double> splitters;  // bucket q holds the weights in [splitters[q - 1], splitters[q])
  for (int q = 1; q < ranks && !all_samples.empty(); ++q)
    splitters.push_back(all_samples[std::size_t(q) * all_samples.size() / std::size_t(ranks)]);
  splitters.resize(std::size_t(ranks) - 1, splitters.empty() ? 0.0 : splitters.back());

  // Each distinct weight to its bucket's rank (contiguous: both sorted).
  std::vector<int> send(static_cast<std::size_t>(ranks), 0), receive(static_cast<std::size_t>(ranks), 0);
  for (double w : distinct) ++send[std::size_t(std::upper_bound(splitters.begin(), splitters.end(), w) - splitters.begin())];
  mpi_try(MPI_Alltoall(send.data(), 1, MPI_INT, receive.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
  const std::vector<int> send_at = starts_of(send), receive_at = starts_of(receive);
  std::vector<double> bucket(std::size_t(receive_at.back() + receive.back()));
  mpi_try(MPI_Alltoallv(distinct.data(), send.data(), send_at.data(), MPI_DOUBLE, bucket.data(), receive.data(),
                        receive_at.data(), MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Alltoallv");

  // The bucket's distinct weights, numbered from the buckets before it.
  const DistinctValues<double> own = distinct_values(bucket, t);
  long long count = (long long)own.values.size(), before = 0, total = 0;
  mpi_try(MPI_Exscan(&count, &before, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan");
  mpi_try(MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  int rank = 0;
  mpi_try(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
  if (total > (long long)(largest_finite - smallest_normal))
    throw error("weight ranks over the ranks: " + std::to_string(total) + " distinct weights; at most " +
                std::to_string(largest_finite - smallest_normal) + " fit the float ranks");
  std::vector<std::uint32_t> numbers(bucket.size());
  const std::int64_t received = std::int64_t(bucket.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t i = 0; i < received; ++i)
    numbers[std::size_t(i)] = std::uint32_t(before + own.position[std::size_t(i)]);

  // The numbers back, in the order the weights came.
  std::vector<std::uint32_t> ranked(distinct.size());
  mpi_try(MPI_Alltoallv(numbers.data(), receive.data(), receive_at.data(), MPI_UINT32_T, ranked.data(), send.data(),
                        send_at.data(), MPI_UINT32_T, MPI_COMM_WORLD),
          "MPI_Alltoallv");
  std::vector<float> out(weights.size());
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t k = 0; k < entries; ++k)
    out[std::size_t(k)] = std::bit_cast<float>(smallest_normal + ranked[local.position[std::size_t(k)]]);
  return out;
}

}  // namespace matchblas::mpi
