// The b-matching algorithms' registry entries (matchers/registry.hpp): the
// reference b_greedy, b-Suitor on CPU and GPU, and the GPU's locally
// dominant rounds. A new b-matching
// algorithm is one entry here.
#include "matchers/registry.hpp"

#include "matchers/b_matching/b_matching.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

// f(const Csr<W>&, b, RunOptions) -> BMatching on sparse graphs.
template <class F>
MatcherInfo b_matcher(std::string name, Device device, std::string guarantee, std::string summary, std::string twin,
                      F f) {
  MatcherInfo m;
  m.name = name;
  m.problem = Problem::b_matching;
  m.kinds = general_graphs | bipartite_graphs;
  m.device = device;
  m.guarantee = std::move(guarantee);
  m.summary = std::move(summary);
  m.twin = std::move(twin);
  m.run = BMatchRunner(on_sparse<BMatching>(std::move(name), f));
  if (device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

}  // namespace

void add_b_matching(std::vector<MatcherInfo>& r) {
  r.push_back(b_matcher("b-greedy", Device::cpu, "b-greedy",
                        "edges in the greedy order, each taken while both ends have room (the reference)", "",
                        [](const auto& g, const std::vector<int>& b, const RunOptions&) { return b_greedy(g, b); }));
  r.push_back(b_matcher("b-suitor", Device::cpu, "b-greedy",
                        "b-Suitor, sequential: each vertex keeps its b(v) best offers",
                        "b-suitor-gpu",
                        [](const auto& g, const std::vector<int>& b, const RunOptions&) { return b_suitor_seq(g, b); }));
  r.push_back(threaded(b_matcher("b-suitor-omp", Device::cpu, "b-greedy",
                        "b-Suitor, OpenMP, offers under per-vertex locks, floors read without them", "",
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          return b_suitor_omp(g, b, o.threads);
                        })));
  r.push_back(b_matcher("b-suitor-gpu", Device::gpu, "b-greedy",
                        "b-Suitor on the GPU: a tile, warp or block per proposer by row length", "b-suitor",
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          GpuOptions go;
                          go.device = o.gpu;
                          return b_suitor_gpu(g, b, go);
                        }));
  r.push_back(b_matcher("b-ld-gpu", Device::gpu, "b-greedy",
                        "locally dominant rounds on the GPU: edges among the best r(u) and r(v) at both ends, "
                        "lists refilled below a cursor",
                        "",
                        [](const auto& g, const std::vector<int>& b, const RunOptions& o) {
                          GpuOptions go;
                          go.device = o.gpu;
                          return b_ld_gpu(g, b, go);
                        }));
  // Memory beyond the input (MatcherInfo::memory), bytes per vertex and per
  // edge: peaks measured by bench/bench_memory, fitted and rounded up by
  // about 20% (bench/RESULTS.md, "Memory estimates"). GPU entries: host
  // memory, their CPU twin's figures (not measured: no GPU on the
  // development machine).
  set_memory(r, {{"b-greedy", 44, 40}, {"b-suitor", 136, 4}, {"b-suitor-omp", 132, 4}, {"b-suitor-gpu", 136, 4}, {"b-ld-gpu", 136, 4}});

  using namespace references;
  cite(r, {{"b-greedy", naim_b_matching + " (the greedy b-matching every b-Suitor equals)"},
           {"b-suitor", naim_b_matching + "; " + khan_b_suitor + " (rows walked once, partially sorted)"},
           {"b-suitor-omp", naim_b_matching + "; " + khan_b_suitor + " (rows walked once, partially sorted)"},
           {"b-suitor-gpu", naim_b_matching + " (the GPU b-Suitor)"},
           {"b-ld-gpu", naim_hipc + " (Alg. 1-2, locally dominant edges), widened to the best b(v) at both ends; " +
                            naim_b_matching + " (the greedy b-matching it equals)"}});
}

}  // namespace matchblas::registry_detail
