// The C interface of the registry's calls (include/matchblas/matching.h,
// coordinate.h, community.h): matchings, b-matchings, stable marriages and
// communities. The caller's graph (arrays, a dense buffer or a Matrix
// Market file) becomes a graph by the tool's rules (api/matching_inputs.cpp: through the same
// MmMatrix a file gives, lib/graph_from_matrix.hpp), the algorithm and its
// options come from the registry and are checked there, the result is
// validated, and everything is copied into library-allocated arrays.
// Nothing escapes as an exception.
#include "matchblas/matching.h"

#include "matchblas/community.h"
#include "matchblas/coordinate.h"

#include <omp.h>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "matching_inputs.hpp"
#include "c_api_support.hpp"
#include "datasets/load.hpp"
#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/community/louvain.hpp"
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
    Chosen c = choose(algo, Problem::matching, s, single ? Precision::float32 : Precision::float64);
    const CallThreads threads(c.run.threads);
    check_interrupt();
    const auto t0 = clock_type::now();
    const LoadedGraph g = load(c.info->kinds);
    const double setup = seconds_since(t0);
    check_interrupt();
    PhaseReport phases;
    if (c.run.options.takes("phase-report")) c.run.phases = &phases;
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
      report->phases = phases.phases();
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
    Chosen c = choose(algo, Problem::b_matching, s, single ? Precision::float32 : Precision::float64);
    const CallThreads threads(c.run.threads);
    check_interrupt();
    const auto t0 = clock_type::now();
    const LoadedGraph g = load(c.info->kinds);
    // The run on the graph's weights (float when the caller's are single
    // precision: b-suitor-gpu's packed offer words).
    const auto run = [&](const auto* csr) {
      const vertex_t n = csr->n_rows;
      if (b_length != 1 && b_length != n)
        fail(MATCHBLAS_ERR_BAD_DIMENSION, "b has " + std::to_string(b_length) + " values; the graph has " +
                                              std::to_string(n) + " vertices (or give 1)");
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
    };
    if (const auto* f = std::get_if<Csr<float>>(&g.graph)) run(f);
    else if (const auto* d = std::get_if<Csr<double>>(&g.graph)) run(d);
    else fail(MATCHBLAS_ERR_BAD_INPUT, "b-matchings take sparse graphs (general or bipartite view), not complete ones");
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
    for (std::int64_t k = 0; k < count; ++k) {
      if (offsets[k + 1] < offsets[k])
        fail(MATCHBLAS_ERR_BAD_POINTERS, std::string("the ") + who + "'s offsets decrease at " + std::to_string(k));
      // A list names each of the others at most once: checked before the
      // lists are read, so no count beyond them is ever allocated.
      if (const std::int64_t length = offsets[k + 1] - offsets[k]; length > others)
        fail(MATCHBLAS_ERR_BAD_POINTERS, std::string("the ") + who + "'s list " + std::to_string(k) + " has " +
                                             std::to_string(length) + " entries (offsets " + std::to_string(offsets[k]) +
                                             " to " + std::to_string(offsets[k + 1]) + "), more than the " +
                                             std::to_string(others) + " it can name once each");
    }
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
    Chosen c = choose(algo, Problem::marriage, s, Precision::float64);
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

namespace {

// matchblas_cluster on a graph from load(); the arrays are the caller's only
// when every one was allocated and the partition checked.
template <class Load>
int cluster_graph(Load load, const char* algo, const matchblas_run_settings* settings,
                  matchblas_communities* result, matchblas_cluster_report* report) {
  if (report) {
    *report = matchblas_cluster_report{};
    set_status(report, MATCHBLAS_OK, "ok");
  }
  if (result) *result = matchblas_communities{};
  return guarded(report, [&] {
    if (!result) fail(MATCHBLAS_ERR_NULL_ARGUMENT, "the result is NULL");
    const matchblas_run_settings s = settings_or_default(settings);
    Chosen c = choose(algo, Problem::community, s, Precision::float64);
    const CallThreads threads(c.run.threads);
    check_interrupt();
    const auto t0 = clock_type::now();
    const Csr<double> g = load();
    const double setup = seconds_since(t0);
    check_interrupt();
    const auto t1 = clock_type::now();
    const Communities p = run_community(*c.info, g, c.run);
    const double seconds = seconds_since(t1);
    const double gamma = c.run.options.typed<LouvainOptions>().resolution;
    if (const std::string why = communities_violation(g, p, gamma); !why.empty())
      fail(MATCHBLAS_ERR_INTERNAL, "'" + c.info->name + "' returned an invalid partition: " + why);
    using Owned = std::unique_ptr<int64_t, decltype(&std::free)>;
    const std::int64_t levels = std::int64_t(p.hierarchy.size());
    std::int64_t total = 0;
    for (const std::vector<vertex_t>& h : p.hierarchy) total += std::int64_t(h.size());
    Owned label(allocate<int64_t>(g.n_rows), &std::free), offsets(allocate<int64_t>(levels + 1), &std::free),
        hierarchy(allocate<int64_t>(total), &std::free);
    std::copy(p.label.begin(), p.label.end(), label.get());
    offsets.get()[0] = 0;
    for (std::int64_t l = 0; l < levels; ++l) {
      const std::vector<vertex_t>& h = p.hierarchy[std::size_t(l)];
      std::copy(h.begin(), h.end(), hierarchy.get() + offsets.get()[l]);
      offsets.get()[l + 1] = offsets.get()[l] + std::int64_t(h.size());
    }
    result->vertices = g.n_rows;
    result->communities = p.communities;
    result->levels = levels;
    result->label = label.release();
    result->level_offsets = offsets.release();
    result->hierarchy = hierarchy.release();
    if (report) {
      copy_text(report->algo, c.info->name);
      report->vertices = g.n_rows;
      std::int64_t edges = 0;
      for (vertex_t u = 0; u < g.n_rows; ++u)
        for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) edges += g.cols[e] > u;
      report->edges = edges;
      report->resolution = gamma;
      report->modularity = p.modularity;
      report->communities = p.communities;
      report->levels = levels;
      report->refine_moves = p.refine_moves;
      report->setup_seconds = setup;
      report->seconds = seconds;
    }
    return MATCHBLAS_OK;
  });
}

}  // namespace

extern "C" int matchblas_cluster(const matchblas_graph* graph, const char* algo,
                                 const matchblas_run_settings* settings, matchblas_communities* result,
                                 matchblas_cluster_report* report) {
  return cluster_graph([&] { return load_community_graph(graph); }, algo, settings, result, report);
}

extern "C" int matchblas_cluster_coordinate(const matchblas_coordinate_graph* graph, const char* algo,
                                            const matchblas_run_settings* settings, matchblas_communities* result,
                                            matchblas_cluster_report* report) {
  return cluster_graph([&] { return load_community_coordinate_graph(graph); }, algo, settings, result, report);
}

extern "C" void matchblas_communities_free(matchblas_communities* result) {
  if (!result) return;
  std::free(result->label);
  std::free(result->level_offsets);
  std::free(result->hierarchy);
  *result = matchblas_communities{};
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
    static const char* const types[] = {"integer", "real", "word", "flag", "bytes"};
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
