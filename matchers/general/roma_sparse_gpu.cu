// roma-sparse-gpu (matchers/general/roma_sparse.hpp): the phases of
// roma-sparse on the GPU, a warp per vertex, the locking rule of
// roma-sparse-omp (matchers/general/roma_sparse_omp.cpp, where the argument
// for validity, monotone weight and the end of the phases is written out).
//
// The phases follow roma-sparse's schedule (PhaseSchedule): phase 0 over
// every vertex, a later 2-augmentation phase over the vertices marked
// around the last phase's changes (MarkedVertices, here a kernel over the
// changed vertices' rows), and with length > 2 the long passes
// (roma_sparse_gpu_long.cuh) over the vertices whose mate changed since the
// previous pass began. A phase's items come in a seeded scrambled order
// (item i of phase p is the ((a_p i + b_p) mod count)-th, a_p coprime to
// count, a_p and b_p drawn from the seed and p: a bijection; of a list
// made by atomic appends after phase 0, so not the same from run to run).
// The warp of a vertex v reads v's row and its mate u's row 32 entries at
// a time, each lane keeping its two best arms, merged across the warp by
// shuffles; the 4-cycles are a lane per entry of v's row, w(u, y) by binary
// search in u's row. Lane 0 then locks the at most six vertices of the best augmentation
// (atomicCAS on a lock word each, in increasing order, giving up at the first
// taken one), checks the mates the search saw, recomputes the gain from the
// locked vertices and applies it when it still exceeds the threshold. A
// vertex that lost a lock race goes to a retry list; the list is run again
// by the same kernel until it is empty, by a single warp (no races, so it
// empties) once a round fails to shrink it. Mates and matched weights are
// read at L2 (__ldcg) and written before a __threadfence() that precedes the
// unlock.
// Cost: O(m log d) work a phase (a marked phase: its vertices' rows); the
// start matching is suitor-gpu's for --start suitor (greedy's matching, as
// on the CPU), the host's otherwise. Device memory beyond the graph: 30
// bytes per vertex, and with length > 2 the long search's lists (4 +
// sizeof(W) bytes per kept entry, at most 256 a vertex; while they are
// made, 4 + 2 sizeof(W) bytes per entry of the graph more).
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

#include "lib/counter_rng.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "matchers/general/roma_sparse_gpu_long.cuh"
#include "matchers/general/roma_sparse_gpu_state.cuh"
#include "matchers/general/suitor.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/warp_append.cuh"

namespace matchblas {

namespace {

using namespace roma_sparse_gpu_detail;

constexpr unsigned full = 0xffffffffu;

struct Arms {  // a lane's (then the warp's) two best arms: vertex, arm value, edge weight
  vertex_t x1 = no_vertex, x2 = no_vertex;
  double a1 = 0, a2 = 0, w1 = 0, w2 = 0;
  __device__ void offer(vertex_t x, double a, double w) {
    if (x == no_vertex) return;
    if (x1 == no_vertex || a > a1 || (a == a1 && x < x1)) {
      x2 = x1, a2 = a1, w2 = w1;
      x1 = x, a1 = a, w1 = w;
    } else if (x2 == no_vertex || a > a2 || (a == a2 && x < x2)) {
      x2 = x, a2 = a, w2 = w;
    }
  }
  // Every lane ends with the two best of the whole warp (the lanes' sets are
  // disjoint: each row entry is one lane's).
  __device__ void merge_warp() {
    for (int s = 16; s > 0; s >>= 1) {
      const vertex_t ox1 = __shfl_xor_sync(full, x1, s), ox2 = __shfl_xor_sync(full, x2, s);
      const double oa1 = __shfl_xor_sync(full, a1, s), oa2 = __shfl_xor_sync(full, a2, s);
      const double ow1 = __shfl_xor_sync(full, w1, s), ow2 = __shfl_xor_sync(full, w2, s);
      offer(ox1, oa1, ow1);
      offer(ox2, oa2, ow2);
    }
  }
};

struct Candidate {
  double gain = 0;
  vertex_t x = no_vertex, y = no_vertex;
  double w_vx = 0, w_uy = 0;
  __device__ void consider(double g, vertex_t cx, double wx, vertex_t cy, double wy) {
    if (g > gain) *this = {g, cx, cy, wx, wy};
  }
  // The warp's best (ties: the lower lane's), in every lane.
  __device__ void best_of_warp() {
    for (int s = 16; s > 0; s >>= 1) {
      const double og = __shfl_xor_sync(full, gain, s);
      const vertex_t ox = __shfl_xor_sync(full, x, s), oy = __shfl_xor_sync(full, y, s);
      const double owx = __shfl_xor_sync(full, w_vx, s), owy = __shfl_xor_sync(full, w_uy, s);
      const bool other_lower = (threadIdx.x & 31) & s;  // the partner has the lower lane
      if (og > gain || (og == gain && other_lower)) *this = {og, ox, oy, owx, owy};
    }
  }
};

// Lane 0: lock, check, apply; false when a lock was taken or a mate moved.
__device__ bool lock_and_apply(const State& s, vertex_t v, vertex_t u, const Candidate& c, vertex_t x_mate,
                               vertex_t y_mate, double threshold) {
  vertex_t set[6] = {v, u, c.x, x_mate, c.y, y_mate};
  const int count = distinct_vertices(set, 6);
  if (!lock_all(s.lock, set, count)) return false;
  const volatile vertex_t* mate = s.mate;
  const volatile double* mw = s.mw;
  const bool same = mate[v] == u && (c.x == no_vertex || mate[c.x] == x_mate) &&
                    (c.y == no_vertex || mate[c.y] == y_mate);
  if (same) {
    // The exact gain: the new edges less every matching edge at their ends, once each.
    double gain = c.x != no_vertex ? c.w_vx : 0.0;
    if (c.y != no_vertex) gain += c.w_uy;
    if (u != no_vertex) gain -= mw[v];
    if (c.x != no_vertex && x_mate != no_vertex) gain -= mw[c.x];
    if (c.y != no_vertex && y_mate != no_vertex && y_mate != c.x) gain -= mw[c.y];
    if (gain > threshold) {
      if (u != no_vertex) unmatch_locked(s, v);
      if (c.x != no_vertex) unmatch_locked(s, c.x);
      if (c.y != no_vertex) unmatch_locked(s, c.y);
      if (c.x != no_vertex) match_locked(s, v, c.x, c.w_vx);
      if (c.y != no_vertex) match_locked(s, u, c.y, c.w_uy);
      for (int i = 0; i < count; ++i) s.changed[set[i]] = 1;
      atomicAdd(s.flips, 1ULL);
    }
  }
  unlock_all(s.lock, set, count);
  return same;
}

template <class W>
__global__ void roma_sparse_round(gpu::CsrView<W> g, Order order, vertex_t count, State s, double threshold) {
  const int lane = threadIdx.x & 31;
  const long long warps = (long long)gridDim.x * (blockDim.x / 32);
  for (long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32; i < count; i += warps) {
    const vertex_t v = order(i, count);
    const vertex_t u = mate_of(s, v);
    Arms at_v, at_u;
    for (offset_t k = g.offsets[v] + lane; k < g.offsets[v + 1]; k += 32) {
      const vertex_t x = g.cols[k];
      if (x != u) at_v.offer(x, double(g.weights[k]) - matched_of(s, x), double(g.weights[k]));
    }
    at_v.merge_warp();
    Candidate best;
    if (u == no_vertex) {
      if (at_v.x1 != no_vertex) best.consider(at_v.a1, at_v.x1, at_v.w1, no_vertex, 0);
    } else {
      const double w_uv = matched_of(s, v);
      for (offset_t k = g.offsets[u] + lane; k < g.offsets[u + 1]; k += 32) {
        const vertex_t y = g.cols[k];
        if (y != v) at_u.offer(y, double(g.weights[k]) - matched_of(s, y), double(g.weights[k]));
      }
      at_u.merge_warp();
      if (at_v.x1 != no_vertex) best.consider(at_v.a1 - w_uv, at_v.x1, at_v.w1, no_vertex, 0);
      if (at_u.x1 != no_vertex) best.consider(at_u.a1 - w_uv, no_vertex, 0, at_u.x1, at_u.w1);
      if (at_v.x1 != no_vertex && at_u.x1 != no_vertex) {
        if (at_v.x1 != at_u.x1) {
          best.consider(at_v.a1 + at_u.a1 - w_uv, at_v.x1, at_v.w1, at_u.x1, at_u.w1);
        } else {
          if (at_u.x2 != no_vertex) best.consider(at_v.a1 + at_u.a2 - w_uv, at_v.x1, at_v.w1, at_u.x2, at_u.w2);
          if (at_v.x2 != no_vertex) best.consider(at_v.a2 + at_u.a1 - w_uv, at_v.x2, at_v.w2, at_u.x1, at_u.w1);
        }
      }
      for (offset_t k = g.offsets[v] + lane; k < g.offsets[v + 1]; k += 32) {  // 4-cycles
        const vertex_t x = g.cols[k];
        if (x == u) continue;
        const vertex_t y = mate_of(s, x);
        if (y == no_vertex || y == v) continue;
        const double w_uy = weight_in_row(g, u, y);
        if (isnan(w_uy)) continue;
        best.consider(double(g.weights[k]) + w_uy - w_uv - matched_of(s, x), x, double(g.weights[k]), y, w_uy);
      }
    }
    best.best_of_warp();
    if (lane == 0 && best.gain > threshold) {
      const vertex_t x_mate = best.x != no_vertex ? mate_of(s, best.x) : no_vertex;
      const vertex_t y_mate = best.y != no_vertex ? mate_of(s, best.y) : no_vertex;
      if (!lock_and_apply(s, v, u, best, x_mate, y_mate, threshold)) s.again(v);
    }
    __syncwarp();
  }
}

// Each vertex's matched weight, from its row (0 when free).
template <class W>
__global__ void matched_weights_of(gpu::CsrView<W> g, const vertex_t* mate, double* mw) {
  for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < g.n_rows;
       v += (long long)gridDim.x * blockDim.x)
    mw[v] = mate[v] == no_vertex ? 0.0 : weight_in_row(g, vertex_t(v), mate[v]);
}

// The weight of the matching: half the sum of the matched weights.
__global__ void sum_matched(const double* mw, vertex_t n, double* total) {
  double mine = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    mine += mw[i];
  for (int s = 16; s > 0; s >>= 1) mine += __shfl_xor_sync(full, mine, s);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, mine / 2);
}

// MarkedVertices::mark_around of roma_sparse_search.hpp on the device: for
// each vertex c whose mate changed (its flag cleared), c, its neighbours y
// and their mates are marked; a warp per vertex.
template <class W>
__global__ void mark_around_changed(gpu::CsrView<W> g, const vertex_t* mate, char* changed, char* marked) {
  const int lane = threadIdx.x & 31;
  for (long long c = gpu::grid_thread() >> 5; c < g.n_rows; c += gpu::grid_threads() >> 5) {
    if (!changed[c]) continue;  // the same in every lane
    __syncwarp();
    if (lane == 0) changed[c] = 0, marked[c] = 1;
    for (offset_t k = g.offsets[c] + lane; k < g.offsets[c + 1]; k += 32) {
      const vertex_t y = g.cols[k], y_mate = mate[y];
      marked[y] = 1;
      if (y_mate != no_vertex) marked[y_mate] = 1;
    }
  }
}

// A 2-augmentation phase's vertices: the marked ones, unmarked, into list.
__global__ void take_marked(char* marked, vertex_t n, vertex_t* list, int* count) {
  for (long long v = gpu::grid_thread(); v < n; v += gpu::grid_threads())
    if (marked[v]) {
      marked[v] = 0;
      gpu::append_by_warp(list, count, vertex_t(v));
    }
}

// A long pass's roots: the vertices whose mate differs from the one they had
// when the previous pass began (all, the first time: previous starts at no
// vertex id), into list; previous updated.
__global__ void take_roots(const vertex_t* mate, vertex_t* previous, vertex_t n, vertex_t* list, int* count) {
  for (long long v = gpu::grid_thread(); v < n; v += gpu::grid_threads())
    if (mate[v] != previous[v]) {
      previous[v] = mate[v];
      gpu::append_by_warp(list, count, vertex_t(v));
    }
}

// The start and the phases on g, resident as dg (the options checked). The
// phases follow roma-sparse's schedule (PhaseSchedule): phase 0 searches
// every vertex, a later 2-augmentation phase the marked ones (those around
// the vertices whose mate changed: MarkedVertices), a long pass its roots.
template <class W>
RomaRun start_and_phases(const Csr<W>& g, const DeviceGraph<W>& dg, const RomaSparseOptions& opt,
                         const GpuOptions& gopt) {
  using namespace roma_sparse_detail;
  // The searches' graph: each vertex's candidates when bounded.
  std::optional<DeviceGraph<W>> lists;
  if (opt.candidates > 0) lists.emplace(candidate_lists(g, opt.candidates, CandidateOrder::column, 0), gopt.device, gopt.stream);
  RomaRun run;
  auto t = std::chrono::steady_clock::now();
  SuitorGpuOptions suitor_options;
  static_cast<GpuOptions&>(suitor_options) = gopt;
  const Matching start =
      opt.start == RomaSparseStart::suitor ? suitor_gpu(dg, suitor_options) : start_matching(g, opt.start);
  run.start_seconds = seconds_since(t);
  gpu::MatcherSession<W> session("roma-sparse-gpu", dg, gopt);
  const cudaStream_t st = session.stream();
  const gpu::CsrView<W> search = lists ? lists->impl().csr.view() : session.graph();
  const vertex_t n = g.n_rows;
  const bool longer = opt.length > 2;
  auto mate = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(start.mate), st);
  gpu::DeviceBuffer<double> mw(std::size_t(n), st);
  gpu::DeviceBuffer<int> lock(std::size_t(n), st);
  gpu::DeviceBuffer<char> changed(std::size_t(n), st), marked(std::size_t(n), st);
  gpu::DeviceBuffer<vertex_t> retry_a(std::size_t(n), st), retry_b(std::size_t(n), st);
  gpu::DeviceBuffer<vertex_t> previous(longer ? std::size_t(n) : 0, st);  // each vertex's mate when the last long pass began
  gpu::DeviceBuffer<int> retry_count(1, st), listed(1, st);
  gpu::DeviceBuffer<unsigned long long> flips(1, st);
  gpu::DeviceBuffer<double> total(1, st);
  std::optional<GreedyLists<W>> greedy_lists;  // the long search's, made for the first long pass
  constexpr int block = 256, long_block = 128;
  // The matching's weight, half the sum of the matched weights.
  const auto weight_now = [&] {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(total.data(), 0, sizeof(double), st));
    sum_matched<<<gpu::grid_for(n, block, 1024), block, 0, st>>>(mw.data(), n, total.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    return gpu::read_scalar(total.data(), st);
  };
  if (n > 0) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(lock.data(), 0, std::size_t(n) * sizeof(int), st));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(changed.data(), 0, std::size_t(n), st));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(marked.data(), 0, std::size_t(n), st));
    if (longer) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(previous.data(), 0xfe, std::size_t(n) * sizeof(vertex_t), st));
    matched_weights_of<W><<<gpu::grid_for(n, block, 1 << 16), block, 0, st>>>(session.graph(), mate.data(), mw.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    run.start_weight = weight_now();
  }
  const double threshold = augmentation_threshold(g, opt.min_gain);
  const unsigned scan_grid = gpu::grid_for(n, block, 1 << 16);
  PhaseSchedule schedule(longer);
  for (int p = 0; p < opt.phases && n > 0; ++p) {
    t = std::chrono::steady_clock::now();
    const bool long_pass = schedule.long_pass();
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flips.data(), 0, sizeof(unsigned long long), st));
    // The phase's items: every vertex in phase 0, else a list (in retry_b,
    // which the first round only reads), in a seeded scrambled order.
    vertex_t count = n;
    Order order;
    if (p > 0) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(listed.data(), 0, sizeof(int), st));
      if (long_pass) take_roots<<<scan_grid, block, 0, st>>>(mate.data(), previous.data(), n, retry_b.data(), listed.data());
      else take_marked<<<scan_grid, block, 0, st>>>(marked.data(), n, retry_b.data(), listed.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      count = gpu::read_scalar(listed.data(), st);
      order.list = retry_b.data();
    }
    // (a i + b) mod count: a coprime to count, drawn from the seed and the phase.
    if (count > 0) {
      const rng::Stream draws(opt.seed, order_stream + std::uint64_t(p));
      order.b = draws.below(0, std::uint64_t(count));
      order.a = 1 + draws.below(1, std::uint64_t(count));
      for (std::uint64_t k = 2; std::gcd(order.a, std::uint64_t(count)) != 1; ++k)
        order.a = 1 + draws.below(k, std::uint64_t(count));
    }
    if (long_pass && !greedy_lists) greedy_lists.emplace(session.graph(), opt.candidates, st);
    std::int64_t scanned = 0;
    std::int64_t last = std::int64_t(count) + 1;
    gpu::DeviceBuffer<vertex_t>* into = &retry_a;
    while (count > 0) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(retry_count.data(), 0, sizeof(int), st));
      State s{mate.data(), mw.data(), lock.data(), changed.data(), into->data(), retry_count.data(), flips.data()};
      // A round that failed to shrink the queue: one warp (one thread for a
      // long pass), which races nobody. (Going alone sooner, for queues of
      // up to 1024 that shrank by less than a quarter, made R-MAT 2^22's
      // run 1.2x slower on an H200: one GPU thread's searches are slow.)
      const bool alone = count >= last;
      if (long_pass) {
        const unsigned grid = alone ? 1 : gpu::grid_for(count, long_block, 1LL << 20);
        long_round<W><<<grid, alone ? 1 : long_block, 0, st>>>(session.graph(), greedy_lists->view(), opt.length,
                                                               order, count, s, threshold, alone);
      } else {
        const unsigned grid = alone ? 1 : gpu::grid_for((long long)count * 32, block, 1LL << 20);
        roma_sparse_round<W><<<grid, alone ? 32 : block, 0, st>>>(search, order, count, s, threshold);
      }
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      scanned += count;
      const vertex_t retried = gpu::read_scalar(retry_count.data(), st);
      if (alone && retried > 0)
        throw error("roma-sparse-gpu: internal: a round without races left " + std::to_string(retried) +
                    " vertices to search again");
      last = count;
      count = retried;
      order = Order{into->data(), 1, 0};
      into = into == &retry_a ? &retry_b : &retry_a;
    }
    mark_around_changed<W><<<gpu::grid_for((long long)n * 32, block, 1 << 16), block, 0, st>>>(
        session.graph(), mate.data(), changed.data(), marked.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    const auto applied = gpu::read_scalar(flips.data(), st);
    RomaPhase phase;
    phase.phase = p;
    if (long_pass) phase.kernel = "long";
    phase.scanned = scanned;
    phase.flips = std::int64_t(applied);
    phase.weight = weight_now();
    phase.seconds = seconds_since(t);
    run.phases.push_back(phase);
    if (!schedule.next(phase.flips)) break;
  }
  run.matching = session.finish(mate, nullptr);
  return run;
}

}  // namespace

template <class W>
RomaRun roma_sparse_gpu(const Csr<W>& g, const RomaSparseOptions& opt, const GpuOptions& gopt) {
  using namespace roma_sparse_detail;
  using roma_sparse_gpu_detail::max_gpu_length;
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse-gpu needs a general (square) graph");
  check_roma_sparse_options(opt, "roma-sparse-gpu");
  MATCHBLAS_EXPECTS(opt.length <= max_gpu_length,
                    "roma-sparse-gpu: length must be at most " + std::to_string(max_gpu_length) + ", got " +
                        std::to_string(opt.length));
  return gpu::with_device_graph("roma-sparse-gpu", g, gopt,
                                [&](const DeviceGraph<W>& dg) { return start_and_phases(g, dg, opt, gopt); });
}

template RomaRun roma_sparse_gpu(const Csr<float>&, const RomaSparseOptions&, const GpuOptions&);
template RomaRun roma_sparse_gpu(const Csr<double>&, const RomaSparseOptions&, const GpuOptions&);

}  // namespace matchblas
