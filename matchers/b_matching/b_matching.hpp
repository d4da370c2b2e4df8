// b-matching: every vertex v may be matched to at most b(v) neighbours (issue
// 6, CPU slice: the reference and b-Suitor, sequential and OpenMP).
// Source: Naim and Manne 2017 sec. 2 (greedy b-matching, b-Suitor: a vertex
// keeps its b(v) best offers, a displaced suitor proposes again) and Manne et al. 2016
// sec. 3 (greedy b-matching as a many-to-many stable assignment).
//
//   b_greedy        edges in the greedy order (lib/greedy_order.hpp), each
//                   taken when both ends still have room: the reference
//   b_suitor_seq    b-Suitor, one vertex at a time: u proposes to its best
//                   neighbour v not yet holding u's offer whose offers u
//                   beats (or that has fewer than b(v)); when v's offers
//                   overflow, the worst one (under neighbour_beats) is
//                   dropped and its proposer proposes again. {u, v} is in the
//                   result when each holds the other's offer. As Khan et
//                   al. 2016: u walks its row once in its order of
//                   preference (a floor only rises, so a neighbour passed
//                   over refuses u for good), picking the next few
//                   candidates by weight in one pass and reading only their
//                   floors; v's offers are a min-heap with the worst at the
//                   root (b_suitor.cpp says how).
//   b_suitor_omp    the same in parallel (OpenMP): v's offers change under
//                   a per-vertex lock (its offer count's word), the floor's
//                   weight is read without it (a refusal by it is final),
//                   the exact test runs under the lock; a vertex is
//                   processed by one thread at a time (an owner flag,
//                   released and re-checked, so that a suitor displaced
//                   meanwhile is never lost).
// Guarantee: b_suitor_seq and b_suitor_omp (any thread count and
// interleaving) return exactly b_greedy's edge set (Khan et al.;
// Naim and Manne 2017: b-Suitor computes the greedy b-matching), and with b = 1 both are
// greedy's matching; 1/2-approximate.
// Cost: b_greedy O(m log m); b_suitor_seq O(sum over a vertex's passes of
// its degree + the floors read + log b per offer taken), a pass per
// activation in practice (a vertex's first, and one per displacement), plus
// a search of the partner's heap per offer held at the end; memory: one
// offer slot per unit of max(1, min(b(v), degree(v))) (at most 4 times that
// when all heaps share one width) and 12 bytes per vertex, nothing per
// stored entry. With b(v) <= 1 everywhere one offer slot and 4 bytes per
// vertex, a chain of displacements as in the plain Suitor.
// Preconditions: g a general graph (square Csr, symmetric, no self-loops,
// columns ascending in each row); b has one entry per vertex, each >= 0 (invalid_input otherwise).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// A b-matching as a CSR of partners: partners[offsets[v] .. offsets[v+1]) are
// v's partners, ascending; each edge {u, v} appears at both ends.
struct BMatching {
  std::vector<offset_t> offsets{0};
  std::vector<vertex_t> partners;
  vertex_t n() const noexcept { return vertex_t(offsets.size()) - 1; }
  offset_t num_edges() const noexcept { return offset_t(partners.size()) / 2; }
  bool operator==(const BMatching&) const = default;
};

template <class W>
BMatching b_greedy(const Csr<W>& g, const std::vector<int>& b);

template <class W>
BMatching b_suitor_seq(const Csr<W>& g, const std::vector<int>& b);

// threads <= 0: all OpenMP threads.
template <class W>
BMatching b_suitor_omp(const Csr<W>& g, const std::vector<int>& b, int threads = 0);

// The weight of m's edges on g (each counted once).
template <class W>
double b_matching_weight(const Csr<W>& g, const BMatching& m);

// "" when m is a b-matching of g (symmetric, every edge in g, no vertex above
// b(v), no partner twice, partners ascending); otherwise why not.
template <class W>
std::string b_matching_violation(const Csr<W>& g, const std::vector<int>& b, const BMatching& m);

// b(v) = value for every vertex of a graph of order n.
std::vector<int> constant_b(vertex_t n, int value);

namespace detail {
// Throws invalid_input unless g is square and b has one entry >= 0 per vertex.
template <class W>
void expect_b(const Csr<W>& g, const std::vector<int>& b, const char* who);
// The same for a graph of order n known to be square (a DeviceGraph's).
void expect_b(vertex_t n, const std::vector<int>& b, const char* who);
// The BMatching of per-vertex partner lists (each sorted here).
BMatching from_lists(std::vector<std::vector<vertex_t>>& lists);
}  // namespace detail

// b-Suitor on the GPU (matchers/b_matching/b_suitor_gpu.cu): each vertex
// keeps its cap(v) = min(b(v), deg v) best offers sorted in cap(v) words
// without a lock (an offer goes down them by atomic maxima), a tile of
// lanes (a block for rows longer than 1024) scans a proposer's row; exactly b_greedy's edge set
// (matchers/b_matching/b_matching.hpp) for any b and any interleaving. With b = 1 at
// every vertex and float weights it runs suitor-gpu (greedy's matching,
// the same edges), the graph resident. Double weights that are all floats
// exactly (integers up to 2^24, say) run on float keys, the same edges
// (not under a device_memory limit: 4 bytes an entry more); other double
// weights use keys that search the holder's row (2.1-2.4x slower).
// A host graph that does not fit opt.device_memory (0: the device's free
// memory) with the run's state (b_suitor_gpu_memory) is streamed: its rows
// go through the device in batches each round (ops/gpu/row_batches.cuh),
// double weights replaced by their ranks (lib/weight_ranks.hpp); the same
// edges. Less memory than the state and two batches of the longest row is
// out_of_memory naming the bytes needed.
// Same preconditions and errors as b_suitor_seq (invalid_input for a bad
// b); of opt `device`, `stream` and `device_memory` are used. GpuTimes:
// upload (the graph's, plus b's; streamed: the offsets and page-locking the
// rows), match (allocations, kernels and one host synchronisation per
// round, the result left on the device; phases "init", "first round",
// "other rounds (R)", "extract", streamed with the batches and bytes
// copied in the round phases' names; suitor-gpu's phases when it runs),
// download (the BMatching). On a DeviceGraph, opt.device must be the
// graph's device, and device_memory is not read.
//
// How the first round places its proposals (opt.first_round; every later
// round places by atomic maxima):
//   atomic  (the default) each proposal goes down its target's words by
//           atomic maxima, as in the later rounds;
//   sorted  the round's proposals written as (target, key) pairs, grouped
//           by target by a counting sort, each group sorted, and each
//           target's best cap(v) stored at once; its pairs, about 24 bytes
//           a proposal, live through the first round only. Needs float
//           weights, the rows resident, one rank and no device_memory
//           limit (invalid_input otherwise), and the memory (out_of_memory:
//           its pairs are not in b_suitor_gpu_memory's count). With b = 1
//           everywhere and float weights suitor-gpu runs, and the
//           placement does not apply.
//           Measured slower than atomic on the H200 (bench/RESULTS.md), kept
//           for other GPUs and graphs to be measured.
// The result is the same edge set in either case.
enum class BSuitorPlacement { atomic, sorted };
BSuitorPlacement parse_b_suitor_placement(std::string_view name);  // invalid_input lists the names
std::string to_string(BSuitorPlacement p);

struct BSuitorGpuOptions : GpuOptions {
  BSuitorPlacement first_round = BSuitorPlacement::atomic;
  BSuitorGpuOptions(const GpuOptions& gpu = {}, BSuitorPlacement first = BSuitorPlacement::atomic)  // NOLINT
      : GpuOptions(gpu), first_round(first) {}
};

template <class W>
BMatching b_suitor_gpu(const Csr<W>& g, const std::vector<int>& b, const BSuitorGpuOptions& opt = {},
                       GpuTimes* times = nullptr);
template <class W>
BMatching b_suitor_gpu(const DeviceGraph<W>& g, const std::vector<int>& b, const BSuitorGpuOptions& opt = {},
                       GpuTimes* times = nullptr);

// What b-suitor-gpu holds on the device for a host graph and b, in bytes
// (b_suitor_gpu_memory.cpp; an estimate that bounds the allocations from
// above): the state (per-vertex words, offer slots, the result's scratch),
// the row offsets, and the entries, resident (column and W weight) or per
// streamed entry (column and float weight or rank).
struct BSuitorGpuMemory {
  std::size_t state = 0, offsets = 0, entries = 0;
  std::size_t streamed_entry = sizeof(vertex_t) + sizeof(float);
  offset_t longest_row = 0;
  std::size_t resident() const { return state + offsets + entries; }
  // The least a streamed run needs: two buffers of the longest row.
  std::size_t least_streamed() const { return state + offsets + 2 * std::size_t(longest_row) * streamed_entry; }
  // The entries per streamed buffer under `limit` bytes (0 below least_streamed).
  offset_t batch_entries(std::size_t limit) const {
    return limit < least_streamed() ? 0 : offset_t((limit - state - offsets) / (2 * streamed_entry));
  }
};
template <class W>
BSuitorGpuMemory b_suitor_gpu_memory(const Csr<W>& g, const std::vector<int>& b);
// The same for one rank's block of rows [first, end) over several ranks
// (b_suitor_gpu_ranks), float keys: offsets has n + 1 entries (every
// vertex's degree), b n; the state covers all n vertices and adds the
// rank's message boxes.
BSuitorGpuMemory b_suitor_gpu_memory(std::span<const offset_t> offsets, const std::vector<int>& b, vertex_t first,
                                     vertex_t end);

// b-Suitor over P parts of the vertices exchanging in bulk, in one process
// (matchers/b_matching/b_suitor_parts.cpp): the protocol of b-Suitor over
// several GPUs (each part's proposals to its own vertices at once, those to
// other parts' vertices sent once a round, refusals and displacements sent
// back with the holder's floor), the reference for a distributed run's
// result and exchange, and the exchange volume per round that models one
// (bench_b_matching --parts). Exactly b_greedy's edge set for any P >= 1;
// invalid_input for a bad b or P < 1. PartsExchange: the parts' first
// vertices (P + 1 bounds) and per round the proposals and drops sent
// between parts, the messages (pairs of parts with something to send, per
// phase), the bytes (12 a proposal, 16 a drop), and the most any one part
// sent and received; over MPI ranks (b_suitor_gpu_ranks), the seconds the
// rank spent in the exchange (from the boxes' download to the messages
// taken on its GPU, the waits for other ranks included).
struct PartsRound {
  long long proposals = 0, drops = 0, messages = 0;
  std::size_t bytes = 0, most_sent = 0, most_received = 0;
  double exchange_s = 0;
};
struct PartsExchange {
  std::vector<vertex_t> first;
  std::vector<PartsRound> rounds;
  // Over MPI ranks: how the messages travelled, "nccl" (GPU to GPU) or
  // "host: WHY" (staged through host memory, and why); and, set by the
  // caller, host_staged to stage them even where NCCL could carry them.
  std::string transport;
  bool host_staged = false;
};
template <class W>
BMatching b_suitor_parts(const Csr<W>& g, const std::vector<int>& b, int parts, PartsExchange* exchange = nullptr);

// b-suitor-gpu over the MPI ranks of a distributed graph, a GPU each
// (several ranks may share one, splitting its free memory; opt.device is
// this rank's): the protocol of b_suitor_parts with this rank's rows on its
// GPU (streamed in batches when they do not fit opt.device_memory with the
// state: b_suitor_gpu_memory of its block; a GPU that cannot be used or is
// too small is agreed, every rank throwing "rank R: ...", out_of_memory
// naming the bytes), the proposals to other
// ranks' vertices and the drops sent host-staged once a round
// (MPI_Alltoallv); every rank holds the degrees, b and the floor words of
// all n vertices (O(n) per rank besides its rows). Returns this rank's
// rows of b_greedy's edge set (offsets over its vertices, partners by id).
// Collective over MPI_COMM_WORLD. g: the blocks partition (labels = ids);
// weights that floats do not hold are replaced by their ranks, computed
// over the ranks (datasets/distributed/dist_weight_ranks.hpp; NaN is
// invalid_input on every rank); b: n entries. stats, when
// given: per round, the messages, proposals, drops and bytes this rank
// sent and its seconds in the exchange. times, when given: this rank's
// upload, rounds (exchanges included) and download, with the phases
// "keys" (the weights made float keys; their ranks over the ranks when
// floats do not hold them), "degrees" (every vertex's, gathered), the
// rounds' and "exchange" (its part of the rounds). Throws error in builds
// without MPI or CUDA.
struct DistGraph;
BMatching b_suitor_gpu_ranks(const DistGraph& g, const std::vector<int>& b, const GpuOptions& opt = {},
                             PartsExchange* stats = nullptr, GpuTimes* times = nullptr);

// A b-matching held over MPI ranks (each rank its rows, as
// b_suitor_gpu_ranks returns them) checked against the distributed graph
// and b (n entries) independently of the matcher
// (b_matching_over_ranks_mpi.cpp): the first violation over the ranks ("rank
// R: ..."; "" when none: at most b(v) partners, strictly ascending, each a
// neighbour listing v back) and the matched edges and their weight summed
// over the ranks, on every rank. Collective; throws error without MPI.
struct BMatchingOverRanks {
  std::string violation;
  double weight = 0;
  std::int64_t edges = 0;
};
BMatchingOverRanks check_b_matching_over_ranks(const DistGraph& g, const std::vector<int>& b, const BMatching& part);

// One message of b-suitor-gpu over several ranks (16 bytes): a proposal
// (u offers v the packed key `word`) or a drop (u's offer at v is gone; v's
// floor word then).
struct BSuitorMessage {
  vertex_t u, v;
  unsigned long long word;
};

// b-matching by locally dominant rounds on the GPU
// (matchers/b_matching/b_ld_gpu.cu): each round every vertex with room keeps
// its best live neighbours in order and takes the edges that rank among the
// best r at both ends (r: the partners it may still take); exactly
// b_greedy's edge set. Same preconditions, errors, options and GpuTimes as
// b_suitor_gpu, with the phases "init", "rounds (R)", "extract".
template <class W>
BMatching b_ld_gpu(const Csr<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                   GpuTimes* times = nullptr);
template <class W>
BMatching b_ld_gpu(const DeviceGraph<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                   GpuTimes* times = nullptr);

}  // namespace matchblas
