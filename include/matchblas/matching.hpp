// matchblas's matching calls for C++: header-only, typed wrappers over the C
// interface (matchblas/matching.h), whose ABI they keep. Any algorithm of the
// registry (api::algorithms(), `matchblas list`) on a graph given as a sparse
// matrix view (common.hpp's csr()/csc()), a dense row-major weight matrix,
// or a Matrix Market file; options by name; results as std::vector.
//
//   namespace mb = matchblas::api;
//   std::vector<int> ptr = ..., idx = ...; std::vector<double> val = ...;
//   mb::MatchResult r = mb::match(mb::sparse_graph(mb::csr(n, n, ptr, idx, val)), "suitor");
//   mb::MatchResult s = mb::match(mb::file_graph("g.mtx"), "roma-sparse", {.options = {{"phases", "20"}}});
//   // r.mate[u]: u's partner or -1; r.report.weight, .cardinality, .seconds
//   mb::CommunityResult c = mb::cluster(mb::file_graph("g.mtx"), "louvain-omp", {.options = {{"resolution", "2"}}});
//   // c.label[v]: v's community 0..k-1; c.modularity, c.hierarchy (community.h)
//
// The graph rules are matching.h's (those of the `matchblas` tool). Every
// failure throws api::error carrying the C status and message.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "matchblas/common.hpp"
#include "matchblas/community.h"
#include "matchblas/matching.h"

namespace matchblas::api {

enum class View : int {
  automatic = MATCHBLAS_VIEW_AUTO,
  general = MATCHBLAS_VIEW_GENERAL,
  bipartite = MATCHBLAS_VIEW_BIPARTITE,
  complete = MATCHBLAS_VIEW_COMPLETE
};

// Where a graph comes from; the arrays it views must outlive the calls.
struct Graph {
  matchblas_graph c{};
  std::string path;  // kept for a file graph (c.path points into it)

  Graph() = default;
  Graph(const Graph& o) : c(o.c), path(o.path) { repoint(); }
  Graph& operator=(const Graph& o) {
    c = o.c;
    path = o.path;
    repoint();
    return *this;
  }

 private:
  void repoint() {
    if (c.source == MATCHBLAS_GRAPH_FILE) c.path = path.c_str();
  }
};

template <class Index, class Value>
Graph sparse_graph(const SparseView<Index, Value>& a, View view = View::automatic, bool single_precision = false) {
  static_assert(std::is_same_v<Value, float> || std::is_same_v<Value, double> || std::is_same_v<Value, Pattern>,
                "matchblas: graph weights must be float, double or Pattern");
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_SPARSE;
  g.c.sparse = detail::to_c(a);
  g.c.view = static_cast<matchblas_view>(view);
  g.c.single_precision = single_precision;
  return g;
}

// An n x n row-major weight matrix (row i at values[i * ld]; ld 0: n): a
// complete graph, w(u, v) = max(|a_uv|, |a_vu|), the diagonal ignored.
template <class Value>
Graph dense_graph(std::int64_t n, std::span<const Value> values, std::int64_t ld = 0, bool single_precision = false) {
  static_assert(std::is_same_v<Value, float> || std::is_same_v<Value, double>, "matchblas: float or double weights");
  const std::int64_t stride = ld == 0 ? n : ld;
  if (n < 0 || stride < n || (n > 0 && static_cast<std::int64_t>(values.size()) < (n - 1) * stride + n))
    throw error(MATCHBLAS_ERR_BAD_DIMENSION, "a dense graph of order " + std::to_string(n) + " and leading dimension " +
                                                 std::to_string(stride) + " needs more than the " +
                                                 std::to_string(values.size()) + " values given");
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_DENSE;
  g.c.dense_n = n;
  g.c.dense_leading_dimension = ld;
  g.c.dense_type = detail::value_type<Value>();
  g.c.dense_values = values.data();
  g.c.view = MATCHBLAS_VIEW_COMPLETE;
  g.c.single_precision = single_precision;
  return g;
}

// A Matrix Market file (plain or gzip; "-" is standard input).
inline Graph file_graph(std::string path, View view = View::automatic, bool single_precision = false) {
  Graph g;
  g.c.source = MATCHBLAS_GRAPH_FILE;
  g.path = std::move(path);
  g.c.path = g.path.c_str();
  g.c.view = static_cast<matchblas_view>(view);
  g.c.single_precision = single_precision;
  return g;
}

enum class Device : int { as_named = -1, cpu = 0, gpu = 1 };

struct Settings {
  std::map<std::string, std::string> options;  // the algorithm's own ("" for a flag)
  std::uint64_t seed = 1;
  int threads = 0;                             // CPU: 0 all; GPU: per kernel, 0 one per item
  Device device = Device::as_named;            // cpu / gpu: that twin of the named algorithm
  int gpu = 0;
};

struct Report {
  std::string algo, graph, message;
  std::int64_t vertices = 0, edges = 0, bipartite_rows = 0, cardinality = 0, phases = 0;
  double weight = 0, setup_seconds = 0, seconds = 0;
};

struct MatchResult {
  std::vector<std::int64_t> mate;  // mate[u]: u's partner, -1 when free
  Report report;
};

struct BMatchResult {
  std::vector<std::int64_t> offsets;   // vertices + 1
  std::vector<std::int64_t> partners;  // of v: [offsets[v], offsets[v+1]), ascending; each edge at both ends
  Report report;
};

// Communities (community.h): label[v] in 0..communities-1; hierarchy[l][v]
// the community of level l's vertex v.
struct CommunityResult {
  std::vector<std::int64_t> label;
  std::vector<std::vector<std::int64_t>> hierarchy;
  std::string algo, message;
  std::int64_t vertices = 0, edges = 0, communities = 0, refine_moves = 0;
  double resolution = 1, modularity = 0, setup_seconds = 0, seconds = 0;
};

struct MarriageResult {
  std::vector<std::int64_t> wife, husband;  // -1 when single
  Report report;
};

// Man m's acceptable women best first in men[m]; woman w's men in women[w].
struct Preferences {
  std::vector<std::vector<std::int64_t>> men, women;
};

struct Algorithm {
  std::string name, problem, family, device, twin, guarantee, summary, graph_kinds, unavailable;
  bool deterministic = true, threaded = false, available = false;
  int job = 0;
  struct Option {
    std::string name, type, default_value, help;
    std::vector<std::string> words;
    double lo = 0, hi = 0;
  };
  std::vector<Option> options;
};

namespace detail {

struct CSettings {
  std::vector<matchblas_option> options;
  matchblas_run_settings c{};
  explicit CSettings(const Settings& s) {
    matchblas_default_run_settings(&c);
    for (const auto& [name, value] : s.options) options.push_back({name.c_str(), value.c_str()});
    c.options = options.data();
    c.n_options = static_cast<std::int64_t>(options.size());
    c.seed = s.seed;
    c.threads = s.threads;
    c.device = static_cast<int>(s.device);
    c.gpu = s.gpu;
  }
};

inline Report to_report(const matchblas_match_report& r) {
  Report o;
  o.algo = r.algo;
  o.graph = r.graph;
  o.message = r.message;
  o.vertices = r.vertices;
  o.edges = r.edges;
  o.bipartite_rows = r.bipartite_rows;
  o.cardinality = r.cardinality;
  o.phases = r.phases;
  o.weight = r.weight;
  o.setup_seconds = r.setup_seconds;
  o.seconds = r.seconds;
  return o;
}

inline std::vector<std::string> split_words(const char* text) {
  std::vector<std::string> out;
  std::string w;
  for (const char* p = text; *p; ++p) {
    if (*p == ',') {
      out.push_back(w);
      w.clear();
    } else {
      w += *p;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

}  // namespace detail

inline MatchResult match(const Graph& g, const std::string& algo, const Settings& settings = {}) {
  const detail::CSettings s(settings);
  matchblas_matching m{};
  matchblas_match_report r{};
  const int status = matchblas_match(&g.c, algo.c_str(), &s.c, &m, &r);
  if (status < 0) throw error(status, r.message);
  MatchResult out;
  out.mate.assign(m.mate, m.mate + m.vertices);
  matchblas_matching_free(&m);
  out.report = detail::to_report(r);
  return out;
}

// b[v] for every vertex, or one value (b.size() == 1) for all.
inline BMatchResult b_match(const Graph& g, const std::string& algo, std::span<const std::int64_t> b,
                            const Settings& settings = {}) {
  const detail::CSettings s(settings);
  matchblas_b_matching m{};
  matchblas_match_report r{};
  const int status =
      matchblas_b_match(&g.c, algo.c_str(), b.data(), static_cast<std::int64_t>(b.size()), &s.c, &m, &r);
  if (status < 0) throw error(status, r.message);
  BMatchResult out;
  out.offsets.assign(m.offsets, m.offsets + m.vertices + 1);
  out.partners.assign(m.partners, m.partners + 2 * m.edges);
  matchblas_b_matching_free(&m);
  out.report = detail::to_report(r);
  return out;
}

inline BMatchResult b_match(const Graph& g, const std::string& algo, std::int64_t b, const Settings& settings = {}) {
  return b_match(g, algo, std::span<const std::int64_t>(&b, 1), settings);
}

// Communities of g's graph by a community detection algorithm of the
// registry ("louvain", "louvain-omp", "louvain-gpu"); options by name
// ("resolution", "threshold", ...). The graph rule is community.h's.
inline CommunityResult cluster(const Graph& g, const std::string& algo, const Settings& settings = {}) {
  const detail::CSettings s(settings);
  struct Held {
    matchblas_communities c{};
    ~Held() { matchblas_communities_free(&c); }
  } held;
  matchblas_cluster_report r{};
  const int status = matchblas_cluster(&g.c, algo.c_str(), &s.c, &held.c, &r);
  if (status < 0) throw error(status, r.message);
  CommunityResult out;
  out.label.assign(held.c.label, held.c.label + held.c.vertices);
  for (std::int64_t l = 0; l < held.c.levels; ++l)
    out.hierarchy.emplace_back(held.c.hierarchy + held.c.level_offsets[l], held.c.hierarchy + held.c.level_offsets[l + 1]);
  out.algo = r.algo;
  out.message = r.message;
  out.vertices = r.vertices;
  out.edges = r.edges;
  out.communities = r.communities;
  out.refine_moves = r.refine_moves;
  out.resolution = r.resolution;
  out.modularity = r.modularity;
  out.setup_seconds = r.setup_seconds;
  out.seconds = r.seconds;
  return out;
}

namespace detail {
inline MarriageResult marry(const matchblas_preferences& p, const std::string& algo, const Settings& settings) {
  const CSettings s(settings);
  matchblas_marriage m{};
  matchblas_match_report r{};
  const int status = matchblas_marry(&p, algo.c_str(), &s.c, &m, &r);
  if (status < 0) throw error(status, r.message);
  MarriageResult out;
  out.wife.assign(m.wife, m.wife + m.men);
  out.husband.assign(m.husband, m.husband + m.women);
  matchblas_marriage_free(&m);
  out.report = to_report(r);
  return out;
}
}  // namespace detail

inline MarriageResult marry(const Preferences& p, const std::string& algo, const Settings& settings = {}) {
  std::vector<std::int64_t> mo{0}, ml, wo{0}, wl;
  for (const auto& l : p.men) {
    ml.insert(ml.end(), l.begin(), l.end());
    mo.push_back(static_cast<std::int64_t>(ml.size()));
  }
  for (const auto& l : p.women) {
    wl.insert(wl.end(), l.begin(), l.end());
    wo.push_back(static_cast<std::int64_t>(wl.size()));
  }
  const matchblas_preferences c{static_cast<std::int64_t>(p.men.size()),
                                static_cast<std::int64_t>(p.women.size()),
                                mo.data(),
                                ml.data(),
                                wo.data(),
                                wl.data(),
                                nullptr};
  return detail::marry(c, algo, settings);
}

// A stable marriage instance in the tool's text format (`matchblas marriage-gen`).
inline MarriageResult marry_file(const std::string& path, const std::string& algo, const Settings& settings = {}) {
  matchblas_preferences c{};
  c.path = path.c_str();
  return detail::marry(c, algo, settings);
}

// The registry, in `matchblas list`'s order.
inline std::vector<Algorithm> algorithms() {
  std::vector<Algorithm> out;
  const std::int64_t n = matchblas_algorithm_count();
  for (std::int64_t i = 0; i < n; ++i) {
    matchblas_algorithm_info c{};
    if (const int status = matchblas_algorithm(i, &c); status < 0) throw error(status, "reading the registry");
    Algorithm a;
    a.name = c.name;
    a.problem = c.problem;
    a.family = c.family;
    a.device = c.device;
    a.twin = c.twin;
    a.guarantee = c.guarantee;
    a.summary = c.summary;
    a.graph_kinds = c.graph_kinds;
    a.unavailable = c.unavailable;
    a.deterministic = c.deterministic != 0;
    a.threaded = c.threaded != 0;
    a.available = c.available != 0;
    a.job = c.job;
    for (std::int64_t k = 0; k < c.n_options; ++k) {
      matchblas_option_info o{};
      if (const int status = matchblas_algorithm_option(i, k, &o); status < 0) throw error(status, "reading the registry");
      a.options.push_back({o.name, o.type, o.default_value, o.help, detail::split_words(o.words), o.lo, o.hi});
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace matchblas::api
