// b-suitor-gpu over MPI ranks (declared in matchers/b_matching/b_matching.hpp):
// each rank's block of rows on its GPU (b_suitor_gpu_rank in b_suitor_gpu.cu),
// the exchange between rounds per phase (proposals, then drops), grouped by
// rank on the GPU: GPU to GPU through NCCL where every rank has a GPU of its
// own and the build has NCCL (rank_transport.hpp; the counts first, one
// MPI_Alltoall), else host-staged over MPI_COMM_WORLD through page-locked
// memory: one MPI_Alltoall of counts, an MPI_Allreduce agreeing that every
// rank can send and receive them, and one MPI_Alltoallv of 16-byte messages
// (an MPI type: counts in messages, at most 2^31 - 1 a rank and phase);
// an MPI_Allreduce ends the rounds, and the floor words are gathered once
// at the end for the mutual offers; the ranks sharing a GPU split its free
// memory.
// Source: the multi-GPU b-Suitor of Naim and Manne, "Scalable b-matching on
// GPUs", 2017 (in Naim's PhD thesis, University of Bergen), with the
// protocol of b_suitor_parts (b_suitor_parts.cpp: why it equals b_greedy).
// Cost: per round, the rank's kernels (the messages grouped by rank among
// them) and two exchanges of the messages it sends and receives (over the
// GPUs' links, or a copy to and from page-locked host memory around MPI's);
// O(n) words per rank (degrees, b, floors, states) besides its rows.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/distributed/dist_weight_ranks.hpp"
#include "datasets/distributed/mpi_world.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_gpu_ranks.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas {

namespace {

void mpi_try(int status, const char* what) {
  if (status != MPI_SUCCESS) throw error(std::string("b-suitor-gpu over ranks: ") + what + " failed");
}

// counts as the int counts MPI takes (their sum, the last displacement's
// end, an int too); all zero, and `failure` set, where they do not fit.
std::vector<int> int_counts(const std::vector<std::size_t>& counts, std::string& failure) {
  std::size_t total = 0;
  for (std::size_t c : counts) total += c;
  if (total > std::size_t(INT_MAX)) {
    failure = "b-suitor-gpu over ranks: " + std::to_string(total) + " messages from one rank in one exchange (at most " +
              std::to_string(INT_MAX) + ")";
    return std::vector<int>(counts.size(), 0);
  }
  return std::vector<int>(counts.begin(), counts.end());
}

// The messages as one MPI type (16 bytes), so counts and displacements
// count messages, not bytes; committed for the run, freed after it.
class MessageType {
 public:
  MessageType() {
    mpi_try(MPI_Type_contiguous(int(sizeof(BSuitorMessage)), MPI_BYTE, &type_), "MPI_Type_contiguous");
    mpi_try(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  ~MessageType() { MPI_Type_free(&type_); }
  MessageType(const MessageType&) = delete;
  MessageType& operator=(const MessageType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

std::vector<int> starts_of(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) at[i] = at[i - 1] + counts[i - 1];
  return at;
}

// The ranks of this node whose GPU is `device`'s (this one included),
// told apart by the GPUs' UUIDs (ranks given one GPU each through
// CUDA_VISIBLE_DEVICES all call theirs device 0), or by the device ids
// where a rank has no UUID to give.
int ranks_on_device(int device) {
  MPI_Comm node = MPI_COMM_NULL;
  mpi_try(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  constexpr int width = 32;  // hex digits of a UUID
  std::string mine = gpu::device_uuid(device);
  if (mine.size() != std::size_t(width)) mine = "id " + std::to_string(device);
  mine.resize(width, ' ');
  int size = 1;
  MPI_Comm_size(node, &size);
  std::string all(std::size_t(size) * width, ' ');
  const int gathered = MPI_Allgather(mine.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, node);
  MPI_Comm_free(&node);
  mpi_try(gathered, "MPI_Allgather");
  int count = 0;
  for (int r = 0; r < size; ++r) count += all.compare(std::size_t(r) * width, width, mine) == 0 ? 1 : 0;
  return std::max(count, 1);
}

}  // namespace

BMatching b_suitor_gpu_ranks(const DistGraph& g, const std::vector<int>& b, const GpuOptions& opt,
                             PartsExchange* stats, GpuTimes* times) {
  // The input's checks come before the first collective (a rank that
  // throws must not leave the others waiting); the weights' are agreed.
  if (g.partition != Partition::blocks)
    throw invalid_input("b-suitor-gpu over ranks: the blocks partition only (labels = ids), not spread");
  if (b.size() != std::size_t(g.n))
    throw invalid_input("b-suitor-gpu over ranks: b has " + std::to_string(b.size()) + " entries for " +
                        std::to_string(g.n) + " vertices");
  for (std::size_t v = 0; v < b.size(); ++v)
    if (b[v] < 0) throw invalid_input("b-suitor-gpu over ranks: b(" + std::to_string(v) + ") < 0");
  // Float keys: the weights themselves where floats hold every one on every
  // rank, else their ranks (the same order: b_greedy's edges unchanged).
  auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(start, now)).count();
  };
  // The conversion's array is not zeroed first, and the threads touch its
  // pages first (a zeroed vector cost one thread 0.2-0.4 s at 2^28 entries).
  const std::size_t entries = g.weights.size();
  std::unique_ptr<float[]> converted(new (std::nothrow) float[std::max<std::size_t>(entries, 1)]);
  if (const std::string why = mpi::first_failure(
          converted ? "" : "b-suitor-gpu over ranks: out of memory for " + std::to_string(entries) + " float keys");
      !why.empty())
    throw out_of_memory(why);
  int inexact = 0, all_exact = 0;
#pragma omp parallel for schedule(static) reduction(| : inexact)
  for (std::int64_t k = 0; k < std::int64_t(entries); ++k) {
    const double w = g.weights[std::size_t(k)];
    converted[std::size_t(k)] = float(w);
    inexact |= double(float(w)) != w || std::isnan(w) ? 1 : 0;
  }
  const int exact = inexact ? 0 : 1;
  mpi_try(MPI_Allreduce(&exact, &all_exact, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  std::vector<float> ranked;
  if (!all_exact) {
    converted.reset();  // of no use: not held while the ranks are sorted
    ranked = mpi::weight_ranks_over_ranks(g.weights);
  }
  const std::span<const float> weights = all_exact ? std::span<const float>(converted.get(), entries) : ranked;
  const double keys_s = seconds();

  const int ranks = g.ranks;
  // The ranks' blocks as MPI counts and displacements (for the floors).
  const vertex_t count = g.count();
  std::vector<int> degree_counts(static_cast<std::size_t>(ranks)), degree_at(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    degree_counts[std::size_t(r)] = int(g.first[std::size_t(r) + 1] - g.first[std::size_t(r)]);
    degree_at[std::size_t(r)] = int(g.first[std::size_t(r)]);
  }
  const std::vector<offset_t> offsets = mpi::whole_offsets(g);  // every vertex's degree
  const double degrees_s = seconds();
  BSuitorRankExchange ex;
  ex.rank = g.rank;
  ex.first = g.first;
  ex.stats = stats;
  if (stats) {
    const bool host_staged = stats->host_staged;
    *stats = PartsExchange{g.first, {}, {}, host_staged};
  }
  const MessageType message;
  ex.alltoall = [ranks, &message](const BSuitorMessage* out, const std::vector<std::size_t>& counts,
                                  const std::function<BSuitorMessage*(std::size_t)>& receive) {
    // What cannot be sent or received (too many messages, no memory for
    // them) is agreed before the messages move: every rank throws alike.
    std::string failure;
    const std::vector<int> send = int_counts(counts, failure);
    std::vector<int> received(static_cast<std::size_t>(ranks));
    mpi_try(MPI_Alltoall(send.data(), 1, MPI_INT, received.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
    std::size_t total = 0;
    for (int c : received) total += std::size_t(c);
    BSuitorMessage* into = nullptr;
    if (failure.empty() && total > std::size_t(INT_MAX))
      failure = "b-suitor-gpu over ranks: " + std::to_string(total) + " messages to one rank in one exchange (at most " +
                std::to_string(INT_MAX) + ")";
    if (failure.empty()) {
      try {
        into = receive(total);
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    if (const std::string why = mpi::first_failure(failure); !why.empty()) throw error(why);
    mpi_try(MPI_Alltoallv(out, send.data(), starts_of(send).data(), message.get(), into, received.data(),
                          starts_of(received).data(), message.get(), MPI_COMM_WORLD),
            "MPI_Alltoallv");
    return total;
  };
  ex.any = [](bool mine_any) {
    int x = mine_any ? 1 : 0, all = 0;
    mpi_try(MPI_Allreduce(&x, &all, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
    return all != 0;
  };
  ex.first_failure = [](const std::string& mine) { return mpi::first_failure(mine); };
  ex.sharing = ranks_on_device(opt.device);
  int own = ex.sharing == 1 && !(stats && stats->host_staged) ? 1 : 0, all_own = 0;
  mpi_try(MPI_Allreduce(&own, &all_own, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  ex.own_gpus = all_own != 0;
  ex.broadcast = [](void* bytes, std::size_t size) {
    mpi_try(MPI_Bcast(bytes, int(size), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  };
  ex.counts_of = [ranks](const std::vector<std::size_t>& counts) {
    const std::vector<unsigned long long> out(counts.begin(), counts.end());
    std::vector<unsigned long long> in(static_cast<std::size_t>(ranks));
    mpi_try(MPI_Alltoall(out.data(), 1, MPI_UNSIGNED_LONG_LONG, in.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD),
            "MPI_Alltoall");
    return std::vector<std::size_t>(in.begin(), in.end());
  };
  ex.share_floors = [&](std::vector<unsigned long long>& floors) {
    std::vector<unsigned long long> own(floors.begin() + g.first[std::size_t(g.rank)],
                                        floors.begin() + g.first[std::size_t(g.rank) + 1]);
    mpi_try(MPI_Allgatherv(own.data(), int(own.size()), MPI_UNSIGNED_LONG_LONG, floors.data(), degree_counts.data(),
                           degree_at.data(), MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD),
            "gathering the floors");
  };
  const BMatching all = b_suitor_gpu_rank(offsets, g.cols, weights, b, ex, opt, times);
  if (times) times->phases.insert(times->phases.begin(), {{"keys", keys_s}, {"degrees", degrees_s}});
  // This rank's rows.
  const vertex_t lo = g.begin();
  BMatching part;
  part.offsets.assign(std::size_t(count) + 1, 0);
  for (vertex_t i = 0; i < count; ++i) {
    const vertex_t v = lo + i;
    part.offsets[std::size_t(i) + 1] = part.offsets[std::size_t(i)] + (all.offsets[std::size_t(v) + 1] - all.offsets[std::size_t(v)]);
    part.partners.insert(part.partners.end(), all.partners.begin() + all.offsets[std::size_t(v)],
                         all.partners.begin() + all.offsets[std::size_t(v) + 1]);
  }
  return part;
}

}  // namespace matchblas
