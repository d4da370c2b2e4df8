// AWPM on the GPU (registry entry awpm-gpu, twin of awpm): a maximum
// matching of an m-by-n matrix with a heavy sum of matched |a_ij| by
// 4-cycles, the algorithm of awpm.cpp with each step a kernel.
//   Source: A. Azad, A. Buluc, X. S. Li, X. Wang, J. Langguth, "A
//   distributed-memory algorithm for computing a heavy-weight perfect
//   matching on bipartite graphs", SIAM J. Sci. Comput. 42(4), 2020; the
//   auction: D. P. Bertsekas, Annals of Operations Research 14, 1988.
//   Steps: (1) the start. Unless options.start is greedy: the forward
//   auction on the costs -|a_ij| in Jacobi rounds (auction_gpu.cuh,
//   max-sum-gpu's kernels), one phase at awpm's epsilon, until at most
//   rows / 2000 rows are unassigned or 1000 rounds have run; on a square
//   matrix without empty rows in place, on another shape on awpm's bidders
//   (auction_bidders: the rows with entries, or the columns when tall),
//   their mates mapped back on the host. A stopped auction's assignment is
//   kept as it is (no searches). Otherwise the greedy matching of |a| (weight
//   descending, row ascending, column ascending) by one-sided Suitor in
//   rounds: the rows still to place propose at once, a column's offer word
//   (the row holding it) changes by compare-and-swap only to a better row, a
//   displaced row proposes in the next round; the result is the greedy
//   matching whatever the schedule (the Suitor invariant). (2) Maximum
//   cardinality from it by cardinality-gpu's phases (max_cardinality_gpu.cuh).
//   (3) Rounds: every matched row finds its best 4-cycle (partner row i' =
//   col_mate[j'] for an entry (i, j'), the entry (i', j) found by binary
//   search in i''s sorted row, gain (new pair) - (old pair), ties to the
//   smaller partner); a cycle whose rows are each other's best is applied
//   (such cycles share no row, and the best cycle of all is among them);
//   until a round applies none above min_gain times the weight, or
//   max_rounds.
//   Guarantee: approximate (awpm.hpp): a maximum matching whose weight never
//   decreases in the rounds and, at convergence, no 4-cycle gaining more than
//   min_gain times the weight. Not deterministic (the auction's and step 2's
//   schedules).
//   Cost: the auction O(the unassigned rows' entries) a round; step 1 greedy
//   O(proposals x degree) work; step 2 as cardinality-gpu; a round
//   O(sum over matched rows of deg(i) log(max deg)). Memory: the sorted
//   |a| (offsets, columns, values) on the device and O(m + n) words; on the
//   host a sorted copy only where a's rows are not sorted already (or for
//   another shape's bidders).
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/auction_gpu.cuh"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality_gpu.cuh"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas {
namespace {

constexpr int block_size = 256;  // not tuned: grid-stride loops over rows

// The sorted |a| on the device (a view passed by value).
struct Sorted {
  vertex_t m, n;
  const offset_t* offsets;
  const vertex_t* cols;
  const double* w;
};

// |a_ij|, or -1 when (i, j) is not an entry (binary search in row i).
__device__ double entry(const Sorted& a, vertex_t i, vertex_t j) {
  offset_t lo = a.offsets[i], hi = a.offsets[i + 1];
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (a.cols[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return lo < a.offsets[i + 1] && a.cols[lo] == j ? a.w[lo] : -1.0;
}

// Row i's entry of weight wi beats row r's entry of weight wr in column j
// (greedy order: heavier, then the smaller row).
__device__ bool beats(double wi, vertex_t i, double wr, vertex_t r) { return wi > wr || (wi == wr && i < r); }

// One round of proposals: each row of `active` proposes to its best column
// (weight descending, column ascending) whose offer it beats, until its CAS
// wins or no column is left; a row it displaces goes to `next`.
__global__ void propose(Sorted a, const vertex_t* active, unsigned size, vertex_t* offer, vertex_t* next,
                        unsigned* next_count) {
  for (long long t = gpu::grid_thread(); t < size; t += gpu::grid_threads()) {
    const vertex_t i = active[t];
    while (true) {
      offset_t pick = -1;
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        if (pick >= 0 && !(a.w[k] > a.w[pick])) continue;  // columns ascend: ties keep the smaller
        const vertex_t held = offer[a.cols[k]];
        if (held == no_vertex || beats(a.w[k], i, entry(a, held, a.cols[k]), held)) pick = k;
      }
      if (pick < 0) break;  // i stays unmatched
      const vertex_t j = a.cols[pick];
      vertex_t held = offer[j];
      bool won = false;
      while (!won && (held == no_vertex || beats(a.w[pick], i, entry(a, held, j), held))) {
        const vertex_t seen = atomicCAS(&offer[j], held, i);
        won = seen == held;
        held = seen;
      }
      if (!won) continue;  // outbid meanwhile: choose again
      if (held != no_vertex) next[atomicAdd(next_count, 1u)] = held;
      break;
    }
  }
}

__global__ void negate(std::size_t size, double* x) {
  for (long long k = gpu::grid_thread(); k < static_cast<long long>(size); k += gpu::grid_threads()) x[k] = -x[k];
}

// x = |x| times scale (a power of two: sorted_moduli's values, bit for bit).
__global__ void moduli(std::size_t size, double* x, double scale) {
  for (long long k = gpu::grid_thread(); k < static_cast<long long>(size); k += gpu::grid_threads())
    x[k] = fabs(x[k]) * scale;
}

__global__ void all_rows(vertex_t m, vertex_t* rows) {
  for (long long i = gpu::grid_thread(); i < m; i += gpu::grid_threads()) rows[i] = vertex_t(i);
}

__global__ void mates_from_offers(vertex_t n, const vertex_t* offer, vertex_t* row_mate, vertex_t* col_mate) {
  for (long long j = gpu::grid_thread(); j < n; j += gpu::grid_threads())
    if (offer[j] != no_vertex) {
      col_mate[j] = offer[j];
      row_mate[offer[j]] = vertex_t(j);
    }
}

__global__ void weigh_rows(Sorted a, const vertex_t* row_mate, double* mate_weight) {
  for (long long i = gpu::grid_thread(); i < a.m; i += gpu::grid_threads())
    mate_weight[i] = row_mate[i] == no_vertex ? 0.0 : entry(a, vertex_t(i), row_mate[i]);
}

// Each matched row's best cycle (partner, gain, the two new entries).
__global__ void best_cycles(Sorted a, const vertex_t* row_mate, const vertex_t* col_mate, const double* mate_weight,
                            vertex_t* partner, double* gain, double* mine, double* theirs) {
  for (long long r = gpu::grid_thread(); r < a.m; r += gpu::grid_threads()) {
    const auto i = vertex_t(r);
    vertex_t best = no_vertex;
    double best_gain = 0, best_mine = 0, best_theirs = 0;
    const vertex_t j = row_mate[i];
    if (j != no_vertex)
      for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
        const vertex_t other = a.cols[k] == j ? no_vertex : col_mate[a.cols[k]];
        if (other == no_vertex) continue;
        const double back = entry(a, other, j);
        if (back < 0) continue;
        const double g = (a.w[k] + back) - (mate_weight[i] + mate_weight[other]);
        if (g > 0 && (best == no_vertex || g > best_gain || (g == best_gain && other < best))) {
          best = other;
          best_gain = g;
          best_mine = a.w[k];
          best_theirs = back;
        }
      }
    partner[i] = best;
    gain[i] = best_gain;
    mine[i] = best_mine;
    theirs[i] = best_theirs;
  }
}

// Applies each cycle whose two rows are each other's best (from its smaller
// row), above the threshold; counts them.
__global__ void apply_cycles(vertex_t m, const vertex_t* partner, const double* gain, const double* mine,
                             const double* theirs, double threshold, vertex_t* row_mate, vertex_t* col_mate,
                             double* mate_weight, unsigned* applied) {
  for (long long r = gpu::grid_thread(); r < m; r += gpu::grid_threads()) {
    const auto i = vertex_t(r);
    const vertex_t p = partner[i];
    if (p == no_vertex || p <= i || partner[p] != i || !(gain[i] > threshold)) continue;
    const vertex_t j = row_mate[i], jp = row_mate[p];
    row_mate[i] = jp;
    row_mate[p] = j;
    col_mate[jp] = i;
    col_mate[j] = p;
    mate_weight[i] = mine[i];
    mate_weight[p] = theirs[i];
    atomicAdd(applied, 1u);
  }
}

unsigned read_count(const unsigned* d, cudaStream_t s) {
  unsigned h = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

// The sum of the m values (CUB), read back.
double device_sum(const double* values, vertex_t m, cudaStream_t s) {
  gpu::DeviceBuffer<double> total(1, s);
  std::size_t bytes = 0;
  MATCHBLAS_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, bytes, values, total.data(), m, s));
  gpu::DeviceBuffer<unsigned char> scratch(bytes, s);
  MATCHBLAS_CUDA_TRY(cub::DeviceReduce::Sum(scratch.data(), bytes, values, total.data(), m, s));
  double h = 0;
  MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&h, total.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
  return h;
}

// The auction start's phase (auction_gpu.cuh) on a rows x columns cost
// matrix on the device: from prices 0 at `epsilon`, its last rows / 2000
// rows left over, at most 1000 rounds; owner and row_mate (-1 where
// unassigned) hold the assignment. Waits for the session's stream.
void one_phase_auction(const gpu::StreamSession& session, vertex_t rows, vertex_t columns, const offset_t* offsets,
                       const vertex_t* cols, const double* cost, double epsilon, vertex_t* owner, vertex_t* row_mate) {
  const cudaStream_t s = session.stream();
  gpu::DeviceBuffer<double> price(std::size_t(columns), s), bid(std::size_t(rows), s);
  gpu::DeviceBuffer<unsigned long long> key(std::size_t(columns), s);
  gpu::DeviceBuffer<vertex_t> target(std::size_t(rows), s), active(std::size_t(rows), s), next(std::size_t(rows), s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(price.data(), 0, sizeof(double) * columns, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(key.data(), 0, sizeof(unsigned long long) * columns, s));
  const gpu::AuctionView view{.m = rows,
                              .offsets = offsets,
                              .cols = cols,
                              .cost = cost,
                              .ceiling = std::numeric_limits<double>::infinity(),
                              .price = price.data(),
                              .owner = owner,
                              .row_mate = row_mate,
                              .key = key.data(),
                              .bid = bid.data(),
                              .target = target.data()};
  std::int64_t rounds = 0;
  gpu::auction_phase(session, view, epsilon, auction_tail_rows(0, rows, last_phase_rows_per_tail_row), 1000,
                     active.data(), next.data(), rounds);
}

}  // namespace

AwpmResult awpm_gpu(const Csr<double>& a, const AwpmOptions& options, const GpuOptions& opt, GpuTimes* times) {
  check_bipartite_values(a, "awpm-gpu");
  MATCHBLAS_EXPECTS(options.min_gain >= 0 && std::isfinite(options.min_gain), "awpm-gpu: min_gain must be >= 0");
  MATCHBLAS_EXPECTS(options.max_rounds >= 0, "awpm-gpu: max_rounds must be >= 0");
  MATCHBLAS_EXPECTS(options.auction_epsilon > 0 && options.auction_epsilon <= 1,
                    "awpm-gpu: auction_epsilon must be in (0, 1]");
  check_gpu_options(opt);
  gpu::use_device("awpm-gpu", opt.device);
  const vertex_t m = a.n_rows, n = a.n_cols;
  AwpmResult r;
  r.mates.row_mate.assign(std::size_t(m), no_vertex);
  r.mates.col_mate.assign(std::size_t(n), no_vertex);
  if (m == 0 || n == 0 || a.num_entries() == 0) {
    r.converged = true;
    return r;
  }
  // The sorted moduli: with rows already sorted, a's own arrays uploaded and
  // the moduli taken on the device (no host copy: 5M entries, 60 MB); else
  // sorted_moduli's host copy.
  const bool in_order = rows_strictly_sorted(a);
  double scale = in_order ? moduli_sum_scale(a.weights) : 1;
  const Csr<double> copy = in_order ? Csr<double>{} : sorted_moduli(a, scale);
  const Csr<double>& sorted = in_order ? a : copy;  // its weights: |a| x scale when !in_order, a's own when in_order

  gpu::StreamSession session(opt.device, opt.stream);
  const cudaStream_t s = session.stream();
  gpu::Event start, uploaded, matched, done;
  start.record(s);
  const auto offsets = gpu::DeviceBuffer<offset_t>::from_host(std::span<const offset_t>(sorted.offsets), s);
  const auto cols = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(sorted.cols), s);
  auto w = gpu::DeviceBuffer<double>::from_host(std::span<const double>(sorted.weights), s);
  if (in_order) {
    moduli<<<gpu::grid_for(a.num_entries(), block_size, gpu::max_blocks_per_sm * session.sms()), block_size, 0, s>>>(
        w.size(), w.data(), scale);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  uploaded.record(s);
  const Sorted view{m, n, offsets.data(), cols.data(), w.data()};
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };

  gpu::DeviceBuffer<vertex_t> row_mate(std::size_t(m), s), col_mate(std::size_t(n), s), offer(std::size_t(n), s),
      active(std::size_t(m), s), next(std::size_t(m), s), partner(std::size_t(m), s);
  gpu::DeviceBuffer<double> mate_weight(std::size_t(m), s), gain(std::size_t(m), s), mine(std::size_t(m), s),
      theirs(std::size_t(m), s);
  gpu::DeviceBuffer<unsigned> count(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(row_mate.data(), 0xff, sizeof(vertex_t) * m, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(col_mate.data(), 0xff, sizeof(vertex_t) * n, s));
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(offer.data(), 0xff, sizeof(vertex_t) * n, s));

  // (1) The start: the auction's, on the costs -|a_ij| (w negated in place
  // and restored, or on another shape than square without empty rows a
  // host-built copy of the bidders, as awpm's, their mates mapped back on
  // the host), or the greedy one by rounds of proposals until no row is
  // displaced.
  const bool auction = options.start == AwpmOptions::Start::auction, in_place = auction_in_place(sorted);
  // Another shape's bidders come from the moduli on the host.
  Csr<double> host_moduli;
  if (auction && !in_place && in_order) host_moduli = sorted_moduli(a, scale);
  const AuctionBidders bidders =
      auction && !in_place ? auction_bidders(in_order ? host_moduli : copy, options.auction_epsilon) : AuctionBidders{};
  const double epsilon = !auction   ? 0
                         : in_place ? auction_start_epsilon(sorted, options.auction_epsilon, in_order ? scale : 1)
                                    : bidders.epsilon;
  r.auction_start = epsilon > 0;
  if (r.auction_start && !in_place) {
    const Csr<double>& c = bidders.costs;
    const auto b_offsets = gpu::DeviceBuffer<offset_t>::from_host(std::span<const offset_t>(c.offsets), s);
    const auto b_cols = gpu::DeviceBuffer<vertex_t>::from_host(std::span<const vertex_t>(c.cols), s);
    const auto b_cost = gpu::DeviceBuffer<double>::from_host(std::span<const double>(c.weights), s);
    gpu::DeviceBuffer<vertex_t> owner(std::size_t(c.n_cols), s), bidder_mate(std::size_t(c.n_rows), s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(owner.data(), 0xff, sizeof(vertex_t) * c.n_cols, s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(bidder_mate.data(), 0xff, sizeof(vertex_t) * c.n_rows, s));
    one_phase_auction(session, c.n_rows, c.n_cols, b_offsets.data(), b_cols.data(), b_cost.data(), epsilon,
                      owner.data(), bidder_mate.data());
    std::vector<vertex_t> mates(static_cast<std::size_t>(c.n_rows));
    bidder_mate.to_host(std::span(mates), s);
    session.synchronize();
    const BipartiteMates x = bidders.mates_of(mates, m, n);
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(row_mate.data(), x.row_mate.data(), sizeof(vertex_t) * m,
                                       cudaMemcpyHostToDevice, s));
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(col_mate.data(), x.col_mate.data(), sizeof(vertex_t) * n,
                                       cudaMemcpyHostToDevice, s));
    session.synchronize();  // x's arrays are read before they go
  } else if (r.auction_start) {
    negate<<<grid(a.num_entries()), block_size, 0, s>>>(w.size(), w.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    one_phase_auction(session, m, n, offsets.data(), cols.data(), w.data(), epsilon, col_mate.data(), row_mate.data());
    negate<<<grid(a.num_entries()), block_size, 0, s>>>(w.size(), w.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  } else {
    all_rows<<<grid(m), block_size, 0, s>>>(m, active.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    for (unsigned size = unsigned(m); size > 0;) {
      MATCHBLAS_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(unsigned), s));
      propose<<<grid(size), block_size, 0, s>>>(view, active.data(), size, offer.data(), next.data(), count.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      size = read_count(count.data(), s);
      std::swap(active, next);
    }
    mates_from_offers<<<grid(n), block_size, 0, s>>>(n, offer.data(), row_mate.data(), col_mate.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  weigh_rows<<<grid(m), block_size, 0, s>>>(view, row_mate.data(), mate_weight.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  r.start_weight = device_sum(mate_weight.data(), m, s) / scale;

  // (2) Maximum cardinality.
  gpu::augment_to_maximum(session, m, n, offsets.data(), cols.data(), row_mate.data(), col_mate.data());
  weigh_rows<<<grid(m), block_size, 0, s>>>(view, row_mate.data(), mate_weight.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  double weight = device_sum(mate_weight.data(), m, s);
  r.maximum_weight = weight / scale;

  // (3) Rounds of cycles.
  while (std::int64_t(r.rounds.size()) < options.max_rounds) {
    best_cycles<<<grid(m), block_size, 0, s>>>(view, row_mate.data(), col_mate.data(), mate_weight.data(),
                                               partner.data(), gain.data(), mine.data(), theirs.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(unsigned), s));
    apply_cycles<<<grid(m), block_size, 0, s>>>(m, partner.data(), gain.data(), mine.data(), theirs.data(),
                                                options.min_gain * weight, row_mate.data(), col_mate.data(),
                                                mate_weight.data(), count.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    const unsigned cycles = read_count(count.data(), s);
    weight = device_sum(mate_weight.data(), m, s);
    r.rounds.push_back({std::int64_t(cycles), weight / scale});
    if (cycles == 0) {
      r.converged = true;
      break;
    }
  }
  matched.record(s);
  row_mate.to_host(std::span(r.mates.row_mate), s);
  col_mate.to_host(std::span(r.mates.col_mate), s);
  done.record(s);
  session.synchronize();
  for (vertex_t j : r.mates.row_mate) r.mates.matched += j != no_vertex;
  if (times) {
    times->upload_s = uploaded.since(start);
    times->match_s = matched.since(uploaded);
    times->download_s = done.since(matched);
  }
  return r;
}

}  // namespace matchblas
