// matchblas._core: the matching calls (matching.h, coordinate.h, and
// community.h's community detection), the
// pre-pass (prepass.h) and the registry listing, on the caller's arrays.
// The friendly surface (scipy.sparse in, keywords, exceptions by status) is
// python/matchblas/; these functions take arrays already made to fit and
// return (status, message, results...) without raising for a C status.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "call.hpp"
#include "matchblas/matchblas.h"

namespace matchblas::python {

namespace {

// A graph for the matching calls: the C description of the caller's arrays
// (kept alive with it: keep_alive below) in one of the two C forms.
struct Graph {
  bool coordinate = false;
  matchblas_graph c{};
  matchblas_coordinate_graph coo{};
  std::string path;
  // The addresses of the arrays the description points to: (pointers or
  // row indices, indices or column indices, values), or (dense values,).
  std::vector<std::uintptr_t> addresses() const {
    auto addr = [](const void* p) { return std::uintptr_t(p); };
    if (coordinate) return {addr(coo.row_indices), addr(coo.col_indices), addr(coo.values)};
    if (c.source == MATCHBLAS_GRAPH_DENSE) return {addr(c.dense_values)};
    return {addr(c.sparse.pointers), addr(c.sparse.indices), addr(c.sparse.values)};
  }
};

matchblas_view view_of(int view) { return static_cast<matchblas_view>(view); }

Graph compressed_graph(std::int64_t rows, std::int64_t cols, int layout, const HostArray& pointers,
                       const HostArray& indices, const std::optional<HostArray>& values, int view, bool single) {
  expect_vector(pointers, -1, "the index pointers");
  expect_vector(indices, -1, "the indices");
  if (pointers.dtype() != indices.dtype()) throw nb::type_error("the index pointers and the indices differ in dtype");
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_SPARSE;
  matchblas_sparse& s = g.c.sparse;
  s.rows = rows;
  s.cols = cols;
  s.layout = layout == 0 ? MATCHBLAS_CSR : MATCHBLAS_CSC;
  s.base = 0;
  s.index_type = index_type_of(pointers.dtype(), "the index pointers");
  s.pointers = pointers.data();
  s.indices = indices.shape(0) > 0 ? indices.data() : nullptr;
  if (std::int64_t(pointers.shape(0)) != (layout == 0 ? rows : cols) + 1)
    throw nb::value_error("the index pointers do not have one entry more than the compressed dimension");
  expect_pointers_within(pointers, indices);
  if (values) {
    expect_vector(*values, std::int64_t(indices.shape(0)), "the values");
    s.value_type = value_type_of(values->dtype(), "the values");
    s.values = values->data();
  } else {
    s.value_type = MATCHBLAS_PATTERN;
  }
  g.c.view = view_of(view);
  g.c.single_precision = single;
  return g;
}

Graph coordinate_graph(std::int64_t rows, std::int64_t cols, const HostArray& row, const HostArray& col,
                       const std::optional<HostArray>& values, int view, bool single) {
  expect_vector(row, -1, "the row indices");
  expect_vector(col, std::int64_t(row.shape(0)), "the column indices");
  if (row.dtype() != col.dtype()) throw nb::type_error("the row and column indices differ in dtype");
  Graph g;
  g.coordinate = true;
  matchblas_coordinate_graph& c = g.coo;
  c.rows = rows;
  c.cols = cols;
  c.entries = std::int64_t(row.shape(0));
  c.base = 0;
  c.index_type = index_type_of(row.dtype(), "the row indices");
  c.row_indices = row.data();
  c.col_indices = col.data();
  if (values) {
    expect_vector(*values, c.entries, "the values");
    c.value_type = value_type_of(values->dtype(), "the values");
    c.values = values->data();
  } else {
    c.value_type = MATCHBLAS_PATTERN;
  }
  c.view = view_of(view);
  c.single_precision = single;
  return g;
}

Graph dense_graph(const HostArray& a, bool single) {
  if (a.ndim() != 2 || a.shape(0) != a.shape(1)) throw nb::value_error("a dense graph is a square 2-D array");
  const std::int64_t n = std::int64_t(a.shape(0));
  if (n > 1 && (a.stride(1) != 1 || a.stride(0) < n))
    throw nb::type_error("a dense graph's rows must be contiguous (C order, or rows of a larger C-order array)");
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_DENSE;
  g.c.dense_n = n;
  g.c.dense_leading_dimension = n > 1 ? a.stride(0) : 0;
  g.c.dense_type = value_type_of(a.dtype(), "a dense graph's weights");
  g.c.dense_values = a.data();
  g.c.view = MATCHBLAS_VIEW_COMPLETE;
  g.c.single_precision = single;
  return g;
}

// path: str or PathLike, any bytes the file system takes (non-UTF-8 names
// come through os.fsencode's surrogateescape).
Graph file_graph(const std::filesystem::path& path, int view, bool single) {
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_FILE;
  g.path = path.string();
  g.c.view = view_of(view);
  g.c.single_precision = single;
  return g;
}

nb::dict report_dict(const matchblas_match_report& r) {
  nb::dict d;
  d["algo"] = std::string(r.algo);
  d["graph"] = std::string(r.graph);
  d["vertices"] = r.vertices;
  d["edges"] = r.edges;
  d["bipartite_rows"] = r.bipartite_rows;
  d["weight"] = r.weight;
  d["cardinality"] = r.cardinality;
  d["phases"] = r.phases;
  d["setup_s"] = r.setup_seconds;
  d["time_s"] = r.seconds;
  return d;
}

// A C result freed when it goes out of scope (an interrupted call's, say).
template <class Result, void (*Free)(Result*)>
struct Held {
  Result r{};
  Held() = default;
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  ~Held() { Free(&r); }
};

nb::tuple match(Graph& g, const std::string& algo, const OptionList& options, std::uint64_t seed, int threads,
                int device, int gpu) {
  Settings s(options, seed, threads, device, gpu);
  if (g.c.source == MATCHBLAS_GRAPH_FILE) g.c.path = g.path.c_str();
  last_addresses = g.addresses();
  Held<matchblas_matching, matchblas_matching_free> result;
  matchblas_match_report report{};
  const int status = run_interruptible([&] {
    return g.coordinate ? matchblas_match_coordinate(&g.coo, algo.c_str(), &s.c, &result.r, &report)
                        : matchblas_match(&g.c, algo.c_str(), &s.c, &result.r, &report);
  });
  if (status != MATCHBLAS_OK) return nb::make_tuple(status, message_of(report.message), nb::none(), nb::none());
  auto mate = adopt(result.r.mate, result.r.vertices);
  result.r = matchblas_matching{};  // the array now belongs to `mate`
  return nb::make_tuple(status, message_of(report.message), mate, report_dict(report));
}

nb::tuple b_match(Graph& g, const std::string& algo, const HostArray& b, const OptionList& options,
                  std::uint64_t seed, int threads, int device, int gpu) {
  expect_vector(b, -1, "b");
  if (!is<std::int64_t>(b.dtype())) throw nb::type_error("b must be int64");
  Settings s(options, seed, threads, device, gpu);
  if (g.c.source == MATCHBLAS_GRAPH_FILE) g.c.path = g.path.c_str();
  last_addresses = g.addresses();
  Held<matchblas_b_matching, matchblas_b_matching_free> result;
  matchblas_match_report report{};
  const auto* bv = static_cast<const std::int64_t*>(b.data());
  const auto nb_ = std::int64_t(b.shape(0));
  const int status = run_interruptible([&] {
    return g.coordinate ? matchblas_b_match_coordinate(&g.coo, algo.c_str(), bv, nb_, &s.c, &result.r, &report)
                        : matchblas_b_match(&g.c, algo.c_str(), bv, nb_, &s.c, &result.r, &report);
  });
  if (status != MATCHBLAS_OK)
    return nb::make_tuple(status, message_of(report.message), nb::none(), nb::none(), nb::none());
  auto offsets = adopt(result.r.offsets, result.r.vertices + 1);
  result.r.offsets = nullptr;
  auto partners = adopt(result.r.partners, 2 * result.r.edges);
  result.r.partners = nullptr;
  return nb::make_tuple(status, message_of(report.message), offsets, partners, report_dict(report));
}

nb::dict report_dict(const matchblas_cluster_report& r) {
  nb::dict d;
  d["algo"] = std::string(r.algo);
  d["vertices"] = r.vertices;
  d["edges"] = r.edges;
  d["resolution"] = r.resolution;
  d["modularity"] = r.modularity;
  d["communities"] = r.communities;
  d["levels"] = r.levels;
  d["refine_moves"] = r.refine_moves;
  d["setup_s"] = r.setup_seconds;
  d["time_s"] = r.seconds;
  return d;
}

// (status, message, labels, level offsets, hierarchy, report).
nb::tuple cluster(Graph& g, const std::string& algo, const OptionList& options, int threads, int device, int gpu) {
  Settings s(options, 1, threads, device, gpu);
  if (g.c.source == MATCHBLAS_GRAPH_FILE) g.c.path = g.path.c_str();
  last_addresses = g.addresses();
  Held<matchblas_communities, matchblas_communities_free> result;
  matchblas_cluster_report report{};
  const int status = run_interruptible([&] {
    return g.coordinate ? matchblas_cluster_coordinate(&g.coo, algo.c_str(), &s.c, &result.r, &report)
                        : matchblas_cluster(&g.c, algo.c_str(), &s.c, &result.r, &report);
  });
  if (status != MATCHBLAS_OK)
    return nb::make_tuple(status, message_of(report.message), nb::none(), nb::none(), nb::none(), nb::none());
  const std::int64_t total = result.r.level_offsets[result.r.levels];
  auto label = adopt(result.r.label, result.r.vertices);
  result.r.label = nullptr;
  auto offsets = adopt(result.r.level_offsets, result.r.levels + 1);
  result.r.level_offsets = nullptr;
  auto hierarchy = adopt(result.r.hierarchy, total);
  result.r.hierarchy = nullptr;
  return nb::make_tuple(status, message_of(report.message), label, offsets, hierarchy, report_dict(report));
}

nb::tuple marry(std::int64_t men, std::int64_t women, const HostArray& men_offsets, const HostArray& men_lists,
                const HostArray& women_offsets, const HostArray& women_lists,
                const std::optional<std::filesystem::path>& path, const std::string& algo, const OptionList& options,
                std::uint64_t seed, int threads, int device, int gpu) {
  for (const HostArray* a : {&men_offsets, &men_lists, &women_offsets, &women_lists}) {
    expect_vector(*a, -1, "a preference array");
    if (!is<std::int64_t>(a->dtype())) throw nb::type_error("preference arrays must be int64");
  }
  Settings s(options, seed, threads, device, gpu);
  matchblas_preferences p{};
  p.men = men;
  p.women = women;
  p.men_offsets = static_cast<const std::int64_t*>(men_offsets.data());
  p.men_lists = static_cast<const std::int64_t*>(men_lists.data());
  p.women_offsets = static_cast<const std::int64_t*>(women_offsets.data());
  p.women_lists = static_cast<const std::int64_t*>(women_lists.data());
  p.path = path ? path->c_str() : nullptr;
  Held<matchblas_marriage, matchblas_marriage_free> result;
  matchblas_match_report report{};
  const int status = run_interruptible([&] { return matchblas_marry(&p, algo.c_str(), &s.c, &result.r, &report); });
  if (status != MATCHBLAS_OK)
    return nb::make_tuple(status, message_of(report.message), nb::none(), nb::none(), nb::none());
  auto wife = adopt(result.r.wife, result.r.men);
  result.r.wife = nullptr;
  auto husband = adopt(result.r.husband, result.r.women);
  result.r.husband = nullptr;
  return nb::make_tuple(status, message_of(report.message), wife, husband, report_dict(report));
}

// The info dict of a pre-pass call.
nb::dict prepass_info(const matchblas_inform& inform) {
  nb::dict info;
  info["job"] = inform.job;
  info["matched"] = inform.matched;
  info["objective"] = inform.objective;
  info["min_matched_abs"] = inform.min_matched_abs;
  info["seconds"] = inform.seconds;
  return info;
}

// The diagonal pre-pass on compressed arrays (the graph's description).
nb::tuple prepass(Graph& g, int job, bool symmetric) {
  if (g.coordinate || g.c.source != MATCHBLAS_GRAPH_SPARSE)
    throw nb::type_error("the pre-pass takes a CSR or CSC matrix");
  last_addresses = g.addresses();
  const matchblas_sparse& a = g.c.sparse;
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = job;
  opt.symmetric = symmetric;
  const std::int64_t m = a.rows > 0 ? a.rows : 0, n = a.cols > 0 ? a.cols : 0;
  auto perm = new_array<std::int64_t>(m == n ? m : 0);
  auto row_mate = new_array<std::int64_t>(m);
  auto col_mate = new_array<std::int64_t>(n);
  auto row_scale = new_array<double>(m);
  auto col_scale = new_array<double>(n);
  matchblas_inform inform{};
  const int status = run_interruptible([&] {
    return matchblas_prepass(&a, &opt, m == n ? perm.data() : nullptr, row_mate.data(), col_mate.data(),
                             row_scale.data(), col_scale.data(), &inform);
  });
  return nb::make_tuple(status, message_of(inform.message), perm, row_mate, col_mate, row_scale, col_scale,
                        prepass_info(inform));
}

// The pre-pass on a matrix in GPU memory (CuPy's arrays through DLPack:
// matchblas_prepass_device), the results written into the CuPy arrays
// given, on `stream` (a cudaStream_t).
nb::tuple prepass_device(std::int64_t rows, std::int64_t cols, int layout, const DeviceArray& pointers,
                         const DeviceArray& indices, const DeviceArray& values, int job, bool symmetric,
                         const std::optional<DeviceArray>& perm, const DeviceArray& row_mate,
                         const DeviceArray& col_mate, const DeviceArray& row_scale, const DeviceArray& col_scale,
                         std::uintptr_t stream) {
  expect_vector(pointers, (layout == 0 ? rows : cols) + 1, "the index pointers");
  expect_vector(indices, -1, "the indices");
  expect_vector(values, std::int64_t(indices.shape(0)), "the values");
  const int device = pointers.device_id();
  const auto expect_here = [&](const DeviceArray& a, std::int64_t n, bool ids, const char* what) {
    expect_vector(a, n, what);
    if (ids ? !is<std::int64_t>(a.dtype()) : !is<double>(a.dtype()))
      throw nb::type_error((std::string(what) + " must be " + (ids ? "int64" : "float64")).c_str());
    if (a.device_id() != device) throw nb::value_error((std::string(what) + " is on another GPU").c_str());
  };
  if (indices.device_id() != device || values.device_id() != device)
    throw nb::value_error("the matrix's arrays are on different GPUs");
  if (perm) expect_here(*perm, rows, true, "perm");
  expect_here(row_mate, rows, true, "row_mate");
  expect_here(col_mate, cols, true, "col_mate");
  expect_here(row_scale, rows, false, "row_log_scale");
  expect_here(col_scale, cols, false, "col_log_scale");
  matchblas_sparse a{};
  a.rows = rows;
  a.cols = cols;
  a.layout = layout == 0 ? MATCHBLAS_CSR : MATCHBLAS_CSC;
  a.base = 0;
  a.index_type = index_type_of(pointers.dtype(), "the index pointers");
  if (index_type_of(indices.dtype(), "the indices") != a.index_type)
    throw nb::type_error("the index pointers and the indices must have one integer type");
  a.value_type = value_type_of(values.dtype(), "the values");
  a.pointers = pointers.data();
  a.indices = indices.data();
  a.values = values.data();
  last_addresses = {std::uintptr_t(a.pointers), std::uintptr_t(a.indices), std::uintptr_t(a.values)};
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = job;
  opt.symmetric = symmetric;
  matchblas_device_options dev;
  matchblas_device_default_options(&dev);
  dev.device = device;
  dev.stream = reinterpret_cast<void*>(stream);
  matchblas_inform inform{};
  const auto out = [](const DeviceArray& x) { return x.data(); };
  const int status = run_interruptible([&] {
    return matchblas_prepass_device(&a, &opt, &dev, perm ? static_cast<std::int64_t*>(out(*perm)) : nullptr,
                                    static_cast<std::int64_t*>(out(row_mate)), static_cast<std::int64_t*>(out(col_mate)),
                                    static_cast<double*>(out(row_scale)), static_cast<double*>(out(col_scale)),
                                    &inform);
  });
  return nb::make_tuple(status, message_of(inform.message), prepass_info(inform));
}

nb::list algorithms() {
  nb::list out;
  const std::int64_t count = matchblas_algorithm_count();
  for (std::int64_t i = 0; i < count; ++i) {
    matchblas_algorithm_info a;
    if (matchblas_algorithm(i, &a) != MATCHBLAS_OK) throw std::runtime_error("matchblas_algorithm failed");
    nb::dict d;
    d["name"] = std::string(a.name);
    d["problem"] = std::string(a.problem);
    d["family"] = std::string(a.family);
    d["device"] = std::string(a.device);
    d["twin"] = std::string(a.twin);
    d["guarantee"] = std::string(a.guarantee);
    d["summary"] = std::string(a.summary);
    d["graph_kinds"] = std::string(a.graph_kinds);
    d["deterministic"] = bool(a.deterministic);
    d["threaded"] = bool(a.threaded);
    d["job"] = a.job;
    d["available"] = bool(a.available);
    d["unavailable"] = std::string(a.unavailable);
    nb::list options;
    for (std::int64_t k = 0; k < a.n_options; ++k) {
      matchblas_option_info o;
      if (matchblas_algorithm_option(i, k, &o) != MATCHBLAS_OK)
        throw std::runtime_error("matchblas_algorithm_option failed");
      nb::dict od;
      od["name"] = std::string(o.name);
      od["type"] = std::string(o.type);
      od["default"] = std::string(o.default_value);
      od["words"] = std::string(o.words);
      od["lo"] = o.lo;
      od["hi"] = o.hi;
      od["help"] = std::string(o.help);
      options.append(od);
    }
    d["options"] = options;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_matching(nb::module_& m) {
  nb::class_<Graph>(m, "Graph", "A graph's C description over the caller's arrays (kept alive with it).")
      .def_prop_ro("addresses", [](const Graph& g) { return nb::tuple(nb::cast(g.addresses())); });
  // Each graph keeps its arrays alive: nb::keep_alive<0, k> ties argument k to the result.
  m.def("compressed_graph", &compressed_graph, nb::keep_alive<0, 4>(), nb::keep_alive<0, 5>(), nb::keep_alive<0, 6>(),
        nb::arg("rows"), nb::arg("cols"), nb::arg("layout"), nb::arg("pointers"), nb::arg("indices"),
        nb::arg("values").none(), nb::arg("view"), nb::arg("single"));
  m.def("coordinate_graph", &coordinate_graph, nb::keep_alive<0, 3>(), nb::keep_alive<0, 4>(),
        nb::keep_alive<0, 5>(), nb::arg("rows"), nb::arg("cols"), nb::arg("row"), nb::arg("col"),
        nb::arg("values").none(), nb::arg("view"), nb::arg("single"));
  m.def("dense_graph", &dense_graph, nb::keep_alive<0, 1>(), nb::arg("a"), nb::arg("single"));
  m.def("file_graph", &file_graph, nb::arg("path"), nb::arg("view"), nb::arg("single"));
  m.def("match", &match, nb::arg("graph"), nb::arg("algo"), nb::arg("options"), nb::arg("seed"), nb::arg("threads"),
        nb::arg("device"), nb::arg("gpu"));
  m.def("b_match", &b_match, nb::arg("graph"), nb::arg("algo"), nb::arg("b"), nb::arg("options"), nb::arg("seed"),
        nb::arg("threads"), nb::arg("device"), nb::arg("gpu"));
  m.def("cluster", &cluster, nb::arg("graph"), nb::arg("algo"), nb::arg("options"), nb::arg("threads"),
        nb::arg("device"), nb::arg("gpu"));
  m.def("marry", &marry, nb::arg("men"), nb::arg("women"), nb::arg("men_offsets"), nb::arg("men_lists"),
        nb::arg("women_offsets"), nb::arg("women_lists"), nb::arg("path").none(), nb::arg("algo"),
        nb::arg("options"), nb::arg("seed"), nb::arg("threads"), nb::arg("device"), nb::arg("gpu"));
  m.def("prepass", &prepass, nb::arg("graph"), nb::arg("job"), nb::arg("symmetric"));
  m.def("prepass_device", &prepass_device, nb::arg("rows"), nb::arg("cols"), nb::arg("layout"), nb::arg("pointers"),
        nb::arg("indices"), nb::arg("values"), nb::arg("job"), nb::arg("symmetric"), nb::arg("perm").none(),
        nb::arg("row_mate"), nb::arg("col_mate"), nb::arg("row_scale"), nb::arg("col_scale"), nb::arg("stream"));
  m.def("algorithms", &algorithms);
  m.def(
      "last_addresses", [] { return nb::tuple(nb::cast(last_addresses)); },
      "The input array addresses the last match, b_match, prepass or device op of this thread passed to the C "
      "interface.");
  m.def("status_string", [](int status) { return std::string(matchblas_status_string(status)); });
  m.def("version", [] { return std::string(matchblas_version()); });
  m.def("git_revision", [] { return std::string(matchblas_git_revision()); });
}

}  // namespace matchblas::python
