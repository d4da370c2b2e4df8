// Louvain on the GPU (louvain.hpp; M. Naim, F. Manne, M. Halappanavar,
// A. Tumeo, "Community detection on the GPU", IPDPS 2017, sec. 3-4): every
// stage on the device, only scalars (modularity, move counts, community
// counts) read by the host between stages. The settling rules and the
// guarantee in full: docs/algorithms/louvain_gpu.md.
//
//   rounds      a warp per vertex sums its weight into each neighbouring
//               community in a hash table (shared memory for rows of up to
//               64 entries, a slice of a global-memory table sized to the
//               row otherwise: the paper's two table places; its seven
//               degree groups, each with its own thread count per vertex,
//               are two here: a warp per vertex, so short rows leave lanes
//               idle, and for rows over 1024 entries a warp per piece of
//               1024 hashing into the row's table and a block reducing it,
//               so a hub of a coarse level takes the whole GPU, not one
//               warp), and picks the community of the largest gain, ties
//               to the smallest label. Every other walk over rows
//               (degrees, modularity, the next round's deciders) goes by
//               the same pieces.
//               By default a round goes class by class through the colour
//               classes of a Jones-Plassmann colouring of the level's graph
//               (priorities by a hash of the id; no two neighbours decide
//               together), each class deciding from its start and its
//               moves applied before the next (louvain_omp's rule, with
//               another colouring). The colouring stops after 32 rounds
//               (on R-MAT graphs the rounds form long chains: 945 for
//               2^18); the vertices left form one last class, which
//               settles: in steps, each of its vertices decides and
//               moves when its gain over staying (then id) beats every
//               deciding neighbour's whose move conflicts with its own
//               (--together: strict, every neighbour; additive, those
//               whose moves would not add up, move_clash.hpp; drawn, those
//               too that are drawn together but go apart), and the others
//               decide again in the next step (a colouring decided by the
//               gains, at most 32 steps). In the final stage's levels
//               and the final rounds, whose rounds are many, the others
//               do not decide again:
//               a mover's conflicting neighbours withdraw until the next
//               round and the rest compete on their first margins, so a
//               step costs a pass over margins, not a hashing of every
//               pending row (bench/RESULTS.md, 2026-12-03). After a
//               level's first round only the vertices that moved, that
//               still wanted to, or whose margin their neighbours' moves
//               can have made positive decide (Slack). With
//               --coloring off all vertices decide at once
//               with the minimum-label rule (the paper's, after Lu et
//               al.: a vertex alone moves to another community
//               of one only when that one's label is smaller; it loses a
//               few percent of modularity on R-MAT and ER graphs). The
//               degree sums and the modularity are then reduced on the
//               device. A round that lowers modularity is undone and ends
//               the level; rounds go on until one gains less than the
//               level's threshold.
//   renumber    communities by first member (a min-reduction per
//               community, a prefix sum over the vertices): the CPU
//               entries' numbering.
//   aggregate   each entry keyed by its (community, community) pair,
//               radix-sorted (stable), summed by key (cub): the CPU's
//               aggregated graph, entries in the same order.
//   refine      the input's vertices until none gains (the guarantee):
//               first rounds as above until one gains less than the final
//               threshold; then, until no vertex gains, a kernel flags
//               every vertex whose best move (a neighbouring community or
//               one of its own) improves. From 256 flagged vertices up,
//               they settle on the device as the last colour class does
//               (kept when modularity rose); with fewer, or when that lost,
//               the host moves the flagged vertices one at a time
//               (community::queue_moves: the CPU entries' rule and
//               rounding; when under 1/64 of the vertices are flagged,
//               from a queue that takes in each mover's neighbours), the
//               labels going back to the device for the next check.
//               (Claim rounds here, one mover per community, took
//               hundreds of rounds on R-MAT 2^22: tens of thousands of
//               vertices contend for a few large communities; settling
//               moves most of them in a few steps, the gains deciding
//               who waits.)
//
// With integer weights and gamma every sum is exact and the levels (the
// hierarchy) with --coloring off equal louvain_omp --coloring off's;
// otherwise the order of the atomic additions can flip a choice between
// gains equal to rounding.
//
// Cost per round O(n + entries) work; per level O(entries) memory for the
// global tables of long rows and the aggregation's sort (keys, weights,
// their sorted copies: 32 bytes an entry).
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "lib/interrupt.hpp"
#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/community/move_clash.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

using gpu::cub_call;
using gpu::DeviceBuffer;
using gpu::read_scalar;

constexpr int block_threads = 256;
constexpr int warps_per_block = block_threads / 32;
constexpr int shared_slots = 128;          // per warp: rows of up to 64 entries
constexpr int shared_row = shared_slots / 2;
constexpr vertex_t empty_key = -1;
// Jones-Plassmann rounds of a level's colouring: the vertices still
// uncoloured after them form one last class, decided with the
// minimum-label rule (R-MAT 2^18 needs 945 rounds to colour every vertex,
// half of them still uncoloured after 64).
constexpr int colour_rounds = 32;
// Steps of a settling (Mover::settle) before the vertices still pending
// stay where they are.
constexpr int settle_steps = 32;
// Rows longer than this decide once a settling (settle_apply_kernel).
constexpr offset_t settle_retry_row = 4096;
// The final moves settle on the device from a check that finds at least
// this many improving vertices; below it the host moves them one at a time
// (on the CPU alone, settling lost to the host's queue: bench/RESULTS.md).
constexpr std::size_t settle_from = 256;
// At most this many settlings in the final moves, then only the host's
// queue: a settling is kept when the modularity summed with atomics rose,
// and where that sum and the true gain part by rounding the cap bounds the
// loop (R-MAT 2^24 needed 24 checks in all).
constexpr int max_settles = 64;
// Rows longer than this are walked in pieces of this many entries, a warp
// each, wherever a warp walks rows (degrees, modularity, the next round's
// deciders, the hashing of a decision: HubQueue): one warp on a hub of a
// coarse R-MAT level, hundreds of thousands of entries, took tens of
// milliseconds, and a round waited for it.
constexpr offset_t piece_entries = 1024;

struct Level {  // a level's graph on the device
  vertex_t n = 0;
  offset_t entries = 0;
  DeviceBuffer<offset_t> offsets;
  DeviceBuffer<vertex_t> cols;
  DeviceBuffer<double> weights;
};

unsigned blocks_for(long long items, int per_block) {
  return unsigned(std::max<long long>(1, std::min<long long>((items + per_block - 1) / per_block, 1LL << 30)));
}

__device__ inline unsigned slot_of(vertex_t c, unsigned mask) {
  return unsigned((std::uint64_t(std::uint32_t(c)) * 0x9e3779b97f4a7c15ULL) >> 24) & mask;
}

// Item i of a walk over rows, a warp an item: row u's entries [begin,
// end). Without pieces the items are the vertices, the rows over
// piece_entries left empty; with them, the pieces of those rows (a second
// launch, Mover::over_rows).
struct RowItems {
  const offset_t* offsets;
  const vertex_t* piece_row = nullptr;  // null: the items are the vertices
  const offset_t* piece_begin = nullptr;
  __device__ void get(long long i, vertex_t& u, offset_t& begin, offset_t& end) const {
    if (piece_row) {
      u = piece_row[i];
      begin = piece_begin[i];
      end = min(begin + piece_entries, offsets[u + 1]);
    } else {
      u = vertex_t(i);
      begin = offsets[u];
      end = offsets[u + 1];
      if (end - begin > piece_entries) end = begin;
    }
  }
};

// k[u] += the degree (a loop counted twice) over the item's entries (k
// zeroed first).
__global__ void degrees_kernel(RowItems r, long long items, const vertex_t* cols, const double* weights, double* k) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= items) return;
  vertex_t u;
  offset_t begin, end;
  r.get(warp, u, begin, end);
  double s = 0;
  for (offset_t e = begin + lane; e < end; e += 32) s += cols[e] == u ? 2 * weights[e] : weights[e];
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
  if (lane == 0 && s != 0) atomicAdd(&k[u], s);
}

// tot[c] and size[c] from labels (arrays zeroed first).
__global__ void community_sums_kernel(const vertex_t* label, const double* k, vertex_t n, double* tot,
                                      vertex_t* size) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x) {
    atomicAdd(&tot[label[u]], k[u]);
    atomicAdd(&size[label[u]], 1);
  }
}

// Block-wide sum of v into *out (one atomicAdd a block).
__device__ inline void block_add(double v, double* out) {
  using Reduce = cub::BlockReduce<double, block_threads>;
  __shared__ typename Reduce::TempStorage temp;
  const double sum = Reduce(temp).Sum(v);
  if (threadIdx.x == 0 && sum != 0) atomicAdd(out, sum);
}

// sums[0] += the weight inside communities (a loop once, an entry u != v
// half) over the items' entries.
__global__ void inside_kernel(RowItems r, long long items, const vertex_t* cols, const double* weights,
                              const vertex_t* label, double* sums) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  double s = 0;
  if (warp < items) {
    vertex_t u;
    offset_t begin, end;
    r.get(warp, u, begin, end);
    const vertex_t c = label[u];
    for (offset_t e = begin + lane; e < end; e += 32)
      if (label[cols[e]] == c) s += cols[e] == u ? weights[e] : weights[e] / 2;
  }
  block_add(s, sums);
}

// sums[1] += sum of tot[c]^2.
__global__ void expected_kernel(const double* tot, vertex_t n, double* sums) {
  const long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  block_add(c < n ? tot[c] * tot[c] : 0.0, sums + 1);
}

// What a warp computes for its vertex u: the best other community (or
// no_vertex: none better than staying, or "alone" in refine mode, where
// alone = true) and the gains (times 2m) of it and of staying.
struct Choice {
  vertex_t best;
  bool alone;
  double best_gain;
  double stay;
};

struct MoveInputs {
  const offset_t* offsets;
  const vertex_t* cols;
  const double* weights;
  vertex_t n;
  const vertex_t* label;
  const double* k;
  const double* tot;
  const vertex_t* size;
  double two_m;
  double gamma;
  const offset_t* table_at;  // global table slice of row u (rows over shared_row entries)
  vertex_t* table_key;
  double* table_weight;
};

// The gain (times 2m) of moving u (degree ku, in community own) into c to
// which it has weight w: 2m w - gamma (tot_c - [c == own] ku) ku, without
// contraction into fused multiply-adds (the CPU entries' rounding).
__device__ inline double gain_of(const MoveInputs& in, vertex_t c, vertex_t own, double ku, double w) {
  const double tot = __dsub_rn(in.tot[c], c == own ? ku : 0.0);
  return __dsub_rn(__dmul_rn(w, in.two_m), __dmul_rn(__dmul_rn(in.gamma, tot), ku));
}

// Whether community c at gain x beats the best so far (best; no_vertex:
// none yet): the larger gain, ties to the smaller label.
__device__ inline bool beats(vertex_t c, double x, vertex_t best, double best_gain) {
  return c != no_vertex && (best == no_vertex || x > best_gain || (x == best_gain && c < best));
}

// The choice from the best neighbouring community and the gain of staying;
// refine: a community of its own (gain 0) beats a negative neighbour.
__device__ inline Choice choice_of(vertex_t best, double best_gain, double stay, bool refine) {
  if (refine && (best == no_vertex || best_gain < 0)) return {no_vertex, true, 0.0, stay};
  return {best, false, best_gain, stay};
}

// The warp's vertex u: hashes its neighbours' communities, then reduces the
// table to the best choice (all lanes get it). refine: the choices include
// a community of its own at gain 0 (neighbouring communities win ties).
__device__ Choice best_move(const MoveInputs& in, vertex_t u, vertex_t* shared_key, double* shared_weight,
                            bool refine) {
  const int lane = threadIdx.x % 32;
  const offset_t begin = in.offsets[u], end = in.offsets[u + 1];
  vertex_t* key = shared_key;
  double* weight = shared_weight;
  unsigned cap = shared_slots;
  if (end - begin > shared_row) {
    key = in.table_key + in.table_at[u];
    weight = in.table_weight + in.table_at[u];
    cap = unsigned(in.table_at[u + 1] - in.table_at[u]);
  }
  for (unsigned s = lane; s < cap; s += 32) {
    key[s] = empty_key;
    weight[s] = 0;
  }
  __syncwarp();
  for (offset_t e = begin + lane; e < end; e += 32) {
    const vertex_t v = in.cols[e];
    if (v == u) continue;
    const vertex_t c = in.label[v];
    for (unsigned s = slot_of(c, cap - 1);; s = (s + 1) & (cap - 1)) {
      const vertex_t old = atomicCAS(&key[s], empty_key, c);
      if (old == empty_key || old == c) {
        atomicAdd(&weight[s], in.weights[e]);
        break;
      }
    }
  }
  __syncwarp();
  const vertex_t own = in.label[u];
  const double ku = in.k[u];
  double stay = gain_of(in, own, own, ku, 0.0);
  bool stay_found = false;
  vertex_t best = no_vertex;
  double best_gain = 0;
  for (unsigned s = lane; s < cap; s += 32) {
    const vertex_t c = key[s];
    if (c == empty_key) continue;
    const double x = gain_of(in, c, own, ku, weight[s]);
    if (c == own) {
      stay = x;
      stay_found = true;
    } else if (beats(c, x, best, best_gain)) {
      best = c;
      best_gain = x;
    }
  }
  for (int d = 16; d > 0; d /= 2) {
    const vertex_t ob = __shfl_xor_sync(0xffffffffu, best, d);
    const double og = __shfl_xor_sync(0xffffffffu, best_gain, d);
    if (beats(ob, og, best, best_gain)) {
      best = ob;
      best_gain = og;
    }
  }
  const unsigned has_stay = __ballot_sync(0xffffffffu, stay_found);
  if (has_stay) stay = __shfl_sync(0xffffffffu, stay, __ffs(has_stay) - 1);
  __syncwarp();  // the table is read; the warp's next row may clear it
  return choice_of(best, best_gain, stay, refine);
}

__device__ inline bool improves(const MoveInputs& in, const Choice& ch, double ku) {
  const double slack = __dmul_rn(__dmul_rn(__dmul_rn(1e-12, fmax(1.0, in.gamma)), ku), in.two_m);
  return ch.best_gain > __dadd_rn(ch.stay, slack);
}

// What a decision writes, for choose_kernel and hub_reduce_kernel.
// decides(u): whether u decides (else skip(u)); finish(u, choice).

// How far a decided vertex was from moving and how much its neighbours'
// moves can have changed that since (a round's deciders, deciders_kernel;
// both null when not kept).
struct Slack {
  double* margin = nullptr;
  double* bound = nullptr;
  // After u's decision: its margin, the largest gain of another community
  // (0 when none is larger: a community that becomes a neighbour's later
  // gains at most the bound) less that of staying (above 0 when it wanted
  // to move), and the bound back to 0.
  __device__ void decided(vertex_t u, const Choice& ch) const {
    if (!margin) return;
    margin[u] = __dsub_rn(ch.best != no_vertex ? fmax(ch.best_gain, 0.0) : 0.0, ch.stay);
    bound[u] = 0;
  }
};

// A round's class: next[u] its community after the class's moves, from the
// class's start; min_label: the minimum-label rule (no colouring); active
// (when not null): only the vertices flagged there decide, the others stay.
struct ClassMoves {
  static constexpr bool refine = false;
  const unsigned char* active;
  bool min_label;
  vertex_t* next;
  Slack slack;
  __device__ bool decides(vertex_t u) const { return !active || active[u]; }
  __device__ void skip(const MoveInputs& in, vertex_t u) const { next[u] = in.label[u]; }
  __device__ void finish(const MoveInputs& in, vertex_t u, const Choice& ch) const {
    slack.decided(u, ch);
    const vertex_t own = in.label[u];
    vertex_t choice = own;
    if (ch.best != no_vertex && improves(in, ch, in.k[u]) &&
        !(min_label && in.size[own] == 1 && in.size[ch.best] == 1 && ch.best > own))
      choice = ch.best;
    next[u] = choice;
  }
};

// A settling step: next[u] u's best neighbouring community and want[u]
// the margin (times 2m) of that over staying when it improves, else -1
// (want is -1 for every vertex not pending); with `active`, -1 for the
// vertices not flagged there.
struct SettleWants {
  static constexpr bool refine = false;
  const unsigned char* active;
  vertex_t* next;
  double* want;
  Slack slack;
  __device__ bool decides(vertex_t u) const { return !active || active[u]; }
  __device__ void skip(const MoveInputs&, vertex_t u) const { want[u] = -1.0; }
  __device__ void finish(const MoveInputs& in, vertex_t u, const Choice& ch) const {
    slack.decided(u, ch);
    const bool moves = ch.best != no_vertex && improves(in, ch, in.k[u]);
    next[u] = moves ? ch.best : in.label[u];
    want[u] = moves ? __dsub_rn(ch.best_gain, ch.stay) : -1.0;
  }
};

// The final moves' check: flag[u] = 1 when u's best move (a neighbouring
// community or one of its own) improves, louvain.hpp's rule, else 0.
struct ImprovingFlags {
  static constexpr bool refine = true;
  vertex_t* flag;
  __device__ bool decides(vertex_t) const { return true; }
  __device__ void skip(const MoveInputs&, vertex_t) const {}
  __device__ void finish(const MoveInputs& in, vertex_t u, const Choice& ch) const {
    flag[u] = improves(in, ch, in.k[u]) && (!ch.alone || in.size[in.label[u]] > 1) ? 1 : 0;
  }
};

// The rows over piece_entries of a decision, queued by the warps that meet
// them and decided by their pieces (hub_hash_kernel) and a block each
// (hub_reduce_kernel), so that no warp walks a hub alone. A queued row's
// table (its global slice) is empty before the hashing and emptied again by
// the reduction, which reads only its filled slots, listed in `used`.
struct HubQueue {
  vertex_t* list = nullptr;  // null: the level has no such rows
  unsigned long long* count = nullptr;
  unsigned char* queued = nullptr;  // per vertex: in this decision's list
  vertex_t* used = nullptr;         // row u's filled slots from table_at[u] / 2 (a table holds 2 len slots or more)
  vertex_t* used_count = nullptr;   // per vertex
};

// A decision for the `count` vertices of list (0..count-1 when null), a
// warp a vertex (rows over piece_entries queued in hubs when it is set).
template <class Finish>
__global__ void __launch_bounds__(block_threads) choose_kernel(MoveInputs in, const vertex_t* list, long long count,
                                                               Finish f, HubQueue hubs) {
  __shared__ vertex_t shared_key[warps_per_block][shared_slots];
  __shared__ double shared_weight[warps_per_block][shared_slots];
  const int w = threadIdx.x / 32;
  const bool lead = threadIdx.x % 32 == 0;
  for (long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32; i < count;
       i += (long long)gridDim.x * warps_per_block) {
    const vertex_t u = list ? list[i] : vertex_t(i);
    if (!f.decides(u)) {
      if (lead) f.skip(in, u);
      continue;
    }
    if (hubs.list && in.offsets[u + 1] - in.offsets[u] > piece_entries) {
      if (lead) {
        hubs.queued[u] = 1;
        hubs.list[atomicAdd(hubs.count, 1ULL)] = u;
      }
      continue;
    }
    const Choice ch = best_move(in, u, shared_key[w], shared_weight[w], Finish::refine);
    if (lead) f.finish(in, u, ch);
  }
}

// The queued rows' pieces hashed into their rows' tables, a warp a piece
// (pieces of rows not queued return at once).
__global__ void hub_hash_kernel(MoveInputs in, RowItems pieces, long long items, HubQueue hubs) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= items) return;
  vertex_t u;
  offset_t begin, end;
  pieces.get(warp, u, begin, end);
  if (!hubs.queued[u]) return;
  vertex_t* key = in.table_key + in.table_at[u];
  double* weight = in.table_weight + in.table_at[u];
  vertex_t* used = hubs.used + in.table_at[u] / 2;
  const unsigned cap = unsigned(in.table_at[u + 1] - in.table_at[u]);
  for (offset_t e = begin + lane; e < end; e += 32) {
    const vertex_t v = in.cols[e];
    if (v == u) continue;
    const vertex_t c = in.label[v];
    for (unsigned s = slot_of(c, cap - 1);; s = (s + 1) & (cap - 1)) {
      const vertex_t old = atomicCAS(&key[s], empty_key, c);
      if (old == empty_key) used[atomicAdd(&hubs.used_count[u], 1)] = vertex_t(s);
      if (old == empty_key || old == c) {
        atomicAdd(&weight[s], in.weights[e]);
        break;
      }
    }
  }
}

// The best of a block's candidates and the gain of staying, where found.
struct Best {
  vertex_t c;
  double gain;
  double stay;
  bool has_stay;
};
struct BestOf {
  __device__ Best operator()(const Best& a, const Best& b) const {
    Best r = beats(b.c, b.gain, a.c, a.gain) ? b : a;
    r.has_stay = a.has_stay || b.has_stay;
    r.stay = a.has_stay ? a.stay : b.stay;
    return r;
  }
};

// The queued rows decided from their tables, a block a row, as best_move
// reduces a warp's table; the filled slots emptied for the next decision.
template <class Finish>
__global__ void __launch_bounds__(block_threads) hub_reduce_kernel(MoveInputs in, HubQueue hubs, Finish f) {
  using Reduce = cub::BlockReduce<Best, block_threads>;
  __shared__ typename Reduce::TempStorage temp;
  const long long queued = (long long)*hubs.count;
  for (long long q = blockIdx.x; q < queued; q += gridDim.x) {
    const vertex_t u = hubs.list[q], own = in.label[u];
    const double ku = in.k[u];
    vertex_t* key = in.table_key + in.table_at[u];
    double* weight = in.table_weight + in.table_at[u];
    const vertex_t* used = hubs.used + in.table_at[u] / 2;
    const vertex_t filled = hubs.used_count[u];
    Best mine{no_vertex, 0.0, 0.0, false};
    for (vertex_t t = threadIdx.x; t < filled; t += blockDim.x) {
      const vertex_t s = used[t], c = key[s];
      const double x = gain_of(in, c, own, ku, weight[s]);
      key[s] = empty_key;
      weight[s] = 0;
      if (c == own) {
        mine.stay = x;
        mine.has_stay = true;
      } else if (beats(c, x, mine.c, mine.gain)) {
        mine.c = c;
        mine.gain = x;
      }
    }
    const Best all = Reduce(temp).Reduce(mine, BestOf{});
    if (threadIdx.x == 0) {
      const double stay = all.has_stay ? all.stay : gain_of(in, own, own, ku, 0.0);
      f.finish(in, u, choice_of(all.c, all.gain, stay, Finish::refine));
      hubs.queued[u] = 0;
      hubs.used_count[u] = 0;
    }
    __syncthreads();  // temp is reused
  }
}

// A class's moves applied: label, tot and size updated for its movers
// (atomics: its vertices are not neighbours, but share communities).
__global__ void apply_class_kernel(const vertex_t* order, long long count, const vertex_t* next, const double* k,
                                   vertex_t* label, double* tot, vertex_t* size, unsigned long long* moved) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    const vertex_t u = order[i], from = label[u], to = next[u];
    if (from == to) continue;
    atomicAdd(&tot[from], -k[u]);
    atomicAdd(&tot[to], k[u]);
    atomicSub(&size[from], 1);
    atomicAdd(&size[to], 1);
    label[u] = to;
    atomicAdd(moved, 1ULL);
  }
}

// Whether u's move (a -> b) and its neighbour v's (c -> d) may not be
// made in one step, by the rule `together` (louvain.hpp, move_clash.hpp).
__device__ inline bool conflict(LouvainTogether together, vertex_t a, vertex_t b, vertex_t c, vertex_t d, double w,
                                double ku, double kv, double two_m, double gamma) {
  switch (together) {
    case LouvainTogether::additive: return community::moves_clash(a, b, c, d, w, ku, kv, two_m, gamma);
    case LouvainTogether::drawn: return community::moves_part(a, b, c, d, w, ku, kv, two_m, gamma);
    default: return true;
  }
}

// A step's movers: keep[i] when pending[i] wants to move (to next) and its
// (want, id) beats every neighbour's whose move conflicts with its own (a
// neighbour that does not want has want -1): with `strict` no two movers
// of a step are neighbours; otherwise the movers' gains add up (within the
// tot terms of movers that are not neighbours). A warp per vertex.
__global__ void dominant_kernel(MoveInputs in, const vertex_t* pending, long long count, const double* want,
                                const vertex_t* next, LouvainTogether together, unsigned char* keep) {
  const long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (i >= count) return;
  const vertex_t u = pending[i];
  const double mine = want[u];
  bool beaten = !(mine > 0);
  const vertex_t a = in.label[u], b = next[u];
  const double ku = in.k[u];
  for (offset_t e = in.offsets[u] + lane; e < in.offsets[u + 1] && !beaten; e += 32) {
    const vertex_t v = in.cols[e];
    const double theirs = want[v];
    if (v != u && (theirs > mine || (theirs == mine && v > u)) &&
        conflict(together, a, b, in.label[v], next[v], in.weights[e], ku, in.k[v], in.two_m, in.gamma))
      beaten = true;
  }
  beaten = __any_sync(0xffffffffu, beaten);
  if (lane == 0) keep[i] = beaten ? 0 : 1;
}

// A step's movers applied (label, tot, size; their want back to -1; count
// in counts[0]). Re-deciding (movers null): the pending vertices beaten by
// a neighbour go to `again` (count in counts[1]) to decide in the next
// step, but for rows longer than settle_retry_row (their want back to -1):
// a warp hashes such a row for milliseconds, and a hub, beaten by one of
// its many neighbours at almost every step, would be hashed again at each.
// Withdrawing: the movers are listed in `movers` (withdraw_kernel and
// still_wanting_kernel then make the next step's list).
__global__ void settle_apply_kernel(const offset_t* offsets, const vertex_t* pending, long long count,
                                    const unsigned char* keep, const vertex_t* next, const double* k,
                                    vertex_t* label, double* tot, vertex_t* size, double* want, vertex_t* again,
                                    vertex_t* movers, vertex_t* movers_from, unsigned long long* counts) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    const vertex_t u = pending[i];
    if (keep[i]) {
      const vertex_t from = label[u], to = next[u];
      atomicAdd(&tot[from], -k[u]);
      atomicAdd(&tot[to], k[u]);
      atomicSub(&size[from], 1);
      atomicAdd(&size[to], 1);
      label[u] = to;
      want[u] = -1;
      const unsigned long long at = atomicAdd(&counts[0], 1ULL);
      if (movers) {
        movers[at] = u;
        movers_from[at] = from;
      }
    } else if (!movers && want[u] > 0) {
      if (offsets[u + 1] - offsets[u] <= settle_retry_row) again[atomicAdd(&counts[1], 1ULL)] = u;
      else want[u] = -1;
    }
  }
}

// After a round, for every vertex u that moved (label against before),
// bound[v] += 2m A_uv + gamma k_v k_u for each neighbour v: what u's move
// can change any one of v's gains by (the weight term of the community
// it left and of the one it joined, and their tot terms), over the items'
// entries.
__global__ void bound_kernel(RowItems r, long long items, const vertex_t* cols, const double* weights,
                             const vertex_t* label, const vertex_t* before, const double* k, double two_m,
                             double gamma, double* bound) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= items) return;
  vertex_t u;
  offset_t begin, end;
  r.get(warp, u, begin, end);
  if (label[u] == before[u]) return;
  const double ku = k[u];
  for (offset_t e = begin + lane; e < end; e += 32) {
    const vertex_t v = cols[e];
    if (v != u)
      atomicAdd(&bound[v], __dadd_rn(__dmul_rn(two_m, weights[e]), __dmul_rn(__dmul_rn(gamma, k[v]), ku)));
  }
}

// The next round's deciders: the vertices that moved, and those whose
// margin can now be positive: the margin of their last decision plus
// twice the bound (a gain up, staying down) at least 0 (every vertex
// before its first decision: margin +inf). The tot terms of moves
// elsewhere are not counted (a heuristic, as GVE-Louvain's pruning).
__global__ void deciders_kernel(const vertex_t* label, const vertex_t* before, const double* bound,
                                const double* margin, vertex_t n, unsigned char* active) {
  for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < n; v += (long long)gridDim.x * blockDim.x)
    active[v] = label[v] != before[v] || __dmul_rn(2.0, bound[v]) >= -margin[v];
}

// A withdrawing settling's step, after its moves: want = -1 for every
// neighbour of the *count listed movers (moved from movers_from) whose move
// conflicts with the mover's (with `strict`, every neighbour), which then
// neither moves nor beats a neighbour until the settling ends (the others'
// margins stand: a move that does not clash with the mover's gains at
// least as much after it). A block a mover (rows of coarse levels reach
// millions of entries).
__global__ void withdraw_kernel(MoveInputs in, const vertex_t* movers, const vertex_t* movers_from,
                                const unsigned long long* count, const vertex_t* next, LouvainTogether together,
                                double* want) {
  const long long listed = (long long)*count;
  for (long long i = blockIdx.x; i < listed; i += gridDim.x) {
    const vertex_t u = movers[i], a = movers_from[i], b = in.label[u];
    const double ku = in.k[u];
    for (offset_t e = in.offsets[u] + threadIdx.x; e < in.offsets[u + 1]; e += blockDim.x) {
      const vertex_t v = in.cols[e];
      if (v != u && want[v] > 0 &&
          conflict(together, a, b, in.label[v], next[v], in.weights[e], ku, in.k[v], in.two_m, in.gamma))
        want[v] = -1;
    }
  }
}

// The pending vertices that still want to move (want > 0) listed in
// `again` (count in *again_count).
__global__ void still_wanting_kernel(const vertex_t* pending, long long count, const double* want, vertex_t* again,
                                     unsigned long long* again_count) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    const vertex_t u = pending[i];
    if (want[u] > 0) again[atomicAdd(again_count, 1ULL)] = u;
  }
}

// want[u] = -1 for the listed vertices.
__global__ void unwant_kernel(const vertex_t* list, long long count, double* want) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    want[list[i]] = -1;
}

__global__ void fill_kernel(double* a, long long count, double v) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    a[i] = v;
}

// The colouring's priority of u: a hash of its id (ties: the larger id).
__device__ inline unsigned long long priority_of(vertex_t u) {
  unsigned long long x = std::uint64_t(std::uint32_t(u)) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return ((x ^ (x >> 31)) & ~0xffffffffULL) | std::uint32_t(u);
}

// A Jones-Plassmann round r: every uncoloured vertex whose priority beats
// every uncoloured neighbour's (those coloured in this round count as
// uncoloured) takes colour r; *left counts those still uncoloured. A warp
// per vertex.
__global__ void colour_round_kernel(const offset_t* offsets, const vertex_t* cols, vertex_t n, int r,
                                    vertex_t* colour, unsigned long long* left) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= n) return;
  const vertex_t u = vertex_t(warp);
  if (colour[u] != no_vertex) return;
  const unsigned long long mine = priority_of(u);
  bool beaten = false;
  for (offset_t e = offsets[u] + lane; e < offsets[u + 1] && !beaten; e += 32) {
    const vertex_t v = cols[e];
    const vertex_t cv = colour[v];
    if (v != u && (cv == no_vertex || cv == r) && priority_of(v) > mine) beaten = true;
  }
  beaten = __any_sync(0xffffffffu, beaten);
  if (lane == 0) {
    if (beaten) atomicAdd(left, 1ULL);
    else colour[u] = r;
  }
}

// colour[u] = lone for the vertices with no neighbour (a loop at most):
// they have no community to move to, so no class holds them.
__global__ void lone_kernel(const offset_t* offsets, const vertex_t* cols, vertex_t n, vertex_t lone,
                            vertex_t* colour) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x) {
    bool alone = true;
    for (offset_t e = offsets[u]; e < offsets[u + 1] && alone; ++e) alone = cols[e] == vertex_t(u);
    if (alone) colour[u] = lone;
  }
}

// colour[u] = to where it is `from`.
__global__ void recolour_kernel(vertex_t* colour, vertex_t n, vertex_t from, vertex_t to) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    if (colour[u] == from) colour[u] = to;
}

// colour[u] = c for the vertices still uncoloured.
__global__ void uncoloured_kernel(vertex_t* colour, vertex_t n, int c) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    if (colour[u] == no_vertex) colour[u] = c;
}

// Counts the vertices whose label changes (into *moved), then takes next.
__global__ void apply_kernel(vertex_t* label, const vertex_t* next, vertex_t n, unsigned long long* moved) {
  unsigned count = 0;
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x) {
    if (label[u] != next[u]) ++count;
    label[u] = next[u];
  }
  using Reduce = cub::BlockReduce<unsigned, block_threads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned sum = Reduce(temp).Sum(count);
  if (threadIdx.x == 0 && sum) atomicAdd(moved, (unsigned long long)sum);
}

// out[at[i]] = i for each flagged i (at: the flags' exclusive prefix sum).
__global__ void scatter_kernel(const vertex_t* flag, const vertex_t* at, vertex_t n, vertex_t* out) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < n; c += (long long)gridDim.x * blockDim.x)
    if (flag[c]) out[at[c]] = vertex_t(c);
}

struct Plus {
  __device__ double operator()(double a, double b) const { return a + b; }
};

// found = 1 when a row's columns do not strictly increase (an entry
// repeated, or rows unsorted). A warp a row.
__global__ void unordered_rows_kernel(const offset_t* offsets, const vertex_t* cols, vertex_t n,
                                      unsigned long long* found) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= n) return;
  for (offset_t e = offsets[warp] + lane; e + 1 < offsets[warp + 1]; e += 32)
    if (cols[e] >= cols[e + 1]) {
      *found = 1;
      return;
    }
}

// ids[i] = i; count[colour[u]] += 1.
__global__ void iota_kernel(vertex_t* ids, vertex_t n) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    ids[u] = vertex_t(u);
}
// count[c]: the vertices of colour c; long_rows[c]: those of them with
// rows over piece_entries.
__global__ void histogram_kernel(const offset_t* offsets, const vertex_t* colour, vertex_t n, offset_t* count,
                                 offset_t* long_rows) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n;
       u += (long long)gridDim.x * blockDim.x) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&count[colour[u]]), 1ULL);
    if (offsets[u + 1] - offsets[u] > piece_entries)
      atomicAdd(reinterpret_cast<unsigned long long*>(&long_rows[colour[u]]), 1ULL);
  }
}

// Renumbering by first member: first[c] = the smallest vertex of c.
__global__ void first_member_kernel(const vertex_t* label, vertex_t n, vertex_t* first) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    atomicMin(&first[label[u]], vertex_t(u));
}
__global__ void first_flag_kernel(const vertex_t* label, const vertex_t* first, vertex_t n, vertex_t* flag) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    flag[u] = first[label[u]] == u ? 1 : 0;
}
__global__ void relabel_kernel(vertex_t* label, const vertex_t* first, const vertex_t* rank, vertex_t n) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    label[u] = rank[first[label[u]]];
}
// label[u] = level[label[u]]: the input's vertices follow a level.
__global__ void compose_kernel(vertex_t* label, const vertex_t* level, vertex_t n) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    label[u] = level[label[u]];
}

// Aggregation, step 1: each entry's (community, community) key and weight
// (inside a community: a loop whole, an entry u != v half).
__global__ void pair_keys_kernel(const offset_t* offsets, const vertex_t* cols, const double* weights,
                                 const vertex_t* label, vertex_t n, vertex_t communities, std::uint64_t* key,
                                 double* weight) {
  const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= n) return;
  const vertex_t u = vertex_t(warp), c = label[u];
  for (offset_t e = offsets[u] + lane; e < offsets[u + 1]; e += 32) {
    const vertex_t v = cols[e], d = label[v];
    key[e] = std::uint64_t(c) * std::uint64_t(communities) + std::uint64_t(d);
    weight[e] = d != c ? weights[e] : v == u ? weights[e] : weights[e] / 2;
  }
}
// Step 3: the summed entries' rows and columns, and each row's length.
__global__ void unpack_kernel(const std::uint64_t* key, offset_t entries, vertex_t communities, vertex_t* cols,
                              offset_t* row_length) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < entries;
       i += (long long)gridDim.x * blockDim.x) {
    const vertex_t c = vertex_t(key[i] / std::uint64_t(communities));
    cols[i] = vertex_t(key[i] % std::uint64_t(communities));
    atomicAdd(reinterpret_cast<unsigned long long*>(&row_length[c]), 1ULL);
  }
}
// Global hash table capacity of rows over shared_row entries (pow2 >= 2 len).
__global__ void table_size_kernel(const offset_t* offsets, vertex_t n, offset_t* cap) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u <= n; u += (long long)gridDim.x * blockDim.x) {
    if (u == n) {
      cap[u] = 0;
      continue;
    }
    const offset_t len = offsets[u + 1] - offsets[u];
    offset_t c = 0;
    if (len > shared_row) {
      c = 2 * shared_slots;
      while (c < 2 * len) c *= 2;
    }
    cap[u] = c;
  }
}

// The pieces of the rows over piece_entries: count[u] (and count[n] = 0),
// their number, and the number of such rows in *rows.
__global__ void piece_count_kernel(const offset_t* offsets, vertex_t n, offset_t* count, unsigned long long* rows) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u <= n; u += (long long)gridDim.x * blockDim.x) {
    const offset_t len = u < n ? offsets[u + 1] - offsets[u] : 0;
    count[u] = len > piece_entries ? (len + piece_entries - 1) / piece_entries : 0;
    if (len > piece_entries) atomicAdd(rows, 1ULL);
  }
}
// Each piece's row and first entry (at: the counts' exclusive prefix sum).
__global__ void piece_fill_kernel(const offset_t* offsets, const offset_t* at, vertex_t n, vertex_t* row,
                                  offset_t* begin) {
  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n; u += (long long)gridDim.x * blockDim.x)
    for (offset_t j = 0; j < at[u + 1] - at[u]; ++j) {
      row[at[u] + j] = vertex_t(u);
      begin[at[u] + j] = offsets[u] + j * piece_entries;
    }
}

template <class T>
void zero(DeviceBuffer<T>& b, cudaStream_t s) {
  if (b.size()) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(b.data(), 0, b.size() * sizeof(T), s));
}

void launched() { MATCHBLAS_CUDA_TRY(cudaGetLastError()); }

// Exclusive prefix sum of n + 1 values (the last in: the total out).
template <class T>
void exclusive_scan(const T* in, T* out, long long count, cudaStream_t s) {
  cub_call([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, count, s); }, s);
}

// The moves on one level (or the final refinement) and what they share.
class Mover {
 public:
  Mover(const Level& g, double gamma, cudaStream_t s)
      : g_(g),
        s_(s),
        gamma_(gamma),
        label_(std::size_t(g.n), s),
        k_(std::size_t(g.n), s),
        tot_(std::size_t(g.n), s),
        size_(std::size_t(g.n), s),
        table_at_(std::size_t(g.n) + 1, s),
        sums_(2, s),
        counter_(1, s) {
    cut_long_rows();
    zero(k_, s);
    over_rows([&](RowItems r, long long items) {
      degrees_kernel<<<blocks_for(items * 32, block_threads), block_threads, 0, s>>>(r, items, g.cols.data(),
                                                                                     g.weights.data(), k_.data());
    });
    // two_m: a sum on the device, read once.
    DeviceBuffer<double> total(1, s);
    cub_call([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, k_.data(), total.data(), g.n, s); },
             s);
    two_m_ = g.n > 0 ? read_scalar(total.data(), s) : 0.0;
    table_size_kernel<<<blocks_for(g.n + 1LL, block_threads), block_threads, 0, s>>>(g.offsets.data(), g.n,
                                                                                   table_at_.data());
    launched();
    DeviceBuffer<offset_t> caps(std::size_t(g.n) + 1, s);
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(caps.data(), table_at_.data(), caps.size() * sizeof(offset_t),
                                       cudaMemcpyDeviceToDevice, s));
    exclusive_scan(caps.data(), table_at_.data(), g.n + 1LL, s);
    const offset_t slots = read_scalar(table_at_.data() + g.n, s);
    table_key_ = DeviceBuffer<vertex_t>(std::size_t(slots), s);
    table_weight_ = DeviceBuffer<double>(std::size_t(slots), s);
    if (pieces_ > 0) {  // the long rows' tables start empty (HubQueue)
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(table_key_.data(), 0xff, slots * sizeof(vertex_t), s));  // empty_key
      zero(table_weight_, s);
      hub_list_ = DeviceBuffer<vertex_t>(std::size_t(long_rows_), s);
      hub_count_ = DeviceBuffer<unsigned long long>(1, s);
      hub_queued_ = DeviceBuffer<unsigned char>(std::size_t(g.n), s);
      hub_used_ = DeviceBuffer<vertex_t>(std::size_t(slots / 2), s);
      hub_used_count_ = DeviceBuffer<vertex_t>(std::size_t(g.n), s);
      zero(hub_queued_, s);
      zero(hub_used_count_, s);
    }
  }

  // launch(items, count) for the rows up to piece_entries long (a warp a
  // vertex), then for the pieces of the longer ones.
  template <class Launch>
  void over_rows(Launch launch) {
    if (g_.n == 0) return;
    launch(RowItems{g_.offsets.data()}, (long long)g_.n);
    launched();
    if (pieces_ == 0) return;
    launch(RowItems{g_.offsets.data(), piece_row_.data(), piece_begin_.data()}, pieces_);
    launched();
  }

  // A decision (Finish: what it writes) for the `count` vertices of list
  // (0..count-1 when null; distinct: a long row listed twice would be
  // reduced by two blocks at once): a warp a vertex, the rows over
  // piece_entries by their pieces and a block each.
  // long_rows false: none of the listed rows is over piece_entries (the
  // pieces' kernels, a warp for each piece of the level, are not launched).
  template <class Finish>
  void choose(const vertex_t* list, long long count, Finish f, bool long_rows = true) {
    if (count == 0) return;
    HubQueue hubs;
    const bool pieces = pieces_ > 0 && long_rows;
    if (pieces) {
      hubs = {hub_list_.data(), hub_count_.data(), hub_queued_.data(), hub_used_.data(), hub_used_count_.data()};
      zero(hub_count_, s_);
    }
    choose_kernel<<<blocks_for(count * 32, block_threads), block_threads, 0, s_>>>(inputs(), list, count, f, hubs);
    launched();
    if (!pieces) return;
    hub_hash_kernel<<<blocks_for(pieces_ * 32, block_threads), block_threads, 0, s_>>>(
        inputs(), RowItems{g_.offsets.data(), piece_row_.data(), piece_begin_.data()}, pieces_, hubs);
    launched();
    hub_reduce_kernel<<<unsigned(std::min<long long>(long_rows_, 1024)), block_threads, 0, s_>>>(inputs(), hubs, f);
    launched();
  }

  vertex_t* label() { return label_.data(); }

  // tot and size from the labels, and the modularity of the labels.
  double sums_and_modularity() {
    const vertex_t n = g_.n;
    zero(tot_, s_);
    zero(size_, s_);
    zero(sums_, s_);
    if (n == 0 || two_m_ <= 0) return 0.0;
    community_sums_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(label_.data(), k_.data(), n,
                                                                                 tot_.data(), size_.data());
    launched();
    over_rows([&](RowItems r, long long items) {
      inside_kernel<<<blocks_for(items * 32, block_threads), block_threads, 0, s_>>>(
          r, items, g_.cols.data(), g_.weights.data(), label_.data(), sums_.data());
    });
    expected_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(tot_.data(), n, sums_.data());
    launched();
    double sums[2];
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(sums, sums_.data(), sizeof sums, cudaMemcpyDeviceToHost, s_));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s_));
    return sums[0] / (two_m_ / 2) - gamma_ * sums[1] / (two_m_ * two_m_);
  }

  MoveInputs inputs() {
    return {g_.offsets.data(), g_.cols.data(), g_.weights.data(), g_.n,   label_.data(),
            k_.data(),         tot_.data(),    size_.data(),      two_m_, gamma_,
            table_at_.data(),  table_key_.data(), table_weight_.data()};
  }

  // The level's colour classes (colour_rounds Jones-Plassmann rounds: the
  // vertices of a class are not neighbours, except in the last class,
  // mixed_class_, of those still uncoloured then): order_ holds the
  // vertices by class, by id within one (those without neighbours after
  // the last class, in none); class_at_ the classes' starts and
  // the end.
  void colour_classes() {
    const vertex_t n = g_.n;
    DeviceBuffer<vertex_t> colour(std::size_t(n), s_), sorted(std::size_t(n), s_), ids(std::size_t(n), s_);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(colour.data(), 0xff, n * sizeof(vertex_t), s_));  // no_vertex
    // Vertices without neighbours (most of a coarse R-MAT level's: the
    // input's isolated vertices) sort after every class, in none.
    constexpr vertex_t lone = std::numeric_limits<vertex_t>::max();
    lone_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(g_.offsets.data(), g_.cols.data(), n, lone,
                                                                       colour.data());
    launched();
    int colours = 0;
    bool left = n > 0;
    for (; left && colours < colour_rounds; ++colours) {
      check_interrupt();
      zero(counter_, s_);
      colour_round_kernel<<<blocks_for(n * 32LL, block_threads), block_threads, 0, s_>>>(
          g_.offsets.data(), g_.cols.data(), n, colours, colour.data(), counter_.data());
      launched();
      left = read_scalar(counter_.data(), s_) > 0;
    }
    mixed_class_ = -1;
    if (left) {  // the rest: one last class, neighbours in it
      mixed_class_ = colours;
      uncoloured_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(colour.data(), n, colours++);
      launched();
    }
    recolour_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(colour.data(), n, lone, colours);
    launched();
    iota_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(ids.data(), n);
    launched();
    order_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
    int bits = 1;
    while ((1LL << bits) <= colours + 1) ++bits;
    cub_call(
        [&](void* t, std::size_t& b) {
          return cub::DeviceRadixSort::SortPairs(t, b, colour.data(), sorted.data(), ids.data(), order_.data(), n, 0,
                                                 bits, s_);
        },
        s_);
    // per colour and the last for those without neighbours: the vertices,
    // then those with long rows
    DeviceBuffer<offset_t> count(2 * (std::size_t(colours) + 1), s_);
    zero(count, s_);
    histogram_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(
        g_.offsets.data(), colour.data(), n, count.data(), count.data() + colours + 1);
    launched();
    std::vector<offset_t> sizes(count.size());
    count.to_host(sizes, s_);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s_));
    class_at_.assign(1, 0);
    class_has_long_.clear();
    for (int c = 0; c < colours; ++c) {
      class_at_.push_back(class_at_.back() + sizes[std::size_t(c)]);
      class_has_long_.push_back(sizes[std::size_t(colours + 1 + c)] > 0);
    }
  }

  // Rounds of moves from the current labels (q: their modularity) until a
  // round gains less than threshold; returns the moves, adds the rounds.
  // coloring: a round decides class by class (louvain_omp's default), and
  // after the first round only the vertices that moved in the last one,
  // that still wanted to move, or whose margin the moves of their
  // neighbours since their last decision can have made positive decide
  // (Slack: each neighbour's move changes a gain by at most 2m A_uv +
  // gamma k_v k_u). A pruning heuristic, after GVE-Louvain's: the tot
  // terms of moves elsewhere are not counted. On R-MAT 2^22 a level's late
  // rounds move under 0.1% of its vertices. Otherwise all at once with
  // the minimum-label rule.
  vertex_t level_rounds(double& q, double threshold, int* passes, bool coloring, bool withdraw,
                        LouvainTogether together) {
    const vertex_t n = g_.n;
    if (two_m_ <= 0 || n == 0) return 0;
    if (coloring) colour_classes();
    DeviceBuffer<vertex_t> next(std::size_t(n), s_), before(std::size_t(n), s_);
    DeviceBuffer<unsigned char> active;
    Slack slack;
    if (coloring) {
      active = DeviceBuffer<unsigned char>(std::size_t(n), s_);
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(active.data(), 1, n, s_));
      if (margin_.size() != std::size_t(n)) {
        margin_ = DeviceBuffer<double>(std::size_t(n), s_);
        bound_ = DeviceBuffer<double>(std::size_t(n), s_);
      }
      zero(bound_, s_);
      fill_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(
          margin_.data(), n, std::numeric_limits<double>::infinity());  // every vertex decides first
      launched();
      slack = {margin_.data(), bound_.data()};
    }
    vertex_t moves = 0;
    for (;;) {
      check_interrupt();
      ++*passes;
      MATCHBLAS_CUDA_TRY(
          cudaMemcpyAsync(before.data(), label_.data(), n * sizeof(vertex_t), cudaMemcpyDeviceToDevice, s_));
      zero(counter_, s_);
      vertex_t settled = 0;
      if (coloring) {
        for (std::size_t c = 0; c + 1 < class_at_.size(); ++c) {
          const long long count = class_at_[c + 1] - class_at_[c];
          const vertex_t* order = order_.data() + class_at_[c];
          if (int(c) == mixed_class_) {  // neighbours in it: the settling steps
            settled += settle(order, count, active.data(), withdraw, together, slack);
            continue;
          }
          choose(order, count, ClassMoves{active.data(), false, next.data(), slack}, class_has_long_[c]);
          apply_class_kernel<<<blocks_for(count, block_threads), block_threads, 0, s_>>>(
              order, count, next.data(), k_.data(), label_.data(), tot_.data(), size_.data(), counter_.data());
          launched();
        }
      } else {
        choose(nullptr, n, ClassMoves{nullptr, true, next.data()});
        apply_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(label_.data(), next.data(), n,
                                                                            counter_.data());
        launched();
      }
      const vertex_t moved = vertex_t(read_scalar(counter_.data(), s_)) + settled;
      if (moved == 0) break;
      const double previous = q;
      q = sums_and_modularity();
      if (q < previous) {  // the round lost: undo it, end the level
        MATCHBLAS_CUDA_TRY(
            cudaMemcpyAsync(label_.data(), before.data(), n * sizeof(vertex_t), cudaMemcpyDeviceToDevice, s_));
        q = sums_and_modularity();
        break;
      }
      moves += moved;
      if (q - previous < threshold) break;
      if (coloring) {  // the next round's deciders
        over_rows([&](RowItems r, long long items) {
          bound_kernel<<<blocks_for(items * 32, block_threads), block_threads, 0, s_>>>(
              r, items, g_.cols.data(), g_.weights.data(), label_.data(), before.data(), k_.data(), two_m_, gamma_,
              bound_.data());
        });
        deciders_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(
            label_.data(), before.data(), bound_.data(), margin_.data(), n, active.data());
        launched();
      }
    }
    return moves;
  }

  // Settling moves from the `count` vertices of `pending` (on the device,
  // left as it is; with `active`, those flagged there), in steps from tot
  // and size current: each pending vertex decides its best neighbouring
  // community (SettleWants); those whose margin over staying, then id,
  // beats every deciding neighbour's whose move conflicts with its own
  // (`together`: with strict, every neighbour's, so movers are never
  // neighbours, a colouring decided by the gains; with additive or drawn,
  // neighbours whose pair term makes their moves add up may move
  // together, move_clash.hpp) move at once. Then, re-deciding (the levels
  // before the final stage, and the final moves' settlings), the others
  // (rows of up to settle_retry_row entries) decide again in the next
  // step, from the moves made; withdrawing (the final stage's levels and
  // the final rounds), they decide only once: the movers' conflicting
  // neighbours withdraw until the settling ends
  // and the rest compete again on the margins decided first (within the
  // tot terms, as a colour class does), so a step costs a pass over the
  // pending rows' margins, not a hashing of them: on a dense coarse level
  // most pending vertices are beaten at every step (R-MAT 2^22's level 2:
  // about 100,000 pending, a few hundred movers a step). Until none wants
  // to move or after settle_steps. Vertices of a step share communities,
  // so their gains add up only to within the tot terms (the callers check
  // modularity). Returns the moves. O(sum of the pending rows) a step.
  vertex_t settle(const vertex_t* pending, long long count, const unsigned char* active = nullptr,
                  bool withdraw = false, LouvainTogether together = LouvainTogether::strict, Slack slack = {}) {
    const vertex_t n = g_.n;
    if (count == 0 || two_m_ <= 0) return 0;
    if (want_.size() != std::size_t(n)) {
      want_ = DeviceBuffer<double>(std::size_t(n), s_);
      fill_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(want_.data(), n, -1.0);
      launched();
      settle_next_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
      settle_list_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
      settle_again_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
      settle_movers_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
      settle_from_ = DeviceBuffer<vertex_t>(std::size_t(n), s_);
      settle_keep_ = DeviceBuffer<unsigned char>(std::size_t(n), s_);
      settle_counts_ = DeviceBuffer<unsigned long long>(2, s_);
    }
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(settle_list_.data(), pending, count * sizeof(vertex_t),
                                       cudaMemcpyDeviceToDevice, s_));
    vertex_t moves = 0;
    for (int step = 0; count > 0; ++step) {
      if (step == settle_steps) {  // the rest stay where they are
        unwant_kernel<<<blocks_for(count, block_threads), block_threads, 0, s_>>>(settle_list_.data(), count,
                                                                                 want_.data());
        launched();
        break;
      }
      if (step == 0 || !withdraw)
        choose(settle_list_.data(), count, SettleWants{active, settle_next_.data(), want_.data(), slack});
      dominant_kernel<<<blocks_for(count * 32, block_threads), block_threads, 0, s_>>>(
          inputs(), settle_list_.data(), count, want_.data(), settle_next_.data(), together, settle_keep_.data());
      launched();
      zero(settle_counts_, s_);
      settle_apply_kernel<<<blocks_for(count, block_threads), block_threads, 0, s_>>>(
          g_.offsets.data(), settle_list_.data(), count, settle_keep_.data(), settle_next_.data(), k_.data(),
          label_.data(), tot_.data(), size_.data(), want_.data(), settle_again_.data(),
          withdraw ? settle_movers_.data() : nullptr, settle_from_.data(), settle_counts_.data());
      launched();
      if (withdraw) {
        withdraw_kernel<<<unsigned(std::min<long long>(count, 1024)), block_threads, 0, s_>>>(
            inputs(), settle_movers_.data(), settle_from_.data(), settle_counts_.data(), settle_next_.data(), together,
            want_.data());
        launched();
        still_wanting_kernel<<<blocks_for(count, block_threads), block_threads, 0, s_>>>(
            settle_list_.data(), count, want_.data(), settle_again_.data(), settle_counts_.data() + 1);
        launched();
      }
      unsigned long long counts[2];
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(counts, settle_counts_.data(), sizeof counts, cudaMemcpyDeviceToHost, s_));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s_));
      moves += vertex_t(counts[0]);
      count = (long long)counts[1];
      std::swap(settle_list_, settle_again_);
    }
    return moves;
  }

  // The list of the last improving() call that found any, on the device.
  const vertex_t* improving_list() const { return improving_list_.data(); }

  // The vertices whose best move improves (tot and size current), in
  // order: a flag each, compacted by a prefix sum (kept on the device:
  // improving_list).
  std::vector<vertex_t> improving() {
    const vertex_t n = g_.n;
    std::vector<vertex_t> out;
    if (two_m_ <= 0 || n == 0) return out;
    DeviceBuffer<vertex_t> flag(std::size_t(n) + 1, s_), at(std::size_t(n) + 1, s_);
    zero(flag, s_);
    choose(nullptr, n, ImprovingFlags{flag.data()});
    exclusive_scan(flag.data(), at.data(), n + 1LL, s_);
    const vertex_t count = read_scalar(at.data() + n, s_);
    if (count == 0) return out;
    improving_list_ = DeviceBuffer<vertex_t>(std::size_t(count), s_);
    scatter_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(flag.data(), at.data(), n,
                                                                          improving_list_.data());
    launched();
    out.resize(std::size_t(count));
    improving_list_.to_host(out, s_);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s_));
    return out;
  }

  // The pieces of the rows over piece_entries (pieces_ of them, in
  // long_rows_ rows).
  void cut_long_rows() {
    const vertex_t n = g_.n;
    DeviceBuffer<offset_t> count(std::size_t(n) + 1, s_), at(std::size_t(n) + 1, s_);
    zero(counter_, s_);
    piece_count_kernel<<<blocks_for(n + 1LL, block_threads), block_threads, 0, s_>>>(g_.offsets.data(), n,
                                                                                   count.data(), counter_.data());
    launched();
    exclusive_scan(count.data(), at.data(), n + 1LL, s_);
    pieces_ = (long long)read_scalar(at.data() + n, s_);
    long_rows_ = (long long)read_scalar(counter_.data(), s_);
    if (pieces_ == 0) return;
    piece_row_ = DeviceBuffer<vertex_t>(std::size_t(pieces_), s_);
    piece_begin_ = DeviceBuffer<offset_t>(std::size_t(pieces_), s_);
    piece_fill_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(g_.offsets.data(), at.data(), n,
                                                                             piece_row_.data(), piece_begin_.data());
    launched();
  }

  // Renumbers the labels 0..k-1 by first member; returns k.
  vertex_t renumber() {
    const vertex_t n = g_.n;
    if (n == 0) return 0;
    DeviceBuffer<vertex_t> first(std::size_t(n), s_), flag(std::size_t(n) + 1, s_), rank(std::size_t(n) + 1, s_);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(first.data(), 0x7f, n * sizeof(vertex_t), s_));
    first_member_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(label_.data(), n, first.data());
    launched();
    zero(flag, s_);
    first_flag_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(label_.data(), first.data(), n,
                                                                             flag.data());
    launched();
    exclusive_scan(flag.data(), rank.data(), n + 1LL, s_);
    relabel_kernel<<<blocks_for(n, block_threads), block_threads, 0, s_>>>(label_.data(), first.data(), rank.data(),
                                                                          n);
    launched();
    return read_scalar(rank.data() + n, s_);
  }

 private:
  const Level& g_;
  cudaStream_t s_;
  double gamma_;
  double two_m_ = 0;
  DeviceBuffer<vertex_t> label_;
  DeviceBuffer<double> k_, tot_;
  DeviceBuffer<vertex_t> size_;
  DeviceBuffer<offset_t> table_at_;
  DeviceBuffer<vertex_t> table_key_;
  DeviceBuffer<double> table_weight_;
  // the rows over piece_entries: their pieces, and a decision's queue
  // (HubQueue)
  long long pieces_ = 0, long_rows_ = 0;
  DeviceBuffer<vertex_t> piece_row_;
  DeviceBuffer<offset_t> piece_begin_;
  DeviceBuffer<vertex_t> hub_list_;
  DeviceBuffer<unsigned long long> hub_count_;
  DeviceBuffer<unsigned char> hub_queued_;
  DeviceBuffer<vertex_t> hub_used_, hub_used_count_;
  DeviceBuffer<double> sums_;
  DeviceBuffer<unsigned long long> counter_;  // moves
  DeviceBuffer<vertex_t> improving_list_;
  // settle's: the margins (-1 where none), choices, lists, flags, counts
  DeviceBuffer<double> want_;
  DeviceBuffer<vertex_t> settle_next_, settle_list_, settle_again_, settle_movers_, settle_from_;
  DeviceBuffer<unsigned char> settle_keep_;
  DeviceBuffer<unsigned long long> settle_counts_;
  // the rounds' deciders (Slack): per vertex, its last decision's margin
  // and the bound on its change since
  DeviceBuffer<double> margin_, bound_;
  DeviceBuffer<vertex_t> order_;              // the colour classes (colour_classes)
  std::vector<offset_t> class_at_;
  std::vector<bool> class_has_long_;  // per class: a row over piece_entries in it
  int mixed_class_ = -1;  // the class of the vertices left uncoloured (-1: none)
};

// The graph of the communities (label dense 0..communities-1).
Level aggregate_on_device(const Level& g, const vertex_t* label, vertex_t communities, cudaStream_t s) {
  Level a;
  a.n = communities;
  const offset_t m = g.entries;
  DeviceBuffer<std::uint64_t> key(std::size_t(m), s), sorted_key(std::size_t(m), s);
  DeviceBuffer<double> weight(std::size_t(m), s), sorted_weight(std::size_t(m), s);
  if (g.n > 0) {
    pair_keys_kernel<<<blocks_for(g.n * 32LL, block_threads), block_threads, 0, s>>>(
        g.offsets.data(), g.cols.data(), g.weights.data(), label, g.n, communities, key.data(), weight.data());
    launched();
  }
  int bits = 1;
  while (bits < 64 && (std::uint64_t(1) << bits) < std::uint64_t(communities) * std::uint64_t(communities)) ++bits;
  cub_call(
      [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, key.data(), sorted_key.data(), weight.data(),
                                               sorted_weight.data(), m, 0, bits, s);
      },
      s);
  // Sum by key into the freed first buffers.
  DeviceBuffer<offset_t> unique(1, s);
  cub_call(
      [&](void* t, std::size_t& b) {
        return cub::DeviceReduce::ReduceByKey(t, b, sorted_key.data(), key.data(), sorted_weight.data(),
                                              weight.data(), unique.data(), Plus{}, m, s);
      },
      s);
  a.entries = m > 0 ? read_scalar(unique.data(), s) : 0;
  a.cols = DeviceBuffer<vertex_t>(std::size_t(a.entries));
  a.weights = DeviceBuffer<double>(std::size_t(a.entries));
  a.offsets = DeviceBuffer<offset_t>(std::size_t(communities) + 1);
  DeviceBuffer<offset_t> length(std::size_t(communities) + 1, s);
  zero(length, s);
  if (a.entries > 0) {
    unpack_kernel<<<blocks_for(a.entries, block_threads), block_threads, 0, s>>>(key.data(), a.entries, communities,
                                                                                a.cols.data(), length.data());
    launched();
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(a.weights.data(), weight.data(), a.entries * sizeof(double),
                                       cudaMemcpyDeviceToDevice, s));
  }
  exclusive_scan(length.data(), a.offsets.data(), communities + 1LL, s);
  return a;
}

}  // namespace

Communities louvain_gpu(const Csr<double>& given, const LouvainOptions& o, const GpuOptions& gpu_options) {
  check_gpu_options(gpu_options);
  const std::optional<Csr<double>> scaled =
      community::scaled_to_safe_range(given, community::check_input(given, o.resolution, o.threads), o.threads);
  const Csr<double>& g = scaled ? *scaled : given;  // the same decisions and modularity
  gpu::use_device("louvain-gpu", gpu_options.device);
  gpu::StreamSession session(gpu_options.device, gpu_options.stream);
  const cudaStream_t s = session.stream();
  Communities p;
  const vertex_t n = g.n_rows;

  Level input;
  input.n = n;
  input.entries = g.num_entries();
  input.offsets = DeviceBuffer<offset_t>::from_host(g.offsets, s);
  input.cols = DeviceBuffer<vertex_t>::from_host(g.cols, s);
  input.weights = DeviceBuffer<double>::from_host(g.weights, s);

  // The input's labels on the device, identity to start.
  DeviceBuffer<vertex_t> label(static_cast<std::size_t>(n), s);
  std::vector<DeviceBuffer<vertex_t>> hierarchy;
  if (n > 0) {
    iota_kernel<<<blocks_for(n, block_threads), block_threads, 0, s>>>(label.data(), n);
    launched();
  }
  // Rows whose columns do not strictly increase are merged first, on the
  // host (the aggregation with each vertex its own community sums an edge's
  // repeated entries, in their order), and the merged graph serves the
  // device and the host's final moves alike: the settling's rules read a
  // pair's weight from one entry (move_clash.hpp), and a weight split over
  // copies would hide a clash. The same graph (up to the rounding of those
  // sums for real weights).
  std::optional<Csr<double>> merged;
  if (n > 0) {
    DeviceBuffer<unsigned long long> found(1, s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(found.data(), 0, sizeof(unsigned long long), s));
    unordered_rows_kernel<<<blocks_for(n * 32LL, block_threads), block_threads, 0, s>>>(
        input.offsets.data(), input.cols.data(), n, found.data());
    launched();
    if (read_scalar(found.data(), s) != 0) {
      std::vector<vertex_t> identity(static_cast<std::size_t>(n));
      for (vertex_t u = 0; u < n; ++u) identity[std::size_t(u)] = u;
      merged = community::aggregate(g, identity, n, o.threads);
      input.entries = merged->num_entries();
      input.offsets = DeviceBuffer<offset_t>::from_host(merged->offsets, s);
      input.cols = DeviceBuffer<vertex_t>::from_host(merged->cols, s);
      input.weights = DeviceBuffer<double>::from_host(merged->weights, s);
    }
  }
  const Csr<double>& graph = merged ? *merged : g;  // the input as the levels see it
  Level coarse;
  const Level* level_graph = &input;
  bool final_stage = false;
  double q = 0;
  bool q_known = false;
  for (int level = 0; level < o.max_levels && level_graph->n > 0; ++level) {
    const auto start = std::chrono::steady_clock::now();
    LouvainLevel l;
    l.vertices = level_graph->n;
    l.entries = level_graph->entries;
    Mover mover(*level_graph, o.resolution, s);
    {
      iota_kernel<<<blocks_for(level_graph->n, block_threads), block_threads, 0, s>>>(mover.label(),
                                                                                     level_graph->n);
      launched();
      const double q0 = mover.sums_and_modularity();
      if (!q_known) {
        q = q0;
        q_known = true;
      }
    }
    const double before = q;
    double level_q = q;
    // Withdrawing settling steps in the final stage's levels, whose rounds
    // are many (bench/RESULTS.md); re-deciding ones before it.
    l.moved = mover.level_rounds(level_q, final_stage ? o.final_threshold : o.threshold, &l.passes, o.coloring,
                                 final_stage, o.together);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    l.move_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (l.moved == 0) break;
    l.communities = mover.renumber();
    if (n > 0) {
      compose_kernel<<<blocks_for(n, block_threads), block_threads, 0, s>>>(label.data(), mover.label(), n);
      launched();
    }
    q = level_q;
    l.modularity = q;
    if (q - before < o.threshold) final_stage = true;
    Level next = aggregate_on_device(*level_graph, mover.label(), l.communities, s);
    DeviceBuffer<vertex_t> kept(static_cast<std::size_t>(level_graph->n));
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(kept.data(), mover.label(), kept.size() * sizeof(vertex_t),
                                       cudaMemcpyDeviceToDevice, s));
    hierarchy.push_back(std::move(kept));
    session.synchronize();
    coarse = std::move(next);  // (the mover's graph is the old coarse one: it is gone now)
    level_graph = &coarse;
    l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    p.levels.push_back(l);
    if (l.communities == l.vertices) break;
  }
  // The input's vertices until none gains: the guarantee.
  {
    const auto refine_start = std::chrono::steady_clock::now();
    Mover mover(input, o.resolution, s);
    MATCHBLAS_CUDA_TRY(
        cudaMemcpyAsync(mover.label(), label.data(), n * sizeof(vertex_t), cudaMemcpyDeviceToDevice, s));
    // Rounds of the levels' kind first (until one gains less than the
    // final threshold): they move many vertices at once.
    double q_input = mover.sums_and_modularity();
    if (o.refine)
      p.refine_moves = mover.level_rounds(q_input, o.final_threshold, &p.refine_passes, o.coloring, true, o.together);
    // Then until no vertex improves (the check on the device decides): from
    // a check that finds many, settling moves on the device (kept when
    // modularity rose); from one that finds few, or when settling did not
    // gain, the host moves them one at a time (community::queue_moves;
    // following the movers' neighbours once few improve), the labels back.
    std::optional<community::MoveState> host;  // the host's copy, while current
    DeviceBuffer<vertex_t> before(o.refine ? std::size_t(n) : 0, s);
    int settles = 0;
    const auto move = [&](const std::vector<vertex_t>& candidates) -> vertex_t {
      if (candidates.size() >= settle_from && settles < max_settles) {
        MATCHBLAS_CUDA_TRY(
            cudaMemcpyAsync(before.data(), mover.label(), n * sizeof(vertex_t), cudaMemcpyDeviceToDevice, s));
        ++settles;
        const vertex_t moved =
            mover.settle(mover.improving_list(), (long long)candidates.size(), nullptr, false, o.together);
        const double settled_q = moved > 0 ? mover.sums_and_modularity() : q_input;
        if (moved > 0 && settled_q > q_input) {
          q_input = settled_q;
          host.reset();
          return moved;
        }
        if (moved > 0) {  // it lost: undo, the host moves them
          MATCHBLAS_CUDA_TRY(
              cudaMemcpyAsync(mover.label(), before.data(), n * sizeof(vertex_t), cudaMemcpyDeviceToDevice, s));
          mover.sums_and_modularity();
        }
      }
      if (!host) {
        std::vector<vertex_t> labels(static_cast<std::size_t>(n));
        MATCHBLAS_CUDA_TRY(
            cudaMemcpyAsync(labels.data(), mover.label(), n * sizeof(vertex_t), cudaMemcpyDeviceToHost, s));
        session.synchronize();
        host = community::from_labels(graph, std::move(labels), o.resolution);
      }
      const vertex_t moved =
          community::queue_moves(graph, *host, candidates, community::follow_neighbours(candidates.size(), n));
      if (moved > 0) {
        MATCHBLAS_CUDA_TRY(
            cudaMemcpyAsync(mover.label(), host->label.data(), n * sizeof(vertex_t), cudaMemcpyHostToDevice, s));
        q_input = mover.sums_and_modularity();
      }
      return moved;
    };
    if (o.refine)
      p.refine_moves += community::moves_until_none_improves([&] { return mover.improving(); }, move,
                                                             &p.refine_passes);
    p.refine_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - refine_start).count();
    p.communities = mover.renumber();
    p.modularity = mover.sums_and_modularity();
    p.label.resize(std::size_t(n));
    if (n > 0)
      MATCHBLAS_CUDA_TRY(
          cudaMemcpyAsync(p.label.data(), mover.label(), n * sizeof(vertex_t), cudaMemcpyDeviceToHost, s));
  }
  for (const DeviceBuffer<vertex_t>& h : hierarchy) {
    p.hierarchy.emplace_back(h.size());
    h.to_host(p.hierarchy.back(), s);
  }
  session.synchronize();
  return p;
}

}  // namespace matchblas
