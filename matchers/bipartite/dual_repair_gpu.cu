// max-sum-gpu's and max-product-gpu's exact repair on the device: an
// auction's prices and matching made into the minimum-cost perfect matching
// with its duals, every free row searched at once.
//   Algorithm: column duals v = -p, first lowered (when the auction
//   finished its phases) until the auction's pairs can all be tight: the
//   difference constraints v_k <= c_ik - (c_ij - v_j) of every row i at
//   column j, solved by label correcting in levels from the rows whose u
//   rose, a column lowered more than 16 times freeing its row (the host
//   repair's rule, shortest_augmenting_warm.cpp, whose cap is now 64; 16
//   here, where a level counts differently, until measured on the GPU);
//   then row duals
//   u_i = min_j (c_ij - v_j) and v_j = min_i (c_ij - u_i) (feasible, each
//   tighter than the last); the pairs left tight (within 64 ulps of their
//   terms) kept, the others freed. Then primal-dual phases until every row
//   is matched:
//   (1) the distances d over the reduced costs r_ij = max(0, c_ij - u_i -
//   v_j) from every free row at once (d = 0 there; a matched column leads to
//   its row at no cost), by label correcting in levels (Bellman-Ford with a
//   frontier: a level relaxes the entries of the rows whose distance fell
//   in the last one; all levels in one cooperative launch, a grid barrier
//   each; near-far order, stopped early once every free column's distance
//   is settled); (2) C = the largest distance of a free column reached and
//   pi = min(d, C) (C where unreached): u_i -= pi_i, v_j += pi_j keeps every
//   reduced cost >= 0 (min(d, C) is a feasible potential for any C) and the
//   matched ones 0, and makes every entry of a shortest path to a free
//   column tight; (3) the tight entries (the matched ones, and those with
//   d_i + r_ij == d_j <= C, as the distances were computed) found, each
//   column reached given one such entry's row as its predecessor, and the
//   matching augmented along vertex-disjoint paths of predecessors, at most
//   one a shortest path tree, from the free columns reached back to free
//   rows (augment_along_trees); where those paths are fewer than a quarter
//   of the free rows (ties can crowd the predecessors into few trees, or
//   close cycles of zero-cost entries), then to a maximum matching of the
//   tight entries (compacted by a prefix sum) by cardinality-gpu's phases
//   (max_cardinality_gpu.cuh). Every augmenting path of tight entries has
//   reduced length 0, so the duals stay a certificate of optimality for
//   the matching's size; a phase augments at least along one shortest path
//   to a free column, and usually along many.
//   Source: the Hungarian method (H. W. Kuhn, 1955) in its shortest
//   augmenting path form with reduced costs (J. Edmonds and R. M. Karp,
//   J. ACM 19(2), 1972, sec. 4), all free rows searched at once and the
//   tight subgraph augmented in bulk as the GPU Hungarian algorithm of
//   K. Date and R. Nagi (Parallel Computing 57, 2016) does.
//   Guarantee: exact up to rounding (the host repair's tolerance). A phase
//   that augments nothing (rounding that broke every shortest path), or a
//   cap on the phases, stops it, the state still a valid warm start for the
//   host's searches.
//   Cost: a phase O(nnz) per label-correcting level plus O(nnz + the
//   paths' length) for the augmentations (the maximum matching of the tight
//   entries where it runs); at most as many phases as free rows.
//   Device scratch: 76 bytes a row (the matrix is square), 24 more while
//   the tight entries are augmented (max_cardinality_gpu.cuh), and up to 5
//   an entry (the tight entries' columns).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <limits>

#include "matchers/bipartite/dual_repair_gpu.cuh"
#include "matchers/bipartite/max_cardinality_gpu.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/order_key.cuh"

namespace matchblas::gpu {
namespace {

namespace cg = cooperative_groups;

constexpr int block_size = 256;  // not tuned
constexpr int tile_size = 8;     // lanes per row: sparse rows are short (the auction's)
using Key = unsigned long long;  // a double's order key (order_key.cuh)
// The near-far step: this many times the mean positive reduced cost. On the
// H200 with 1M-row matrices (2026-12-02, jobs 4 and 5, the phases stopping
// once every free column is settled): 0.25 relaxed the fewest rows in all
// (1.07G over six runs on 2D and 3D meshes and a circuit-like matrix,
// against 1.32G at 0.5, 2.00G at 1, more at 2 and 4) and took the least
// time summed over the runs (5 of 8 against 0.5; 0.5 won on the 2D mesh
// in one call and on the circuit-like matrix in the other). The canonical
// duals' search uses the same step (measured only inside job 5's totals). An earlier sweep,
// without the early stop, had found 1 best of 1-64 on every class but the
// circuit-like ones (best at 64 then; 0.25 relaxed half the rows of 1 now).
constexpr double delta_factor = 0.25;
constexpr double inf = std::numeric_limits<double>::infinity();

__device__ Key key_of(double x) { return order_key_of(x); }
__device__ double value_of(Key k) { return weight_of_key<double>(k); }

// The reduced cost of an entry, never below 0 (rounding of the duals): the
// one expression both the distances and the tightness test use, so that an
// entry on a shortest path passes the test bit for bit.
__device__ double reduced(double c, double u, double v) { return fmax(0.0, c - u - v); }

template <class Tile>
__device__ double tile_min(const Tile& tile, double x) {
  for (int d = tile_size / 2; d > 0; d /= 2) x = fmin(x, tile.shfl_xor(x, d));
  return x;
}

__global__ void negate(vertex_t n, const double* price, double* v) {
  for (long long j = grid_thread(); j < n; j += grid_threads()) v[j] = -price[j];
}

__global__ void keys_of_negated(vertex_t n, const double* price, Key* v) {
  for (long long j = grid_thread(); j < n; j += grid_threads()) v[j] = key_of(-price[j]);
}

// u_i = min_j (c_ij - v_j).
__global__ void row_minima(vertex_t m, const offset_t* offsets, const vertex_t* cols, const double* cost,
                           const double* v, double* u) {
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  for (long long i = grid_thread() / tile_size; i < m; i += grid_threads() / tile_size) {
    double x = inf;
    for (offset_t k = offsets[i] + offset_t(tile.thread_rank()); k < offsets[i + 1]; k += tile_size)
      x = fmin(x, cost[k] - v[cols[k]]);
    x = tile_min(tile, x);
    if (tile.thread_rank() == 0) u[i] = x;
  }
}

// key[j] = min over column j's entries of key(c_ij - u_i) (key all ones before).
__global__ void column_minima(vertex_t m, const offset_t* offsets, const vertex_t* cols, const double* cost,
                              const double* u, Key* key) {
  for (long long i = grid_thread() / tile_size; i < m; i += grid_threads() / tile_size)
    for (offset_t k = offsets[i] + offset_t(grid_thread() % tile_size); k < offsets[i + 1]; k += tile_size)
      atomicMin(&key[cols[k]], key_of(cost[k] - u[i]));
}

__global__ void values_of_keys(vertex_t n, const Key* key, double* v) {
  for (long long j = grid_thread(); j < n; j += grid_threads()) v[j] = value_of(key[j]);
}

// Whether a reduced cost r = c - u - v is 0 within 64 ulps of its terms
// (the host repair's rule).
__device__ bool within_rounding(double r, double c, double u, double v) {
  return fabs(r) <= 64 * std::numeric_limits<double>::epsilon() * (fabs(c) + fabs(u) + fabs(v));
}

// pair[i] = the smallest cost among row i's entries in its mate's column
// (inf when free).
__global__ void pair_costs(vertex_t m, const offset_t* offsets, const vertex_t* cols, const double* cost,
                           const vertex_t* row_mate, double* pair) {
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  for (long long i = grid_thread() / tile_size; i < m; i += grid_threads() / tile_size) {
    const vertex_t j = row_mate[i];
    double x = inf;
    if (j != no_vertex)  // the same for the whole tile
      for (offset_t k = offsets[i] + offset_t(tile.thread_rank()); k < offsets[i + 1]; k += tile_size)
        if (cols[k] == j) x = fmin(x, cost[k]);
    x = tile_min(tile, x);
    if (tile.thread_rank() == 0) pair[i] = x;
  }
}

// Frees every matched pair whose reduced cost is not 0 within rounding.
// Row i touches only its own pair.
__global__ void free_loose_pairs(vertex_t m, const double* pair, const double* u, const double* v,
                                 vertex_t* row_mate, vertex_t* col_mate) {
  for (long long i = grid_thread(); i < m; i += grid_threads()) {
    const vertex_t j = row_mate[i];
    if (j != no_vertex && !within_rounding(pair[i] - u[i] - v[j], pair[i], u[i], v[j])) {
      row_mate[i] = no_vertex;
      col_mate[j] = no_vertex;
    }
  }
}

// Level-synchronous frontiers of rows in one cooperative launch: the
// levels' sizes in three rotating counters (the one two ahead zeroed while
// no thread touches it), a row in a level's frontier at most once (stamp).
struct Levels {
  vertex_t* frontier[2];
  unsigned* counts;  // [0..2] the levels' sizes, rotating; [3] levels run (over every launch)
  unsigned* stamp;   // per row: the last level whose frontier it joined
  unsigned long long* relaxed;  // rows relaxed (over every launch)
};

// Before seeding: the stamps and counters cleared (a grid barrier follows).
__device__ void clear_levels(const Levels& l, vertex_t m) {
  for (long long i = grid_thread(); i < m; i += grid_threads()) l.stamp[i] = ~0u;
  if (grid_thread() == 0) l.counts[0] = l.counts[1] = l.counts[2] = 0;
}

// Appends row r to the frontier after `level`'s unless it is there already.
__device__ void push_once(const Levels& l, vertex_t r, unsigned level, vertex_t* out, unsigned* out_count) {
  if (atomicExch(&l.stamp[r], level + 1) != level + 1) out[atomicAdd(out_count, 1u)] = r;
}

// From frontier[0] (counts[0] rows), levels until one is empty:
// relax(in, size, out, out_count, level), a grid barrier after each.
template <class Relax>
__device__ void run_levels(const cg::grid_group& grid, const Levels& l, Relax relax) {
  for (unsigned level = 0;; ++level) {
    const unsigned size = __ldcg(&l.counts[level % 3]);  // past L1: written by other SMs
    if (size == 0) break;  // every thread reads the same value
    if (grid_thread() == 0) {
      l.counts[(level + 2) % 3] = 0;
      ++l.counts[3];
      *l.relaxed += size;
    }
    const bool odd = level % 2 != 0;  // a select, not an index: no local copy of the state
    relax(odd ? l.frontier[1] : l.frontier[0], size, odd ? l.frontier[0] : l.frontier[1], &l.counts[(level + 1) % 3],
          level);
    grid.sync();
  }
}

// The lowering's state: v as order keys (only ever lowered).
struct Lowering {
  vertex_t m;
  const offset_t* offsets;
  const vertex_t* cols;
  const double* cost;
  const double* pair;
  Key* v;
  int* lowered;  // per column: times lowered
  vertex_t* row_mate;
  vertex_t* col_mate;
  Levels levels;
};

// Lowers v until every matched row's pair can be tight: each entry (i, k)
// of a row matched at column j needs v_k <= c_ik - (c_ij - v_j). Races only
// change which duals and pairs result, never their validity: the row and
// column minima after it make the duals feasible and keep only tight pairs.
__global__ void lower_column_duals(Lowering s) {
  constexpr int relax_cap = 16;
  const cg::grid_group grid = cg::this_grid();
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  clear_levels(s.levels, s.m);
  grid.sync();
  for (long long i = grid_thread(); i < s.m; i += grid_threads())
    if (s.row_mate[i] != no_vertex) s.levels.frontier[0][atomicAdd(&s.levels.counts[0], 1u)] = vertex_t(i);
  grid.sync();
  run_levels(grid, s.levels, [&](const vertex_t* in, unsigned size, vertex_t* out, unsigned* out_count,
                                 unsigned level) {
    for (long long t = grid_thread() / tile_size; t < size; t += grid_threads() / tile_size) {
      const vertex_t i = in[t];
      const vertex_t j = tile.shfl(__ldcg(&s.row_mate[i]), 0);  // one value for the tile (a race may free it)
      if (j == no_vertex) continue;
      const double u = s.pair[i] - value_of(__ldcg(&s.v[j]));
      for (offset_t k = s.offsets[i] + offset_t(tile.thread_rank()); k < s.offsets[i + 1]; k += tile_size) {
        const vertex_t col = s.cols[k];
        const double c = s.cost[k], vk = value_of(__ldcg(&s.v[col]));
        const double r = c - u - vk;
        if (col == j || r >= 0 || within_rounding(r, c, u, vk)) continue;
        const Key key = key_of(c - u);
        if (key >= atomicMin(&s.v[col], key)) continue;
        const vertex_t owner = __ldcg(&s.col_mate[col]);
        if (owner == no_vertex) continue;
        if (atomicAdd(&s.lowered[col], 1) >= relax_cap) {
          s.row_mate[owner] = no_vertex;
          s.col_mate[col] = no_vertex;
        } else {
          push_once(s.levels, owner, level, out, out_count);
        }
      }
    }
  });
}

__global__ void count_free_rows(vertex_t m, const vertex_t* row_mate, unsigned* count) {
  for (long long i = grid_thread(); i < m; i += grid_threads())
    if (row_mate[i] == no_vertex) atomicAdd(count, 1u);
}

// The distances' state (a view passed by value).
struct Distances {
  vertex_t m;
  const offset_t* offsets;
  const vertex_t* cols;
  const double* cost;
  const double* u;
  const double* v;
  const vertex_t* row_mate;
  const vertex_t* col_mate;
  Key* dist;  // per column: the order key of its distance (of +inf when unreached)
  Levels levels;
  // The far pile (near-far): rows whose distance fell to at least the
  // threshold wait in far[e % 2] during epoch e (far_stamp: e + 1 once
  // there), far_count[2] their numbers; bound[0] a scratch minimum.
  vertex_t* far[2];
  unsigned* far_count;
  unsigned* far_stamp;
  Key* bound;
  const double* delta;  // the threshold's step (> 0; inf: plain label correcting)
  // false: from every free row at distance 0 (a phase); true: from every
  // row, dist holding the columns' starting values (the canonical duals).
  bool from_given;
  // A phase stops at the end of an epoch once every free column is settled
  // (the canonical duals run to the end): free_cols lists them (m entries
  // of scratch), free_info[0] their number and free_info[1] the settled
  // ones, free_info[2] the phases that stopped so (over every launch).
  // Stopping once a half or a quarter of them were settled was
  // measured too (H200, 1M-row meshes, circuit-like and heavy-tailed
  // matrices): more phases, as many rows relaxed or more.
  vertex_t* free_cols;
  unsigned* free_info;
};

// A row's distance: 0 when free, its column's when matched (+inf unreached).
__device__ double row_distance(const Distances& s, vertex_t i) {
  const vertex_t j = s.row_mate[i];
  return j == no_vertex ? 0.0 : value_of(__ldcg(&s.dist[j]));
}

// Rows whose distance fell below the threshold go to the next level's
// frontier, the others to the far pile (each at most once a level / epoch).
__device__ void queue_row(const Distances& s, vertex_t r, double d, double threshold, unsigned level,
                          unsigned epoch, vertex_t* out, unsigned* out_count) {
  if (d < threshold) {
    push_once(s.levels, r, level, out, out_count);
  } else if (atomicExch(&s.far_stamp[r], epoch + 1) != epoch + 1) {
    s.far[epoch % 2][atomicAdd(&s.far_count[epoch % 2], 1u)] = r;
  }
}

// One phase's distances from every free row: label correcting in levels,
// the near-far way (Davidson, Baxter, Garland and Owens, IPDPS 2014): a
// level relaxes the rows whose distance fell below the threshold in the
// last one; when none is left, the threshold moves to the smallest
// distance in the far pile plus delta and the pile is split. Fewer rows
// are relaxed again than by unordered label correcting (which relaxed a
// 2D mesh's rows about 150 times each). A phase (not the canonical duals)
// stops when a level empties with every free column nearer than the
// threshold: those distances are final, and the rows beyond only get C.
__global__ void shortest_distances(Distances s) {
  const cg::grid_group grid = cg::this_grid();
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  const double delta = *s.delta;
  if (!s.from_given)
    for (long long j = grid_thread(); j < s.m; j += grid_threads()) s.dist[j] = key_of(inf);
  for (long long i = grid_thread(); i < s.m; i += grid_threads()) s.far_stamp[i] = 0;
  clear_levels(s.levels, s.m);
  const bool may_stop = !s.from_given;
  if (grid_thread() == 0) {
    s.far_count[0] = s.far_count[1] = 0;
    s.free_info[0] = 0;
  }
  grid.sync();
  for (long long i = grid_thread(); i < s.m; i += grid_threads()) {
    if (s.from_given || s.row_mate[i] == no_vertex)
      s.levels.frontier[0][atomicAdd(&s.levels.counts[0], 1u)] = vertex_t(i);
    if (may_stop && s.col_mate[i] == no_vertex) s.free_cols[atomicAdd(&s.free_info[0], 1u)] = vertex_t(i);
  }
  grid.sync();
  const unsigned free_columns = may_stop ? __ldcg(&s.free_info[0]) : 0;
  // From given values of any sign every later row waits in the far pile
  // until the first split sets the threshold from the smallest.
  double threshold = s.from_given ? -inf : delta;
  unsigned epoch = 0;
  for (unsigned level = 0;;) {
    const bool odd = level % 2 != 0;  // a select, not an index: no local copy of the state
    vertex_t* in = odd ? s.levels.frontier[1] : s.levels.frontier[0];
    unsigned* in_count = &s.levels.counts[level % 3];
    const unsigned size = __ldcg(in_count);  // every thread reads the same values (past L1)
    if (size == 0) {
      const unsigned piled = __ldcg(&s.far_count[epoch % 2]);
      if (piled == 0) break;
      // Every row nearer than the threshold is settled: stop once every
      // free column is among them (on circuit-like matrices 30% fewer rows
      // relaxed). The rows beyond keep distances of at least the threshold
      // (or none), so min(d, C) is the same for them whatever the rest of
      // the search would have found, for any C below the threshold.
      if (may_stop && free_columns > 0) {
        if (grid_thread() == 0) s.free_info[1] = 0;
        grid.sync();
        const Key limit = key_of(threshold);
        for (long long t = grid_thread(); t < free_columns; t += grid_threads())
          if (__ldcg(&s.dist[s.free_cols[t]]) < limit) atomicAdd(&s.free_info[1], 1u);
        grid.sync();
        if (__ldcg(&s.free_info[1]) == free_columns) {
          if (grid_thread() == 0) ++s.free_info[2];
          break;
        }
      }
      // The next threshold, then the pile split into this level's frontier
      // and the next epoch's pile.
      const vertex_t* pile = s.far[epoch % 2];
      if (grid_thread() == 0) {
        *s.bound = key_of(inf);
        s.far_count[(epoch + 1) % 2] = 0;
      }
      grid.sync();
      for (long long t = grid_thread(); t < piled; t += grid_threads())
        atomicMin(s.bound, key_of(row_distance(s, pile[t])));
      grid.sync();
      // At least past the pile's nearest row, whatever the rounding of + delta.
      const double nearest = value_of(__ldcg(s.bound));
      threshold = fmax(fmax(threshold, nearest) + delta, nextafter(nearest, inf));
      for (long long t = grid_thread(); t < piled; t += grid_threads()) {
        const vertex_t r = pile[t];
        // Into this level (stamp `level`, which no row holds: the level is empty).
        queue_row(s, r, row_distance(s, r), threshold, level - 1, epoch + 1, in, in_count);
      }
      ++epoch;
      grid.sync();
      continue;
    }
    if (grid_thread() == 0) {
      s.levels.counts[(level + 2) % 3] = 0;
      ++s.levels.counts[3];
      *s.levels.relaxed += size;
    }
    vertex_t* out = odd ? s.levels.frontier[0] : s.levels.frontier[1];
    unsigned* out_count = &s.levels.counts[(level + 1) % 3];
    for (long long t = grid_thread() / tile_size; t < size; t += grid_threads() / tile_size) {
      const vertex_t i = in[t];
      const vertex_t mate = s.row_mate[i];
      const double di = row_distance(s, i), ui = s.u[i];
      for (offset_t k = s.offsets[i] + offset_t(tile.thread_rank()); k < s.offsets[i + 1]; k += tile_size) {
        const vertex_t j = s.cols[k];
        if (j == mate) continue;
        const double d = di + reduced(s.cost[k], ui, s.v[j]);
        const Key key = key_of(d);
        if (key >= __ldcg(&s.dist[j]) || key >= atomicMin(&s.dist[j], key)) continue;
        const vertex_t r = s.col_mate[j];
        if (r != no_vertex) queue_row(s, r, d, threshold, level, epoch, out, out_count);
      }
    }
    grid.sync();
    ++level;
  }
}

// *delta = the near-far step: k times the mean positive reduced cost of the
// unmatched entries (inf when every one is 0). sum[0] the sum, count[0]
// the entries (both 0 before).
__global__ void mean_reduced_cost(Distances s, double* sum, unsigned long long* count) {
  using Reduce = cub::BlockReduce<double, block_size>;
  using CountReduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ typename CountReduce::TempStorage count_temp;
  double x = 0;
  unsigned long long n = 0;
  for (long long i = grid_thread() / tile_size; i < s.m; i += grid_threads() / tile_size) {
    const vertex_t mate = s.row_mate[i];
    const double ui = s.u[i];
    for (offset_t k = s.offsets[i] + offset_t(grid_thread() % tile_size); k < s.offsets[i + 1]; k += tile_size) {
      const double r = s.cols[k] == mate ? 0.0 : reduced(s.cost[k], ui, s.v[s.cols[k]]);
      if (r > 0) {
        x += r;
        ++n;
      }
    }
  }
  x = Reduce(temp).Sum(x);
  n = CountReduce(count_temp).Sum(n);
  if (threadIdx.x == 0) {
    atomicAdd(sum, x);
    atomicAdd(count, n);
  }
}

__global__ void set_delta(const double* sum, const unsigned long long* count, double k, double* delta) {
  const double d = *count > 0 ? k * (*sum / double(*count)) : 0.0;
  *delta = d > 0 ? d : inf;  // inf: plain label correcting
}

// cap = the largest key of a free column's distance reached (0 before; left
// 0 when none is reached). Each one reached is settled: a phase's distances
// stop early only once every free column is.
__global__ void largest_free_distance(vertex_t n, const vertex_t* col_mate, const Key* dist, Key* cap) {
  for (long long j = grid_thread(); j < n; j += grid_threads())
    if (col_mate[j] == no_vertex && dist[j] != key_of(inf)) atomicMax(cap, dist[j]);
}

// Whether entry k of row i (column j, row distance di) is tight after the
// phase's dual change: the matched pair, or an entry of a shortest path
// to a column within the cap.
__device__ bool tight(const Distances& s, vertex_t j, vertex_t mate, double di, double ui, offset_t k, Key cap) {
  if (j == mate) return true;
  const Key dj = s.dist[j];
  return dj <= cap && key_of(di + reduced(s.cost[k], ui, s.v[j])) == dj;
}

// count[i] = row i's tight entries (count[m] = 0: the exclusive scan's end);
// pred[j] = a row whose tight unmatched entry reaches column j (any one:
// each lies on a shortest path to j).
__global__ void count_tight(Distances s, const Key* cap, offset_t* count, vertex_t* pred) {
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  const Key c = *cap;
  for (long long i = grid_thread() / tile_size; i <= s.m; i += grid_threads() / tile_size) {
    if (i == s.m) {
      if (tile.thread_rank() == 0) count[i] = 0;
      continue;
    }
    const vertex_t mate = s.row_mate[i];
    const double di = row_distance(s, vertex_t(i)), ui = s.u[i];
    unsigned n = 0;  // an unreached row (di = inf) keeps its pair alone
    for (offset_t k = s.offsets[i] + offset_t(tile.thread_rank()); k < s.offsets[i + 1]; k += tile_size) {
      const vertex_t j = s.cols[k];
      const bool t = (di != inf || j == mate) && tight(s, j, mate, di, ui, k, c);
      n += t;
      if (t && j != mate) pred[j] = vertex_t(i);
    }
    for (int d = tile_size / 2; d > 0; d /= 2) n += tile.shfl_xor(n, d);
    if (tile.thread_rank() == 0) count[i] = n;
  }
}

// Writes row i's tight columns from at[i], then lowers u_i by min(d_i, C).
__global__ void write_tight_lower_rows(Distances s, const Key* cap, const offset_t* at, vertex_t* tight_cols,
                                       double* u) {
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  const Key c = *cap;
  const double cap_value = value_of(c);
  for (long long i = grid_thread() / tile_size; i < s.m; i += grid_threads() / tile_size) {
    const vertex_t mate = s.row_mate[i];
    const double di = row_distance(s, vertex_t(i)), ui = s.u[i];
    offset_t to = at[i];
    for (offset_t base = s.offsets[i]; base < s.offsets[i + 1]; base += tile_size) {
      const offset_t k = base + offset_t(tile.thread_rank());
      const bool keep = k < s.offsets[i + 1] && (di != inf || s.cols[k] == mate) &&
                        tight(s, s.cols[k], mate, di, ui, k, c);
      const unsigned mask = tile.ballot(keep);
      if (keep) tight_cols[to + __popc(mask & ((1u << tile.thread_rank()) - 1))] = s.cols[k];
      to += __popc(mask);
    }
    tile.sync();  // every lane has read u_i
    if (tile.thread_rank() == 0) u[i] = ui - fmin(di, cap_value);
  }
}

// The augmentations along the shortest path trees (one per tree at most):
// from each free column reached within the cap, a thread walks pred back to
// a free row, claiming each row and column it passes (claim 0: none; a
// column's value is the walker's column + 1). A walk that meets a claimed
// vertex, a column without pred or its own claim again (a cycle of tight
// zero-cost entries) gives up; one that reaches a free row owns its whole
// path, so the paths flipped are vertex-disjoint and are flipped at once.
// Every entry flipped in is tight (count_tight), so the duals stay a
// certificate. *augmented counts the paths.
__global__ void augment_along_trees(vertex_t n, const Key* dist, const Key* cap, const vertex_t* pred,
                                    vertex_t* row_mate, vertex_t* col_mate, unsigned* row_claim,
                                    unsigned* col_claim, unsigned* augmented) {
  const Key c = *cap;
  for (long long f = grid_thread(); f < n; f += grid_threads()) {
    if (col_mate[f] != no_vertex || dist[f] > c || dist[f] == key_of(inf)) continue;
    const unsigned me = unsigned(f) + 1;
    col_claim[f] = me;  // a free column is on no other walk
    bool rooted = false;
    for (vertex_t j = vertex_t(f);;) {
      const vertex_t i = pred[j];
      if (i < 0 || atomicCAS(&row_claim[i], 0u, me) != 0u) break;
      const vertex_t next = row_mate[i];  // i is this walk's alone now
      if (next == no_vertex) {
        rooted = true;
        break;
      }
      if (atomicCAS(&col_claim[next], 0u, me) != 0u) break;
      j = next;
    }
    if (!rooted) continue;
    for (vertex_t j = vertex_t(f);;) {
      const vertex_t i = pred[j], old = row_mate[i];
      row_mate[i] = j;
      col_mate[j] = i;
      if (old == no_vertex) break;
      j = old;
    }
    atomicAdd(augmented, 1u);
  }
}

// key[j] = the order key of x0_j = v0_j - v_j, v0_j given as a key (MC64's
// first column duals): the canonical duals' starting values.
__global__ void canonical_start(vertex_t n, const double* v, Key* key) {
  for (long long j = grid_thread(); j < n; j += grid_threads()) key[j] = key_of(value_of(key[j]) - v[j]);
}

// v_j += x_j (the canonical duals' shift), then u_i = c_{i M(i)} - v_{M(i)}
// (run for the rows after the columns).
__global__ void add_shift(vertex_t n, const Key* x, double* v) {
  for (long long j = grid_thread(); j < n; j += grid_threads()) v[j] += value_of(x[j]);
}
__global__ void rows_from_pairs(vertex_t m, const double* pair, const vertex_t* row_mate, const double* v,
                                double* u) {
  for (long long i = grid_thread(); i < m; i += grid_threads()) u[i] = pair[i] - v[row_mate[i]];
}

// v_j += min(d_j, C).
__global__ void raise_columns(vertex_t n, const Key* dist, const Key* cap, double* v) {
  const double c = value_of(*cap);
  for (long long j = grid_thread(); j < n; j += grid_threads()) v[j] += fmin(value_of(dist[j]), c);
}

}  // namespace

DualRepairCounts repair_to_optimum(const StreamSession& session, vertex_t m, const offset_t* offsets,
                                   const vertex_t* cols, const double* cost, const double* price, bool lower,
                                   std::int64_t max_phases, bool canonical, vertex_t* row_mate, vertex_t* col_mate,
                                   double* u, double* v) {
  DualRepairCounts out;
  if (m == 0) return out;
  const cudaStream_t s = session.stream();
  const long long cap_blocks = max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return grid_for(items, block_size, cap_blocks); };
  const auto tile_grid = [&](long long items) { return grid_for(items * tile_size, block_size, cap_blocks); };
  DeviceBuffer<Key> dist(std::size_t(m), s), cap(1, s);
  DeviceBuffer<unsigned> stamp(std::size_t(m), s), counts(4, s), free_rows(1, s);
  DeviceBuffer<unsigned long long> relaxed(1, s);
  DeviceBuffer<vertex_t> frontier0(std::size_t(m), s), frontier1(std::size_t(m), s);
  DeviceBuffer<offset_t> tight_count(std::size_t(m) + 1, s), tight_offsets(std::size_t(m) + 1, s);
  DeviceBuffer<double> pair(std::size_t(m), s);
  const Levels levels{{frontier0.data(), frontier1.data()}, counts.data(), stamp.data(), relaxed.data()};
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, sizeof(unsigned) * 4, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(relaxed.data(), 0, sizeof(unsigned long long), s));
  const auto count_free = [&] {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(free_rows.data(), 0, sizeof(unsigned), s));
    count_free_rows<<<grid(m), block_size, 0, s>>>(m, row_mate, free_rows.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    return read_scalar(free_rows.data(), s);
  };
  Event started, lowered, phase_start, distances_done, duals_done, augmented;
  started.record(s);
  out.auction_free = vertex_t(count_free());

  // Feasible duals from the prices (lowered first); the pairs they leave tight.
  pair_costs<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, row_mate, pair.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  if (lower) {
    DeviceBuffer<int> times_lowered(std::size_t(m), s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(times_lowered.data(), 0, sizeof(int) * m, s));
    keys_of_negated<<<grid(m), block_size, 0, s>>>(m, price, dist.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    const Lowering state{m, offsets, cols, cost, pair.data(), dist.data(), times_lowered.data(), row_mate, col_mate,
                         levels};
    launch_cooperative(lower_column_duals, block_size, session.device(), session.sms(), s, state);
    values_of_keys<<<grid(m), block_size, 0, s>>>(m, dist.data(), v);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  } else {
    negate<<<grid(m), block_size, 0, s>>>(m, price, v);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  row_minima<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, v, u);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(dist.data(), 0xff, sizeof(Key) * m, s));
  column_minima<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, u, dist.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  values_of_keys<<<grid(m), block_size, 0, s>>>(m, dist.data(), v);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  free_loose_pairs<<<grid(m), block_size, 0, s>>>(m, pair.data(), u, v, row_mate, col_mate);
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  unsigned left = count_free();
  out.freed = vertex_t(left);
  lowered.record(s);
  out.levels_s = lowered.since(started);
  out.lowering_levels = read_scalar(counts.data() + 3, s);
  const unsigned long long lowering_rows = read_scalar(relaxed.data(), s);

  DeviceBuffer<vertex_t> far0(std::size_t(m), s), far1(std::size_t(m), s);
  DeviceBuffer<unsigned> far_count(2, s), far_stamp(std::size_t(m), s);
  DeviceBuffer<Key> bound(1, s);
  DeviceBuffer<double> step(2, s);  // the sum of reduced costs, then delta
  DeviceBuffer<unsigned long long> step_count(1, s);
  DeviceBuffer<vertex_t> free_cols(std::size_t(m), s);
  DeviceBuffer<unsigned> free_info(3, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(free_info.data(), 0, sizeof(unsigned) * 3, s));
  const Distances state{m,
                        offsets,
                        cols,
                        cost,
                        u,
                        v,
                        row_mate,
                        col_mate,
                        dist.data(),
                        levels,
                        {far0.data(), far1.data()},
                        far_count.data(),
                        far_stamp.data(),
                        bound.data(),
                        step.data() + 1,
                        false,
                        free_cols.data(),
                        free_info.data()};
  offset_t tight_capacity = 0;
  DeviceBuffer<vertex_t> tight_cols;
  DeviceBuffer<vertex_t> pred(std::size_t(m), s);
  DeviceBuffer<unsigned> claims(2 * std::size_t(m) + 1, s);  // rows', columns', the paths augmented
  while (left > 0) {
    if (max_phases >= 0 && out.phases >= max_phases) {
      out.stopped_short = true;
      break;
    }
    ++out.phases;
    phase_start.record(s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(step.data(), 0, sizeof(double), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(step_count.data(), 0, sizeof(unsigned long long), s));
    mean_reduced_cost<<<tile_grid(m), block_size, 0, s>>>(state, step.data(), step_count.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    set_delta<<<1, 1, 0, s>>>(step.data(), step_count.data(), delta_factor, step.data() + 1);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    launch_cooperative(shortest_distances, block_size, session.device(), session.sms(), s, state);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(cap.data(), 0, sizeof(Key), s));
    largest_free_distance<<<grid(m), block_size, 0, s>>>(m, col_mate, dist.data(), cap.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    distances_done.record(s);
    if (read_scalar(cap.data(), s) == 0) {  // no free column reached: cannot happen with a perfect matching
      out.stopped_short = true;
      break;
    }
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(pred.data(), 0xff, sizeof(vertex_t) * m, s));
    count_tight<<<tile_grid(m + 1), block_size, 0, s>>>(state, cap.data(), tight_count.data(), pred.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    cub_call([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, tight_count.data(), tight_offsets.data(), m + 1, s);
    }, s);
    const offset_t entries = read_scalar(tight_offsets.data() + m, s);
    if (entries > tight_capacity) {
      tight_capacity = entries + entries / 4;
      tight_cols = DeviceBuffer<vertex_t>(std::size_t(tight_capacity), s);
    }
    write_tight_lower_rows<<<tile_grid(m), block_size, 0, s>>>(state, cap.data(), tight_offsets.data(),
                                                               tight_cols.data(), u);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    raise_columns<<<grid(m), block_size, 0, s>>>(m, dist.data(), cap.data(), v);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    duals_done.record(s);
    // Along the trees first: a few dependent reads a path's vertex, where
    // the maximum matching's breadth-first levels each end in a grid
    // barrier (stencil2d:1000 on the H200: 0.11-0.19 s of augmentations in
    // 7-8 phases against 0.012 s, the phases as many). The walks augment
    // one path a tree of predecessors; ties can crowd the predecessors into
    // few trees (k free rows tied to k free columns, every column's
    // predecessor the same row: one path where the tight entries hold k)
    // or close cycles of zero-cost entries (no path). So where they
    // augment under a quarter of the free rows, the matching is then
    // augmented to a maximum matching of the tight entries too (the flipped
    // entries are among them and stay tight). On 2D meshes the walks
    // augmented half or more of the free rows in every phase of the CPU
    // prototype (bench/RESULTS.md).
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(claims.data(), 0, sizeof(unsigned) * claims.size(), s));
    augment_along_trees<<<grid(m), block_size, 0, s>>>(m, dist.data(), cap.data(), pred.data(), row_mate, col_mate,
                                                        claims.data(), claims.data() + m, claims.data() + 2 * m);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    if (const unsigned paths = read_scalar(claims.data() + 2 * m, s); 4ull * paths < left) {
      ++out.maximum_matchings;
      augment_to_maximum(session, m, m, tight_offsets.data(), tight_cols.data(), row_mate, col_mate);
    }
    augmented.record(s);
    const unsigned now = count_free();
    out.distances_s += distances_done.since(phase_start);
    out.duals_s += duals_done.since(distances_done);
    out.augment_s += augmented.since(duals_done);
    if (now >= left) {
      out.stopped_short = true;
      break;
    }
    left = now;
  }
  out.levels = read_scalar(counts.data() + 3, s) - out.lowering_levels;
  out.rows_relaxed = std::int64_t(read_scalar(relaxed.data(), s) - lowering_rows);
  out.early_stops = read_scalar(free_info.data() + 2, s);
  out.left = vertex_t(left);
  if (canonical && !out.stopped_short) {
    // The canonical duals (shortest_augmenting_canonical.cpp's shortest
    // paths, here by the same near-far label correcting): the greatest x
    // with x_j <= x0_j = v0_j - v_j and x_j <= x_{M(i)} + r_ij on every
    // entry, from every row; then v += x and u from the pairs.
    Event canonical_start_event, canonical_done;
    canonical_start_event.record(s);
    DeviceBuffer<double> zero(std::size_t(m), s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(zero.data(), 0, sizeof(double) * m, s));
    row_minima<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, zero.data(), pair.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(dist.data(), 0xff, sizeof(Key) * m, s));
    column_minima<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, pair.data(), dist.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    canonical_start<<<grid(m), block_size, 0, s>>>(m, v, dist.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(step.data(), 0, sizeof(double), s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(step_count.data(), 0, sizeof(unsigned long long), s));
    mean_reduced_cost<<<tile_grid(m), block_size, 0, s>>>(state, step.data(), step_count.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    set_delta<<<1, 1, 0, s>>>(step.data(), step_count.data(), delta_factor, step.data() + 1);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    Distances from_given = state;
    from_given.from_given = true;
    launch_cooperative(shortest_distances, block_size, session.device(), session.sms(), s, from_given);
    add_shift<<<grid(m), block_size, 0, s>>>(m, dist.data(), v);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    pair_costs<<<tile_grid(m), block_size, 0, s>>>(m, offsets, cols, cost, row_mate, pair.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    rows_from_pairs<<<grid(m), block_size, 0, s>>>(m, pair.data(), row_mate, v, u);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    canonical_done.record(s);
    out.canonical = true;
    out.canonical_s = canonical_done.since(canonical_start_event);
  }
  return out;
}

}  // namespace matchblas::gpu
