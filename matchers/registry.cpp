// The registered matchers. One entry per matcher; keep the list sorted by
// family (references first).
#include "matchers/registry.hpp"

#include "lib/error.hpp"
#include "matchers/general/exact.hpp"
#include "matchers/general/greedy.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/ld_rounds.hpp"
#include "matchers/general/pga.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/general/suitor_bulk.hpp"

namespace matchblas {

namespace {

// Adapts a generic callable f(graph, options) to GraphRef, for the graph
// kinds it accepts; other kinds throw (the registry's `kinds` says which).
template <class F>
std::function<Matching(GraphRef, const MatchOptions&)> on_sparse_and_dense(F f) {
  return [f](GraphRef g, const MatchOptions& opt) {
    return std::visit([&](const auto* graph) { return f(*graph, opt); }, g);
  };
}

// Adapts f(const Csr<W>&, options) to GraphRef for matchers of sparse graphs
// (general and bipartite views); a complete graph is refused.
template <class F>
std::function<Matching(GraphRef, const MatchOptions&)> on_sparse(std::string name, F f) {
  return [name, f](GraphRef g, const MatchOptions& opt) -> Matching {
    return std::visit(
        [&](const auto* graph) -> Matching {
          if constexpr (requires { graph->n_rows; }) return f(*graph, opt);
          else throw invalid_input("matcher '" + name + "' takes sparse graphs, not complete ones");
        },
        g);
  };
}

// A deterministic CPU matcher of sparse graphs (general and bipartite views).
// Guarantee "greedy": it returns exactly Greedy's matching.
template <class F>
MatcherInfo sparse_cpu(std::string name, std::string guarantee, std::string summary, F f) {
  MatcherInfo m;
  m.name = name;
  m.kinds = general_graphs | bipartite_graphs;
  m.device = Device::cpu;
  m.deterministic = true;
  m.guarantee = std::move(guarantee);
  m.summary = std::move(summary);
  m.run = on_sparse(std::move(name), f);
  return m;
}

// A deterministic GPU matcher of sparse graphs; unavailable in builds
// without CUDA (without a GPU it throws when run, saying why).
template <class F>
MatcherInfo sparse_gpu(std::string name, std::string summary, F f) {
  MatcherInfo m = sparse_cpu(std::move(name), "greedy", std::move(summary), f);
  m.device = Device::gpu;
#ifndef MATCHBLAS_HAVE_CUDA
  m.unavailable = "needs CUDA: this build has none (configure where nvcc is found)";
#endif
  return m;
}

// A matcher of complete graphs from the ROMA family: f(dense graph, roma
// options with the run's seed, options) -> RomaRun; the run's phases go to
// MatchOptions::roma_report when it is set. Sparse graphs are refused.
template <class F>
MatcherInfo complete_roma(std::string name, Device device, std::string summary, F f) {
  MatcherInfo m;
  m.name = name;
  m.kinds = complete_graphs;
  m.device = device;
  m.guarantee = "2/3-eps";
  m.summary = std::move(summary);
  m.run = [name, f](GraphRef g, const MatchOptions& o) -> Matching {
    return std::visit(
        [&](const auto* graph) -> Matching {
          if constexpr (requires { graph->n_rows; }) {
            throw invalid_input("matcher '" + name + "' takes complete graphs (--view complete), not sparse ones");
          } else {
            RomaOptions ro = o.roma;
            ro.seed = o.seed;
            RomaRun run = f(*graph, ro, o);
            if (o.roma_report) *o.roma_report = run;
            return std::move(run.matching);
          }
        },
        g);
  };
  return m;
}

std::vector<MatcherInfo> make_registry() {
  std::vector<MatcherInfo> r;
  r.push_back({
      .name = "greedy",
      .kinds = general_graphs | complete_graphs | bipartite_graphs,
      .device = Device::cpu,
      .deterministic = true,
      .guarantee = "greedy",
      .summary = "sort edges by (weight desc, min id, max id), scan (seed 000 sec. 3.3.1)",
      .run = on_sparse_and_dense([](const auto& g, const MatchOptions& o) { return greedy(g, o.threads); }),
      .unavailable = std::nullopt,
  });
  r.push_back({
      .name = "exact",
      .kinds = general_graphs | complete_graphs | bipartite_graphs,
      .device = Device::cpu,
      .deterministic = true,
      .guarantee = "exact",
      .summary = "maximum weight matching, LEMON's blossom algorithm; perfect on complete graphs",
      .run = on_sparse_and_dense([](const auto& g, const MatchOptions&) {
        if constexpr (requires { g.n_rows; }) return exact_matching(g);
        else return exact_complete_matching(g);
      }),
      .unavailable = have_exact() ? std::nullopt
                                  : std::optional<std::string>("needs LEMON (liblemon-dev), absent from this build"),
  });
  r.push_back(sparse_cpu("suitor", "greedy", "Suitor, sequential (seed 004 sec. 2.1; seed 001 Paper I Alg. 3)",
                         [](const auto& g, const MatchOptions& o) { return suitor_seq(g, o.threads); }));
  r.push_back(sparse_cpu("suitor-locks", "greedy", "Suitor, OpenMP with one lock per vertex (seed 004 sec. 2.2)",
                         [](const auto& g, const MatchOptions& o) { return suitor_locks(g, o.threads); }));
  r.push_back(sparse_cpu("suitor-cas", "greedy", "Suitor, OpenMP lock-free with compare-and-swap (seed 004 sec. 2.3)",
                         [](const auto& g, const MatchOptions& o) { return suitor_cas(g, o.threads); }));
  r.push_back(sparse_cpu("ld", "greedy", "Locally-Dominant, sequential with a queue (seed 001 Paper I Alg. 1-2)",
                         [](const auto& g, const MatchOptions& o) { return ld_seq(g, o.threads); }));
  r.push_back(sparse_cpu("ld-omp", "greedy", "Locally-Dominant, OpenMP (seed 001 Paper I Alg. 1)",
                         [](const auto& g, const MatchOptions& o) { return ld_omp(g, o.threads); }));
  r.push_back(sparse_cpu("handshake", "greedy", "mutual strongest neighbours, filter, compact; with the ops (seed 003)",
                         [](const auto& g, const MatchOptions& o) { return handshake(g, o.threads); }));
  r.push_back(sparse_cpu("ld-rounds", "greedy", "locally dominant edges in synchronous rounds; with the ops (seed 002 Alg. 1)",
                         [](const auto& g, const MatchOptions& o) { return ld_rounds(g, o.threads); }));
  r.push_back(sparse_cpu("suitor-bulk", "greedy", "Suitor in bulk-synchronous rounds; with the ops (issue 3)",
                         [](const auto& g, const MatchOptions& o) { return suitor_bulk(g, o.threads); }));
  r.push_back(sparse_cpu("suitor-heavy", "1/2", "2-Suitor, then optimal matchings of its paths and cycles (seed 004 sec. 3.1)",
                         [](const auto& g, const MatchOptions& o) { return suitor_heavy(g, o.threads); }));
  r.push_back(sparse_cpu("pga", "1/2", "path growing, Drake-Hougardy (seed 000 sec. 3.3.2)",
                         [](const auto& g, const MatchOptions& o) { return pga(g, o.threads); }));
  r.push_back(sparse_cpu("pga-dp", "1/2", "PGA': path growing, each path matched optimally by DP (seed 000 sec. 3.3.2)",
                         [](const auto& g, const MatchOptions& o) { return pga_dp(g, o.threads); }));
  r.push_back(sparse_cpu("gpa", "1/2", "global paths, Maue-Sanders, DP on paths and even cycles (seed 000 sec. 3.3.3)",
                         [](const auto& g, const MatchOptions& o) { return gpa(g, o.threads); }));
  for (const bool random_order : {true, false}) {
    MatcherInfo m = complete_roma(random_order ? "roma" : "rama", Device::cpu,
                                  random_order
                                      ? "4-cycle augmentation, every vertex per phase in random order (seed 000 Alg. 3-5)"
                                      : "4-cycle augmentation of random vertices, n per phase (seed 000 Alg. 2, 4-5)",
                                  [random_order](const auto& g, const RomaOptions& ro, const MatchOptions&) {
                                    return random_order ? roma(g, ro) : rama(g, ro);
                                  });
    m.deterministic = true;  // seeded
    r.push_back(std::move(m));
  }
  for (const int version : {0, 1, 2}) {
    MatcherInfo m = complete_roma(
        version == 0 ? std::string("roma-gpu") : "roma-gpu-" + std::to_string(version), Device::gpu,
        version == 0   ? "ROMA on the GPU: a cluster per matched pair, rows in distributed shared memory (issue 5)"
        : version == 1 ? "ROMA on the GPU, a thread per matching edge, atomicFlip (seed 000 Alg. 6, 7, 9)"
                       : "ROMA on the GPU, a block per matching edge, block max-reduction (seed 000 Alg. 7-9)",
        [version](const auto& g, const RomaOptions& ro, const MatchOptions& o) {
          if (version == 0) {
            RomaGpuOptions go = o.roma_gpu;
            go.device = o.gpu.device;
            return roma_gpu(g, ro, go);
          }
          return roma_gpu_thesis(g, version, ro, o.gpu.device);
        });
    m.deterministic = false;  // racing flips
#ifndef MATCHBLAS_HAVE_CUDA
    m.unavailable = "needs CUDA: this build has none (configure where nvcc is found)";
#endif
    r.push_back(std::move(m));
  }
  r.push_back(sparse_gpu("suitor-gpu", "GPU-Suitor, warp-based, NoSync/SyncLB/SyncNoLB/Hybrid (seed 001 Paper I Alg. 4)",
                         [](const auto& g, const MatchOptions& o) { return suitor_gpu(g, o.gpu); }));
  r.push_back(sparse_gpu("ld-gpu", "Locally-Dominant, a GPU thread per vertex: the GPU-LD baseline (seed 001 Paper I)",
                         [](const auto& g, const MatchOptions& o) { return ld_gpu(g, o.gpu); }));
  r.push_back(sparse_gpu("handshake-gpu", "mutual strongest neighbours, filter, compact; the GPU ops (seed 003)",
                         [](const auto& g, const MatchOptions& o) { return handshake_gpu(g, o.gpu); }));
  return r;
}

}  // namespace

const std::vector<MatcherInfo>& matchers() {
  static const std::vector<MatcherInfo> registry = make_registry();
  return registry;
}

const MatcherInfo& find_matcher(std::string_view name) {
  std::string known;
  for (const MatcherInfo& m : matchers()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw invalid_input("unknown matcher '" + std::string(name) + "' (known: " + known + ")");
}

std::string to_string(Device d) { return d == Device::cpu ? "cpu" : "gpu"; }

}  // namespace matchblas
