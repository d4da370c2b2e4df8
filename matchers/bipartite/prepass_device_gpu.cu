// Jobs 1, 4 and 5 of the pre-pass on a caller's device arrays, all on the
// device (prepass_device.hpp states the contract): (1) the arrays read into
// the row-oriented matrix of |a_ij| (0-based offsets, 32-bit columns),
// checked as they are read; a CSC matrix, or rows whose columns do not
// increase, reordered by cuSPARSE's transpose (rows in increasing column
// order, so that an entry given twice shows as two equal neighbours); job
// 5's symmetric mode merges each row with the transpose's; (2) job 1:
// cardinality-gpu's greedy start and phases; jobs 4-5: the costs of
// prepass_costs (prepass.hpp), the auction's ceiling, and (3) max-sum-gpu's
// steps (gpu::min_cost_on_device); (4) job 5's duals checked as
// duals_feasible checks them, the matched values, the objective, a square
// matrix's permutation and the outputs.
// Sources: as max-sum-gpu (Bertsekas 1988; Bertsekas and Castanon 1991; the
// Hungarian method's primal-dual phases); the costs and scalings of Duff
// and Koster 2001, sec. 4-5.
// Guarantee and cost: prepass_device.hpp.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "matchers/bipartite/auction_gpu.cuh"
#include "matchers/bipartite/max_cardinality_gpu.cuh"
#include "matchers/bipartite/prepass_device.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/cusparse_check.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/launch.cuh"
#include "ops/gpu/order_key.cuh"
#include "ops/gpu/transpose_gpu.cuh"
#include "ops/gpu_device_entries.hpp"

namespace matchblas {
namespace {

using gpu::grid_thread;
using gpu::grid_threads;
using Values = DeviceSparseArrays::Values;

constexpr int block_size = 256;  // not tuned

// What the passes found, or-ed into one word on the device.
enum Fault : unsigned {
  pointers_decrease = 1,
  index_out_of_range = 2,
  value_not_finite = 4,
  columns_not_increasing = 8,
  matched_zero = 16,
  duals_infeasible = 32,
  scaling_near_overflow = 64,
};

struct MinOp {
  __device__ double operator()(double a, double b) const { return a < b ? a : b; }
};
struct MaxOp {
  __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};

// The block's smallest lo and largest hi into range[0] and range[1] (order
// keys: atomicMin / atomicMax; exact in any order).
__device__ void fold_range(double lo, double hi, unsigned long long* range) {
  using Reduce = cub::BlockReduce<double, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  const double block_lo = Reduce(temp).Reduce(lo, MinOp{});
  __syncthreads();
  const double block_hi = Reduce(temp).Reduce(hi, MaxOp{});
  if (threadIdx.x == 0) {
    atomicMin(&range[0], gpu::order_key_of(block_lo));
    atomicMax(&range[1], gpu::order_key_of(block_hi));
  }
}

template <class Index>
__global__ void outer_offsets(long long outer, const Index* pointers, int base, offset_t* offsets,
                              unsigned* faults) {
  for (long long o = grid_thread(); o <= outer; o += grid_threads()) {
    const long long p = static_cast<long long>(pointers[o]);
    offsets[o] = p - base;
    if (o < outer && static_cast<long long>(pointers[o + 1]) < p) atomicOr(faults, pointers_decrease);
  }
}

__device__ double modulus(const void* values, Values kind, long long k) {
  switch (kind) {
    case Values::real64: return fabs(static_cast<const double*>(values)[k]);
    case Values::real32: return fabs(double(static_cast<const float*>(values)[k]));
    case Values::complex128: {
      const double* z = static_cast<const double*>(values) + 2 * k;
      return hypot(z[0], z[1]);
    }
    case Values::complex64: {
      const float* z = static_cast<const float*>(values) + 2 * k;
      return hypot(double(z[0]), double(z[1]));
    }
    default: return 1.0;
  }
}

// Entry k's 0-based inner index and modulus; faults for an index out of
// range or a modulus not finite (stand-ins written, never used: the caller
// declines).
template <class Index>
__global__ void read_entries(long long nnz, const Index* indices, int base, long long inner_dim, const void* values,
                             Values kind, vertex_t* inner, double* modulus_out, unsigned* faults) {
  for (long long k = grid_thread(); k < nnz; k += grid_threads()) {
    long long i = static_cast<long long>(indices[k]) - base;
    if (i < 0 || i >= inner_dim) {
      atomicOr(faults, index_out_of_range);
      i = 0;
    }
    inner[k] = vertex_t(i);
    double x = modulus(values, kind, k);
    if (!isfinite(x)) {
      atomicOr(faults, value_not_finite);
      x = 1;
    }
    modulus_out[k] = x;
  }
}

__global__ void check_increasing(vertex_t m, const offset_t* offsets, const vertex_t* cols, unsigned* faults) {
  for (long long i = grid_thread(); i < m; i += grid_threads())
    for (offset_t k = offsets[i] + 1; k < offsets[i + 1]; ++k)
      if (cols[k] <= cols[k - 1]) {
        atomicOr(faults, columns_not_increasing);
        break;
      }
}

// The largest modulus into range[1] (job 4's power-of-two scale).
__global__ void largest_modulus(long long nnz, const double* x, unsigned long long* range) {
  double hi = 0;
  for (long long k = grid_thread(); k < nnz; k += grid_threads()) hi = fmax(hi, x[k]);
  fold_range(0.0, hi, range);
}

// Job 4's costs -|a_ij| * scale, their range into range.
__global__ void sum_costs(long long nnz, const double* x, double scale, double* cost, unsigned long long* range) {
  double lo = INFINITY, hi = -INFINITY;
  for (long long k = grid_thread(); k < nnz; k += grid_threads()) {
    const double c = -x[k] * scale;
    cost[k] = c;
    lo = fmin(lo, c);
    hi = fmax(hi, c);
  }
  fold_range(lo, hi, range);
}

// Job 5's costs -log |a_ij| of the nonzeros, their range into range; an
// explicit zero noted in *zero (its cost written later).
__global__ void product_costs(long long nnz, const double* x, double* cost, unsigned long long* range,
                              unsigned* zero) {
  double lo = INFINITY, hi = -INFINITY;
  bool any_zero = false;
  for (long long k = grid_thread(); k < nnz; k += grid_threads()) {
    if (x[k] == 0) {
      any_zero = true;
      continue;
    }
    const double c = -log(x[k]);
    cost[k] = c;
    lo = fmin(lo, c);
    hi = fmax(hi, c);
  }
  if (any_zero) atomicOr(zero, 1u);
  fold_range(lo, hi, range);
}

__global__ void zero_costs(long long nnz, const double* x, double zero_cost, double* cost) {
  for (long long k = grid_thread(); k < nnz; k += grid_threads())
    if (x[k] == 0) cost[k] = zero_cost;
}

// The largest |u_i| and |v_i| into range[1] (duals_feasible's floor).
__global__ void largest_duals(vertex_t m, const double* u, const double* v, unsigned long long* range) {
  double hu = 0, hv = 0;
  for (long long i = grid_thread(); i < m; i += grid_threads()) {
    hu = fmax(hu, fabs(u[i]));
    hv = fmax(hv, fabs(v[i]));
  }
  fold_range(0.0, hu, range);
  __syncthreads();
  fold_range(0.0, hv, range + 2);
}

// duals_feasible (shortest_augmenting_detail.hpp) on the device: every
// reduced cost c_ij - u_i - v_j at least -floor or within rounding of its
// own terms.
__global__ void check_feasible(vertex_t m, const offset_t* offsets, const vertex_t* cols, const double* cost,
                               const double* u, const double* v, double floor, unsigned* faults) {
  constexpr double eps = 2.220446049250313e-16;
  for (long long i = grid_thread(); i < m; i += grid_threads()) {
    const double ui = u[i];
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      const double vj = v[cols[k]], reduced = cost[k] - ui - vj;
      if (reduced >= -floor) continue;
      if (fabs(reduced) <= 64 * eps * (fabs(cost[k]) + fabs(ui) + fabs(vj))) continue;
      atomicOr(faults, duals_infeasible);
      return;
    }
  }
}

// Row i's matched |a_ij| and its objective term (|a_ij|, or its log for job
// 5; 0 for an unmatched row); the smallest matched value into range[0], the
// matched rows into *matched; a matched explicit zero of job 5 noted.
__global__ void matched_terms(vertex_t m, const offset_t* offsets, const vertex_t* cols, const double* x,
                              const vertex_t* row_mate, bool logs, double* term, unsigned long long* range,
                              unsigned* matched, unsigned* faults) {
  double lo = INFINITY;
  unsigned count = 0;
  for (long long i = grid_thread(); i < m; i += grid_threads()) {
    const vertex_t j = row_mate[i];
    if (j == no_vertex) {
      term[i] = 0;
      continue;
    }
    ++count;
    double value = 0;
    for (offset_t k = offsets[i]; k < offsets[i + 1]; ++k)
      if (cols[k] == j) {
        value = x[k];
        break;
      }
    if (logs && value == 0) atomicOr(faults, matched_zero);
    term[i] = logs ? log(value) : value;
    lo = fmin(lo, value);
  }
  if (count > 0) atomicAdd(matched, count);
  fold_range(lo, -INFINITY, range);
}

// A square matrix's permutation from a maximum matching that is not
// perfect (job 1, as prepass_result makes it): the k-th unmatched row takes
// the k-th free column. rank_row / rank_col: exclusive prefix sums of the
// unmatched rows' and the free columns' flags.
__global__ void flag_unmatched(vertex_t n, const vertex_t* row_mate, const vertex_t* col_mate, unsigned* row_flag,
                               unsigned* col_flag) {
  for (long long i = grid_thread(); i < n; i += grid_threads()) {
    row_flag[i] = row_mate[i] == no_vertex;
    col_flag[i] = col_mate[i] == no_vertex;
  }
}

__global__ void list_free_columns(vertex_t n, const vertex_t* col_mate, const unsigned* rank_col,
                                  vertex_t* free_cols) {
  for (long long j = grid_thread(); j < n; j += grid_threads())
    if (col_mate[j] == no_vertex) free_cols[rank_col[j]] = vertex_t(j);
}

__global__ void fill_permutation(vertex_t n, const vertex_t* row_mate, const unsigned* rank_row,
                                 const vertex_t* free_cols, vertex_t* perm) {
  for (long long i = grid_thread(); i < n; i += grid_threads())
    perm[i] = row_mate[i] != no_vertex ? row_mate[i] : free_cols[rank_row[i]];
}

// The outputs (null ones skipped): perm (square matrices), row_mate (m),
// col_mate (n), and job 5's scalings u and v (square) with the
// near-overflow mark.
struct Outputs {
  std::int64_t* perm;
  std::int64_t* row_mate;
  std::int64_t* col_mate;
  double* row_scale;
  double* col_scale;
};

__global__ void write_outputs(vertex_t m, vertex_t n, const vertex_t* perm, const vertex_t* row_mate,
                              const vertex_t* owner, const double* u, const double* v, bool scalings,
                              bool symmetric, double limit, Outputs out, unsigned* faults) {
  for (long long i = grid_thread(); i < m || i < n; i += grid_threads()) {
    if (i < n && out.col_mate) out.col_mate[i] = owner[i];
    if (i >= m) continue;
    if (out.perm) out.perm[i] = perm[i];
    if (out.row_mate) out.row_mate[i] = row_mate[i];
    if (!scalings) continue;
    // The symmetric mode's one scaling, (u_i + v_i) / 2, in both.
    const double ui = symmetric ? 0.5 * (u[i] + v[i]) : u[i], vi = symmetric ? ui : v[i];
    if (out.row_scale) out.row_scale[i] = ui;
    if (out.col_scale) out.col_scale[i] = vi;
    if (!(fabs(ui) < limit) || !(fabs(vi) < limit)) atomicOr(faults, scaling_near_overflow);
  }
}

// The symmetric mode's matrix: row i of R (one triangle, or any entries)
// merged with row i of its transpose T less T's diagonal entry, each row in
// increasing column order (an entry given in both triangles shows as two
// equal neighbours). count[i + 1]: row i's length.
__global__ void mirrored_counts(vertex_t n, gpu::CsrView<double> r, gpu::CsrView<double> t, offset_t* count) {
  for (long long i = grid_thread(); i < n; i += grid_threads()) {
    offset_t c = (r.offsets[i + 1] - r.offsets[i]) + (t.offsets[i + 1] - t.offsets[i]);
    for (offset_t k = t.offsets[i]; k < t.offsets[i + 1]; ++k) c -= t.cols[k] == i;
    count[i + 1] = c;
  }
}

__global__ void merge_mirrored(vertex_t n, gpu::CsrView<double> r, gpu::CsrView<double> t, const offset_t* offsets,
                               vertex_t* cols, double* x) {
  for (long long i = grid_thread(); i < n; i += grid_threads()) {
    offset_t a = r.offsets[i], b = t.offsets[i], out = offsets[i];
    const offset_t a_end = r.offsets[i + 1], b_end = t.offsets[i + 1];
    while (a < a_end || b < b_end) {
      if (b < b_end && t.cols[b] == i) {
        ++b;  // the diagonal: R's own entry
        continue;
      }
      const bool from_r = b == b_end || (a < a_end && r.cols[a] <= t.cols[b]);
      cols[out] = from_r ? r.cols[a] : t.cols[b];
      x[out] = from_r ? r.weights[a] : t.weights[b];
      ++out;
      if (from_r) ++a;
      else ++b;
    }
  }
}

// A range's two keys, reset to (+inf, -inf) before a fold.
struct Range {
  gpu::DeviceBuffer<unsigned long long> keys;
  cudaStream_t s;
  Range(std::size_t pairs, cudaStream_t stream) : keys(2 * pairs, stream), s(stream) { reset(); }
  void reset() {
    const std::size_t pairs = keys.size() / 2;
    std::vector<unsigned long long> init(keys.size());
    for (std::size_t p = 0; p < pairs; ++p) {
      init[2 * p] = gpu::order_key_of(std::numeric_limits<double>::infinity());
      init[2 * p + 1] = gpu::order_key_of(-std::numeric_limits<double>::infinity());
    }
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(keys.data(), init.data(), init.size() * sizeof init[0],
                                       cudaMemcpyHostToDevice, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));  // init leaves scope
  }
  std::vector<double> read() const {
    std::vector<unsigned long long> h(keys.size());
    keys.to_host(std::span(h), s);
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    std::vector<double> x(h.size());
    for (std::size_t k = 0; k < h.size(); ++k) x[k] = gpu::weight_of_key<double>(h[k]);
    return x;
  }
};

// The row-oriented matrix of |a_ij| on the device (the arrays as read, or
// the reordered copy), or why not.
struct RowMatrix {
  gpu::DeviceBuffer<offset_t> read_offsets;
  gpu::DeviceBuffer<vertex_t> read_cols;
  gpu::DeviceBuffer<double> read_x;
  std::optional<gpu::DeviceCsr<double>> reordered;
  std::string declined;
  const offset_t* offsets() const { return reordered ? reordered->view().offsets : read_offsets.data(); }
  const vertex_t* cols() const { return reordered ? reordered->view().cols : read_cols.data(); }
  const double* x() const { return reordered ? reordered->view().weights : read_x.data(); }
  long long entries() const { return reordered ? (long long)reordered->num_entries() : (long long)read_cols.size(); }
};

std::size_t value_bytes(Values kind) {
  switch (kind) {
    case Values::real64: return 8;
    case Values::real32: return 4;
    case Values::complex128: return 16;
    case Values::complex64: return 8;
    default: return 0;
  }
}

template <class Index>
RowMatrix read_rows(const DeviceSparseArrays& a, const gpu::StreamSession& session) {
  const cudaStream_t s = session.stream();
  const auto* pointers = static_cast<const Index*>(a.pointers);
  const auto* indices = static_cast<const Index*>(a.indices);
  const long long outer = a.csc ? a.cols : a.rows, inner_dim = a.csc ? a.rows : a.cols;
  RowMatrix r;
  const int device = session.device();
  ops::expect_device_array(pointers, device, "the matrix's pointers", (std::size_t(outer) + 1) * sizeof(Index));
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };
  // The pointers first: from the base, never decreasing; only then is the
  // last one the number of entries.
  gpu::DeviceBuffer<unsigned> faults(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(faults.data(), 0, sizeof(unsigned), s));
  gpu::DeviceBuffer<offset_t> offsets(std::size_t(outer) + 1, s);
  outer_offsets<<<grid(outer + 1), block_size, 0, s>>>(outer, pointers, a.base, offsets.data(), faults.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  if (gpu::read_scalar(faults.data(), s) & pointers_decrease) return {.declined = "the pointers decrease"};
  if (gpu::read_scalar(offsets.data(), s) != 0) return {.declined = "pointers[0] is not the base"};
  const long long nnz = static_cast<long long>(gpu::read_scalar(offsets.data() + outer, s));
  if (nnz == 0) return {.declined = "no entries"};
  if (a.values != Values::pattern && !a.data) return {.declined = "no values"};
  if (!indices) return {.declined = "no indices"};
  ops::expect_device_array(indices, device, "the matrix's indices", std::size_t(nnz) * sizeof(Index));
  if (a.values != Values::pattern)
    ops::expect_device_array(a.data, device, "the matrix's values", std::size_t(nnz) * value_bytes(a.values));
  gpu::DeviceBuffer<vertex_t> inner(std::size_t(nnz), s);
  gpu::DeviceBuffer<double> x(std::size_t(nnz), s);
  read_entries<<<grid(nnz), block_size, 0, s>>>(nnz, indices, a.base, inner_dim, a.data, a.values, inner.data(),
                                                 x.data(), faults.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  const unsigned found = gpu::read_scalar(faults.data(), s);
  if (found & index_out_of_range) return {.declined = "an index out of range"};
  if (found & value_not_finite) return {.declined = "a value not finite"};
  const vertex_t m = vertex_t(a.rows);
  const auto increasing = [&](const offset_t* o, const vertex_t* c) {
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(faults.data(), 0, sizeof(unsigned), s));
    check_increasing<<<grid(m), block_size, 0, s>>>(m, o, c, faults.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    return gpu::read_scalar(faults.data(), s) == 0;
  };
  if (!a.csc && increasing(offsets.data(), inner.data())) {
    r.read_offsets = std::move(offsets);
    r.read_cols = std::move(inner);
    r.read_x = std::move(x);
    return r;
  }
  // Rows in increasing column order: a CSC matrix transposed once, rows
  // out of order twice (csr2csc lists each row's entries by column).
  if (nnz > std::numeric_limits<int>::max())
    return {.declined = "more than 2^31 - 1 entries to reorder (cuSPARSE's transpose)"};
  const gpu::SparseHandle handle;
  const gpu::CsrView<double> given{vertex_t(outer), vertex_t(inner_dim), offsets.data(), inner.data(), x.data(),
                                   offset_t(nnz)};
  r.reordered = a.csc ? gpu::transpose(given, handle.get(), block_size, s)
                      : gpu::transpose(gpu::transpose(given, handle.get(), block_size, s).view(), handle.get(),
                                       block_size, s);
  if (!increasing(r.offsets(), r.cols())) return {.declined = "an entry given twice"};
  return r;
}

}  // namespace

namespace {

// The symmetric mode's matrix (moduli_csr's mirror): each off-diagonal
// (i, j) of `rows` also as (j, i); declines where an entry comes twice.
RowMatrix mirrored(RowMatrix rows, vertex_t n, const gpu::StreamSession& session) {
  const cudaStream_t s = session.stream();
  const long long nnz = rows.entries();
  if (nnz > std::numeric_limits<int>::max())
    return {.declined = "more than 2^31 - 1 entries to mirror (cuSPARSE's transpose)"};
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };
  const gpu::CsrView<double> r{n, n, rows.offsets(), rows.cols(), rows.x(), offset_t(nnz)};
  const gpu::SparseHandle handle;
  const gpu::DeviceCsr<double> t = gpu::transpose(r, handle.get(), block_size, s);
  gpu::DeviceBuffer<offset_t> count(std::size_t(n) + 1, s), offsets(std::size_t(n) + 1);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(count.data(), 0, sizeof(offset_t), s));
  mirrored_counts<<<grid(n), block_size, 0, s>>>(n, r, t.view(), count.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  gpu::cub_call([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, count.data(), offsets.data(), n + 1, s);
  }, s);
  const offset_t total = gpu::read_scalar(offsets.data() + n, s);
  gpu::DeviceBuffer<vertex_t> cols{std::size_t(total)};
  gpu::DeviceBuffer<double> x{std::size_t(total)};
  merge_mirrored<<<grid(n), block_size, 0, s>>>(n, r, t.view(), offsets.data(), cols.data(), x.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  gpu::DeviceBuffer<unsigned> faults(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(faults.data(), 0, sizeof(unsigned), s));
  check_increasing<<<grid(n), block_size, 0, s>>>(n, offsets.data(), cols.data(), faults.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  if (gpu::read_scalar(faults.data(), s) != 0) return {.declined = "an entry given twice (in both triangles)"};
  RowMatrix m;
  m.reordered = gpu::DeviceCsr<double>(n, n, std::move(offsets), std::move(cols), std::move(x));
  return m;
}

PrepassOnDevice run_on_device(const DeviceSparseArrays& a, int job, bool symmetric, int device, void* stream_ptr,
                              const PrepassDeviceOutputs& out) {
  MATCHBLAS_EXPECTS(job == 1 || job == 4 || job == 5, "prepass_on_device: job 1, 4 or 5");
  MATCHBLAS_EXPECTS(a.rows > 0 && a.cols > 0 && (job == 1 || a.rows == a.cols),
                    "prepass_on_device: rows and columns, and jobs 4-5 a square matrix");
  MATCHBLAS_EXPECTS(!symmetric || job == 5, "prepass_on_device: the symmetric mode is job 5's");
  PrepassOnDevice result;
  gpu::StreamSession session(device, static_cast<cudaStream_t>(stream_ptr));
  const cudaStream_t s = session.stream();
  // No stream given: the caller's work on the legacy default stream (which
  // the session's own non-blocking stream does not wait for) done first.
  if (!stream_ptr) MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
  const vertex_t m = vertex_t(a.rows), n = vertex_t(a.cols);
  const long long cap = gpu::max_blocks_per_sm * session.sms();
  const auto grid = [&](long long items) { return gpu::grid_for(items, block_size, cap); };
  gpu::Event began, read, costed, matched, written;
  began.record(s);

  // (1) The matrix of |a_ij| by rows.
  RowMatrix rows = a.index64 ? read_rows<std::int64_t>(a, session) : read_rows<std::int32_t>(a, session);
  if (symmetric && rows.declined.empty()) rows = mirrored(std::move(rows), m, session);
  if (!rows.declined.empty()) {
    result.declined = rows.declined;
    return result;
  }
  read.record(s);
  const long long nnz = rows.entries();

  gpu::DeviceBuffer<vertex_t> row_mate(std::size_t(m), s), owner(std::size_t(n), s);
  gpu::DeviceBuffer<double> cost;
  gpu::DeviceBuffer<unsigned> flag(1, s);
  Range range(2, s);
  gpu::MinCostOnDevice optimum;
  if (job == 1) {
    // (2') A maximum matching: cardinality-gpu's greedy start and phases.
    costed.record(s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(row_mate.data(), 0xff, sizeof(vertex_t) * m, s));
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(owner.data(), 0xff, sizeof(vertex_t) * n, s));
    gpu::greedy_start(session, m, rows.offsets(), rows.cols(), row_mate.data(), owner.data());
    gpu::augment_to_maximum(session, m, n, rows.offsets(), rows.cols(), row_mate.data(), owner.data());
  } else {
    // (2) The costs (prepass_costs) and the auction's ceiling
    // (auction_cost_ceiling): job 5's explicit zeros cost more than any
    // product can gain and are auctioned as just above the other costs.
    cost = gpu::DeviceBuffer<double>(std::size_t(nnz), s);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned), s));
    double lowest = 0, highest = 0, ceiling = std::numeric_limits<double>::infinity();
    if (job == 4) {
      largest_modulus<<<grid(nnz), block_size, 0, s>>>(nnz, rows.x(), range.keys.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      const double largest = range.read()[1];
      const int e = largest > 0 ? std::ilogb(largest) : 0;  // moduli_sum_scale
      const double scale = e < 511 ? 1.0 : std::ldexp(1.0, 511 - e);
      range.reset();
      sum_costs<<<grid(nnz), block_size, 0, s>>>(nnz, rows.x(), scale, cost.data(), range.keys.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      const std::vector<double> r = range.read();
      lowest = r[0];
      highest = r[1];
    } else {
      product_costs<<<grid(nnz), block_size, 0, s>>>(nnz, rows.x(), cost.data(), range.keys.data(), flag.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      const std::vector<double> r = range.read();
      double lo = r[0], hi = r[1];
      const bool zero = gpu::read_scalar(flag.data(), s) != 0;
      lowest = lo;
      highest = hi;
      if (zero) {
        if (lo <= hi) ceiling = hi + (hi - lo) + 1;
        else lo = hi = 0;
        const double zero_cost = hi + (double(m) + 1) * (hi - lo + 1);
        zero_costs<<<grid(nnz), block_size, 0, s>>>(nnz, rows.x(), zero_cost, cost.data());
        MATCHBLAS_CUDA_CHECK_LAUNCH();
        lowest = std::min(lowest, zero_cost);
        highest = zero_cost;
      }
    }
    if (!std::isfinite(lowest) || !std::isfinite(highest) || std::isnan(ceiling)) {
      result.declined = "costs not finite";
      return result;
    }
    costed.record(s);

    // (3) max-sum-gpu's steps.
    AuctionGpuOptions options;
    options.cost_ceiling = ceiling;
    options.canonical_duals = job == 5;
    gpu::DeviceBuffer<double> price(std::size_t(m), s);
    optimum =
        gpu::min_cost_on_device(session, m, rows.offsets(), rows.cols(), cost.data(), lowest, highest, options,
                                result.report, row_mate.data(), owner.data(), price.data());
    if (optimum.singular) {
      result.declined = "structurally singular";
      return result;
    }
    if (!optimum.on_device) {
      result.declined = result.report.repair_out_of_memory ? "the device repair ran out of memory"
                                                           : "the device repair stopped short";
      return result;
    }
    if (job == 5 && !result.report.canonical_on_device) {
      result.declined = "the canonical duals were not made on the device";
      return result;
    }
  }
  matched.record(s);

  // (4) Job 5's duals checked, the matched values, the outputs.
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned), s));
  const double* u = job == 1 ? nullptr : optimum.u.data();
  const double* v = job == 1 ? nullptr : optimum.v.data();
  if (job == 5) {
    Range largest(2, s);
    largest_duals<<<grid(m), block_size, 0, s>>>(m, u, v, largest.keys.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    const std::vector<double> r = largest.read();
    const double floor = 256 * std::numeric_limits<double>::epsilon() * (r[1] + r[3]);
    check_feasible<<<grid(m), block_size, 0, s>>>(m, rows.offsets(), rows.cols(), cost.data(), u, v, floor,
                                                  flag.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  gpu::DeviceBuffer<double> term(std::size_t(m), s);
  gpu::DeviceBuffer<unsigned> matched_rows(1, s);
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(matched_rows.data(), 0, sizeof(unsigned), s));
  range.reset();
  matched_terms<<<grid(m), block_size, 0, s>>>(m, rows.offsets(), rows.cols(), rows.x(),
                                               row_mate.data(), job == 5, term.data(), range.keys.data(),
                                               matched_rows.data(), flag.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  gpu::DeviceBuffer<double> total(1, s);
  gpu::cub_call([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, term.data(), total.data(), m, s); },
                s);
  const unsigned found = gpu::read_scalar(flag.data(), s);
  if (found & duals_infeasible) {
    result.declined = "the device's canonical duals lost digits (the host computes them again)";
    return result;
  }
  if (found & matched_zero) {
    result.declined = "an explicit zero in the optimum (the scalings leave it out)";
    return result;
  }
  result.matched = gpu::read_scalar(matched_rows.data(), s);
  result.objective = job == 1 ? double(result.matched) : gpu::read_scalar(total.data(), s);
  result.min_matched_abs = result.matched > 0 ? range.read()[0] : 0.0;
  // A square matrix's permutation: the matching's, its unmatched rows (job 1
  // of a singular matrix) taking the free columns in order.
  gpu::DeviceBuffer<vertex_t> filled;
  const vertex_t* perm = row_mate.data();
  if (m == n && result.matched < m) {
    gpu::DeviceBuffer<unsigned> flags(2 * std::size_t(n), s), ranks(2 * std::size_t(n), s);
    filled = gpu::DeviceBuffer<vertex_t>(std::size_t(n), s);
    gpu::DeviceBuffer<vertex_t> free_cols(std::size_t(n), s);
    unsigned* row_flag = flags.data();
    unsigned* col_flag = flags.data() + n;
    flag_unmatched<<<grid(n), block_size, 0, s>>>(n, row_mate.data(), owner.data(), row_flag, col_flag);
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    for (int side = 0; side < 2; ++side)
      gpu::cub_call([&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, flags.data() + side * n, ranks.data() + side * n, n, s);
      }, s);
    list_free_columns<<<grid(n), block_size, 0, s>>>(n, owner.data(), ranks.data() + n, free_cols.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    fill_permutation<<<grid(n), block_size, 0, s>>>(n, row_mate.data(), ranks.data(), free_cols.data(),
                                                    filled.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    perm = filled.data();
  }

  // The outputs: straight into the caller's device arrays, or through
  // scratch for host ones.
  const bool scalings = job == 5;
  Outputs dst{out.perm, out.row_mate, out.col_mate, scalings ? out.row_log_scale : nullptr,
              scalings ? out.col_log_scale : nullptr};
  gpu::DeviceBuffer<std::int64_t> staged_ids;
  gpu::DeviceBuffer<double> staged_scales;
  const std::size_t rows_n = std::size_t(m), cols_n = std::size_t(n);
  if (out.on_host) {
    staged_ids = gpu::DeviceBuffer<std::int64_t>(2 * rows_n + cols_n, s);
    staged_scales = gpu::DeviceBuffer<double>(rows_n + cols_n, s);
    const auto at = [](auto* host, auto* staged) { return host ? staged : nullptr; };
    dst = {at(out.perm, staged_ids.data()), at(out.row_mate, staged_ids.data() + rows_n),
           at(out.col_mate, staged_ids.data() + 2 * rows_n), at(dst.row_scale, staged_scales.data()),
           at(dst.col_scale, staged_scales.data() + rows_n)};
  }
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned), s));
  write_outputs<<<grid(std::max(m, n)), block_size, 0, s>>>(m, n, perm, row_mate.data(), owner.data(), u, v,
                                                            scalings, symmetric,
                                               0.5 * std::log(std::numeric_limits<double>::max()), dst,
                                               flag.data());
  MATCHBLAS_CUDA_CHECK_LAUNCH();
  if (out.on_host) {
    const auto copy = [&](void* host, const void* staged, std::size_t bytes) {
      if (host && staged) MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(host, staged, bytes, cudaMemcpyDeviceToHost, s));
    };
    copy(out.perm, dst.perm, rows_n * sizeof(std::int64_t));
    copy(out.row_mate, dst.row_mate, rows_n * sizeof(std::int64_t));
    copy(out.col_mate, dst.col_mate, cols_n * sizeof(std::int64_t));
    copy(dst.row_scale ? out.row_log_scale : nullptr, dst.row_scale, rows_n * sizeof(double));
    copy(dst.col_scale ? out.col_log_scale : nullptr, dst.col_scale, cols_n * sizeof(double));
  }
  result.near_overflow = (gpu::read_scalar(flag.data(), s) & scaling_near_overflow) != 0;
  written.record(s);
  session.synchronize();
  result.arrays_s = read.since(began);
  result.costs_s = costed.since(read);
  result.matching_s = matched.since(costed);
  result.results_s = written.since(matched);
  return result;
}

}  // namespace

PrepassOnDevice prepass_on_device(const DeviceSparseArrays& a, int job, bool symmetric, int device, void* stream,
                                  const PrepassDeviceOutputs& out) {
  // The device path needs more memory than the host-copy path (the moduli,
  // the costs, a transpose's copy): running out of it is a reason to take
  // that path, not a failure. Nothing is written before the last step's
  // buffers exist.
  try {
    return run_on_device(a, job, symmetric, device, stream, out);
  } catch (const out_of_memory& e) {
    PrepassOnDevice declined;
    declined.declined = std::string("the device's memory ran out (") + e.what() + ")";
    return declined;
  }
}

}  // namespace matchblas
