// The b-matching algorithms' registry entries (matchers/registry.hpp): the
// reference b_greedy, b-Suitor on CPU and GPU, and the GPU's locally
// dominant rounds. A new b-matching algorithm is one declaration here.
// Memory: bytes per vertex and per edge beyond the input, fitted to
// bench/bench_memory's peaks; GPU entries: host memory, their CPU twin's
// figures (the host side holds the same partner lists).
#include "matchers/registry.hpp"

#include "matchers/b_matching/b_matching.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using namespace references;

// A b-matching algorithm of sparse graphs, f(const Csr<W>&, b, RunOptions).
template <class F>
MatcherInfo b_matcher(MatcherInfo m, F f) {
  m.problem = Problem::b_matching;
  m.kinds = general_graphs | bipartite_graphs;
  m.guarantee = "b-greedy";
  m.run = BMatchRunner(on_sparse<BMatching>(m.name, f));
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

GpuOptions on_gpu(const RunOptions& o) {
  GpuOptions g;
  g.device = o.gpu;
  return g;
}

const std::string b_suitor_sources = naim_b_matching + "; " + khan_b_suitor + " (rows walked once, partially sorted)";

}  // namespace

void add_b_matching(std::vector<MatcherInfo>& r) {
  r.push_back(b_matcher({.name = "b-greedy",
                         .summary = "edges in the greedy order, each taken while both ends have room (the reference)",
                         .reference = naim_b_matching + " (the greedy b-matching every b-Suitor equals)",
                         .memory = {44, 40}},
                        [](const auto& g, const std::vector<int>& b, const RunOptions&) { return b_greedy(g, b); }));
  r.push_back(b_matcher({.name = "b-suitor",
                         .summary = "b-Suitor, sequential: each vertex keeps its b(v) best offers",
                         .reference = b_suitor_sources,
                         .twin = "b-suitor-gpu",
                         .memory = {136, 4}},
                        [](const auto& g, const std::vector<int>& b, const RunOptions&) { return b_suitor_seq(g, b); }));
  r.push_back(b_matcher({.name = "b-suitor-omp",
                         .threaded = true,
                         .summary = "b-Suitor, OpenMP, offers under per-vertex locks, floors read without them",
                         .reference = b_suitor_sources,
                         .memory = {132, 4}},
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          return b_suitor_omp(g, b, o.threads);
                        }));
  r.push_back(b_matcher({.name = "b-suitor-gpu",
                         .device = Device::gpu,
                         .summary = "b-Suitor on the GPU: a tile, warp or block per proposer by row length",
                         .reference = naim_b_matching + " (the GPU b-Suitor)",
                         .twin = "b-suitor",
                         .memory = {136, 4},
                         .options = {device_memory_option(),
                                     {"placement", OptionSpec::Type::word, "atomic", {"atomic", "sorted"}, 0, 0,
                                      "the first round's proposals placed by atomic maxima, or sorted by target and "
                                      "each target's best kept at once (float weights, rows resident; slower on "
                                      "the H200 measured so far)"}},
                         .read_options = [](const OptionValues& v, Precision precision) -> std::any {
                           BSuitorGpuOptions read;
                           read.device_memory = std::size_t(v.bytes("device-memory"));
                           read.first_round = parse_b_suitor_placement(v.word("placement"));
                           // Refused here, before any input is read (the run checks again).
                           if (read.first_round == BSuitorPlacement::sorted && precision != Precision::float32)
                             throw invalid_input("b-suitor-gpu: --placement sorted needs float weights "
                                                 "(--precision float)");
                           if (read.first_round == BSuitorPlacement::sorted && read.device_memory > 0)
                             throw invalid_input("b-suitor-gpu: --placement sorted needs no --device-memory limit");
                           return read;
                         },
                         .over_ranks =
                             [](const DistGraph& g, const std::vector<int>& b, const RunOptions& o) {
                               const BSuitorGpuOptions& read = o.options.typed<BSuitorGpuOptions>();
                               if (read.first_round == BSuitorPlacement::sorted)
                                 throw invalid_input("b-suitor-gpu under mpirun places by atomic maxima: "
                                                     "--placement sorted needs a run without mpirun");
                               GpuOptions gpu = on_gpu(o);
                               gpu.device_memory = read.device_memory;
                               return b_suitor_gpu_ranks(g, b, gpu);
                             }},
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          const BSuitorGpuOptions& read = o.options.typed<BSuitorGpuOptions>();
                          BSuitorGpuOptions gpu(on_gpu(o), read.first_round);
                          gpu.device_memory = read.device_memory;
                          return b_suitor_gpu(g, b, gpu);
                        }));
  r.push_back(b_matcher({.name = "b-ld-gpu",
                         .device = Device::gpu,
                         .summary = "locally dominant rounds on the GPU: edges among the best r(u) and r(v) at both "
                                    "ends, lists refilled below a cursor",
                         .reference = naim_hipc + " (Alg. 1-2, locally dominant edges), widened to the best b(v) at "
                                      "both ends; " + naim_b_matching + " (the greedy b-matching it equals)",
                         .memory = {136, 4}},
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          return b_ld_gpu(g, b, on_gpu(o));
                        }));
}

}  // namespace matchblas::registry_detail
