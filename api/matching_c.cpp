// The C interface of the matching calls (include/matchblas/matching.h): the
// caller's graph (arrays, a dense buffer or a Matrix Market file) becomes a
// graph by the tool's rules (lib/graph_from_matrix.hpp, through the same
// MmMatrix a file gives), the algorithm and its options come from the
// registry and are checked there, the result is validated, and everything is
// copied into library-allocated arrays. Nothing escapes as an exception.
#include "matchblas/matching.h"

#include "matchblas/coordinate.h"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "c_api_support.hpp"
#include "datasets/load.hpp"
#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "lib/mmio.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/registry.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas {
namespace {

using namespace capi;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

// n elements from malloc (the _free functions release them with free), or
// out_of_memory.
template <class T>
T* allocate(std::int64_t n) {
  void* p = std::malloc(sizeof(T) * std::size_t(n > 0 ? n : 1));
  if (!p) throw std::bad_alloc();
  return static_cast<T*>(p);
}

void start_report(matchblas_match_report* report) {
  if (!report) return;
  *report = matchblas_match_report{};
  set_status(report, MATCHBLAS_OK, "ok");
}

template <std::size_t N>
void copy_text(char (&out)[N], const std::string& text) {
  std::snprintf(out, N, "%s", text.c_str());
}

// Below this many entries the caller's arrays are copied on the calling
// thread: a parallel region costs more than it saves there (and far more on
// a busy machine, where the team's threads wait for a core). Not tuned
// beyond that: at 31M entries (R-MAT scale 20, both triangles) the copy
// and its checks are about 1.5% of the CPU samples of a greedy call (perf;
// 3.5% sequential).
constexpr std::int64_t copy_parallel_min = std::int64_t(1) << 18;

// An empty coordinate MmMatrix of `entries` entries (0-based, general
// symmetry), for the caller's arrays to be copied into. resize zero-fills:
// the first touch of the pages, in parallel with the threads that fill them
// would be faster, but MmMatrix's vectors do not allow that.
MmMatrix coordinate_matrix(std::int64_t rows, std::int64_t cols, std::int64_t entries, bool pattern) {
  MmMatrix m;
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
    fail(MATCHBLAS_ERR_BAD_FORMAT, "complex values are not taken by the matching calls (pass |a_ij|)");
  MmMatrix m = coordinate_matrix(a->rows, a->cols, nnz, value_type == MATCHBLAS_PATTERN);
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
                                       " is not taken by the matching calls (double, float or pattern)");
  if (g.entries > 0 && (!g.row_indices || !g.col_indices))
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's row or column indices are NULL");
  if (g.entries > 0 && value_type != MATCHBLAS_PATTERN && !g.values)
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the matrix's values are NULL (use MATCHBLAS_PATTERN for a pattern)");
  MmMatrix m = coordinate_matrix(g.rows, g.cols, g.entries, value_type == MATCHBLAS_PATTERN);
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
        const std::string at = "(" + std::to_string(std::int64_t(row[k])) + ", " + std::to_string(std::int64_t(col[k])) + ")";
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
  const int type = stored_int(g.dense_type);
  if (type != MATCHBLAS_DOUBLE && type != MATCHBLAS_FLOAT)
    fail(MATCHBLAS_ERR_BAD_FORMAT, "a dense matrix holds MATCHBLAS_DOUBLE or MATCHBLAS_FLOAT values");
  if (n > 0 && !g.dense_values) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the dense values are NULL");
  MmMatrix m;
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

// The graph for an algorithm accepting `kinds`, by the rules; a file's errors
// name it (status bad file).
LoadedGraph load_graph(const matchblas_graph* g, unsigned kinds) {
  if (!g) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph is NULL");
  const GraphView view = view_of(g->view);
  const Precision precision = g->single_precision ? Precision::single : Precision::dual;
  switch (stored_int(g->source)) {
    case MATCHBLAS_GRAPH_SPARSE: return graph_from_file(sparse_as_matrix(&g->sparse), view, precision, {}, kinds);
    case MATCHBLAS_GRAPH_DENSE: return graph_from_file(dense_as_matrix(*g), view, precision, {}, kinds);
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
        return graph_from_file(*m, view, precision, {}, kinds);
      } catch (const shape_error& e) {
        fail(MATCHBLAS_ERR_BAD_DIMENSION, path + ": " + e.what());
      } catch (const invalid_input& e) {
        fail(MATCHBLAS_ERR_BAD_FILE, path + ": " + e.what());
      }
    }
  }
  fail(MATCHBLAS_ERR_BAD_FORMAT, "graph source " + std::to_string(stored_int(g->source)) + " is unknown");
}

LoadedGraph load_coordinate_graph(const matchblas_coordinate_graph* g, unsigned kinds) {
  if (!g) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the graph is NULL");
  const GraphView view = view_of(g->view);
  return graph_from_file(coordinate_as_matrix(*g), view, g->single_precision ? Precision::single : Precision::dual, {},
                         kinds);
}

// The registry entry `algo` of `problem` (its twin on settings.device), its
// options parsed and checked, the run settings, and whether it can run here.
struct Chosen {
  const MatcherInfo* info = nullptr;
  RunOptions run;
};

Chosen choose(const char* algo, Problem problem, const matchblas_run_settings& s, Precision precision) {
  if (!algo) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the algorithm's name is NULL");
  Chosen c;
  try {
    c.info = &find_matcher(algo, problem);
  } catch (const invalid_input& e) {
    fail(MATCHBLAS_ERR_UNKNOWN_ALGORITHM, e.what());
  }
  if (s.device != -1) {
    if (s.device != 0 && s.device != 1)
      fail(MATCHBLAS_ERR_BAD_OPTION, "device " + std::to_string(s.device) + " is not -1 (as named), 0 (cpu) or 1 (gpu)");
    try {
      c.info = &on_device(*c.info, s.device == 1 ? Device::gpu : Device::cpu);
    } catch (const invalid_input& e) {
      fail(MATCHBLAS_ERR_BAD_OPTION, e.what());
    }
  }
  if (s.n_options < 0 || (s.n_options > 0 && !s.options))
    fail(MATCHBLAS_ERR_NULL_ARGUMENT, "n_options is " + std::to_string(s.n_options) + " but the options are NULL");
  std::map<std::string, std::string> given;
  for (std::int64_t k = 0; k < s.n_options; ++k) {
    const matchblas_option& o = s.options[k];
    if (!o.name) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "option " + std::to_string(k) + " has no name");
    if (!given.emplace(o.name, o.value ? o.value : "").second)
      fail(MATCHBLAS_ERR_BAD_OPTION, std::string("option '") + o.name + "' is given twice");
  }
  try {
    c.run.options = parse_options(*c.info, given, precision);
  } catch (const invalid_input& e) {
    fail(MATCHBLAS_ERR_BAD_OPTION, e.what());
  }
  if (const auto why = unavailable_here(*c.info))
    fail(MATCHBLAS_ERR_UNAVAILABLE, "'" + c.info->name + "' cannot run here: " + *why);
  const int cap = 4 * omp_get_num_procs();
  if (c.info->device == Device::cpu && (s.threads < 0 || s.threads > cap))
    fail(MATCHBLAS_ERR_BAD_OPTION, "threads " + std::to_string(s.threads) + " is outside 0.." + std::to_string(cap) +
                                       " (0: all; at most 4 x the cores)");
  if (c.info->device == Device::gpu && s.threads < 0)
    fail(MATCHBLAS_ERR_BAD_OPTION, "threads " + std::to_string(s.threads) + " is negative");
  c.run.seed = s.seed;
  c.run.gpu = s.gpu;
  c.run.threads = c.info->device == Device::cpu && s.threads == 0 ? omp_get_max_threads() : s.threads;
  return c;
}

matchblas_run_settings settings_or_default(const matchblas_run_settings* s) {
  matchblas_run_settings d;
  matchblas_default_run_settings(&d);
  return s ? *s : d;
}

void describe_graph(matchblas_match_report* report, const LoadedGraph& g) {
  if (!report) return;
  copy_text(report->graph, kinds_string(g.kind));
  report->vertices = num_vertices(g.ref());
  report->edges = num_edges(g.ref());
  report->bipartite_rows = g.kind == bipartite_graphs ? g.bipartite_rows : 0;
}

}  // namespace
}  // namespace matchblas

using namespace matchblas;
using namespace matchblas::capi;

extern "C" void matchblas_default_run_settings(matchblas_run_settings* settings) {
  if (!settings) return;
  *settings = matchblas_run_settings{};
  settings->seed = 1;
  settings->device = -1;
}

namespace {

// matchblas_match on a graph from load(kinds) (the graph in the precision
// `single` says): every source's call is this one.
template <class Load>
int match_graph(Load load, bool single, const char* algo, const matchblas_run_settings* settings,
                matchblas_matching* result, matchblas_match_report* report) {
  start_report(report);
  if (result) *result = matchblas_matching{};
  return guarded(report, [&] {
    if (!result) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the result is NULL");
    const matchblas_run_settings s = settings_or_default(settings);
    Chosen c = choose(algo, Problem::matching, s, single ? Precision::single : Precision::dual);
    const CallThreads threads(c.run.threads);
    check_interrupt();
    const auto t0 = clock_type::now();
    const LoadedGraph g = load(c.info->kinds);
    const double setup = seconds_since(t0);
    check_interrupt();
    RomaRun phases;
    if (c.run.options.takes("phase-report")) c.run.phase_report = &phases;
    const MatchRun run = run_matcher(*c.info, g.ref(), g.kind, c.run);
    if (!run.report.valid)
      fail(MATCHBLAS_ERR_INTERNAL, "'" + c.info->name + "' returned an invalid matching: " + run.report.violation);
    const vertex_t n = run.matching.size();
    result->mate = allocate<int64_t>(n);
    result->vertices = n;
    for (vertex_t u = 0; u < n; ++u) result->mate[u] = run.matching.mate[u];
    if (report) {
      copy_text(report->algo, c.info->name);
      describe_graph(report, g);
      report->weight = run.report.weight;
      report->cardinality = run.report.cardinality;
      report->phases = std::int64_t(phases.phases.size());
      report->setup_seconds = setup;
      report->seconds = run.report.time_s;
    }
    return MATCHBLAS_OK;
  });
}

// matchblas_b_match on a graph from load(kinds).
template <class Load>
int b_match_graph(Load load, bool single, const char* algo, const int64_t* b, int64_t b_length,
                  const matchblas_run_settings* settings, matchblas_b_matching* result,
                  matchblas_match_report* report) {
  start_report(report);
  if (result) *result = matchblas_b_matching{};
  return guarded(report, [&] {
    if (!result) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the result is NULL");
    if (!b) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "b is NULL");
    const matchblas_run_settings s = settings_or_default(settings);
    Chosen c = choose(algo, Problem::b_matching, s, Precision::dual);
    const CallThreads threads(c.run.threads);
    if (single) fail(MATCHBLAS_ERR_BAD_OPTION, "b-matchings are computed in double precision");
    check_interrupt();
    const auto t0 = clock_type::now();
    const LoadedGraph g = load(c.info->kinds);
    const auto* csr = std::get_if<Csr<double>>(&g.graph);
    if (!csr) fail(MATCHBLAS_ERR_BAD_INPUT, "b-matchings take sparse graphs (general or bipartite view), not complete ones");
    const vertex_t n = csr->n_rows;
    if (b_length != 1 && b_length != n)
      fail(MATCHBLAS_ERR_BAD_DIMENSION,
           "b has " + std::to_string(b_length) + " values; the graph has " + std::to_string(n) + " vertices (or give 1)");
    std::vector<int> bv(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) {
      const int64_t x = b[b_length == 1 ? 0 : v];
      if (x < 0 || x > std::numeric_limits<int>::max())
        fail(MATCHBLAS_ERR_BAD_VALUE, "b[" + std::to_string(b_length == 1 ? 0 : v) + "] = " + std::to_string(x) +
                                          " is outside 0.." + std::to_string(std::numeric_limits<int>::max()));
      bv[v] = int(x);
    }
    const double setup = seconds_since(t0);
    check_interrupt();
    const auto t1 = clock_type::now();
    const BMatching m = run_b_matching(*c.info, csr, bv, c.run);
    const double seconds = seconds_since(t1);
    if (const std::string why = b_matching_violation(*csr, bv, m); !why.empty())
      fail(MATCHBLAS_ERR_INTERNAL, "'" + c.info->name + "' returned an invalid b-matching: " + why);
    result->offsets = allocate<int64_t>(n + 1);
    result->partners = allocate<int64_t>(std::int64_t(m.partners.size()));
    result->vertices = n;
    result->edges = m.num_edges();
    for (vertex_t v = 0; v <= n; ++v) result->offsets[v] = m.offsets[v];
    for (std::size_t k = 0; k < m.partners.size(); ++k) result->partners[k] = m.partners[k];
    if (report) {
      copy_text(report->algo, c.info->name);
      describe_graph(report, g);
      report->weight = b_matching_weight(*csr, m);
      report->cardinality = m.num_edges();
      report->setup_seconds = setup;
      report->seconds = seconds;
    }
    return MATCHBLAS_OK;
  });
}

}  // namespace

extern "C" int matchblas_match(const matchblas_graph* graph, const char* algo, const matchblas_run_settings* settings,
                               matchblas_matching* result, matchblas_match_report* report) {
  return match_graph([&](unsigned kinds) { return load_graph(graph, kinds); }, graph && graph->single_precision, algo,
                     settings, result, report);
}

extern "C" int matchblas_match_coordinate(const matchblas_coordinate_graph* graph, const char* algo,
                                          const matchblas_run_settings* settings, matchblas_matching* result,
                                          matchblas_match_report* report) {
  return match_graph([&](unsigned kinds) { return load_coordinate_graph(graph, kinds); },
                     graph && graph->single_precision, algo, settings, result, report);
}

extern "C" int matchblas_b_match(const matchblas_graph* graph, const char* algo, const int64_t* b, int64_t b_length,
                                 const matchblas_run_settings* settings, matchblas_b_matching* result,
                                 matchblas_match_report* report) {
  return b_match_graph([&](unsigned kinds) { return load_graph(graph, kinds); }, graph && graph->single_precision,
                       algo, b, b_length, settings, result, report);
}

extern "C" int matchblas_b_match_coordinate(const matchblas_coordinate_graph* graph, const char* algo,
                                            const int64_t* b, int64_t b_length,
                                            const matchblas_run_settings* settings, matchblas_b_matching* result,
                                            matchblas_match_report* report) {
  return b_match_graph([&](unsigned kinds) { return load_coordinate_graph(graph, kinds); },
                       graph && graph->single_precision, algo, b, b_length, settings, result, report);
}

namespace {

// The caller's lists as a MarriageInstance (checked by check_instance).
MarriageInstance instance_of(const matchblas_preferences& p) {
  const std::int64_t id_limit = std::numeric_limits<vertex_t>::max() - 1;
  if (p.men < 0 || p.women < 0 || p.men > id_limit || p.women > id_limit)
    fail(MATCHBLAS_ERR_BAD_DIMENSION, std::to_string(p.men) + " men and " + std::to_string(p.women) + " women are out of range");
  MarriageInstance inst;
  inst.men = vertex_t(p.men);
  inst.women = vertex_t(p.women);
  const auto side = [&](const int64_t* offsets, const int64_t* lists, std::int64_t count, std::int64_t others,
                        const char* who, std::vector<offset_t>& out_offsets, std::vector<vertex_t>& out_lists) {
    if (!offsets) fail(MATCHBLAS_ERR_NULL_ARGUMENT, std::string("the ") + who + "'s offsets are NULL");
    if (offsets[0] != 0) fail(MATCHBLAS_ERR_BAD_POINTERS, std::string("the ") + who + "'s offsets do not start at 0");
    out_offsets.assign(offsets, offsets + count + 1);
    for (std::int64_t k = 0; k < count; ++k)
      if (offsets[k + 1] < offsets[k])
        fail(MATCHBLAS_ERR_BAD_POINTERS, std::string("the ") + who + "'s offsets decrease at " + std::to_string(k));
    if (offsets[count] > 0 && !lists) fail(MATCHBLAS_ERR_NULL_ARGUMENT, std::string("the ") + who + "'s lists are NULL");
    out_lists.resize(std::size_t(offsets[count]));
    for (std::int64_t k = 0; k < offsets[count]; ++k) {
      if (lists[k] < 0 || lists[k] >= others)
        fail(MATCHBLAS_ERR_INDEX_OUT_OF_RANGE, std::string("the ") + who + "'s list entry " + std::to_string(k) + " is " +
                                                   std::to_string(lists[k]) + ", outside 0.." + std::to_string(others - 1));
      out_lists[std::size_t(k)] = vertex_t(lists[k]);
    }
  };
  side(p.men_offsets, p.men_lists, p.men, p.women, "men", inst.men_offsets, inst.men_lists);
  side(p.women_offsets, p.women_lists, p.women, p.men, "women", inst.women_offsets, inst.women_lists);
  try {
    check_instance(inst);
  } catch (const invalid_input& e) {
    fail(MATCHBLAS_ERR_BAD_INPUT, e.what());
  }
  return inst;
}

}  // namespace

extern "C" int matchblas_marry(const matchblas_preferences* preferences, const char* algo,
                               const matchblas_run_settings* settings, matchblas_marriage* result,
                               matchblas_match_report* report) {
  start_report(report);
  if (result) *result = matchblas_marriage{};
  return guarded(report, [&] {
    if (!result) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the result is NULL");
    if (!preferences) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the preferences are NULL");
    const matchblas_run_settings s = settings_or_default(settings);
    Chosen c = choose(algo, Problem::marriage, s, Precision::dual);
    const CallThreads threads(c.run.threads);
    check_interrupt();
    const auto t0 = clock_type::now();
    MarriageInstance inst;
    if (preferences->path) {
      try {
        inst = read_marriage(preferences->path);
      } catch (const out_of_memory&) {
        throw;
      } catch (const error& e) {
        fail(MATCHBLAS_ERR_BAD_FILE, e.what());
      }
    } else {
      inst = instance_of(*preferences);
    }
    const RankedLists lists = rank_lists(inst);
    const double setup = seconds_since(t0);
    check_interrupt();
    const auto t1 = clock_type::now();
    const Marriage m = run_marriage(*c.info, lists, c.run);
    const double seconds = seconds_since(t1);
    if (const std::string why = marriage_violation(inst, m); !why.empty())
      fail(MATCHBLAS_ERR_INTERNAL, "'" + c.info->name + "' returned an unstable matching: " + why);
    result->wife = allocate<int64_t>(inst.men);
    result->husband = allocate<int64_t>(inst.women);
    result->men = inst.men;
    result->women = inst.women;
    std::int64_t couples = 0;
    for (vertex_t x = 0; x < inst.men; ++x) couples += (result->wife[x] = m.wife[x]) != no_vertex;
    for (vertex_t y = 0; y < inst.women; ++y) result->husband[y] = m.husband[y];
    if (report) {
      copy_text(report->algo, c.info->name);
      copy_text(report->graph, "marriage");
      report->vertices = inst.men;
      report->edges = std::int64_t(inst.men_lists.size());
      report->cardinality = couples;
      report->setup_seconds = setup;
      report->seconds = seconds;
    }
    return MATCHBLAS_OK;
  });
}

extern "C" void matchblas_matching_free(matchblas_matching* result) {
  if (!result) return;
  std::free(result->mate);
  *result = matchblas_matching{};
}

extern "C" void matchblas_b_matching_free(matchblas_b_matching* result) {
  if (!result) return;
  std::free(result->offsets);
  std::free(result->partners);
  *result = matchblas_b_matching{};
}

extern "C" void matchblas_marriage_free(matchblas_marriage* result) {
  if (!result) return;
  std::free(result->wife);
  std::free(result->husband);
  *result = matchblas_marriage{};
}

extern "C" int64_t matchblas_algorithm_count(void) { return std::int64_t(matchers().size()); }

extern "C" int matchblas_algorithm(int64_t index, matchblas_algorithm_info* info) {
  if (!info) return MATCHBLAS_ERR_NULL_ARGUMENT;
  *info = matchblas_algorithm_info{};
  try {
    if (index < 0 || index >= matchblas_algorithm_count()) return MATCHBLAS_ERR_BAD_DIMENSION;
    static const std::vector<std::string> problems = [] {
      std::vector<std::string> p;
      for (const MatcherInfo& m : matchers()) p.push_back(to_string(m.problem));
      return p;
    }();
    static const std::vector<std::string> devices = [] {
      std::vector<std::string> d;
      for (const MatcherInfo& m : matchers()) d.push_back(to_string(m.device));
      return d;
    }();
    const MatcherInfo& m = matchers()[std::size_t(index)];
    info->name = m.name.c_str();
    info->problem = problems[std::size_t(index)].c_str();
    info->family = m.family.c_str();
    info->device = devices[std::size_t(index)].c_str();
    info->twin = m.twin.c_str();
    info->guarantee = m.guarantee.c_str();
    info->summary = m.summary.c_str();
    copy_text(info->graph_kinds, input_of(m));
    info->deterministic = m.deterministic;
    info->threaded = m.threaded;
    info->job = m.job;
    const auto why = unavailable_here(m);
    info->available = !why;
    if (why) copy_text(info->unavailable, *why);
    info->n_options = std::int64_t(m.options.size());
    return MATCHBLAS_OK;
  } catch (...) {
    return MATCHBLAS_ERR_INTERNAL;
  }
}

extern "C" int matchblas_algorithm_option(int64_t index, int64_t option, matchblas_option_info* info) {
  if (!info) return MATCHBLAS_ERR_NULL_ARGUMENT;
  *info = matchblas_option_info{};
  try {
    if (index < 0 || index >= matchblas_algorithm_count()) return MATCHBLAS_ERR_BAD_DIMENSION;
    const MatcherInfo& m = matchers()[std::size_t(index)];
    if (option < 0 || option >= std::int64_t(m.options.size())) return MATCHBLAS_ERR_BAD_DIMENSION;
    const OptionSpec& o = m.options[std::size_t(option)];
    static const char* const types[] = {"integer", "real", "word", "flag"};
    info->name = o.name.c_str();
    info->type = types[int(o.type)];
    info->default_value = o.fallback.c_str();
    std::string words;
    for (const std::string& w : o.words) words += (words.empty() ? "" : ",") + w;
    copy_text(info->words, words);
    info->lo = o.lo;
    info->hi = o.hi;
    info->help = o.help.c_str();
    return MATCHBLAS_OK;
  } catch (...) {
    return MATCHBLAS_ERR_INTERNAL;
  }
}
