// The pre-pass driver: a job's algorithm, the scalings, and (prepass_result)
// the report and the permutation of any matching (see prepass.hpp).
#include "matchers/bipartite/prepass.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "lib/error.hpp"
#include "matchers/bipartite/auction_start.hpp"
#include "matchers/bipartite/bottleneck.hpp"
#include "matchers/bipartite/shortest_augmenting.hpp"
#include "ops/mirror_sums.hpp"

namespace matchblas {
namespace {

[[noreturn]] void throw_not_an_entry(vertex_t i, vertex_t j) {
  throw std::logic_error("prepass: row " + std::to_string(i) + " is matched to column " + std::to_string(j) +
                         ", which is not an entry");
}

// |a_ij| of each row's matched entry (row_mate[i] = j; unmatched rows: -1,
// never read); on the threads from 2^16 rows. Throws std::logic_error for a row
// matched to a column that is not its entry (a caller's fault).
std::vector<double> matched_values(const Csr<double>& a, const std::vector<vertex_t>& row_mate) {
  const vertex_t m = a.n_rows;
  std::vector<double> x(std::size_t(m), -1.0);
  vertex_t wrong = m;  // the first row matched to a column that is not its entry
#pragma omp parallel for schedule(static) reduction(min : wrong) if (m >= (1 << 16))
  for (vertex_t i = 0; i < m; ++i) {
    const vertex_t j = row_mate[i];
    if (j < 0) continue;
    offset_t k = a.offsets[i];
    while (k < a.offsets[i + 1] && a.cols[k] != j) ++k;
    if (k < a.offsets[i + 1]) x[i] = std::fabs(a.weights[k]);
    else wrong = std::min(wrong, i);
  }
  if (wrong < m) throw_not_an_entry(wrong, row_mate[wrong]);
  return x;
}

}  // namespace

Csr<double> prepass_costs(const Csr<double>& a, int job) {
  MATCHBLAS_EXPECTS(job == 4 || job == 5, "prepass_costs: job 4 or 5");
  Csr<double> c = a;
  if (job == 4) {  // scaled by a power of two when the sums could overflow (moduli_sum_scale)
    const std::size_t nnz = c.weights.size();
    double largest = 0;
#pragma omp parallel for schedule(static) reduction(max : largest) if (nnz >= (1 << 16))
    for (std::size_t k = 0; k < nnz; ++k) {
      const double m = std::fabs(c.weights[k]);
      c.weights[k] = -m;
      largest = std::max(largest, m);
    }
    const double scale = moduli_sum_scale_of_largest(largest);
    if (scale != 1) {
#pragma omp parallel for schedule(static) if (nnz >= (1 << 16))
      for (std::size_t k = 0; k < nnz; ++k) c.weights[k] *= scale;
    }
    return c;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  bool zero = false;
  const std::size_t nnz = c.weights.size();
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) reduction(|| : zero) \
    if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) {
    double& w = c.weights[k];
    if (w == 0) {
      zero = true;
      continue;
    }
    w = -std::log(std::fabs(w));
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  if (zero) {
    if (lo > hi) lo = hi = 0;
    const double zero_cost = hi + (double(std::min(a.n_rows, a.n_cols)) + 1) * (hi - lo + 1);
    for (std::size_t k = 0; k < nnz; ++k)
      if (a.weights[k] == 0) c.weights[k] = zero_cost;
  }
  return c;
}

namespace {

// Whether |a| is symmetric: its entries (i, j, |a_ij|) and (j, i, |a_ij|)
// agree as multisets (duplicates in any order), by ops::mirror_sums.
bool symmetric_moduli(const Csr<double>& a) {
  return a.n_rows == a.n_cols && ops::mirror_sums(a, [](double w) { return std::fabs(w); }).zero();
}

}  // namespace

PrepassResult prepass_result(const Csr<double>& a, int job, BipartiteMates mates) {
  const vertex_t m = a.n_rows, n = a.n_cols;
  MATCHBLAS_EXPECTS(mates.row_mate.size() == std::size_t(m) && mates.col_mate.size() == std::size_t(n),
                    "prepass_result: the mates do not fit the matrix");
  PrepassResult r;
  r.job = job;
  r.mates = std::move(mates);
  // The values and their logs on the threads, the sums in row order (the
  // same bits at any thread count).
  const std::vector<double> x = matched_values(a, r.mates.row_mate);
  std::vector<double> logs(x.size());
#pragma omp parallel for schedule(static) if (m >= (1 << 16))
  for (vertex_t i = 0; i < m; ++i) logs[i] = r.mates.row_mate[i] >= 0 ? std::log(x[i]) : 0.0;
  double sum = 0, log_sum = 0, smallest = std::numeric_limits<double>::infinity();
  for (vertex_t i = 0; i < m; ++i) {
    if (r.mates.row_mate[i] < 0) continue;
    sum += x[i];
    log_sum += logs[i];
    smallest = std::min(smallest, x[i]);
  }
  r.min_matched_abs = r.mates.matched > 0 ? smallest : 0;
  r.objective = job == 1 ? double(r.mates.matched) : job <= 3 ? r.min_matched_abs : job == 4 ? sum : log_sum;
  if (job == 0) r.objective = 0;
  r.singular = job != 0 && r.mates.matched < std::min(m, n);
  if (m == n) {
    r.perm.assign(n, -1);
    std::vector<vertex_t> free_cols;
    for (vertex_t j = 0; j < n; ++j)
      if (r.mates.col_mate[j] < 0) free_cols.push_back(j);
    std::size_t next = 0;
    for (vertex_t i = 0; i < m; ++i) r.perm[i] = r.mates.row_mate[i] >= 0 ? r.mates.row_mate[i] : free_cols[next++];
  }
  return r;
}

void check_prepass_input(const Csr<double>& a, const PrepassOptions& options) {
  check_bipartite_values(a, "prepass");
  const int job = options.job;
  if (job < 0 || job > 5) throw invalid_input("prepass: job " + std::to_string(job) + " is not one of 0-5");
  if (options.symmetric && job != 5)
    throw invalid_input("prepass: the symmetric mode scales, so it needs job 5 (job " + std::to_string(job) + " given)");
  if (options.symmetric && !symmetric_moduli(a))
    throw invalid_input("prepass: the symmetric mode needs a square matrix holding both triangles of a "
                        "symmetric |A| (this one is " +
                        std::to_string(a.n_rows) + " x " + std::to_string(a.n_cols) +
                        (a.n_rows == a.n_cols ? ", not symmetric)" : ")"));
  if (int(options.bids) < 0 || int(options.bids) > int(PrepassOptions::Bids::asynchronous))
    throw invalid_input("prepass: bids " + std::to_string(int(options.bids)) + " is not a PrepassOptions::Bids");
}

namespace {

// Job 5's scalings when the matching holds explicit zeros. The duals of
// prepass_costs then carry the zeros' cost (min(m, n) + 1 times the range
// of the logs), which swamped the scalings: |log scale| near n times that
// range, |b_ij| <= 1 only to about 1e-8 at n = 5000, exp overflowing. The
// zero pairs are left out instead: the nonzero pairs M' are a minimum-cost
// perfect matching of the nonzero entries among their own rows and columns
// (a cheaper one, with the zero pairs, would beat the optimum), so the
// optimal duals of that submatrix (canonical_duals of M') are tight on M'
// (complementary slackness) and feasible on it; a column outside gets the
// greatest v_j its entries in those rows allow, then a row outside the
// greatest u_i its entries allow (0 where a row or column has none).
// The symmetric mode's (u + v) / 2 needs duals tight on the transposed
// matching too: they are when the nonzero pairs' rows and columns are the
// same set (the transpose of M' is then an optimal matching of the same
// submatrix), so in that mode only then (the zeros matched on the
// diagonal, say). Returns false (u, v untouched) when no zero is matched
// or (symmetric) the sets differ. One more solve, on the submatrix; only
// when a zero is matched.
bool nonzero_pair_duals(const Csr<double>& a, const BipartiteMates& mates, bool symmetric, std::vector<double>& u,
                        std::vector<double>& v) {
  const vertex_t m = a.n_rows, n = a.n_cols;
  const std::vector<double> x = matched_values(a, mates.row_mate);
  if (std::find(x.begin(), x.end(), 0.0) == x.end()) return false;  // no zero matched
  std::vector<vertex_t> id(m, -1);  // a kept row's index in the submatrix; its column's too
  std::vector<vertex_t> col_id(n, -1);
  vertex_t k = 0;
  for (vertex_t i = 0; i < m; ++i)
    if (mates.row_mate[i] >= 0 && x[i] != 0) id[i] = col_id[mates.row_mate[i]] = k++;
  if (symmetric)
    for (vertex_t i = 0; i < m; ++i)
      if ((id[i] >= 0) != (col_id[i] >= 0)) return false;
  // The submatrix, its matching on the diagonal.
  Csr<double> c;
  c.n_rows = c.n_cols = k;
  c.offsets.assign(std::size_t(k) + 1, 0);
  for (vertex_t i = 0; i < m; ++i)
    if (id[i] >= 0)
      for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
        if (a.weights[e] != 0 && col_id[a.cols[e]] >= 0) ++c.offsets[std::size_t(id[i]) + 1];
  for (vertex_t t = 0; t < k; ++t) c.offsets[t + 1] += c.offsets[t];
  c.cols.resize(std::size_t(c.offsets[k]));
  c.weights.resize(c.cols.size());
  std::vector<offset_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (vertex_t i = 0; i < m; ++i)
    if (id[i] >= 0)
      for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
        if (a.weights[e] != 0 && col_id[a.cols[e]] >= 0) {
          const offset_t at = next[id[i]]++;
          c.cols[at] = col_id[a.cols[e]];
          c.weights[at] = -std::log(std::fabs(a.weights[e]));
        }
  DualMatching d = min_cost_row_perfect(c);
  d.mates.row_mate.resize(std::size_t(k));
  d.mates.col_mate.resize(std::size_t(k));
  for (vertex_t t = 0; t < k; ++t) d.mates.row_mate[t] = d.mates.col_mate[t] = t;  // M', tight as well
  if (k > 0) canonical_duals(c, d);
  u.assign(std::size_t(m), 0);
  v.assign(std::size_t(n), 0);
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> col_bound(n, inf);  // min over the kept rows' entries of c_ij - u_i
  for (vertex_t i = 0; i < m; ++i) {
    if (id[i] < 0) continue;
    u[i] = d.u[id[i]];
    for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
      if (a.weights[e] != 0 && col_id[a.cols[e]] < 0)
        col_bound[a.cols[e]] = std::min(col_bound[a.cols[e]], -std::log(std::fabs(a.weights[e])) - u[i]);
  }
  for (vertex_t j = 0; j < n; ++j) v[j] = col_id[j] >= 0 ? d.v[col_id[j]] : col_bound[j] < inf ? col_bound[j] : 0.0;
  for (vertex_t i = 0; i < m; ++i) {
    if (id[i] >= 0) continue;
    double bound = inf;
    for (offset_t e = a.offsets[i]; e < a.offsets[i + 1]; ++e)
      if (a.weights[e] != 0) bound = std::min(bound, -std::log(std::fabs(a.weights[e])) - v[a.cols[e]]);
    u[i] = bound < inf ? bound : 0.0;
  }
  return true;
}

}  // namespace

PrepassResult prepass_from_duals(const Csr<double>& a, int job, DualMatching d, bool symmetric) {
  MATCHBLAS_EXPECTS(job == 4 || job == 5, "prepass_from_duals: job 4 or 5");
  PrepassResult r = prepass_result(a, job, std::move(d.mates));
  r.searches = d.searches;
  if (job == 5) {
    nonzero_pair_duals(a, r.mates, symmetric, d.u, d.v);
    r.row_log_scale = std::move(d.u);
    r.col_log_scale = std::move(d.v);
    if (symmetric)
      for (vertex_t i = 0; i < a.n_rows; ++i) {
        const double s = 0.5 * (r.row_log_scale[i] + r.col_log_scale[i]);
        r.row_log_scale[i] = r.col_log_scale[i] = s;
      }
    const double limit = 0.5 * std::log(std::numeric_limits<double>::max());
    for (double x : r.row_log_scale) r.scaling_near_overflow |= !(std::fabs(x) < limit);
    for (double x : r.col_log_scale) r.scaling_near_overflow |= !(std::fabs(x) < limit);
  }
  return r;
}

namespace {

// Job 5's explicit zeros cost more than every product can gain: an auction
// takes them as just above the other costs (the repair, as they are);
// infinity when there is none (or for job 4).
double auction_cost_ceiling(const Csr<double>& a, const Csr<double>& c, int job) {
  if (job != 5) return std::numeric_limits<double>::infinity();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  bool zero = false;
  const std::size_t nnz = c.weights.size();
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) reduction(|| : zero) \
    if (nnz >= (1 << 16))
  for (std::size_t k = 0; k < nnz; ++k) {
    if (a.weights[k] == 0) {
      zero = true;
      continue;
    }
    lo = std::min(lo, c.weights[k]);
    hi = std::max(hi, c.weights[k]);
  }
  return zero && lo <= hi ? hi + (hi - lo) + 1 : std::numeric_limits<double>::infinity();
}

// Job 5's scalings from the canonical duals of a perfect matching on a
// square matrix (canonical_duals): the same whichever start found it.
void canonical_scaling_duals(const Csr<double>& c, int job, DualMatching& d) {
  if (job == 5 && c.n_rows == c.n_cols && d.mates.matched == c.n_rows) canonical_duals(c, d);
}

// Jobs 4-5's optimum with duals on the host: on a square matrix, from an
// auction's prices when asked and when the auction finishes within its work
// limit and the repair matches every row; else (rectangular, structurally
// singular, a long auction) MC64's way.
DualMatching optimum_with_duals(const Csr<double>& a, int job, bool auction_start, const PrepassOptions& options) {
  const Csr<double> c = prepass_costs(a, job);
  DualMatching d;
  bool done = false;
  if (options.start == PrepassOptions::Start::automatic && c.n_rows == c.n_cols && c.num_entries() > 0) {
    // MC64's own start first, where it leaves no more rows to the searches
    // than the auction's last phase would (a dominant diagonal: bcsstk16,
    // job 4 on one thread 6.2 -> 2.1 ms, MC64 1.3 ms; bench/RESULTS.md).
    // Elsewhere it leaves 6-22% of the rows, its greedy pass stops early,
    // and the auction goes on from nothing.
    if (auto near = min_cost_row_perfect_if_start_near(
            c, auction_tail_rows(0, c.n_rows, last_phase_rows_per_tail_row))) {
      d = std::move(*near);
      done = true;
    }
  }
  if (!done && auction_start && c.n_rows == c.n_cols && c.num_entries() > 0) {
    AuctionStart s = epsilon_scaling_auction(
        c, {.cost_ceiling = auction_cost_ceiling(a, c, job),
            .parallel_phases = options.bids == PrepassOptions::Bids::asynchronous ? 2 : 0,
            .jacobi = options.bids == PrepassOptions::Bids::jacobi});
    if (s.finished) {
      for (double& p : s.price) p = -p;
      try {
        d = min_cost_row_perfect_from_column_duals(c, std::move(s.price), std::move(s.mates));
        done = true;
      } catch (const invalid_input&) {
        // A row that cannot be matched: structurally singular.
      }
    }
  }
  if (!done) d = min_cost_max_cardinality(c);
  canonical_scaling_duals(c, job, d);
  return d;
}

}  // namespace

PrepassResult prepass(const Csr<double>& a, const PrepassOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  check_prepass_input(a, options);
  const int job = options.job;
  if (job == 4 || job == 5) {
    const bool auction = options.start != PrepassOptions::Start::mc64;
    PrepassResult r = prepass_from_duals(a, job, optimum_with_duals(a, job, auction, options), options.symmetric);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  const vertex_t m = a.n_rows, n = a.n_cols;
  BipartiteMates mates;
  std::int64_t searches = 0;
  switch (job) {
    case 0:
      mates.row_mate.assign(m, -1);
      mates.col_mate.assign(n, -1);
      break;
    case 1: mates = max_cardinality_bipartite(a); break;
    case 2:
    case 3: {
      BottleneckMatching b = bottleneck_matching(a);
      mates = std::move(b.mates);
      searches = b.thresholds_tried + b.widest_searches;
      break;
    }
  }
  PrepassResult r = prepass_result(a, job, std::move(mates));
  r.searches = searches;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

PrepassResult prepass_gpu(const Csr<double>& a, const PrepassOptions& options, const GpuOptions& gpu,
                          const AuctionGpuOptions& auction, AuctionGpuReport* report) {
  const auto start = std::chrono::steady_clock::now();
  check_prepass_input(a, options);
  const int job = options.job;
  if (job != 4 && job != 5)
    throw invalid_input("prepass_gpu: job " + std::to_string(job) + " is not 4 or 5 (the jobs it computes)");
  const Csr<double> c = prepass_costs(a, job);
  AuctionGpuOptions o = auction;
  o.cost_ceiling = std::min(o.cost_ceiling, auction_cost_ceiling(a, c, job));
  o.canonical_duals = job == 5;  // job 5's scalings (on the device where the repair finishes there)
  const double prepared = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  AuctionGpuReport own;
  if (!report) report = &own;
  DualMatching d = min_cost_max_cardinality_gpu(c, o, gpu, report);
  const auto finishing = std::chrono::steady_clock::now();
  PrepassResult r = prepass_from_duals(a, job, std::move(d), options.symmetric);
  report->prepare_s += prepared;
  report->finish_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - finishing).count();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

Csr<double> apply_log_scaling(const Csr<double>& a, const std::vector<double>& row_log_scale,
                              const std::vector<double>& col_log_scale) {
  MATCHBLAS_EXPECTS(row_log_scale.size() == std::size_t(a.n_rows) && col_log_scale.size() == std::size_t(a.n_cols),
                    "apply_log_scaling: the scalings do not fit the matrix");
  Csr<double> b = a;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (a.weights[k] != 0)  // exp of the sum of logs: no 0 * inf, no overflow on the way
        b.weights[k] = std::copysign(std::exp(std::log(std::fabs(a.weights[k])) + row_log_scale[i] +
                                              col_log_scale[a.cols[k]]),
                                     a.weights[k]);
  return b;
}

}  // namespace matchblas
