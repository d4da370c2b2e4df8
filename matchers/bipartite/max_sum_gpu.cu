// MC64's jobs 4 and 5 on the GPU (max-sum-gpu, max-product-gpu, twins of
// max-sum and max-product): the minimum-cost matching with duals of
// shortest_augmenting.hpp, by a Jacobi auction with epsilon-scaling on the
// device, repaired to the exact optimum on the device (dual_repair_gpu.cu;
// on the host with host_repair, or where the device repair stops short); a
// rectangular or structurally singular matrix runs on the host engine
// instead.
// Sources: Bertsekas 1988 sec. 2-4; Bertsekas and Castanon 1991 sec. 2; the
// repair: the Hungarian method's primal-dual phases from the auction's
// duals (dual_repair_gpu.cu), or Duff and Koster 2001 sec. 4 on the host.
// Guarantee: exact, whatever the auction left; deterministic auction.
// Cost: a round O(the unassigned rows' entries); the repair O(nnz) per
// label-correcting level of its phases; 12 bytes per entry of device memory
// and 4 more while it repairs.
// The three steps in full: docs/algorithms/max_sum_gpu.md.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/auction_gpu.cuh"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/bipartite/dual_repair_gpu.cuh"
#include "matchers/bipartite/max_cardinality_gpu.cuh"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas {
namespace {

namespace cg = cooperative_groups;

constexpr int block_size = 256;  // not tuned
constexpr int tile_size = 8;     // lanes per row: sparse rows are short (not tuned)

using Auction = gpu::AuctionView;

// A row's best value b_ij - p_j (v1, at column j1, ties to the smaller
// column), second-best (v2; -inf when the row has one entry) and the value
// of its entries in column `mine` (-inf when none or mine < 0).
struct BestTwo {
  double v1, v2, vmine;
  vertex_t j1;
};

__device__ bool better(double v, vertex_t j, double w, vertex_t k) { return v > w || (v == w && j < k); }

template <class Tile>
__device__ BestTwo best_two(const Tile& tile, const Auction& a, vertex_t i, vertex_t mine) {
  constexpr double ninf = -std::numeric_limits<double>::infinity();
  BestTwo b{ninf, ninf, ninf, std::numeric_limits<vertex_t>::max()};
  for (offset_t k = a.offsets[i] + offset_t(tile.thread_rank()); k < a.offsets[i + 1]; k += tile_size) {
    const vertex_t j = a.cols[k];
    const double x = -fmin(a.cost[k], a.ceiling) - a.price[j];
    if (j == mine) b.vmine = fmax(b.vmine, x);
    if (better(x, j, b.v1, b.j1)) {
      b.v2 = b.v1;
      b.v1 = x;
      b.j1 = j;
    } else {
      b.v2 = fmax(b.v2, x);
    }
  }
  for (int d = tile_size / 2; d > 0; d /= 2) {
    BestTwo o;
    o.v1 = tile.shfl_xor(b.v1, d);
    o.v2 = tile.shfl_xor(b.v2, d);
    o.vmine = tile.shfl_xor(b.vmine, d);
    o.j1 = tile.shfl_xor(b.j1, d);
    b.vmine = fmax(b.vmine, o.vmine);
    if (better(o.v1, o.j1, b.v1, b.j1)) {
      o.v2 = fmax(o.v2, b.v1);
      o.vmine = b.vmine;
      b = o;
    } else {
      b.v2 = fmax(b.v2, o.v1);
    }
  }
  return b;  // the same in every lane (the xor butterfly)
}

// A phase's start: each assigned row keeps its column while
// b_ij - p_j >= v1 - epsilon (epsilon-complementary slackness), else gives it
// up; every unassigned row goes to `active`.
__global__ void start_phase(Auction a, double epsilon, vertex_t* active, unsigned* count) {
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  const long long first = gpu::grid_thread() / tile_size, stride = gpu::grid_threads() / tile_size;
  for (long long r = first; r < a.m; r += stride) {
    const auto i = vertex_t(r);
    const vertex_t j = a.row_mate[i];
    const BestTwo b = best_two(tile, a, i, j);
    if (tile.thread_rank() != 0) continue;
    if (j != no_vertex && b.vmine < b.v1 - epsilon) {
      a.owner[j] = no_vertex;  // only row i holds j
      a.row_mate[i] = no_vertex;
    }
    if (a.row_mate[i] == no_vertex) active[atomicAdd(count, 1u)] = i;
  }
}

__device__ unsigned long long bid_key(double bid, vertex_t i) {
  const float up = __double2float_ru(bid);  // bids are > 0: float bits order as the values
  return (static_cast<unsigned long long>(__float_as_uint(up)) << 32) |
         static_cast<unsigned>(~static_cast<unsigned>(i));
}

// Every active row bids for its best column (one tile per row). A row
// with a single entry has no second value: it bids epsilon above the price
// (any bid from p + epsilon to p + (v1 - v2) + epsilon keeps
// epsilon-complementary slackness; a huge one would leave a huge price,
// and job 5's scalings come from the prices). No price changes meanwhile.
template <class Tile>
__device__ void bid_step(const Tile& tile, const Auction& a, const vertex_t* active, unsigned size, double epsilon) {
  const long long first = gpu::grid_thread() / tile_size, stride = gpu::grid_threads() / tile_size;
  for (long long t = first; t < size; t += stride) {
    const vertex_t i = active[t];
    const BestTwo b = best_two(tile, a, i, no_vertex);
    if (tile.thread_rank() != 0) continue;
    const vertex_t j = b.j1;
    const double gap = b.v2 == -std::numeric_limits<double>::infinity() ? 0.0 : b.v1 - b.v2;
    const double p = a.price[j];
    double bid = p + gap + epsilon;
    if (!(bid > p)) bid = nextafter(p, std::numeric_limits<double>::infinity());  // epsilon below p's ulp
    a.bid[i] = bid;
    a.target[i] = j;
    atomicMax(&a.key[j], bid_key(bid, i));
  }
}

// Each column's winner (the row named in its key) takes it at its bid; the
// row it held and the losing bidders go to `next`.
__device__ void resolve_step(const Auction& a, const vertex_t* active, unsigned size, vertex_t* next,
                             unsigned* count) {
  for (long long t = gpu::grid_thread(); t < size; t += gpu::grid_threads()) {
    const vertex_t i = active[t];
    const vertex_t j = a.target[i];
    if (static_cast<unsigned>(a.key[j]) != ~static_cast<unsigned>(i)) {
      next[atomicAdd(count, 1u)] = i;
      continue;
    }
    const vertex_t held = a.owner[j];  // assigned rows are not active: no other thread touches it
    a.owner[j] = i;
    a.row_mate[i] = j;
    a.price[j] = a.bid[i];
    if (held != no_vertex) {
      a.row_mate[held] = no_vertex;
      next[atomicAdd(count, 1u)] = held;
    }
  }
}

// A phase's rounds in one cooperative launch, a grid-wide barrier after
// each step (bids, resolution, the keys cleared), so no host round trip per
// round: a round with a few hundred bidders costs the barriers, not three
// launches and a copy back (stencil2d:1000, 5,200 rounds: 36 us a round
// with the launches). The same rounds as one launch per step. The active
// lists alternate; their sizes rotate through three counters (the one two
// rounds ahead is zeroed while no thread reads it; counts[0] holds the
// phase's first list, counts[1] is zero at the launch).
struct Rounds {
  Auction a;
  double epsilon;
  unsigned tail;
  std::int64_t max_rounds;
  vertex_t* list[2];
  unsigned* counts;             // [0..2] list sizes (rotating)
  unsigned long long* outcome;  // [0] rounds run, [1] rows left unassigned
};

__global__ void __launch_bounds__(block_size) auction_rounds(Rounds st) {
  const cg::grid_group grid = cg::this_grid();
  const auto tile = cg::tiled_partition<tile_size>(cg::this_thread_block());
  const bool leader = gpu::grid_thread() == 0;
  for (std::int64_t r = 0;; ++r) {
    const unsigned size = __ldcg(&st.counts[r % 3]);  // past L1: written by other SMs; every thread reads the same
    if (size <= st.tail || r >= st.max_rounds) {
      if (leader) {
        st.outcome[0] = static_cast<unsigned long long>(r);
        st.outcome[1] = size;
      }
      return;
    }
    if (leader) st.counts[(r + 2) % 3] = 0;
    // The lists by a select: indexing the parameter's array at a runtime
    // position would copy the whole state to local memory.
    const bool odd = r % 2 != 0;
    const vertex_t* active = odd ? st.list[1] : st.list[0];
    vertex_t* next = odd ? st.list[0] : st.list[1];
    bid_step(tile, st.a, active, size, st.epsilon);
    grid.sync();
    resolve_step(st.a, active, size, next, &st.counts[(r + 1) % 3]);
    grid.sync();
    for (long long t = gpu::grid_thread(); t < size; t += gpu::grid_threads()) st.a.key[st.a.target[active[t]]] = 0;
    grid.sync();
  }
}

__global__ void count_matched(vertex_t m, const vertex_t* row_mate, unsigned* count) {
  for (long long i = gpu::grid_thread(); i < m; i += gpu::grid_threads())
    if (row_mate[i] != no_vertex) atomicAdd(count, 1u);
}

unsigned read_count(const unsigned* d, cudaStream_t s) {
  unsigned h = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

void check_auction_options(const AuctionGpuOptions& o) {
  if (o.max_rounds < 0)
    throw invalid_input("max-sum-gpu: max_rounds must be >= 0, got " + std::to_string(o.max_rounds));
  if (!(o.ratio > 1) || !std::isfinite(o.ratio))
    throw invalid_input("max-sum-gpu: ratio must be a finite number > 1, got " + std::to_string(o.ratio));
  if (std::isnan(o.cost_ceiling))
    throw invalid_input("max-sum-gpu: cost_ceiling must be a number (infinity: none)");
  if (!(o.final_epsilon >= 0 && o.final_epsilon < 1))
    throw invalid_input("max-sum-gpu: final_epsilon must be in [0, 1), got " + std::to_string(o.final_epsilon));
}

}  // namespace

unsigned gpu::auction_phase(const StreamSession& session, const AuctionView& a, double epsilon, vertex_t tail,
                            std::int64_t max_rounds, vertex_t* active, vertex_t* next, std::int64_t& rounds) {
  MATCHBLAS_EXPECTS(tail >= 0, "auction_phase: a tail of at least 0 rows");
  const cudaStream_t s = session.stream();
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto tile_grid = [&](long long items) { return gpu::grid_for(items * tile_size, block_size, cap); };
  gpu::DeviceBuffer<unsigned> counts(3, s);
  gpu::DeviceBuffer<unsigned long long> outcome(2, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, 2 * sizeof(unsigned), s));
  start_phase<<<tile_grid(a.m), block_size, 0, s>>>(a, epsilon, active, counts.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  const Rounds state{a, epsilon, unsigned(tail), max_rounds, {active, next}, counts.data(), outcome.data()};
  gpu::launch_cooperative(auction_rounds, block_size, session.device(), session.sms(), s, state);
  unsigned long long out[2] = {0, 0};
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(out, outcome.data(), sizeof out, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  rounds += std::int64_t(out[0]);
  return unsigned(out[1]);
}

gpu::MinCostOnDevice gpu::min_cost_on_device(const StreamSession& session, vertex_t m, const offset_t* offsets,
                                              const vertex_t* cols, const double* cost, double lowest, double highest,
                                              const AuctionGpuOptions& options, AuctionGpuReport& report,
                                              vertex_t* row_mate, vertex_t* owner, double* price) {
  check_auction_options(options);
  MinCostOnDevice out;
  const cudaStream_t s = session.stream();
  const vertex_t n = m;
  gpu::Event entered, checked, auctioned, repaired;
  entered.record(s);
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };
  gpu::DeviceBuffer<vertex_t> target(std::size_t(m), s), active(std::size_t(m), s), next(std::size_t(m), s);
  gpu::DeviceBuffer<double> bid(std::size_t(m), s);
  gpu::DeviceBuffer<unsigned long long> key(std::size_t(n), s);
  gpu::DeviceBuffer<unsigned> count(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(row_mate, 0xff, sizeof(vertex_t) * m, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(owner, 0xff, sizeof(vertex_t) * n, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(price, 0, sizeof(double) * n, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(key.data(), 0, sizeof(unsigned long long) * n, s));

  // (1) Structurally nonsingular? The maximum matching (from the greedy
  // start) is also the auction's start.
  gpu::greedy_start(session, m, offsets, cols, row_mate, owner);
  gpu::augment_to_maximum(session, m, n, offsets, cols, row_mate, owner);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(unsigned), s));
  count_matched<<<grid(m), block_size, 0, s>>>(m, row_mate, count.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  out.singular = read_count(count.data(), s) < unsigned(m);
  checked.record(s);
  report.check_s = checked.since(entered);
  report.tail = auction_tail_rows(options.tail_rows, m, last_phase_rows_per_tail_row);
  if (out.singular) {
    report.device_s = report.check_s;
    return out;
  }

  // (2) The auction.
  const double top = std::min(highest, options.cost_ceiling);
  const double span = top - lowest > 0 ? top - lowest : 1.0;
  const double final_epsilon =
      span * (options.final_epsilon > 0 ? options.final_epsilon : std::max(1e-9, 1.0 / (4.0 * double(n))));
  const Auction view{m, offsets, cols, cost, options.cost_ceiling, price, owner, row_mate, key.data(), bid.data(),
                     target.data()};
  const vertex_t earlier_tail =
      options.earlier_tail_rows == 0
          ? report.tail
          : std::min(report.tail, auction_tail_rows(options.earlier_tail_rows, m, last_phase_rows_per_tail_row));
  const auto phase = [&](double epsilon, vertex_t tail) {
    ++report.phases;
    return gpu::auction_phase(session, view, epsilon, tail, options.max_rounds, active.data(), next.data(),
                              report.rounds);
  };
  for (double epsilon = std::max(final_epsilon, span / options.ratio);;
       epsilon = std::max(final_epsilon, epsilon / options.ratio)) {
    const vertex_t tail = epsilon <= final_epsilon ? report.tail : earlier_tail;
    if (phase(epsilon, tail) > unsigned(tail)) {
      report.capped = true;
      break;
    }
    if (epsilon <= final_epsilon) break;
  }
  auctioned.record(s);
  out.prices_to_host = options.host_repair;
  if (!options.host_repair) {
    // (3) The repair on the device; a repair that stops short leaves a
    // valid warm start for the host's searches, one that runs out of
    // memory the auction's prices and a matching.
    try {
      gpu::DeviceBuffer<double> u(std::size_t(m), s), v(std::size_t(n), s);
      const gpu::DualRepairCounts counts =
          gpu::repair_to_optimum(session, m, offsets, cols, cost, price, !report.capped, options.repair_phases,
                                 options.canonical_duals, row_mate, owner, u.data(), v.data());
      report.assigned = m - counts.auction_free;
      report.repaired = counts.freed - counts.left;  // the rows it augmented
      report.repair_phases = counts.phases;
      report.repair_levels = counts.levels;
      report.repair_rows_relaxed = counts.rows_relaxed;
      report.repair_early_stops = counts.early_stops;
      report.repair_maximum_matchings = counts.maximum_matchings;
      report.repair_steps_s = {counts.levels_s, counts.distances_s, counts.duals_s, counts.augment_s};
      report.canonical_on_device = counts.canonical;
      report.canonical_s = counts.canonical_s;
      out.on_device = !counts.stopped_short;
      out.u = std::move(u);
      out.v = std::move(v);
    } catch (const out_of_memory&) {
      report.repair_out_of_memory = true;
      out.prices_to_host = true;
    }
  }
  repaired.record(s);
  report.device_s = auctioned.since(entered);
  report.repair_s = repaired.since(auctioned);
  return out;
}

DualMatching min_cost_max_cardinality_gpu(const Csr<double>& c, const AuctionGpuOptions& options,
                                          const GpuOptions& opt, AuctionGpuReport* report_out) {
  using clock = std::chrono::steady_clock;
  const auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  const auto entered = clock::now();
  check_bipartite_csr(c);
  MATCHBLAS_EXPECTS(c.weights.size() == c.cols.size(), "max-sum-gpu: as many costs as entries needed");
  // The costs' range, and whether every cost is finite, in one pass on the
  // threads (the first culprit found again when one is not).
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  bool finite = true;
  const std::size_t nnz = c.weights.size();
#pragma omp parallel for schedule(static) reduction(min : lowest) reduction(max : highest) reduction(&& : finite) \
    if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) {
    const double w = c.weights[k];
    finite = finite && std::fabs(w) <= std::numeric_limits<double>::max();
    lowest = std::min(lowest, w);
    highest = std::max(highest, w);
  }
  if (!finite)
    for (std::size_t k = 0; k < nnz; ++k)
      if (!std::isfinite(c.weights[k]))
        throw invalid_input("max-sum-gpu: the cost of entry " + std::to_string(k) + " is not finite");
  check_auction_options(options);
  check_gpu_options(opt);
  gpu::use_device("max-sum-gpu", opt.device);
  AuctionGpuReport report;
  report.prepare_s = seconds_since(entered);
  const vertex_t m = c.n_rows, n = c.n_cols;
  auto host_engine = [&] {
    report.fell_back = true;
    const auto t0 = std::chrono::steady_clock::now();
    DualMatching d = min_cost_max_cardinality(c);
    report.repair_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.repaired = d.searches;
    if (options.canonical_duals && m == n && d.mates.matched == m) canonical_duals(c, d);
    if (report_out) *report_out = report;
    return d;
  };
  if (m != n || m == 0 || c.num_entries() == 0) return host_engine();

  std::vector<vertex_t> row_mate(static_cast<std::size_t>(m)), owner(static_cast<std::size_t>(n));
  std::vector<double> price(static_cast<std::size_t>(n)), u(static_cast<std::size_t>(m));
  bool singular = false, on_device = false;
  {
    const auto session_start = clock::now();
    gpu::StreamSession session(opt.device, opt.stream);
    const cudaStream_t s = session.stream();
    gpu::Event start, uploaded, done;
    start.record(s);
    report.session_s = seconds_since(session_start);
    const auto offsets = gpu::DeviceBuffer<offset_t>::from_host(std::span<const offset_t>(c.offsets), s);
    const auto cols = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(c.cols), s);
    const auto cost = gpu::DeviceBuffer<double>::from_host(std::span<const double>(c.weights), s);
    uploaded.record(s);
    gpu::DeviceBuffer<vertex_t> d_row_mate(std::size_t(m), s), d_owner(std::size_t(n), s);
    gpu::DeviceBuffer<double> d_price(std::size_t(n), s);
    const gpu::MinCostOnDevice r =
        gpu::min_cost_on_device(session, m, offsets.data(), cols.data(), cost.data(), lowest, highest, options,
                                report, d_row_mate.data(), d_owner.data(), d_price.data());
    singular = r.singular;
    on_device = r.on_device;
    if (!singular) {
      d_row_mate.to_host(std::span(row_mate), s);
      d_owner.to_host(std::span(owner), s);
      if (r.prices_to_host) d_price.to_host(std::span(price), s);
      else r.v.to_host(std::span(price), s);  // the column duals v
      if (r.on_device) r.u.to_host(std::span(u), s);
    }
    done.record(s);
    session.synchronize();
    report.upload_s = uploaded.since(start);
    report.download_s = singular ? 0.0 : done.since(uploaded) - report.device_s - report.repair_s;
  }
  if (singular) return host_engine();

  DualMatching d;
  d.mates.row_mate = std::move(row_mate);
  d.mates.col_mate = std::move(owner);
  if (on_device) {
    const auto finish_start = clock::now();
    d.u = std::move(u);
    d.v = std::move(price);
    d.searches = report.repaired;
    shortest_augmenting_detail::set_matched_cost(c, d);
    // The device's canonical duals add the distances to duals that may be
    // far larger (phases through job 5's stand-in cost of explicit zeros),
    // losing digits; where that broke a constraint, the host's
    // canonical_duals computes them again (it corrects the same fault).
    if (report.canonical_on_device && !shortest_augmenting_detail::duals_feasible(c, d)) {
      canonical_duals(c, d);
      report.canonical_on_device = false;
    }
    report.finish_s = seconds_since(finish_start);
    if (report_out) *report_out = report;
    return d;
  }
  // (3') The repair on the host, from the column duals: the prices, v = -p
  // (lowered first when the auction finished its phases; also after the
  // device ran out of memory), or the device repair's v where it stopped
  // short.
  report.host_repaired = true;
  const auto t0 = std::chrono::steady_clock::now();
  vertex_t matched = 0;
  for (vertex_t j : d.mates.row_mate) matched += j != no_vertex;
  d.mates.matched = matched;
  const bool from_prices = options.host_repair || report.repair_out_of_memory;
  if (from_prices) {
    report.assigned = matched;  // at the handover (the lowering may have freed some after a failed device repair)
    for (double& p : price) p = -p;
  }
  d = min_cost_row_perfect_from_column_duals(c, std::move(price), std::move(d.mates),
                                             from_prices && !report.capped);
  report.repair_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.repaired += d.searches;
  d.searches = report.repaired;
  if (options.canonical_duals && d.mates.matched == m) canonical_duals(c, d);
  if (report_out) *report_out = report;
  return d;
}

}  // namespace matchblas
