// The community detection entries (matchers/registry.hpp): Louvain,
// sequential, OpenMP and GPU. A new one is one declaration here.
// Memory: bytes per vertex and per undirected edge beyond the input graph,
// fitted to bench_memory's peaks (Erdos-Renyi, 2^17 and 2^18 vertices, edge
// factors 4 and 16: louvain 13 + 84, louvain-omp 0 + 94 measured) with
// about 15% to spare: the input check's transpose (24 bytes an edge), the
// second level's graph (at most the input's size), the aggregation's
// rows, a label, a degree, a community sum and a neighbour weight per
// vertex (louvain-omp: its threads' dense tables, at most 32 MB together),
// the modularity's long doubles. Measured again after the aggregation's
// hash-table sums and the dense tables (2 threads, ER 2^17-2^19): the
// declared values 1.42-1.53x the peaks.
// louvain-gpu's host memory is the input check's (a transpose: 24 bytes an
// edge) and the labels and hierarchy, not measured (bench_memory covers CPU
// entries); on the device it holds the graph (24 bytes an edge), the
// aggregation's keys, weights and sorted copies (64), the global hash
// tables of rows over 64 entries (at most 96), and about 110 bytes a vertex
// (labels, sums, the settling's lists, the rounds' margins and bounds).
#include "matchers/registry.hpp"

#include "matchers/community/louvain.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using namespace references;
using Type = OptionSpec::Type;

std::vector<OptionSpec> louvain_options(bool parallel, bool gpu) {
  std::vector<OptionSpec> o = {{"resolution", Type::real, "1", {}, 1e-9, 1e9,
           "gamma in Q = sum e_c/m - gamma (a_c/2m)^2: above 1 more, smaller communities"},
          {"threshold", Type::real, "0.001", {}, 0, 1,
           "a level's moves stop when a pass gains less modularity than this"},
          {"final-threshold", Type::real, "1e-06", {}, 0, 1,
           "the same for the levels after one gained less than --threshold"},
          {"max-levels", Type::integer, "100", {}, 1, 1000, "at most this many levels"},
          {"refine", Type::word, "on", {"on", "off"}, 0, 0,
           "on: then the input's vertices until none gains (the guarantee: a local optimum); off: the levels' "
           "partition as it is (faster, no guarantee for the input's vertices)"}};
  if (parallel)
    o.push_back({"coloring", Type::word, "on", {"on", "off"}, 0, 0,
                 "on: a round's moves by colour classes (no two neighbours at once); off: all at once, "
                 "minimum-label rule"});
  if (gpu)
    o.push_back({"together", Type::word, "drawn", {"strict", "additive", "drawn"}, 0, 0,
                 "which deciding neighbours move in one settling step: strict: none; additive: those whose moves "
                 "add up; drawn: additive, but no two drawn together into different communities"});
  return o;
}

LouvainOptions read_louvain(const OptionValues& v) {
  LouvainOptions o;
  o.resolution = v.real("resolution");
  o.threshold = v.real("threshold");
  o.final_threshold = v.real("final-threshold");
  o.max_levels = int(v.integer("max-levels"));
  if (v.takes("coloring")) o.coloring = v.word("coloring") == "on";
  o.refine = v.word("refine") == "on";
  if (v.takes("together")) {
    o.together = *louvain_together_named(v.word("together"));  // one of the option's words
  }
  if (o.final_threshold > o.threshold)
    throw invalid_input("--final-threshold must not exceed --threshold");
  return o;
}

// A Louvain entry, f(const Csr<double>&, LouvainOptions, const RunOptions&).
template <class F>
MatcherInfo community(MatcherInfo m, F f) {
  m.problem = Problem::community;
  m.guarantee = "local optimum";
  m.options = louvain_options(m.threaded || m.device == Device::gpu, m.device == Device::gpu);
  m.read_options = [](const OptionValues& v, Precision) -> std::any { return read_louvain(v); };
  m.run = CommunityRunner([f](const Csr<double>& g, const RunOptions& o) {
    LouvainOptions lo = o.options.typed<LouvainOptions>();
    lo.threads = o.threads;
    return f(g, lo, o);
  });
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

}  // namespace

void add_community(std::vector<MatcherInfo>& r) {
  r.push_back(community({.name = "louvain",
                         .summary = "Louvain: levels of local moves in vertex order, then the communities' graph",
                         .reference = blondel_louvain + ", sec. 2",
                         .memory = {64, 96}},
                        [](const Csr<double>& g, const LouvainOptions& o, const RunOptions&) { return louvain(g, o); }));
  r.push_back(community({.name = "louvain-omp",
                         .threaded = true,
                         .summary = "Louvain, each round's moves decided in parallel by colour classes",
                         .reference = lu_grappolo + ", sec. 4-5",
                         .memory = {64, 104}},
                        [](const Csr<double>& g, const LouvainOptions& o, const RunOptions&) {
                          return louvain_omp(g, o);
                        }));
  r.push_back(community({.name = "louvain-gpu",
                         .device = Device::gpu,
                         .summary = "Louvain on the GPU: a warp per vertex hashes its neighbours' communities, "
                                    "moves by colour classes, aggregation by sorting",
                         .reference = naim_louvain_gpu + ", sec. 3-4",
                         .memory = {40, 32}},
                        [](const Csr<double>& g, const LouvainOptions& o, const RunOptions& run) {
                          GpuOptions gpu;
                          gpu.device = run.gpu;
                          return louvain_gpu(g, o, gpu);
                        }));
}

}  // namespace matchblas::registry_detail
