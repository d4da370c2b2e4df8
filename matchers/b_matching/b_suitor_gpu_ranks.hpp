// Private to b_suitor_gpu.cu and b_suitor_gpu_ranks_mpi.cpp: one rank's part
// of b-suitor-gpu over several ranks, and what it needs from MPI (the .cu
// does not include mpi.h). The protocol is b_suitor_parts' (b_matching.hpp).
#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

struct BSuitorRankExchange {
  int rank = 0;
  std::vector<vertex_t> first;  // ranks + 1 bounds: rank r owns [first[r], first[r + 1])
  // Sends out[0, sum of counts) (grouped by destination, counts[r] messages
  // to rank r) and receives the k messages every rank sent this one into
  // receive(k)'s memory; returns k. Collective.
  std::function<std::size_t(const BSuitorMessage* out, const std::vector<std::size_t>& counts,
                            const std::function<BSuitorMessage*(std::size_t)>& receive)>
      alltoall;
  // Whether any rank says true; collective.
  std::function<bool(bool)> any;
  // "" when every rank passed "", else the lowest failing rank's message
  // naming it, on every rank; collective (mpi::first_failure).
  std::function<std::string(const std::string&)> first_failure;
  // floors: n words, this rank's block filled in; fills in every rank's. Collective.
  std::function<void(std::vector<unsigned long long>& floors)> share_floors;
  int sharing = 1;  // the ranks on this rank's GPU (of one node): its free memory is split among them
  // Whether every rank has a GPU of its own (agreed over the ranks): then
  // the messages may go GPU to GPU (rank_transport.hpp), the counts first.
  bool own_gpus = false;
  // Sends rank 0's bytes to every rank; collective.
  std::function<void(void* bytes, std::size_t size)> broadcast;
  // counts[r]: the messages this rank sends rank r; returns those every
  // rank sends this one. Collective.
  std::function<std::vector<std::size_t>(const std::vector<std::size_t>& counts)> counts_of;
  PartsExchange* stats = nullptr;  // per round: this rank's messages (sent), if given
};

// One rank's run on a GPU: offsets has n + 1 entries with every vertex's
// true degree (prefix sums); cols and weights hold this rank's rows
// [first[rank], first[rank + 1]) only, from offsets[first[rank]]; b has n
// entries. Its rows resident when they fit opt.device_memory (0: the GPU's
// free memory) with the state (b_suitor_gpu_memory of the block), else
// streamed in batches. A GPU that cannot be used or holds too little is
// agreed before any work: every rank throws (out_of_memory: the rank and the
// bytes it needed). Returns the b-matching of all n vertices, of which this
// rank's rows are its part (the others' are not). Collective over the ranks.
// times, when given: the upload, the rounds and the download, with the
// rounds' phases.
BMatching b_suitor_gpu_rank(const std::vector<offset_t>& offsets, const std::vector<vertex_t>& cols,
                            std::span<const float> weights, const std::vector<int>& b,
                            const BSuitorRankExchange& ranks, const GpuOptions& opt, GpuTimes* times = nullptr);

}  // namespace matchblas
