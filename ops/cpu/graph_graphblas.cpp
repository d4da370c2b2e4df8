// GraphBlasGraph (ops/graphblas_graph.hpp): the import of a CSR into
// SuiteSparse:GraphBLAS as keys (ops/cpu/graphblas.hpp), the export back,
// the weight codes, the lazily made column view, and the per-call Context.
//
// Import: one parallel pass over the rows writes GraphBLAS's 64-bit column
// indices and the keys into fresh arrays (checking every column index, and
// sorting the rows that are not sorted: GraphBLAS 7.4 keeps rows sorted and
// 64-bit, so an int32 CSR cannot be lent to it), then GxB_Matrix_import_CSR
// takes them without a copy. Cost O(rows + entries), 16 bytes per entry
// written; double weights that are not all floats add a sort of the
// distinct weights and a binary search per entry.
// Column view: K2 = (K BAND code bits) + diag(2^32 - 1 - original row) (a
// bind-2nd apply and a row scaling, both built-in), once per matrix.
#include "ops/cpu/graphblas.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "lib/error.hpp"
#include "ops/argmax.hpp"

namespace matchblas::ops {

bool have_graphblas() noexcept { return true; }

namespace grb {

namespace {

const char* info_name(GrB_Info info) {
  static constexpr std::pair<GrB_Info, const char*> names[] = {
      {GrB_NO_VALUE, "GrB_NO_VALUE"}, {GrB_UNINITIALIZED_OBJECT, "GrB_UNINITIALIZED_OBJECT"},
      {GrB_NULL_POINTER, "GrB_NULL_POINTER"}, {GrB_INVALID_VALUE, "GrB_INVALID_VALUE"},
      {GrB_INVALID_INDEX, "GrB_INVALID_INDEX"}, {GrB_DOMAIN_MISMATCH, "GrB_DOMAIN_MISMATCH"},
      {GrB_DIMENSION_MISMATCH, "GrB_DIMENSION_MISMATCH"}, {GrB_OUTPUT_NOT_EMPTY, "GrB_OUTPUT_NOT_EMPTY"},
      {GrB_NOT_IMPLEMENTED, "GrB_NOT_IMPLEMENTED"}, {GrB_PANIC, "GrB_PANIC"},
      {GrB_OUT_OF_MEMORY, "GrB_OUT_OF_MEMORY"}, {GrB_INSUFFICIENT_SPACE, "GrB_INSUFFICIENT_SPACE"},
      {GrB_INVALID_OBJECT, "GrB_INVALID_OBJECT"}, {GrB_INDEX_OUT_OF_BOUNDS, "GrB_INDEX_OUT_OF_BOUNDS"},
      {GrB_EMPTY_OBJECT, "GrB_EMPTY_OBJECT"}};
  for (const auto& [code, name] : names)
    if (code == info) return name;
  return "an unknown GrB_Info";
}

// GraphBLAS initialised once per process (thread-safe static
// initialisation; retried on the next call if it threw), with the pool's
// memory functions. GrB_INVALID_VALUE: another part of the program
// initialised GraphBLAS already (it may be initialised once).
void init_once() {
  static const bool done = [] {
    const GrB_Info init = memory::install();
    if (init != GrB_INVALID_VALUE) MATCHBLAS_GRB_TRY(init);
    return true;
  }();
  (void)done;
}

struct FreeDeleter {
  void operator()(void* p) const { memory::release(p); }
};

// n objects of T for GraphBLAS to own (it frees them with its free).
template <class T>
std::unique_ptr<T, FreeDeleter> allocate(std::size_t n, const char* what) {
  auto* p = static_cast<T*>(memory::allocate(std::max<std::size_t>(n, 1) * sizeof(T)));
  if (p == nullptr) throw out_of_memory(std::string("GraphBlasGraph: cannot allocate ") + what);
  return std::unique_ptr<T, FreeDeleter>(p);
}

// The ascending distinct values of v (NaN, -inf and the sign of zero left
// out): omp_get_max_threads() parts sorted in parallel, each made distinct,
// then merged pairwise (std::merge into a second array: libstdc++ 12's
// std::inplace_merge frees its buffer with free, which AddressSanitizer
// reports as a new/free mismatch).
std::vector<double> sorted_distinct(const std::vector<double>& v) {
  std::vector<double> s;
  s.reserve(v.size());
  for (const double x : v)
    if (!std::isnan(x) && x != -std::numeric_limits<double>::infinity()) s.push_back(x + 0.0);
  const int parts = std::max(1, std::min(omp_get_max_threads(), int(s.size() / 65536) + 1));
  std::vector<std::vector<double>> sorted(static_cast<std::size_t>(parts));
#pragma omp parallel for schedule(static, 1) num_threads(parts)
  for (int p = 0; p < parts; ++p) {
    auto& part = sorted[std::size_t(p)];
    part.assign(s.begin() + std::ptrdiff_t(s.size() * std::size_t(p) / std::size_t(parts)),
                s.begin() + std::ptrdiff_t(s.size() * std::size_t(p + 1) / std::size_t(parts)));
    std::sort(part.begin(), part.end());
    part.erase(std::unique(part.begin(), part.end()), part.end());
  }
  while (sorted.size() > 1) {
    std::vector<double> merged;
    merged.reserve(sorted[sorted.size() - 2].size() + sorted.back().size());
    std::merge(sorted[sorted.size() - 2].begin(), sorted[sorted.size() - 2].end(), sorted.back().begin(),
               sorted.back().end(), std::back_inserter(merged));
    sorted.pop_back();
    sorted.back().swap(merged);
  }
  s.swap(sorted.front());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// The arrays of a CSR of UINT64 keys with sorted rows, for GraphBLAS to own.
struct CsrArrays {
  std::unique_ptr<GrB_Index, FreeDeleter> p, j;
  std::unique_ptr<std::uint64_t, FreeDeleter> x;
  std::size_t rows, entries;
  CsrArrays(std::size_t n_rows, std::size_t m)
      : p(allocate<GrB_Index>(n_rows + 1, "the row offsets")),
        j(allocate<GrB_Index>(m, "the column indices")),
        x(allocate<std::uint64_t>(m, "the keys")),
        rows(n_rows),
        entries(m) {}
  // The rows x cols matrix, which owns the arrays from now on.
  Matrix take(GrB_Index n_rows, GrB_Index cols, const Context& ctx) {
    Matrix a;
    GrB_Index* pp = p.get();
    GrB_Index* jj = j.get();
    void* xx = x.get();
    MATCHBLAS_GRB_TRY(GxB_Matrix_import_CSR(a.out(), GrB_UINT64, n_rows, cols, &pp, &jj, &xx,
                                            (rows + 1) * sizeof(GrB_Index), entries * sizeof(GrB_Index),
                                            entries * sizeof(std::uint64_t), /*iso=*/false, /*jumbled=*/false,
                                            ctx.plain()));
    (void)p.release();
    (void)j.release();
    (void)x.release();
    return a;
  }
};

}  // namespace

void check(GrB_Info info, const char* call, const char* file, int line) {
  if (info == GrB_SUCCESS) return;
  const std::string c(call);
  const std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + c.substr(0, c.find('(')) +
                          " failed: " + info_name(info);
  if (info == GrB_OUT_OF_MEMORY) throw out_of_memory(msg);
  throw error(msg);
}

Context::Context() : threads_(std::max(1, omp_get_max_threads())) {
  init_once();
  MATCHBLAS_GRB_TRY(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, threads_));
  for (int k = 0; k < 4; ++k) {
    MATCHBLAS_GRB_TRY(GrB_Descriptor_new(desc_[k].out()));
    MATCHBLAS_GRB_TRY(GxB_Desc_set(desc_[k].get(), GxB_DESCRIPTOR_NTHREADS, threads_));
    if ((k & 1) != 0) MATCHBLAS_GRB_TRY(GrB_Descriptor_set(desc_[k].get(), GrB_INP0, GrB_TRAN));
    if ((k & 2) != 0) MATCHBLAS_GRB_TRY(GrB_Descriptor_set(desc_[k].get(), GrB_MASK, GrB_STRUCTURE));
  }
}

View own(Matrix m) { return {std::make_shared<const Matrix>(std::move(m)), false}; }

Matrix new_matrix(GrB_Type type, GrB_Index rows, GrB_Index cols) {
  Matrix m;
  MATCHBLAS_GRB_TRY(GrB_Matrix_new(m.out(), type, rows, cols));
  return m;
}

GrB_Index nvals(GrB_Matrix m) {
  MATCHBLAS_GRB_TRY(GrB_Matrix_wait(m, GrB_MATERIALIZE));
  GrB_Index n = 0;
  MATCHBLAS_GRB_TRY(GrB_Matrix_nvals(&n, m));
  return n;
}

Vector full_vector(Buffer<std::uint64_t>&& x, const Context& ctx) {
  const std::size_t n = x.size();
  Vector v;
  void* p = x.data();
  MATCHBLAS_GRB_TRY(GxB_Vector_import_Full(v.out(), GrB_UINT64, GrB_Index(n), &p,
                                           std::max<std::size_t>(n, 1) * sizeof(std::uint64_t), /*iso=*/false,
                                           ctx.plain()));
  (void)x.take();  // GraphBLAS owns it now
  return v;
}

// ---- weight codes ----------------------------------------------------------

namespace {
// The low half of a floor key: a tie with the floor is won by rows u < fv
// (no row when fv < 0, "no suitor yet").
constexpr std::uint64_t floor_low(vertex_t fv) noexcept { return fv < 0 ? low_bits : low_bits - std::uint32_t(fv); }
}  // namespace

template <class W>
std::shared_ptr<const WeightCodes<W>> WeightCodes<W>::of(const std::vector<W>& weights) {
  auto codes = std::make_shared<WeightCodes<W>>();
  if constexpr (std::is_same_v<W, double>) {
    const std::ptrdiff_t m = std::ptrdiff_t(weights.size());
    const double* const w = weights.data();
    bool all_floats = true;
#pragma omp parallel for schedule(static) reduction(&& : all_floats)
    for (std::ptrdiff_t k = 0; k < m; ++k) all_floats = all_floats && (std::isnan(w[k]) || double(float(w[k])) == w[k]);
    if (!all_floats) {
      codes->sorted_ = sorted_distinct(weights);
      MATCHBLAS_EXPECTS(codes->sorted_.size() <= std::size_t(0x7FFFFFFE),
                        "GraphBlasGraph: more than 2^31 - 2 distinct double weights that are not all floats");
    }
  }
  return codes;
}

template <class W>
std::uint32_t WeightCodes<W>::code(W w) const noexcept {
  if (sorted_.empty()) return float_code(float(w));
  if (std::isnan(w)) return 0;
  if (w == -std::numeric_limits<W>::infinity()) return 1;
  return std::uint32_t(std::lower_bound(sorted_.begin(), sorted_.end(), w) - sorted_.begin()) + 2;
}

template <class W>
W WeightCodes<W>::weight(std::uint32_t c) const noexcept {
  if (sorted_.empty()) return W(float_of_code(c));
  if (c == 0) return std::numeric_limits<W>::quiet_NaN();
  if (c == 1) return -std::numeric_limits<W>::infinity();
  return sorted_[c - 2];
}

// code(fw) << 32 | floor_low(fv) when fw is a weight of the matrix (or a
// float, with float codes); else the code of the largest weight below fw
// with a low half no row beats: entries of that weight lose, heavier win.
template <class W>
std::uint64_t WeightCodes<W>::floor_key(W fw, vertex_t fv) const noexcept {
  if (std::isnan(fw)) return ~std::uint64_t(0);  // nothing beats NaN
  if (sorted_.empty()) {
    float below = float(fw);
    if (W(below) > fw) below = std::nextafter(below, -std::numeric_limits<float>::infinity());
    return std::uint64_t(float_code(below)) << 32 | (W(below) == fw ? floor_low(fv) : low_bits);
  }
  // at = how many weights are <= fw; the largest of them has code at + 1
  // (none: -inf's code, 1, which every weight beats).
  const auto at = std::uint32_t(std::upper_bound(sorted_.begin(), sorted_.end(), fw) - sorted_.begin());
  return std::uint64_t(at + 1) << 32 | (at > 0 && sorted_[at - 1] == fw ? floor_low(fv) : low_bits);
}

template class WeightCodes<float>;
template class WeightCodes<double>;

// ---- the column view -------------------------------------------------------

template <class W>
View GraphImpl<W>::cols_view(const Context& ctx) const {
  const std::lock_guard<std::mutex> lock(cols_mutex_);
  if (cols_view_) return cols_view_;
  // A transposed row view comes from transpose, which sets the column view.
  MATCHBLAS_EXPECTS(!rows_view.transposed, "GraphBlasGraph: a transposed matrix without its column view");
  Matrix view = new_matrix(GrB_UINT64, local_rows, local_cols);
  if (entries > 0) {
    Matrix codes_only = new_matrix(GrB_UINT64, local_rows, local_cols);
    MATCHBLAS_GRB_TRY(GrB_Matrix_apply_BinaryOp2nd_UINT64(codes_only.get(), nullptr, nullptr, GrB_BAND_UINT64,
                                                          rows_view.get(), ~low_bits, ctx.plain()));
    Buffer<std::uint64_t> low(local_rows);
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < std::int64_t(local_rows); ++r)
      low[std::size_t(r)] = low_bits - std::uint32_t(row_id(GrB_Index(r)));
    const Vector low_vector = full_vector(std::move(low), ctx);
    Matrix diag;
    MATCHBLAS_GRB_TRY(GrB_Matrix_diag(diag.out(), low_vector.get(), 0));
    MATCHBLAS_GRB_TRY(
        GrB_mxm(view.get(), nullptr, nullptr, GxB_ANY_PLUS_UINT64, diag.get(), codes_only.get(), ctx.plain()));
    MATCHBLAS_GRB_TRY(GrB_Matrix_wait(view.get(), GrB_MATERIALIZE));
  }
  cols_view_ = own(std::move(view));
  return cols_view_;
}

template <class W>
View GraphImpl<W>::cols_view_if_made() const {
  const std::lock_guard<std::mutex> lock(cols_mutex_);
  return cols_view_;
}

template <class W>
void GraphImpl<W>::set_cols_view(View v) const {
  const std::lock_guard<std::mutex> lock(cols_mutex_);
  cols_view_ = std::move(v);
}

template struct GraphImpl<float>;
template struct GraphImpl<double>;

}  // namespace grb

// ---- the handle --------------------------------------------------------------

template <class W>
GraphBlasGraph<W>::GraphBlasGraph(const Csr<W>& a, GraphBlasViews views) : n_rows_(a.n_rows), n_cols_(a.n_cols) {
  MATCHBLAS_EXPECTS(a.n_rows >= 0 && a.n_cols >= 0 && a.offsets.size() == std::size_t(a.n_rows) + 1 &&
                        a.offsets.front() == 0 && a.cols.size() == std::size_t(a.offsets.back()) &&
                        a.weights.size() == a.cols.size(),
                    "GraphBlasGraph: the matrix is not a consistent CSR (offsets, cols, weights lengths)");
  const vertex_t rows = a.n_rows, cols = a.n_cols;
  const offset_t* const off = a.offsets.data();
  bool decreasing = false;
#pragma omp parallel for schedule(static) reduction(|| : decreasing)
  for (vertex_t u = 0; u < rows; ++u) decreasing = decreasing || off[u + 1] < off[u];
  MATCHBLAS_EXPECTS(!decreasing, "GraphBlasGraph: the matrix is not a consistent CSR (decreasing offsets)");

  const grb::Context ctx;
  auto impl = std::make_unique<Impl>();
  impl->codes = grb::WeightCodes<W>::of(a.weights);
  impl->local_rows = GrB_Index(rows);
  impl->local_cols = GrB_Index(cols);
  impl->entries = GrB_Index(a.num_entries());
  const std::size_t m = a.cols.size();
  if (m == 0) {
    impl->rows_view = grb::own(grb::new_matrix(GrB_UINT64, GrB_Index(rows), GrB_Index(cols)));
  } else {
    grb::CsrArrays keys(std::size_t(rows), m);
    GrB_Index* const p = keys.p.get();
    GrB_Index* const j = keys.j.get();
    std::uint64_t* const x = keys.x.get();
    const vertex_t* const c = a.cols.data();
    const W* const w = a.weights.data();
    const grb::WeightCodes<W>& codes = *impl->codes;
    vertex_t bad_col = rows, duplicate = rows;  // the first row with a column out of range / twice
#pragma omp parallel for schedule(dynamic, 256) reduction(min : bad_col, duplicate)
    for (vertex_t u = 0; u < rows; ++u) {
      p[u] = GrB_Index(off[u]);
      bool sorted = true;
      for (offset_t k = off[u]; k < off[u + 1]; ++k) {
        const vertex_t v = c[k];
        if (v < 0 || v >= cols) bad_col = std::min(bad_col, u);
        sorted = sorted && (k == off[u] || v > c[k - 1]);
        j[k] = GrB_Index(v);
        x[k] = grb::make_key(codes.code(w[k]), v);
      }
      if (sorted || bad_col <= u) continue;
      std::vector<std::pair<GrB_Index, std::uint64_t>> row;
      for (offset_t k = off[u]; k < off[u + 1]; ++k) row.emplace_back(j[k], x[k]);
      std::sort(row.begin(), row.end());
      for (std::size_t i = 0; i < row.size(); ++i) {
        j[off[u] + offset_t(i)] = row[i].first;
        x[off[u] + offset_t(i)] = row[i].second;
        if (i > 0 && row[i].first == row[i - 1].first) duplicate = std::min(duplicate, u);
      }
    }
    if (bad_col < rows)
      throw invalid_input("GraphBlasGraph: row " + std::to_string(bad_col) + " has a column outside [0, " +
                          std::to_string(cols) + ")");
    if (duplicate < rows)
      throw invalid_input("GraphBlasGraph: row " + std::to_string(duplicate) +
                          " holds the same column twice (the graphblas backend takes one entry per position)");
    p[rows] = GrB_Index(m);
    if (views == GraphBlasViews::rows_and_columns) {
      // The same pattern, keys carrying the row.
      grb::CsrArrays by_row(std::size_t(rows), m);
      std::copy(p, p + rows + 1, by_row.p.get());
      std::copy(j, j + m, by_row.j.get());
      std::uint64_t* const x2 = by_row.x.get();
#pragma omp parallel for schedule(dynamic, 256)
      for (vertex_t u = 0; u < rows; ++u)
        for (offset_t k = off[u]; k < off[u + 1]; ++k) x2[k] = (x[k] & ~grb::low_bits) | (grb::low_bits - std::uint32_t(u));
      impl->set_cols_view(grb::own(by_row.take(GrB_Index(rows), GrB_Index(cols), ctx)));
    }
    impl->rows_view = grb::own(keys.take(GrB_Index(rows), GrB_Index(cols), ctx));
  }
  entries_ = offset_t(impl->entries);
  impl_ = std::move(impl);
}

template <class W>
GraphBlasGraph<W>::GraphBlasGraph(vertex_t n_rows, vertex_t n_cols, std::unique_ptr<Impl> impl)
    : n_rows_(n_rows), n_cols_(n_cols), entries_(offset_t(impl->entries)), impl_(std::move(impl)) {}

template <class W>
GraphBlasGraph<W>::~GraphBlasGraph() = default;
template <class W>
GraphBlasGraph<W>::GraphBlasGraph(GraphBlasGraph&&) noexcept = default;
template <class W>
GraphBlasGraph<W>& GraphBlasGraph<W>::operator=(GraphBlasGraph&&) noexcept = default;

template <class W>
Csr<W> GraphBlasGraph<W>::to_csr() const {
  const grb::Context ctx;
  const Impl& a = *impl_;
  Csr<W> c;
  c.n_rows = n_rows_;
  c.n_cols = n_cols_;
  c.offsets.assign(std::size_t(n_rows_) + 1, 0);
  GrB_Index n = a.entries;
  std::vector<GrB_Index> rows(n), cols(n);
  std::vector<std::uint64_t> keys(n);
  if (n > 0) MATCHBLAS_GRB_TRY(GrB_Matrix_extractTuples_UINT64(rows.data(), cols.data(), keys.data(), &n, a.rows_view.get()));
  if (a.rows_view.transposed) rows.swap(cols);  // the stored matrix is the transpose
  for (GrB_Index k = 0; k < n; ++k) ++c.offsets[std::size_t(a.row_id(rows[k])) + 1];
  for (vertex_t u = 0; u < n_rows_; ++u) c.offsets[std::size_t(u) + 1] += c.offsets[std::size_t(u)];
  c.cols.resize(n);
  c.weights.resize(n);
  std::vector<offset_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (GrB_Index k = 0; k < n; ++k) {
    const offset_t at = next[std::size_t(a.row_id(rows[k]))]++;
    c.cols[std::size_t(at)] = grb::key_id(keys[k]);
    c.weights[std::size_t(at)] = a.codes->weight(grb::key_code(keys[k]));
  }
  // GraphBLAS lists a row's entries by column already; make sure of it.
  for (vertex_t u = 0; u < n_rows_; ++u) {
    const auto first = std::size_t(c.offsets[std::size_t(u)]), last = std::size_t(c.offsets[std::size_t(u) + 1]);
    if (std::is_sorted(c.cols.begin() + std::ptrdiff_t(first), c.cols.begin() + std::ptrdiff_t(last))) continue;
    std::vector<std::pair<vertex_t, W>> row;
    for (std::size_t k = first; k < last; ++k) row.emplace_back(c.cols[k], c.weights[k]);
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = first; k < last; ++k) std::tie(c.cols[k], c.weights[k]) = row[k - first];
  }
  return c;
}

template class GraphBlasGraph<float>;
template class GraphBlasGraph<double>;

}  // namespace matchblas::ops
