// b-suitor-gpu (declared in matchers/b_matching/b_matching.hpp): b-Suitor on
// the GPU, the greedy b-matching of a general graph, every vertex v keeping
// its b(v) best offers in sorted words updated without a lock.
// Source: M. Naim, F. Manne, "Scalable b-matching on GPUs", 2017 (in Naim's
// PhD thesis, University of Bergen): b-Suitor as Khan et al. 2016 and Manne
// et al. 2016 sec. 3 state it, in the GPU shape of Naim et al. 2015 Alg. 4.
// Guarantee: exactly b_greedy's edge set for any b and any schedule (b = 1:
// greedy's matching); 1/2-approximate. Preconditions: as b_suitor_seq; sm_70.
// Cost: O(sum over proposals of the proposer's degree) reads plus <= cap(v)
// atomic maxima a placement; one host synchronisation per round (streamed
// rows: per batch with an owned vertex, and each such batch's entries
// copied once a round unless still in one of the two buffers).
// Over MPI ranks (b_suitor_gpu_rank, called by b_suitor_gpu_ranks_mpi.cpp):
// the same rounds on a rank's block of rows, offers to other ranks'
// vertices and drops of their proposers exchanged after each round
// (exchange_round, take_proposals, take_drops).
// Design, proof and device memory: docs/algorithms/b_suitor_gpu.md.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/greedy_order.hpp"
#include "lib/weight_ranks.hpp"
#include "matchers/b_matching/b_suitor_gpu_offers.cuh"
#include "matchers/b_matching/b_suitor_gpu_ranks.hpp"
#include "matchers/b_matching/b_suitor_gpu_sorted.cuh"
#include "matchers/b_matching/rank_transport.hpp"
#include "ops/gpu/device_graph.hpp"
#include "ops/gpu/float_weights.cuh"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/general/suitor.hpp"  // suitor_gpu: b = 1 with float weights runs it
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/row_batches.cuh"
#include "ops/gpu/row_scan.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas {

namespace {

namespace cg = cooperative_groups;
using namespace gpu::b_suitor;

// Group sizes by row length: suitor_gpu.cu's class bounds and tile widths
// (4 lanes up to 32 entries, a warp up to 1024, a block beyond) with a
// class of 8-lane tiles for rows of 33-64 entries between the first two,
// where a warp left most of its lanes idle (ER scale 24, b = 5, on an H100:
// those rows' first round 38.4 -> 21.1 ms).
constexpr offset_t small_row = 32, mid_row = 64, hub_row = 1024;
constexpr int small_tile = 4, mid_tile = 8, row_tile = 32, hub_block = 256, tile_block = 128;
constexpr int classes = 4;  // rows of <= small_row entries, <= mid_row, <= hub_row, hubs

template <class W>
using State = Offers<W>;

__device__ int row_class(offset_t degree) {
  return degree <= small_row ? 0 : degree <= mid_row ? 1 : degree <= hub_row ? 2 : 3;
}

using gpu::Candidates;
using gpu::LaneTop;
using gpu::TileGroup;
using gpu::BlockGroup;

// A proposer's scan keeps up to top_k candidates (fewer when it needs
// fewer offers), so that one pass over its row serves several proposals
// (Khan et al. 2016's partial sorting, done by the scan).
constexpr int top_k = 4;

// A lane's scan in batches of scan_batch entries: the floors of the
// entries that its list would admit at the batch's start are loaded at
// once (scan_batch random reads in flight instead of one), then the
// entries are inserted in row order where the floor takes u's offer and
// the list still admits them (a list only gets stricter, so an entry it
// did not admit at the start it would not admit later).
constexpr int scan_batch = 8;

template <class W>
__device__ LaneTop<W, top_k> lane_top(const State<W>& o, vertex_t u, vertex_t cv, W cw, int first, int width, int limit) {
  LaneTop<W, top_k> top;
  gpu::for_strided_batches<scan_batch>(
      o.g, u, first, width, [&](const vertex_t (&v)[scan_batch], const W (&w)[scan_batch]) {
        word_t floor[scan_batch];  // closed: not read (closed refuses every offer)
#pragma unroll
        for (int j = 0; j < scan_batch; ++j) {
          const bool wanted = v[j] != no_vertex && (cv == no_vertex || neighbour_beats(cw, cv, w[j], v[j])) &&
                              top.admits(v[j], w[j], limit);
          floor[j] = wanted ? load(o.floor + v[j]) : closed;
        }
#pragma unroll
        for (int j = 0; j < scan_batch; ++j)
          if (floor[j] != closed && o.keys.takes(w[j], u, floor[j]) && top.admits(v[j], w[j], limit))
            top.insert(v[j], w[j], limit);
      });
  return top;
}

// The groups that own a proposer: a tile of G lanes of a warp or a block
// (gpu::TileGroup, gpu::BlockGroup: ops/gpu/row_scan.cuh).

// The group owns u: u proposes until it holds b(u) offers or is exhausted,
// then the group releases it (after storing the cursor for the next owner).
// The proposers it displaces and claims meanwhile stay owned until the next
// round lists them.
template <class Group, class W>
__device__ void run_owned(const Group& group, const State<W>& o, vertex_t u) {
  vertex_t cv = no_vertex;
  W cw = W(0);
  if (group.leader()) {
    cv = load(o.cursor_v + u);
    if (cv != no_vertex) cw = load(o.cursor_w + u);
  }
  cv = group.from_leader(cv);
  cw = group.from_leader(cw);
  const word_t bu = word_t(o.b[u]);
  for (;;) {
    int need = 0;  // the leader's: how many offers u proposes next, 0 once released
    if (group.leader()) {
      auto state = atomic(o.state + u);
      word_t s = state.load(cuda::memory_order_relaxed);
      bool released = false;
      if ((s & exhausted) || held_of(s) >= bu) {
        store(o.cursor_v + u, cv);
        store(o.cursor_w + u, cw);
        while (!released && ((s & exhausted) || held_of(s) >= bu))  // fails when a drop came in meanwhile
          released =
              state.compare_exchange_strong(s, s & ~owned, cuda::memory_order_release, cuda::memory_order_relaxed);
      }
      if (!released) need = int(min(word_t(top_k), bu - held_of(s)));  // here held < b(u), not exhausted
    }
    need = group.from_leader(need);
    if (need == 0) return;
    const Candidates<W, top_k> c = merge_candidates(group, lane_top(o, u, cv, cw, group.rank(), Group::size, need), need);
    if (c.size == 0) {  // nobody below the cursor takes u's offer, for good
      if (group.leader()) atomic(o.state + u).fetch_or(exhausted, cuda::memory_order_relaxed);
      continue;
    }
    // The proposals to the candidates at once, lane j to candidate j (u
    // holds at most b(u) - need offers, so at most b(u) after them); the
    // cursor moves to the last, and u proposes at or above none of them
    // again.
    if (const int j = group.rank(); j < c.size) {
      const Placed p = place(o, u, gpu::pick(c.v, j), gpu::pick(c.w, j));
      if (p.displaced != no_vertex) claim(o.state, p.displaced, p.displaced_state);
    }
    cv = gpu::pick(c.v, c.size - 1);  // the last candidate
    cw = gpu::pick(c.w, c.size - 1);
    group.sync();  // the placements' held counts before the leader reads them
  }
}

// The first round: no vertex holds an offer at its start, so the group
// proposes to the best min(b(u), first_k) entries of u's row at once,
// found by one streaming scan that reads no floor (place re-reads each
// target's floor: a cap-0 vertex, or one that other groups filled
// meanwhile, refuses for good), lane j placing to candidates j, j + G, ...;
// the cursor moves to the last. One concurrent step of run_owned's
// proposals (each the best entry below the cursor not read as refusing),
// so the header's argument holds as it is. A row with fewer entries than
// that is used up: u is exhausted. Every proposer is owned and none is
// released in this round, so a claim of a displaced proposer finds it
// owned and does nothing (it is kept for that argument's sake).
// The lists hold K = first_lists(max b) entries, the fewest that serve
// every vertex: this scan is bound by its instructions, not its reads
// (ncu, ER scale 24 with b = 5: 93-96% of the SM's throughput in a scan
// without placements), and they grow with K (on an H100, R-MAT scale 24
// with b = 2: first round 7.7 ms with lists of 8, 4.9 ms with lists of 2).
constexpr int first_k = 8;

int first_lists(int max_b) { return max_b <= 2 ? 2 : max_b <= 4 ? 4 : first_k; }

template <int K, class Group, class W>
__device__ void propose_first(const Group& group, const State<W>& o, vertex_t u) {
  const int need = min(K, o.b[u]);  // min(b(u), first_k): K < first_k only when no b exceeds it
  LaneTop<W, K> top;
  gpu::for_strided_entries<scan_batch>(o.g, u, group.rank(), Group::size, [&](vertex_t v, W w) {
    if (top.admits(v, w, need)) top.insert(v, w, need);
  });
  const Candidates<W, K> c = merge_candidates(group, top, need);
  for (int j = group.rank(); j < c.size; j += Group::size) {
    if constexpr (std::is_same_v<W, float>) {
      if (o.pairs.active()) {  // the sorted placement places them after the round
        o.pairs.write(o.pairs.at[u] + j, gpu::pick(c.v, j), PackedKeys::pack(gpu::pick(c.w, j), u));
        continue;
      }
    }
    const Placed p = place(o, u, gpu::pick(c.v, j), gpu::pick(c.w, j));
    if (p.displaced != no_vertex) claim(o.state, p.displaced, p.displaced_state);
  }
  if (group.leader() && c.size > 0) {
    o.cursor_v[u] = gpu::pick(c.v, c.size - 1);
    o.cursor_w[u] = gpu::pick(c.w, c.size - 1);
  }
  if (group.leader() && c.size < need) atomic(o.state + u).fetch_or(exhausted, cuda::memory_order_relaxed);
}

// The group for one listed vertex runs the first round's step (FirstK > 0:
// its lists' size) or run_owned (FirstK = 0, the other rounds).
template <int FirstK, class Group, class W>
__device__ void run_listed(const Group& group, const State<W>& o, vertex_t u) {
  if constexpr (FirstK > 0) propose_first<FirstK>(group, o, u);
  else run_owned(group, o, u);
}

// A tile of G lanes per listed vertex (the list of one row class).
template <int G, int FirstK, class W>
__global__ void propose_tiles(State<W> o, const vertex_t* list, int listed) {
  const TileGroup<G> group{cg::tiled_partition<G>(cg::this_thread_block())};
  const long long item = gpu::grid_thread() / G;
  if (item >= listed) return;  // the whole tile
  run_listed<FirstK>(group, o, list[item]);
}

// A block per listed hub.
template <int FirstK, class W>
__global__ void propose_hubs(State<W> o, const vertex_t* list) {
  __shared__ vertex_t warp_v[hub_block / 32];
  __shared__ W warp_w[hub_block / 32];
  __shared__ unsigned long long word;
  const BlockGroup<hub_block, W> group{warp_v, warp_w, &word};
  run_listed<FirstK>(group, o, list[blockIdx.x]);
}

// A vertex with b > 0 and a neighbour starts owned; the others start
// exhausted, their floor closed when cap 0.
template <class W>
__global__ void init_vertices(State<W> o, vertex_t lo, vertex_t hi) {
  for (long long i = gpu::grid_thread(); i < o.g.n_rows; i += gpu::grid_threads()) {
    const vertex_t u = vertex_t(i);
    const bool active = o.b[u] > 0 && degree(o.g, u) > 0;
    o.floor[u] = active ? room : closed;  // another rank's vertex: the cache of its floor
    o.cursor_v[u] = no_vertex;
    o.state[u] = active && u >= lo && u < hi ? owned : exhausted;  // another rank's proposer: never run here
  }
}

// Over ranks: the proposals other ranks sent to this rank's vertices, each
// taken as place takes a local one; a refusal, or the displacement of
// another rank's proposer, is a drop for the proposer's rank; a displaced
// proposer of this rank is claimed.
__global__ void take_proposals(State<float> o, const BSuitorMessage* in, long long count) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) {
    const BSuitorMessage m = in[i];
    const vertex_t v = m.v;
    const word_t key = m.word;
    const offset_t first = o.start[v], end = o.start[v + 1];
    const word_t out = load(o.floor + v) >= key ? key  // refused without a look at the slots
                                                : insert_sorted(o.keys, o.slots + first, int(end - first), o.floor + v, key);
    if (out == room) continue;
    const vertex_t x = o.keys.proposer(out);  // m.u when refused
    if (o.remote.owns(x)) {
      const word_t seen = atomic(o.state + x).fetch_sub(one_held, cuda::memory_order_acq_rel) - one_held;
      claim(o.state, x, seen);
    } else {
      o.remote.drop(x, v, load(o.floor + v));
    }
  }
}

// Over ranks: the drops other ranks sent for this rank's proposers: each
// loses the offer (and is claimed to propose again), and the holder's
// cached floor rises to the one the drop carries.
__global__ void take_drops(word_t* state, word_t* floor, const BSuitorMessage* in, long long count) {
  for (long long i = gpu::grid_thread(); i < count; i += gpu::grid_threads()) {
    const BSuitorMessage m = in[i];
    const word_t seen = atomic(state + m.u).fetch_sub(one_held, cuda::memory_order_acq_rel) - one_held;
    claim(state, m.u, seen);
    atomic(floor + m.v).fetch_max(m.word, cuda::memory_order_relaxed);
  }
}

// After the first round: a vertex holding b(u) offers, or exhausted, is
// released (its cursor is stored); the others stay owned.
template <class W>
__global__ void release_settled(State<W> o) {
  for (long long i = gpu::grid_thread(); i < o.g.n_rows; i += gpu::grid_threads()) {
    const vertex_t u = vertex_t(i);
    const word_t s = o.state[u];
    if ((s & owned) && (held_of(s) >= word_t(o.b[u]) || (s & exhausted))) o.state[u] = s & ~owned;
  }
}

// A round's lists, one per row class, and their counts (classes of each).
struct ClassLists {
  vertex_t* list[classes];
  int* count;
};

// A round's lists for the rows [first, end): every owned vertex (at the
// start; after the first round, each it did not settle; later, each
// claimed after a drop, since every proposer a group ran was released), in
// its class's list, with one atomic per warp and class (appending one by
// one serialised millions of atomics on three words).
template <class W>
__global__ void list_owned(State<W> o, ClassLists lists, vertex_t first, vertex_t end) {
  for (long long i = first + gpu::grid_thread(); i < end; i += gpu::grid_threads()) {
    const vertex_t u = vertex_t(i);
    gpu::append_by_class(lists.list, lists.count, o.state[u] & owned ? row_class(degree(o.g, u)) : -1, u);
  }
}

// How many vertices of the rows [first, end) are owned, and their entries,
// added to *count and *entries (a streamed run skips the batches without
// one, and reads in place those where few entries are read).
__global__ void count_owned(const word_t* state, const offset_t* offsets, vertex_t first, vertex_t end, int* count,
                            unsigned long long* entries) {
  int mine = 0;
  unsigned long long read = 0;
  for (long long i = first + gpu::grid_thread(); i < end; i += gpu::grid_threads())
    if (state[i] & owned) {
      ++mine;
      read += offsets[i + 1] - offsets[i];
    }
  if (mine > 0) {
    atomicAdd(count, mine);
    atomicAdd(entries, read);
  }
}

// A streamed batch whose owned rows hold fewer than this fraction of its
// entries is read in place over the bus (RowBatches::mapped: only those
// rows move, in small transfers) rather than copied whole (at the bus's
// full speed, but every entry).
constexpr double read_in_place_below = 0.25;

// b = 1 at every vertex (float weights): the b-matching problem is the
// matching problem and greedy's matching the answer (Manne et al. 2016,
// Lemma 3.1), which suitor-gpu (matchers/general/suitor_gpu.cu) finds with
// its tuned searches (champions, per-warp queues); its mates as a BMatching.
BMatching from_mates(const Matching& m) {
  BMatching out;
  out.offsets.assign(m.mate.size() + 1, 0);
  for (std::size_t v = 0; v < m.mate.size(); ++v) {
    out.offsets[v + 1] = out.offsets[v] + (m.mate[v] != no_vertex);
    if (m.mate[v] != no_vertex) out.partners.push_back(m.mate[v]);
  }
  return out;
}

unsigned tiles_grid(int listed, int width) { return unsigned((listed * 1LL * width + tile_block - 1) / tile_block); }

// Over ranks: a box's messages by the rank that owns each one's key vertex
// (v for a proposal, to its holder; u for a drop, back to its proposer;
// first: the ranks' bounds, ranks + 1 entries). With out null it adds each
// rank's count to at[r]; with out given, at[r] is rank r's next place in
// out and each message moves there. Per tile of the box, the block counts
// in shared memory (each message learns its place among the tile's to its
// rank) and reserves the tile's places with one atomic per rank; past
// shared_ranks ranks, each message takes its place with an atomic of its
// own. The order within a rank's group varies from run to run; the
// receiving kernels do not depend on it.
constexpr int group_items = 4, group_block = 256;
constexpr int shared_ranks = 3072;  // shared memory: 16 bytes a rank (a tile's count, its base)

__device__ int owner_rank(const vertex_t* first, int ranks, vertex_t key) {
  int lo = 0, hi = ranks;  // first[lo] <= key < first[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (first[mid] <= key) lo = mid;
    else hi = mid;
  }
  return lo;
}

__global__ void group_by_rank(const BSuitorMessage* box, long long n, const vertex_t* first, int ranks, bool to_holder,
                              unsigned long long* at, BSuitorMessage* out) {
  if (ranks > shared_ranks) {
    for (long long i = gpu::grid_thread(); i < n; i += gpu::grid_threads()) {
      const unsigned long long p = atomicAdd(at + owner_rank(first, ranks, to_holder ? box[i].v : box[i].u), 1ULL);
      if (out) out[p] = box[i];
    }
    return;
  }
  extern __shared__ unsigned long long tile_count[];  // ranks counts, then ranks bases
  unsigned long long* base = tile_count + ranks;
  const long long tile = (long long)blockDim.x * group_items;
  for (long long t0 = (long long)blockIdx.x * tile; t0 < n; t0 += (long long)gridDim.x * tile) {
    for (int r = int(threadIdx.x); r < ranks; r += int(blockDim.x)) tile_count[r] = 0;
    __syncthreads();
    int rank_of[group_items];
    unsigned long long place[group_items];
    for (int j = 0; j < group_items; ++j) {
      const long long i = t0 + (long long)j * blockDim.x + threadIdx.x;
      rank_of[j] = -1;
      if (i >= n) continue;
      rank_of[j] = owner_rank(first, ranks, to_holder ? box[i].v : box[i].u);
      place[j] = atomicAdd(tile_count + rank_of[j], 1ULL);
    }
    __syncthreads();
    for (int r = int(threadIdx.x); r < ranks; r += int(blockDim.x))
      if (tile_count[r] > 0) base[r] = atomicAdd(at + r, tile_count[r]);
    __syncthreads();
    if (out)
      for (int j = 0; j < group_items; ++j)
        if (rank_of[j] >= 0) out[base[rank_of[j]] + place[j]] = box[t0 + (long long)j * blockDim.x + threadIdx.x];
    __syncthreads();  // the tile's counts are read before the next tile resets them
  }
}

// Over ranks: what one rank keeps on its GPU and in page-locked host memory
// for the exchanges, across the rounds.
struct RankExchangeBuffers {
  gpu::DeviceBuffer<vertex_t> first;              // the ranks' bounds
  gpu::DeviceBuffer<unsigned long long> at;       // per rank: counts, then places
  gpu::DeviceBuffer<BSuitorMessage> inbox;        // the messages received (host-staged: a box grouped first)
  gpu::PinnedBuffer<BSuitorMessage> sent, received;  // host-staged
  std::unique_ptr<DeviceTransport> device;        // GPU to GPU, where every rank has its own
  gpu::DeviceBuffer<BSuitorMessage> grouped;      // GPU to GPU: a box grouped
};

// Throws on every rank the first rank's failure (out_of_memory where it
// was one), or returns where no rank failed. Collective.
void agree(const BSuitorRankExchange& ranks, const std::string& mine) {
  const std::string why = ranks.first_failure(mine);
  if (why.empty()) return;
  if (why.find("out of memory") != std::string::npos) throw out_of_memory(why);
  throw error(why);
}

// The count in box_count, checked against the box's capacity.
unsigned long long box_size(const gpu::DeviceBuffer<BSuitorMessage>& box, const unsigned long long* box_count,
                            cudaStream_t s) {
  unsigned long long n = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&n, box_count, sizeof n, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  if (n > box.size())
    throw error("b-suitor-gpu over ranks: " + std::to_string(n) + " messages in a round for a box of " +
                std::to_string(box.size()));
  return n;
}

// Over ranks, after a round's kernels: the proposals to other ranks'
// vertices travel and are taken there, then the drops travel back and are
// taken; the boxes are emptied. Each box is grouped by rank on the GPU and
// sent GPU to GPU (x.device, the counts first) or staged through
// page-locked memory; collective. The messages sent are
// counted in ranks.stats. Returns the seconds it took.
double exchange_round(const BSuitorRankExchange& ranks, State<float>& o, gpu::DeviceBuffer<BSuitorMessage>& proposals,
                      gpu::DeviceBuffer<BSuitorMessage>& drops, RankExchangeBuffers& x,
                      gpu::DeviceBuffer<unsigned long long>& counts, cudaStream_t s) {
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));  // the round's kernels are not the exchange's time
  const auto start = std::chrono::steady_clock::now();
  const int nr = int(ranks.first.size()) - 1;
  PartsRound round;
  // The n messages in box to their ranks; what came lands in x.inbox.
  const auto send = [&](const gpu::DeviceBuffer<BSuitorMessage>& box, unsigned long long n, bool to_holder) {
    std::vector<std::size_t> per_rank(std::size_t(nr), 0);
    gpu::DeviceBuffer<BSuitorMessage>& grouped = x.device ? x.grouped : x.inbox;
    // What fails on this rank (its buffers' memory) is agreed before the
    // messages move: every rank throws alike, none is left waiting.
    std::string failure;
    try {
    if (n > 0) {
      if (grouped.size() < n) grouped = gpu::DeviceBuffer<BSuitorMessage>(std::size_t(n));
      const unsigned grid = gpu::grid_for((long long)((n + group_items - 1) / group_items), group_block, 1 << 14);
      const std::size_t shared = nr > shared_ranks ? 0 : 2 * std::size_t(nr) * sizeof(unsigned long long);
      std::vector<unsigned long long> at(std::size_t(nr), 0);
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(x.at.data(), 0, std::size_t(nr) * sizeof(unsigned long long), s));
      group_by_rank<<<grid, group_block, shared, s>>>(box.data(), (long long)n, x.first.data(), nr, to_holder,
                                                       x.at.data(), nullptr);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      x.at.to_host(std::span(at), s);
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      unsigned long long sum = 0;
      for (int r = 0; r < nr; ++r) {
        per_rank[std::size_t(r)] = std::size_t(at[std::size_t(r)]);
        at[std::size_t(r)] = std::exchange(sum, sum + at[std::size_t(r)]);
      }
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(x.at.data(), at.data(), std::size_t(nr) * sizeof(unsigned long long),
                                         cudaMemcpyHostToDevice, s));
      group_by_rank<<<grid, group_block, shared, s>>>(box.data(), (long long)n, x.first.data(), nr, to_holder,
                                                       x.at.data(), grouped.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      if (!x.device) {
        MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(x.sent.reserve(std::size_t(n)), grouped.data(), n * sizeof(BSuitorMessage),
                                           cudaMemcpyDeviceToHost, s));
        MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      }
    }
    } catch (const std::exception& e) {
      failure = e.what();
      per_rank.assign(std::size_t(nr), 0);
    }
    for (std::size_t r = 0; r < per_rank.size(); ++r) round.messages += per_rank[r] > 0;
    round.bytes += std::size_t(n) * sizeof(BSuitorMessage);
    if (x.device) {  // GPU to GPU: the counts, then the messages
      const std::vector<std::size_t> in = ranks.counts_of(per_rank);
      std::size_t got = 0;
      for (std::size_t c : in) got += c;
      if (failure.empty()) try {
          if (x.inbox.size() < got) x.inbox = gpu::DeviceBuffer<BSuitorMessage>(got);
        } catch (const std::exception& e) {
          failure = e.what();
        }
      agree(ranks, failure);
      std::vector<std::size_t> send_bytes(per_rank.size()), receive_bytes(in.size());
      for (std::size_t r = 0; r < per_rank.size(); ++r) {
        send_bytes[r] = per_rank[r] * sizeof(BSuitorMessage);
        receive_bytes[r] = in[r] * sizeof(BSuitorMessage);
      }
      try {
        x.device->exchange(grouped.data(), send_bytes, x.inbox.data(), receive_bytes, s);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      try {
        agree(ranks, failure);
      } catch (...) {
        x.device->abort();  // a peer's transfers would otherwise wait on the stream forever
        throw;
      }
      return (long long)got;
    }
    // alltoall agrees what its receive throws: this rank's failure too.
    const std::size_t got = ranks.alltoall(x.sent.data(), per_rank, [&](std::size_t k) {
      if (!failure.empty()) throw error(failure);
      if (x.inbox.size() < k) x.inbox = gpu::DeviceBuffer<BSuitorMessage>(k);
      return x.received.reserve(k);
    });
    if (got > 0)
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(x.inbox.data(), x.received.data(), got * sizeof(BSuitorMessage),
                                         cudaMemcpyHostToDevice, s));
    return (long long)got;
  };
  const unsigned long long proposed = box_size(proposals, counts.data(), s);
  round.proposals = (long long)proposed;
  const long long taken = send(proposals, proposed, true);
  // The drops box holds this round's local displacements so far; the
  // proposals taken add at most one each.
  unsigned long long held_drops = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&held_drops, counts.data() + 1, sizeof held_drops, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  std::string failure;
  if (held_drops + (unsigned long long)taken > drops.size()) try {
      gpu::DeviceBuffer<BSuitorMessage> bigger(std::size_t(held_drops) + std::size_t(taken) + drops.size());
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(bigger.data(), drops.data(),
                                         std::size_t(held_drops) * sizeof(BSuitorMessage), cudaMemcpyDeviceToDevice, s));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      drops = std::move(bigger);
      o.remote.drops = drops.data();
      o.remote.drops_capacity = drops.size();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  agree(ranks, failure);
  if (taken > 0) {
    take_proposals<<<gpu::grid_for(taken, 256, 1 << 16), 256, 0, s>>>(o, x.inbox.data(), taken);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  const unsigned long long dropping = box_size(drops, counts.data() + 1, s);
  round.drops = (long long)dropping;
  const long long dropped = send(drops, dropping, false);
  if (dropped > 0) {
    take_drops<<<gpu::grid_for(dropped, 256, 1 << 16), 256, 0, s>>>(o.state, o.floor, x.inbox.data(), dropped);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(unsigned long long), s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  round.exchange_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (ranks.stats) ranks.stats->rounds.push_back(round);
  return round.exchange_s;
}

// The rounds on rows resident or streamed (rows.count() batches, each a
// range of rows): b uploaded, every vertex initialised, then rounds until
// no vertex is owned; each round takes the batches in order and, in each,
// lists the owned vertices of its rows by class and runs each class's
// kernel on its list. A proposer reads only its own row (and every
// target's words), so a batch's kernels read only its rows: a streamed run
// copies each batch that has an owned vertex (the next one's copy
// overlapping the kernels) and skips the others. The vertices that a
// batch's kernels claim in a later batch of the same round are listed
// there (the kernels before have finished; none runs them), those in an
// earlier one the next round. The first round (every active vertex owned
// and listed) proposes to each row's best entries at once (propose_first,
// its lists sized by the largest b), then releases the proposers it
// settled. Streamed rows need float weights (PackedKeys read no row but the
// proposer's). first_round: the placement of the first round's proposals
// (sorted only for float weights, rows resident, one rank: the callers
// check).
template <class W>
BMatching b_suitor_rounds(const gpu::StreamSession& session, gpu::RowBatches<W>& rows, const std::vector<int>& b,
                          double upload_s, GpuTimes* times, const BSuitorRankExchange* ranks = nullptr,
                          BSuitorPlacement first_round = BSuitorPlacement::atomic) {
  static_assert(std::is_same_v<W, float> || std::is_same_v<W, double>);
  if constexpr (!std::is_same_v<W, float>)
    MATCHBLAS_EXPECTS(!rows.streamed(), "b_suitor_rounds: streamed rows need float weights (or their ranks)");
  const cudaStream_t s = session.stream();
  const gpu::CsrView<W> g = rows.all();
  const vertex_t n = g.n_rows;
  const std::size_t un = std::size_t(n);
  const long long max_grid = 32LL * session.sms();
  const int max_b = b.empty() ? 0 : *std::max_element(b.begin(), b.end());
  gpu::Event marks[6], fetched;  // b upload, init, first round, the other rounds, extract
  marks[0].record(s);
  const auto d_b = gpu::DeviceBuffer<int>::from_host(b, s);
  marks[1].record(s);

  // Init: slot ranges (prefix sum of the caps), then every vertex's state.
  const int batches = rows.count();
  gpu::DeviceBuffer<int> listed_count(classes, s), batch_owned(std::size_t(batches), s);
  gpu::DeviceBuffer<offset_t> start(un + 1, s);
  gpu::DeviceBuffer<word_t> floor(un, s), state(un, s);
  gpu::DeviceBuffer<vertex_t> cursor_v(un, s), class_lists(classes * un, s);
  gpu::DeviceBuffer<W> cursor_w(un, s);
  const unsigned grid = gpu::grid_for(n + 1LL, 256, max_grid);
  const offset_t n_slots = slot_starts(g, d_b.data(), 1, start, grid, s);  // the last offer in the floor word
  gpu::DeviceBuffer<word_t> slots{std::size_t(n_slots), s};
  static_assert(room == 0);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(slots.data(), 0, slots.size() * sizeof(word_t), s));
  State<W> o{g,           KeysFor<W>{g}, d_b.data(),      start.data(), slots.data(),
             floor.data(), state.data(),  cursor_v.data(), cursor_w.data()};
  // Over ranks: the boxes of the messages to other ranks (a round's
  // proposals at most the rows' entries; its drops at most those plus the
  // proposals received, the box grown when they come).
  const vertex_t lo = rows.first_row(0), hi = rows.end_row(rows.count() - 1);
  gpu::DeviceBuffer<BSuitorMessage> proposal_box, drop_box;
  gpu::DeviceBuffer<unsigned long long> box_counts(2, s);
  RankExchangeBuffers exchange;
  if (ranks) {
    if constexpr (std::is_same_v<W, float>) {
      const std::size_t nr = ranks->first.size() - 1;
      exchange.first = gpu::DeviceBuffer<vertex_t>::from_host(ranks->first, s);
      exchange.at = gpu::DeviceBuffer<unsigned long long>(nr);
      // GPU to GPU where every rank has its own and a transport starts on
      // every rank; else through host memory.
      std::string why = "ranks share a GPU, or host staging was asked for";
      if (ranks->own_gpus && nr > 1) {
        exchange.device = open_device_transport(ranks->rank, int(nr), ranks->broadcast, ranks->any, why);
        if (ranks->any(!exchange.device)) {
          if (exchange.device) why = "the transport did not start on every rank";
          exchange.device.reset();
        }
      }
      if (ranks->stats)
        ranks->stats->transport = exchange.device ? exchange.device->name() : nr == 1 ? "none: one rank" : "host: " + why;
      // A round's proposals: at most one per offer its rows may still make.
      std::size_t kept = 0;
      for (vertex_t v = lo; v < hi; ++v) kept += std::size_t(std::max(b[std::size_t(v)], 0));
      std::size_t entries = 0;
      for (int bi = 0; bi < rows.count(); ++bi) entries += std::size_t(rows.entries_of(bi));
      entries = std::min(entries, kept) + std::size_t(hi - lo) + 1;
      std::string failure;  // agreed: a rank without memory for its boxes fails them all
      try {
        proposal_box = gpu::DeviceBuffer<BSuitorMessage>(entries);
        drop_box = gpu::DeviceBuffer<BSuitorMessage>(entries);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      agree(*ranks, failure);
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(box_counts.data(), 0, 2 * sizeof(unsigned long long), s));
      o.remote = RemoteBoxes{lo, hi, proposal_box.data(), box_counts.data(), drop_box.data(), box_counts.data() + 1,
                             entries, entries};
    } else {
      MATCHBLAS_EXPECTS(false, "b_suitor_rounds: ranks need float keys");
    }
  }
  ClassLists lists{{}, listed_count.data()};
  for (int c = 0; c < classes; ++c) lists.list[c] = class_lists.data() + c * un;
  if (n > 0) {
    init_vertices<<<grid, 256, 0, s>>>(o, lo, hi);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  // The sorted first round's buffers, allocated before it runs.
  std::optional<SortedFirstRound> sorted;
  gpu::Event sorting[2];  // the sorted placement, within the first round
  bool placed_sorted = false;
  if constexpr (std::is_same_v<W, float>) {
    if (first_round == BSuitorPlacement::sorted && n > 0 && batches == 1 && !ranks)
      sorted.emplace(o, d_b.data(), first_lists(max_b), grid, s);
  }
  marks[2].record(s);
  marks[3].record(s);  // again after the first round, if there is one

  // One batch's lists, each class's kernel on its list, all on one stream.
  const auto run_batch = [&](auto first_k_lists, const State<W>& ob, const int (&listed)[classes]) {
    constexpr int FirstK = decltype(first_k_lists)::value;
    const auto tiles = [&](auto width, int c) {  // class c's list, a tile of `width` lanes per vertex
      constexpr int G = decltype(width)::value;
      if (listed[c] == 0) return;
      propose_tiles<G, FirstK, W><<<tiles_grid(listed[c], G), tile_block, 0, s>>>(ob, lists.list[c], listed[c]);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    };
    tiles(std::integral_constant<int, small_tile>{}, 0);
    tiles(std::integral_constant<int, mid_tile>{}, 1);
    tiles(std::integral_constant<int, row_tile>{}, 2);
    if (listed[3] > 0) {
      propose_hubs<FirstK, W><<<unsigned(listed[3]), hub_block, 0, s>>>(ob, lists.list[3]);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
  };
  // The batches with an owned vertex now (every batch when there is one),
  // and the entries of those owned vertices' rows.
  std::vector<int> owned_in(std::size_t(batches), 1);
  std::vector<unsigned long long> owned_entries(std::size_t(batches), 0);
  gpu::DeviceBuffer<unsigned long long> batch_entries(std::size_t(batches), s);
  const auto batches_with_owned = [&] {
    std::vector<int> out;
    if (batches > 1) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(batch_owned.data(), 0, std::size_t(batches) * sizeof(int), s));
      MATCHBLAS_CUDA_TRY(
          cudaMemsetAsync(batch_entries.data(), 0, std::size_t(batches) * sizeof(unsigned long long), s));
      for (int bi = 0; bi < batches; ++bi) {
        count_owned<<<gpu::grid_for(rows.end_row(bi) - rows.first_row(bi), 256, max_grid), 256, 0, s>>>(
            state.data(), g.offsets, rows.first_row(bi), rows.end_row(bi), batch_owned.data() + bi,
            batch_entries.data() + bi);
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      }
      batch_owned.to_host(std::span(owned_in), s);
      batch_entries.to_host(std::span(owned_entries), s);
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    }
    for (int bi = 0; bi < batches; ++bi)
      if (owned_in[std::size_t(bi)] > 0) out.push_back(bi);
    return out;
  };
  // Whether batch bi's kernels read its rows in place this round (few of
  // its entries read, and none of its entries in a buffer).
  const auto in_place = [&](int bi) {
    return rows.mappable(bi) && !rows.in_buffer(bi) &&
           double(owned_entries[std::size_t(bi)]) < read_in_place_below * double(rows.entries_of(bi));
  };
  long long in_place_batches = 0;
  long long rounds = 0;
  double exchange_s = 0;  // over ranks: the rounds' exchanges, host time
  for (;; ++rounds) {
    // Every listed vertex proposes (its cursor moves down its row) or is
    // exhausted, so this bound is never reached; it turns a bug into an error.
    if (rounds > g.n_entries + n) throw error("b-suitor-gpu: no progress after " + std::to_string(rounds) + " rounds");
    const std::vector<int> todo = batches_with_owned();
    bool ran = false;
    for (std::size_t t = 0; t < todo.size(); ++t) {
      const int bi = todo[t];
      int listed[classes] = {};
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(listed_count.data(), 0, classes * sizeof(int), s));
      if (n > 0) {
        list_owned<<<gpu::grid_for(rows.end_row(bi) - rows.first_row(bi), 256, max_grid), 256, 0, s>>>(
            o, lists, rows.first_row(bi), rows.end_row(bi));
        MATCHBLAS_CUDA_CHECK_LAUNCH();
      }
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(listed, listed_count.data(), sizeof listed, cudaMemcpyDeviceToHost, s));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
      if (listed[0] + listed[1] + listed[2] + listed[3] == 0) continue;
      ran = true;
      State<W> ob = o;
      if (rounds == 0 && sorted) ob.pairs = sorted->pairs();
      const bool mapped = rounds > 0 && in_place(bi);
      in_place_batches += mapped;
      ob.g = mapped ? rows.mapped() : rows.use(bi);
      ob.keys = KeysFor<W>{ob.g};
      for (std::size_t next = t + 1; next < todo.size(); ++next)  // the next batch to copy, if any
        if (rounds == 0 || !in_place(todo[next])) {
          rows.prefetch(todo[next]);
          break;
        }
      if (rounds > 0) {
        run_batch(std::integral_constant<int, 0>{}, ob, listed);
      } else {
        const int lists_of = first_lists(max_b);
        if (lists_of == 2) run_batch(std::integral_constant<int, 2>{}, ob, listed);
        else if (lists_of == 4) run_batch(std::integral_constant<int, 4>{}, ob, listed);
        else run_batch(std::integral_constant<int, first_k>{}, ob, listed);
      }
      if (!mapped) rows.done(bi);
    }
    if (ranks) {
      if constexpr (std::is_same_v<W, float>)
        exchange_s += exchange_round(*ranks, o, proposal_box, drop_box, exchange, box_counts, s);
      ran = ranks->any(ran);
    }
    if (!ran) break;
    if (rounds == 0) {
      if (sorted) {
        sorting[0].record(s);
        if constexpr (std::is_same_v<W, float>) sorted->place(o, grid, s);
        sorting[1].record(s);
        sorted.reset();
        placed_sorted = true;
      }
      release_settled<<<grid, 256, 0, s>>>(o);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      marks[3].record(s);
    }
  }
  marks[4].record(s);

  if (ranks) {  // every proposer's true floor, for the mutual offers
    std::vector<word_t> floors(un);
    floor.to_host(std::span(floors), s);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    ranks->share_floors(floors);
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(floor.data(), floors.data(), un * sizeof(word_t), cudaMemcpyHostToDevice, s));
  }
  const DeviceBMatching d_m = mutual_offers(o, n_slots, grid, s);
  marks[5].record(s);
  BMatching m;
  m.offsets.resize(un + 1);
  m.partners.resize(d_m.partners.size());
  d_m.offsets.to_host(std::span(m.offsets), s);
  d_m.partners.to_host(std::span(m.partners), s);
  fetched.record(s);
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  if (times) {
    std::string streamed;
    if (rows.streamed()) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "; %d batches, %lld copies, %.3g GB, %lld read in place%s", batches,
                    rows.copies(), double(rows.bytes_copied()) * 1e-9, in_place_batches,
                    rows.pinned() ? "" : ", pageable");
      streamed = buf;
    }
    times->upload_s = upload_s + marks[1].since(marks[0]);
    times->match_s = marks[5].since(marks[1]);
    times->download_s = fetched.since(marks[5]);
    std::string placed;
    if (placed_sorted) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " (sorted placement %.3f ms)", sorting[1].since(sorting[0]) * 1e3);
      placed = buf;
    }
    times->phases = {{"init", marks[2].since(marks[1])},
                     {"first round" + placed + streamed, marks[3].since(marks[2])},
                     {"other rounds (" + std::to_string(std::max(rounds - 1, 0LL)) + streamed + ")",
                      marks[4].since(marks[3])},
                     {"extract", marks[5].since(marks[4])}};
    if (ranks) times->phases.push_back({"exchange (within the rounds)", exchange_s});
  }
  return m;
}

// The rows of a host graph streamed (weights: the graph's, or their
// ranks), batches of at most batch_entries entries.
template <class W>
BMatching b_suitor_streamed(const Csr<W>& g, const float* weights, const std::vector<int>& b, offset_t batch_entries,
                            const GpuOptions& opt, double prepare_s, GpuTimes* times) {
  gpu::StreamSession session(opt.device, opt.stream);
  const auto start = std::chrono::steady_clock::now();
  gpu::RowBatches<float> rows(std::span(g.offsets), g.n_cols, g.cols.data(), weights, batch_entries,
                              session.stream());
  const double upload_s = prepare_s + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return b_suitor_rounds(session, rows, b, upload_s, times);
}

// The sorted first round, asked for, where it cannot run: invalid_input.
void expect_sorted_can_run(bool float_weights, bool memory_limit, bool streamed) {
  const char* why = !float_weights ? "float weights (on the command line: --precision float)"
                    : memory_limit ? "no device-memory limit"
                    : streamed     ? "the rows resident on the GPU (this graph is streamed)"
                                   : nullptr;
  if (why)
    throw invalid_input(std::string("b-suitor-gpu: the sorted placement needs ") + why + "; atomic runs anywhere");
}

}  // namespace

template <class W>
BMatching b_suitor_gpu(const Csr<W>& g, const std::vector<int>& b, const BSuitorGpuOptions& opt, GpuTimes* times) {
  detail::expect_b(g, b, "b_suitor_gpu");
  MATCHBLAS_DEBUG_CHECK(check_gpu_options(opt));  // checked where the options were read
  gpu::use_device("b-suitor-gpu", opt.device);
  const BSuitorGpuMemory need = b_suitor_gpu_memory(g, b);
  const std::size_t limit = gpu::device_memory_limit(opt.device_memory);
  const bool resident = need.resident() <= limit;
  // The sorted first round's pairs are not counted in the memory need.
  if (opt.first_round == BSuitorPlacement::sorted)
    expect_sorted_can_run(std::is_same_v<W, float>, opt.device_memory > 0, !resident);
  if (resident)
    return gpu::with_device_graph("b-suitor-gpu", g, opt,
                                  [&](const DeviceGraph<W>& dg) { return b_suitor_gpu(dg, b, opt, times); });
  const offset_t batch = need.batch_entries(limit);
  if (batch == 0)
    throw out_of_memory("b-suitor-gpu: " + std::to_string(limit) + " bytes of GPU " + std::to_string(opt.device) +
                        (opt.device_memory > 0 ? " (the device-memory limit or its free memory)" : " (its free memory)") +
                        " hold neither the graph with the run's state (" + std::to_string(need.resident()) +
                        " bytes) nor the state with two batches of the longest row (" +
                        std::to_string(need.longest_row) + " entries): at least " +
                        std::to_string(need.least_streamed()) + " bytes needed");
  if constexpr (std::is_same_v<W, float>) {
    return b_suitor_streamed(g, g.weights.data(), b, batch, opt, 0.0, times);
  } else {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<float> ranks = weight_ranks(g);  // the same order, in float keys
    const double rank_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return b_suitor_streamed(g, ranks.data(), b, batch, opt, rank_s, times);
  }
}

template <class W>
BMatching b_suitor_gpu(const DeviceGraph<W>& dg, const std::vector<int>& b, const BSuitorGpuOptions& opt,
                       GpuTimes* times) {
  detail::expect_b(dg.n(), b, "b_suitor_gpu");
  if (opt.first_round == BSuitorPlacement::sorted) expect_sorted_can_run(std::is_same_v<W, float>, false, false);
  // Float only: suitor-gpu's offer word for other weights searches the
  // holder's row and assumes a symmetric graph, where b-Suitor's keys
  // promise no out-of-bounds access on any input.
  if (std::is_same_v<W, float> && !b.empty() && std::all_of(b.begin(), b.end(), [](int x) { return x == 1; })) {
    SuitorGpuOptions suitor;
    static_cast<GpuOptions&>(suitor) = opt;
    return from_mates(suitor_gpu(dg, suitor, times));
  }
  gpu::MatcherSession<W> session("b-suitor-gpu", dg, opt);
  if constexpr (std::is_same_v<W, double>) {
    // Weights that are floats exactly run on float keys (not under a
    // device-memory limit: the floats are 4 bytes an entry more).
    if (opt.device_memory == 0) {
      const auto start = std::chrono::steady_clock::now();
      const gpu::CsrView<double> d = session.graph();
      const std::optional<gpu::DeviceBuffer<float>> as_float =
          gpu::floats_if_exact(d, 32LL * session.sms(), session.stream());
      const double convert_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (as_float) {
        gpu::RowBatches<float> rows(gpu::with_weights(d, as_float->data()));
        BMatching m = b_suitor_rounds(session, rows, b, dg.upload_seconds(), times, nullptr, BSuitorPlacement::atomic);
        if (times) {
          times->match_s += convert_s;
          times->phases.push_back({gpu::float_keys_phase, convert_s});
        }
        return m;
      }
    }
  }
  gpu::RowBatches<W> rows(session.graph());
  return b_suitor_rounds(session, rows, b, dg.upload_seconds(), times, nullptr, opt.first_round);
}

BMatching b_suitor_gpu_rank(const std::vector<offset_t>& offsets, const std::vector<vertex_t>& cols,
                            std::span<const float> weights, const std::vector<int>& b,
                            const BSuitorRankExchange& ranks, const GpuOptions& opt, GpuTimes* times) {
  const vertex_t n = vertex_t(offsets.size() - 1);
  MATCHBLAS_EXPECTS(b.size() == std::size_t(n) && ranks.first.size() >= 2 && cols.size() == weights.size(),
                    "b_suitor_gpu_rank: sizes");
  const vertex_t lo = ranks.first[std::size_t(ranks.rank)], hi = ranks.first[std::size_t(ranks.rank) + 1];
  MATCHBLAS_EXPECTS(offset_t(cols.size()) == offsets[std::size_t(hi)] - offsets[std::size_t(lo)],
                    "b_suitor_gpu_rank: the rows are not this rank's block");
  // The GPU and its memory, agreed: a rank that cannot run fails them all.
  const BSuitorGpuMemory need = b_suitor_gpu_memory(std::span(offsets), b, lo, hi);
  std::size_t limit = 0;
  offset_t batch = 0;
  std::string failure;
  try {
    gpu::use_device("b-suitor-gpu", opt.device);
    limit = gpu::device_memory_limit(opt.device_memory);
    if (opt.device_memory == 0) limit /= std::size_t(std::max(ranks.sharing, 1));
    if (need.resident() > limit) batch = need.batch_entries(limit);
    if (need.resident() > limit && batch == 0)
      failure = "out of memory: b-suitor-gpu needs at least " + std::to_string(need.least_streamed()) +
                " bytes of GPU " + std::to_string(opt.device) + " (" + std::to_string(need.resident()) +
                " with its rows resident), and " + std::to_string(limit) + " are free to it" +
                (opt.device_memory > 0 ? " under the device-memory limit"
                                       : ranks.sharing > 1 ? " (its share: " + std::to_string(ranks.sharing) +
                                                                 " ranks use this GPU)"
                                                           : "");
  } catch (const std::exception& e) {
    failure = e.what();
  }
  agree(ranks, failure);
  gpu::StreamSession session(opt.device, opt.stream);
  const cudaStream_t s = session.stream();
  const offset_t at = offsets[std::size_t(lo)];
  const auto start = std::chrono::steady_clock::now();
  const auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  // The rows on the GPU, their failure (memory) agreed: none waits.
  gpu::DeviceBuffer<offset_t> d_offsets;
  gpu::DeviceBuffer<vertex_t> d_cols;
  gpu::DeviceBuffer<float> d_weights;
  std::unique_ptr<gpu::RowBatches<float>> rows;  // destroyed before the buffers it views
  try {
    if (batch > 0) {  // streamed: the host rows, addressed by their global offsets
      rows = std::make_unique<gpu::RowBatches<float>>(std::span<const offset_t>(offsets), n,
                                                      gpu::shifted(cols.data(), at), gpu::shifted(weights.data(), at),
                                                      batch, s, lo, hi);
    } else {
      d_offsets = gpu::DeviceBuffer<offset_t>::from_host(offsets, s);
      d_cols = gpu::DeviceBuffer<vertex_t>::from_host(cols, s);
      d_weights = gpu::DeviceBuffer<float>::from_host(weights, s);
      // The rows by their global offsets: the pointers shifted by this
      // block's first entry (only this block's rows are read).
      const gpu::CsrView<float> view{n, n, d_offsets.data(), gpu::shifted(d_cols.data(), at),
                                     gpu::shifted(d_weights.data(), at), offsets.back()};
      rows = std::make_unique<gpu::RowBatches<float>>(view, lo, hi);
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  agree(ranks, failure);
  return b_suitor_rounds(session, *rows, b, since_start(), times, &ranks);
}

template BMatching b_suitor_gpu(const Csr<float>&, const std::vector<int>&, const BSuitorGpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const Csr<double>&, const std::vector<int>&, const BSuitorGpuOptions&, GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<float>&, const std::vector<int>&, const BSuitorGpuOptions&,
                                GpuTimes*);
template BMatching b_suitor_gpu(const DeviceGraph<double>&, const std::vector<int>&, const BSuitorGpuOptions&,
                                GpuTimes*);

}  // namespace matchblas
