// roma-sparse-gpu (matchers/general/roma_sparse.hpp): the phases of
// roma-sparse on the GPU, a warp per vertex, the locking rule of
// roma-sparse-omp (matchers/general/roma_sparse_omp.cpp, where the argument
// for validity, monotone weight and the end of the phases is written out).
//
// A phase is one kernel over the vertices in a seeded scrambled order (item
// i of phase p is vertex (a_p i + b_p) mod n, a_p coprime to n, a_p and b_p
// drawn from the seed and p: a bijection with no array). The warp of a
// vertex v reads v's row and its mate u's row 32 entries at a time, each
// lane keeping its two best arms, merged across the warp by shuffles; the
// 4-cycles are a lane per entry of v's row, w(u, y) by binary search in u's
// row. Lane 0 then locks the at most six vertices of the best augmentation
// (atomicCAS on a lock word each, in increasing order, giving up at the first
// taken one), checks the mates the search saw, recomputes the gain from the
// locked vertices and applies it when it still exceeds the threshold. A
// vertex that lost a lock race goes to a retry list; the list is run again
// by the same kernel until it is empty, by a single warp (no races, so it
// empties) once a round fails to shrink it. Mates and matched weights are
// read at L2 (__ldcg) and written before a __threadfence() that precedes the
// unlock.
// Cost: O(m log d) work a phase; the start matching is suitor-gpu's for
// --start suitor (greedy's matching, as on the CPU), the host's otherwise.
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

#include "lib/counter_rng.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/roma_sparse_search.hpp"
#include "matchers/general/suitor.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

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

struct State {
  vertex_t* mate;
  double* mw;     // the weight of each vertex's matching edge, 0 when free
  int* lock;
  vertex_t* retry;
  int* retry_count;
  unsigned long long* flips;
};

__device__ vertex_t mate_of(const State& s, vertex_t a) { return __ldcg(s.mate + a); }
__device__ double matched_of(const State& s, vertex_t a) { return __ldcg(s.mw + a); }

template <class W>
__device__ double weight_in_row(const gpu::CsrView<W>& g, vertex_t a, vertex_t b) {
  offset_t lo = g.offsets[a], hi = g.offsets[a + 1];
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (g.cols[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo < g.offsets[a + 1] && g.cols[lo] == b ? double(g.weights[lo]) : nan("");
}

// Lane 0: lock, check, apply; false when a lock was taken or a mate moved.
__device__ bool lock_and_apply(const State& s, vertex_t v, vertex_t u, const Candidate& c, vertex_t x_mate,
                               vertex_t y_mate, double threshold) {
  vertex_t set[6] = {v, u, c.x, x_mate, c.y, y_mate};
  for (int i = 1; i < 6; ++i)  // insertion sort, then the distinct real vertices
    for (int j = i; j > 0 && set[j - 1] > set[j]; --j) {
      const vertex_t t = set[j];
      set[j] = set[j - 1];
      set[j - 1] = t;
    }
  int count = 0;
  for (int i = 0; i < 6; ++i)
    if (set[i] != no_vertex && (count == 0 || set[count - 1] != set[i])) set[count++] = set[i];
  int held = 0;
  for (; held < count; ++held)
    if (atomicCAS(s.lock + set[held], 0, 1) != 0) break;
  if (held < count) {
    for (int i = 0; i < held; ++i) atomicExch(s.lock + set[i], 0);
    return false;
  }
  __threadfence();
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
      volatile vertex_t* wm = s.mate;
      volatile double* ww = s.mw;
      const auto unmatch = [&](vertex_t a) {
        const vertex_t b = wm[a];
        if (b == no_vertex) return;
        wm[a] = no_vertex, wm[b] = no_vertex;
        ww[a] = 0, ww[b] = 0;
      };
      if (u != no_vertex) unmatch(v);
      if (c.x != no_vertex) unmatch(c.x);
      if (c.y != no_vertex) unmatch(c.y);
      if (c.x != no_vertex) wm[v] = c.x, wm[c.x] = v, ww[v] = c.w_vx, ww[c.x] = c.w_vx;
      if (c.y != no_vertex) wm[u] = c.y, wm[c.y] = u, ww[u] = c.w_uy, ww[c.y] = c.w_uy;
      atomicAdd(s.flips, 1ULL);
    }
  }
  __threadfence();
  for (int i = 0; i < count; ++i) atomicExch(s.lock + set[i], 0);
  return same;
}

// The order of a phase: list[i] when list is set, else (a i + b) mod count.
struct Order {
  const vertex_t* list = nullptr;
  unsigned long long a = 1, b = 0;
  __device__ vertex_t operator()(long long i, vertex_t count) const {
    return list ? list[i] : vertex_t((a * (unsigned long long)i + b) % (unsigned long long)count);
  }
};

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
      if (!lock_and_apply(s, v, u, best, x_mate, y_mate, threshold)) s.retry[atomicAdd(s.retry_count, 1)] = v;
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

// The start and the phases on g, resident as dg (the options checked).
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
  auto mate = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(start.mate), st);
  gpu::DeviceBuffer<double> mw(std::size_t(n), st);
  gpu::DeviceBuffer<int> lock(std::size_t(n), st);
  gpu::DeviceBuffer<vertex_t> retry_a(std::size_t(n), st), retry_b(std::size_t(n), st);
  gpu::DeviceBuffer<int> retry_count(1, st);
  gpu::DeviceBuffer<unsigned long long> flips(1, st);
  gpu::DeviceBuffer<double> total(1, st);
  constexpr int block = 256;
  // The matching's weight, half the sum of the matched weights.
  const auto weight_now = [&] {
    double weight = 0;
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(total.data(), 0, sizeof(double), st));
    sum_matched<<<gpu::grid_for(n, block, 1024), block, 0, st>>>(mw.data(), n, total.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&weight, total.data(), sizeof(weight), cudaMemcpyDeviceToHost, st));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(st));
    return weight;
  };
  if (n > 0) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(lock.data(), 0, std::size_t(n) * sizeof(int), st));
    matched_weights_of<W><<<gpu::grid_for(n, block, 1 << 16), block, 0, st>>>(session.graph(), mate.data(), mw.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    run.start_weight = weight_now();
  }
  const double threshold = augmentation_threshold(g, opt.min_gain);
  const auto grid_for_items = [&](vertex_t items) { return gpu::grid_for((long long)items * 32, block, 1LL << 20); };
  for (int p = 0; p < opt.phases && n > 0; ++p) {
    t = std::chrono::steady_clock::now();
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flips.data(), 0, sizeof(unsigned long long), st));
    // (a i + b) mod n: a coprime to n, drawn from the seed and the phase.
    const rng::Stream draws(opt.seed, order_stream + std::uint64_t(p));
    Order order;
    order.b = draws.below(0, std::uint64_t(n));
    order.a = 1 + draws.below(1, std::uint64_t(n));
    for (std::uint64_t k = 2; std::gcd(order.a, std::uint64_t(n)) != 1; ++k) order.a = 1 + draws.below(k, std::uint64_t(n));
    vertex_t count = n, scanned = 0, last = n + 1;
    gpu::DeviceBuffer<vertex_t>* into = &retry_a;
    while (count > 0) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(retry_count.data(), 0, sizeof(int), st));
      State s{mate.data(), mw.data(), lock.data(), into->data(), retry_count.data(), flips.data()};
      // A round that failed to shrink the list: one warp, which races nobody.
      const bool alone = count >= last;
      roma_sparse_round<W><<<alone ? 1 : grid_for_items(count), alone ? 32 : block, 0, st>>>(search, order, count, s,
                                                                                           threshold);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      scanned += count;
      last = count;
      int retried = 0;
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&retried, retry_count.data(), sizeof(int), cudaMemcpyDeviceToHost, st));
      MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(st));
      count = retried;
      order.list = into->data();
      into = into == &retry_a ? &retry_b : &retry_a;
    }
    unsigned long long applied = 0;
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&applied, flips.data(), sizeof(applied), cudaMemcpyDeviceToHost, st));
    const double weight = weight_now();
    RomaPhase phase;
    phase.phase = p;
    phase.scanned = scanned;
    phase.flips = std::int64_t(applied);
    phase.seconds = seconds_since(t);
    phase.weight = weight;
    run.phases.push_back(phase);
    if (applied == 0) break;
  }
  run.matching = session.finish(mate, nullptr);
  return run;
}

}  // namespace

template <class W>
RomaRun roma_sparse_gpu(const Csr<W>& g, const RomaSparseOptions& opt, const GpuOptions& gopt) {
  using namespace roma_sparse_detail;
  MATCHBLAS_EXPECTS(g.n_rows == g.n_cols, "roma-sparse-gpu needs a general (square) graph");
  check_roma_sparse_options(opt, "roma-sparse-gpu");
  MATCHBLAS_EXPECTS(opt.length == 2, "roma-sparse-gpu: length must be 2 (longer augmentations: roma-sparse, roma-sparse-omp)");
  return gpu::with_device_graph("roma-sparse-gpu", g, gopt,
                                [&](const DeviceGraph<W>& dg) { return start_and_phases(g, dg, opt, gopt); });
}

template RomaRun roma_sparse_gpu(const Csr<float>&, const RomaSparseOptions&, const GpuOptions&);
template RomaRun roma_sparse_gpu(const Csr<double>&, const RomaSparseOptions&, const GpuOptions&);

}  // namespace matchblas
