// The matching calls' input adapters: the caller's compressed (CSR or CSC),
// coordinate or dense arrays, or a Matrix Market file, become the same
// MmMatrix a file gives (each entry checked as it is copied: indices in
// range, finite values; the first bad one named), then the graph by the
// tool's rules (datasets/load.hpp over lib/graph_from_matrix.hpp), so a
// C caller sees exactly the CLI's graph. Cost: O(entries) for the copy
// (in parallel from 2^18 entries on) besides the graph's build.
#include "matching_inputs.hpp"

#include <omp.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "c_api_support.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/memory_budget.hpp"
#include "lib/mmio.hpp"

namespace matchblas::capi {
namespace {

// Below this many entries the caller's arrays are copied on the calling
// thread: a parallel region costs more than it saves there (and far more on
// a busy machine, where the team's threads wait for a core). Not tuned
// beyond that: at 31M entries (R-MAT scale 20, both triangles) the copy
// and its checks are about 1.5% of the CPU samples of a greedy call (perf;
// 3.5% sequential).
constexpr std::int64_t copy_parallel_min = std::int64_t(1) << 18;

// An empty coordinate MmMatrix of `entries` entries (0-based, general
// symmetry; its messages number from the caller's `base`), for the caller's
// arrays to be copied into (out of memory when they cannot fit). resize
// zero-fills: the first touch of the pages, in parallel with the threads
// that fill them would be faster, but MmMatrix's vectors do not allow that.
MmMatrix coordinate_matrix(std::int64_t rows, std::int64_t cols, std::int64_t entries, bool pattern, int base) {
  require_memory(double(entries) * double(2 * sizeof(vertex_t) + (pattern ? 0 : sizeof(double))),
                 "the matrix's " + std::to_string(entries) + " entries");
  MmMatrix m;
  m.shown_base = base;
  m.header.format = MmFormat::coordinate;
  m.header.field = pattern ? MmField::pattern : MmField::real;
  m.header.symmetry = MmSymmetry::general;
  m.header.rows = vertex_t(rows);
  m.header.cols = vertex_t(cols);
  m.header.entries = entries;
  m.row.resize(std::size_t(entries));
  m.col.resize(std::size_t(entries));
  if (!pattern) m.val.resize(std::size_t(entries));
  return m;
}

// Value k of the caller's array (V: double, float, or void for a pattern: none).
template <class V>
double value_at(const void* values, std::int64_t k) {
  if constexpr (std::is_void_v<V>) return 1.0;
  else return double(static_cast<const V*>(values)[k]);
}

// Runs f.template operator()<Index, Value>() for the caller's index and
// value types (int32 / int64; double, float or void for a pattern).
template <class F>
void with_types(int index_type, int value_type, F&& f) {
  const auto value = [&]<class I>() {
    if (value_type == MATCHBLAS_DOUBLE) f.template operator()<I, double>();
    else if (value_type == MATCHBLAS_FLOAT) f.template operator()<I, float>();
    else f.template operator()<I, void>();
  };
  if (index_type == MATCHBLAS_INT32) value.template operator()<std::int32_t>();
  else value.template operator()<std::int64_t>();
}

// The caller's sparse matrix as the coordinate MmMatrix a file would give,
// so that the graph rules see the same thing. Rows (columns) in parallel,
// each entry checked as it is copied; on a bad one check_sparse names the
// first.
MmMatrix sparse_as_matrix(const matchblas_sparse* a) {
  const std::int64_t nnz = check_sparse_shape(a);
  const int value_type = stored_int(a->value_type);
  if (value_type == MATCHBLAS_COMPLEX_DOUBLE || value_type == MATCHBLAS_COMPLEX_FLOAT)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "complex values are not taken as weights (pass |a_ij| or the real part)");
  MmMatrix m = coordinate_matrix(a->rows, a->cols, nnz, value_type == MATCHBLAS_PATTERN, int(a->base));
  const bool csr = stored_int(a->layout) == MATCHBLAS_CSR;
  const std::int64_t outer = csr ? a->rows : a->cols, inner_dim = csr ? a->cols : a->rows, base = a->base;
  bool valid = true;
  with_types(stored_int(a->index_type), value_type, [&]<class I, class V>() {
    const I* ptr = static_cast<const I*>(a->pointers);
    const I* ind = static_cast<const I*>(a->indices);
    vertex_t* const outer_ids = csr ? m.row.data() : m.col.data();
    vertex_t* const inner_ids = csr ? m.col.data() : m.row.data();
    double* const val = m.val.data();
#pragma omp parallel for schedule(dynamic, 4096) reduction(&& : valid) if (nnz >= copy_parallel_min)
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t k = std::int64_t(ptr[o]) - base; k < std::int64_t(ptr[o + 1]) - base; ++k) {
        const std::int64_t i = std::int64_t(ind[k]) - base;
        valid = valid && i >= 0 && i < inner_dim;
        outer_ids[k] = vertex_t(o);
        inner_ids[k] = vertex_t(i);
        if constexpr (!std::is_void_v<V>) {
          const double x = value_at<V>(a->values, k);
          valid = valid && std::isfinite(x);
          val[k] = x;
        }
      }
  });
  if (!valid) check_sparse(a);  // throws, naming the first bad entry
  return m;
}

// The caller's coordinate arrays as the MmMatrix a file would give (checked
// as check_sparse checks compressed arrays), entries in parallel; on a bad
// one the sequential check names the first.
MmMatrix coordinate_as_matrix(const matchblas_coordinate_graph& g) {
  const std::int64_t id_limit = std::numeric_limits<vertex_t>::max() - 1;
  if (g.rows < 0 || g.cols < 0 || g.rows > id_limit || g.cols > id_limit)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "dimension " + std::to_string(g.rows) + " x " + std::to_string(g.cols) +
                                          " is negative or exceeds the 32-bit vertex ids");
  if (g.entries < 0) fail(MATCHBLAS_ERR_BAD_DIMENSION, "entries " + std::to_string(g.entries) + " is negative");
  if (g.base != 0 && g.base != 1) fail(MATCHBLAS_ERR_BAD_FORMAT, "base " + std::to_string(g.base) + " is neither 0 nor 1");
  const int index_type = stored_int(g.index_type), value_type = stored_int(g.value_type);
  if (index_type != MATCHBLAS_INT32 && index_type != MATCHBLAS_INT64)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "index type " + std::to_string(index_type) + " is unknown");
  if (value_type != MATCHBLAS_DOUBLE && value_type != MATCHBLAS_FLOAT && value_type != MATCHBLAS_PATTERN)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "value type " + std::to_string(value_type) +
                                       " is not taken as weights (double, float or pattern)");
  if (g.entries > 0 && (!g.row_indices || !g.col_indices))
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's row or column indices are NULL");
  if (g.entries > 0 && value_type != MATCHBLAS_PATTERN && !g.values)
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's values are NULL (use MATCHBLAS_PATTERN for a pattern)");
  MmMatrix m = coordinate_matrix(g.rows, g.cols, g.entries, value_type == MATCHBLAS_PATTERN, int(g.base));
  with_types(index_type, value_type, [&]<class I, class V>() {
    const I* row = static_cast<const I*>(g.row_indices);
    const I* col = static_cast<const I*>(g.col_indices);
    // What is wrong with entry k: 0, or the status naming it.
    const auto problem = [&](std::int64_t k) {
      const std::int64_t i = std::int64_t(row[k]) - g.base, j = std::int64_t(col[k]) - g.base;
      if (i < 0 || i >= g.rows || j < 0 || j >= g.cols) return int(MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
      if constexpr (!std::is_void_v<V>)
        if (!std::isfinite(value_at<V>(g.values, k))) return int(MATCHBLAS_ERR_BAD_VALUE);
      return int(MATCHBLAS_OK);
    };
    bool valid = true;
#pragma omp parallel for schedule(static) reduction(&& : valid) if (g.entries >= copy_parallel_min)
    for (std::int64_t k = 0; k < g.entries; ++k) {
      valid = valid && problem(k) == MATCHBLAS_OK;
      m.row[std::size_t(k)] = vertex_t(std::int64_t(row[k]) - g.base);
      m.col[std::size_t(k)] = vertex_t(std::int64_t(col[k]) - g.base);
      if constexpr (!std::is_void_v<V>) m.val[std::size_t(k)] = value_at<V>(g.values, k);
    }
    for (std::int64_t k = 0; !valid && k < g.entries; ++k)  // name the first bad entry
      if (const int status = problem(k); status != MATCHBLAS_OK) {
        // (a std::string first: GCC 12's -Wrestrict misreads "(" + a temporary here)
        const std::string at = std::string("(") + std::to_string(std::int64_t(row[k])) + ", " +
                               std::to_string(std::int64_t(col[k])) + ")";
        if (status == MATCHBLAS_ERR_BAD_VALUE) fail(status, "the entry " + at + " is not finite");
        fail(status, "entry " + std::to_string(k + g.base) + " is " + at + ", outside the " + std::to_string(g.rows) +
                         " x " + std::to_string(g.cols) + " matrix");
      }
  });
  return m;
}

// The caller's dense n x n matrix as an array MmMatrix (row-major values).
MmMatrix dense_as_matrix(const matchblas_graph& g) {
  const std::int64_t n = g.dense_n;
  const std::int64_t id_limit = std::numeric_limits<vertex_t>::max() - 1;
  if (n < 0 || n > id_limit) fail(MATCHBLAS_ERR_BAD_DIMENSION, "dense order " + std::to_string(n) + " is out of range");
  const std::int64_t ld = g.dense_leading_dimension == 0 ? n : g.dense_leading_dimension;
  if (ld < n)
    fail(MATCHBLAS_ERR_BAD_DIMENSION,
         "the leading dimension " + std::to_string(ld) + " is smaller than the order " + std::to_string(n));
  // The last entry's byte offset ((n - 1) ld + n - 1) x 8 must fit a 64-bit offset.
  if (n > 1 && ld > (std::numeric_limits<std::int64_t>::max() / std::int64_t(sizeof(double)) - n) / (n - 1))
    fail(MATCHBLAS_ERR_BAD_DIMENSION, "the leading dimension " + std::to_string(ld) + " of an order " +
                                          std::to_string(n) + " matrix overflows a 64-bit offset");
  const int type = stored_int(g.dense_type);
  if (type != MATCHBLAS_DOUBLE && type != MATCHBLAS_FLOAT)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "a dense matrix holds MATCHBLAS_DOUBLE or MATCHBLAS_FLOAT values");
  if (n > 0 && !g.dense_values) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the dense values are NULL");
  MmMatrix m;
  m.shown_base = 0;  // the dense messages number from 0, as C does
  m.header.format = MmFormat::array;
  m.header.field = MmField::real;
  m.header.symmetry = MmSymmetry::general;
  m.header.rows = m.header.cols = vertex_t(n);
  m.header.entries = n * n;
  m.val.resize(std::size_t(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const double x = type == MATCHBLAS_DOUBLE ? static_cast<const double*>(g.dense_values)[i * ld + j]
                                                : static_cast<const float*>(g.dense_values)[i * ld + j];
      if (!std::isfinite(x))
        fail(MATCHBLAS_ERR_BAD_VALUE, "the dense entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is not finite");
      m.val[std::size_t(i * n + j)] = x;
    }
  return m;
}

GraphView view_of(const matchblas_view& view) {
  switch (stored_int(view)) {
    case MATCHBLAS_VIEW_AUTO: return GraphView::automatic;
    case MATCHBLAS_VIEW_GENERAL: return GraphView::general;
    case MATCHBLAS_VIEW_BIPARTITE: return GraphView::bipartite;
    case MATCHBLAS_VIEW_COMPLETE: return GraphView::complete;
  }
  fail(MATCHBLAS_ERR_BAD_FORMAT, "view " + std::to_string(stored_int(view)) + " is unknown");
}

// The matrix of a matchblas_graph, and `graph(matrix)`; a file's errors name
// it (status bad file; a graph rule's shape error bad dimension).
template <class Graph>
auto from_source(const matchblas_graph* g, Graph graph) {
  if (!g) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph is NULL");
  switch (stored_int(g->source)) {
    case MATCHBLAS_GRAPH_SPARSE: return graph(sparse_as_matrix(&g->sparse));
    case MATCHBLAS_GRAPH_DENSE: return graph(dense_as_matrix(*g));
    case MATCHBLAS_GRAPH_FILE: {
      if (!g->path) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph's path is NULL");
      const std::string path = g->path;
      std::optional<MmMatrix> m;
      try {
        m = read_matrix_market(path);
      } catch (const out_of_memory&) {
        throw;
      } catch (const std::bad_alloc&) {
        throw;
      } catch (const error& e) {
        const std::string what = e.what();
        fail(MATCHBLAS_ERR_BAD_FILE, what.rfind(path, 0) == 0 ? what : path + ": " + what);
      }
      try {
        return graph(*m);
      } catch (const shape_error& e) {
        fail(MATCHBLAS_ERR_BAD_DIMENSION, path + ": " + e.what());
      } catch (const invalid_input& e) {
        fail(MATCHBLAS_ERR_BAD_FILE, path + ": " + e.what());
      }
    }
  }
  fail(MATCHBLAS_ERR_BAD_FORMAT, "graph source " + std::to_string(stored_int(g->source)) + " is unknown");
}

}  // namespace

// The graph for an algorithm accepting `kinds`, by the rules.
LoadedGraph load_graph(const matchblas_graph* g, unsigned kinds) {
  const GraphView view = g ? view_of(g->view) : GraphView::automatic;
  const Precision precision = g && g->single_precision ? Precision::float32 : Precision::float64;
  return from_source(g, [&](const MmMatrix& m) { return graph_in_view(m, view, precision, {}, kinds); });
}

Csr<double> load_community_graph(const matchblas_graph* g) {
  return from_source(g, [](const MmMatrix& m) { return community_graph(m); });
}

LoadedGraph load_coordinate_graph(const matchblas_coordinate_graph* g, unsigned kinds) {
  if (!g) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph is NULL");
  const GraphView view = view_of(g->view);
  return graph_in_view(coordinate_as_matrix(*g), view, g->single_precision ? Precision::float32 : Precision::float64, {},
                         kinds);
}

Csr<double> load_community_coordinate_graph(const matchblas_coordinate_graph* g) {
  if (!g) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph is NULL");
  return community_graph(coordinate_as_matrix(*g));
}

}  // namespace matchblas::capi
