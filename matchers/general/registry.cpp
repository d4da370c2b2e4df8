// The general-graph matchers' registry entries (matchers/registry.hpp): the
// references (greedy, exact), the 1/2-approximate family that equals greedy
// on CPU and GPU, and the path-based matchers. A new matcher of this family
// is one entry here.
#include "matchers/registry.hpp"

#include "matchers/general/exact.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/general/greedy.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/ld_rounds.hpp"
#include "matchers/general/pga.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/general/suitor_bulk.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

// A deterministic CPU matcher of sparse graphs (general and bipartite views),
// f(const Csr<W>&, threads).
template <class F>
MatcherInfo sparse_cpu(std::string name, std::string guarantee, std::string summary, F f, std::string twin = "") {
  MatcherInfo m;
  m.name = name;
  m.kinds = general_graphs | bipartite_graphs;
  m.guarantee = std::move(guarantee);
  m.summary = std::move(summary);
  m.twin = std::move(twin);
  m.run = MatchRunner(on_sparse<Matching>(
      std::move(name), [f](const auto& g, const RunOptions& o) { return f(g, o.threads); }));
  return m;
}

// A GPU matcher of sparse graphs equal to greedy: f(const Csr<W>&, GpuOptions
// or a derived options struct filled by `options`), with its CPU twin.
template <class F, class O>
MatcherInfo sparse_gpu(std::string name, std::string summary, std::string twin, std::vector<OptionSpec> specs,
                       O options, F f) {
  MatcherInfo m;
  m.name = name;
  m.kinds = general_graphs | bipartite_graphs;
  m.device = Device::gpu;
  m.guarantee = "greedy";
  m.summary = std::move(summary);
  m.twin = std::move(twin);
  m.options = std::move(specs);
  m.check = [options](const OptionValues& v, Precision) {
    RunOptions o;
    o.options = v;
    options(o);  // the option structs' own checks (e.g. a multiple of 32)
  };
  m.run = MatchRunner(on_sparse<Matching>(
      std::move(name), [f, options](const auto& g, const RunOptions& o) { return f(g, options(o)); }));
  m.unavailable = needs_cuda();
  return m;
}

// roma-sparse, -omp and -gpu: f(graph, RomaSparseOptions, RunOptions) ->
// RomaRun; its phases go to RunOptions::phase_report when set.
template <class F>
MatcherInfo roma_sparse_entry(std::string name, Device device, bool parallel, std::string summary, std::string twin,
                              F f) {
  using Type = OptionSpec::Type;
  MatcherInfo m;
  m.name = name;
  m.kinds = general_graphs | bipartite_graphs;
  m.device = device;
  m.twin = std::move(twin);
  if (device == Device::gpu) m.unavailable = needs_cuda();
  m.deterministic = !parallel;  // seeded; the threads' races decide otherwise
  m.seeded = true;
  m.guarantee = "2/3-eps";
  m.summary = std::move(summary);
  m.options = {
      {"phases", Type::integer, "100", {}, 0, 1 << 30, "at most P phases (stops earlier at a phase without augmentations)"},
      {"min-gain", Type::real, "1e-09", {}, 0, 1, "augment only above G x the largest edge weight"},
      {"start", Type::word, "suitor", {"suitor", "gpa", "empty"}, 0, 0,
       "the start matching (suitor: greedy's; gpa: Maue-Sanders' global paths)"},
      {"candidates", Type::integer, "0", {}, 0, 1 << 30,
       "search only each vertex's K heaviest neighbours (0: all; bounded lists give up the 2/3 bound)"},
      {"phase-report", Type::flag, "", {}, 0, 0, "print augmentations, weight and seconds per phase"}};
  if (device == Device::cpu)
    m.options.insert(m.options.end() - 1,
                     {"length", Type::integer, "2", {}, 2, 64,
                      "augmentations of up to L new edges (2: Pettie-Sanders'; more: passes of longer ones "
                      "whenever the 2-augmentations converge, one thread)"});
  m.run = MatchRunner(on_sparse<Matching>(std::move(name), [f](const auto& g, const RunOptions& o) {
    RomaSparseOptions ro;
    ro.seed = o.seed;
    ro.phases = int(o.options.integer("phases"));
    ro.min_gain = o.options.real("min-gain");
    ro.start = parse_roma_sparse_start(o.options.word("start"));
    ro.candidates = int(o.options.integer("candidates"));
    if (o.options.takes("length")) ro.length = int(o.options.integer("length"));
    RomaRun run = f(g, ro, o);
    if (o.phase_report) *o.phase_report = run;
    return std::move(run.matching);
  }));
  return m;
}

// An OpenMP matcher written with the ops and equal to greedy,
// f(const Csr<W>&, threads, ops::Backend), with the option
// --backend plain|graphblas: every op on that backend (graphblas: the graph
// resident in SuiteSparse:GraphBLAS, which the build must have).
template <class F>
MatcherInfo ops_cpu(std::string name, std::string summary, F f, std::string twin = "") {
  MatcherInfo m;
  m.name = name;
  m.kinds = general_graphs | bipartite_graphs;
  m.threaded = true;
  m.guarantee = "greedy";
  m.summary = std::move(summary);
  m.twin = std::move(twin);
  m.options = {{"backend", OptionSpec::Type::word, "plain", {"plain", "graphblas"}, 0, 0,
                "the ops' backend: plain (C++/OpenMP) or graphblas (SuiteSparse:GraphBLAS, the reference path)"}};
  m.check = [name](const OptionValues& v, Precision) {
    if (v.word("backend") == "graphblas" && !ops::have_graphblas())
      throw invalid_input("--backend graphblas of '" + name + "' needs SuiteSparse:GraphBLAS, which this build lacks");
  };
  m.run = MatchRunner(on_sparse<Matching>(std::move(name), [f](const auto& g, const RunOptions& o) {
    const bool graphblas = o.options.takes("backend") && o.options.word("backend") == "graphblas";
    return f(g, o.threads, graphblas ? ops::Backend::graphblas : ops::Backend::plain);
  }));
  return m;
}

const OptionSpec threads_per_block{"threads-per-block", OptionSpec::Type::integer, "128", {}, 32, 1024,
                                   "threads per block, a multiple of 32 (Naim et al. 2015 used 128, 192 or 256)"};

GpuOptions gpu_options(const RunOptions& o) {
  GpuOptions g;
  g.device = o.gpu;
  g.threads = o.threads;
  if (o.options.given("threads-per-block")) g.threads_per_block = int(o.options.integer("threads-per-block"));
  check_gpu_options(g);
  return g;
}

SuitorGpuOptions suitor_gpu_options(const RunOptions& o) {
  SuitorGpuOptions g;
  static_cast<GpuOptions&>(g) = gpu_options(o);
  g.vertices_per_warp = int(o.options.integer("vertices-per-warp"));
  g.variant = parse_suitor_gpu_variant(o.options.word("variant"));
  g.search = parse_suitor_gpu_search(o.options.word("search"));
  check_suitor_gpu_options(g);
  return g;
}

}  // namespace

void add_general(std::vector<MatcherInfo>& r) {
  {
    MatcherInfo m;
    m.name = "greedy";
    m.kinds = general_graphs | complete_graphs | bipartite_graphs;
    m.guarantee = "greedy";
    m.summary = "sort edges by (weight desc, min id, max id), scan";
    m.run = [](GraphRef g, const RunOptions& o) {
      return std::visit([&](const auto* graph) { return greedy(*graph, o.threads); }, g);
    };
    r.push_back(std::move(m));
  }
  {
    MatcherInfo m;
    m.name = "exact";
    m.kinds = general_graphs | complete_graphs | bipartite_graphs;
    m.guarantee = "exact";
    m.summary = "maximum weight matching, LEMON's blossom algorithm; perfect on complete graphs";
    m.run = [](GraphRef g, const RunOptions&) {
      return std::visit(
          [](const auto* graph) {
            if constexpr (requires { graph->n_rows; }) return exact_matching(*graph);
            else return exact_complete_matching(*graph);
          },
          g);
    };
    if (!have_exact()) m.unavailable = "needs LEMON (liblemon-dev), absent from this build";
    r.push_back(std::move(m));
  }
  r.push_back(sparse_cpu("suitor", "greedy", "Suitor, sequential",
                         [](const auto& g, int t) { return suitor_seq(g, t); }, "suitor-gpu"));
  r.push_back(threaded(sparse_cpu("suitor-locks", "greedy", "Suitor, OpenMP with one lock per vertex",
                         [](const auto& g, int t) { return suitor_locks(g, t); })));
  r.push_back(threaded(sparse_cpu("suitor-cas", "greedy", "Suitor, OpenMP lock-free with compare-and-swap",
                         [](const auto& g, int t) { return suitor_cas(g, t); })));
  r.push_back(sparse_cpu("ld", "greedy", "Locally-Dominant, sequential with a queue",
                         [](const auto& g, int t) { return ld_seq(g, t); }, "ld-gpu"));
  r.push_back(threaded(sparse_cpu("ld-omp", "greedy", "Locally-Dominant, OpenMP",
                         [](const auto& g, int t) { return ld_omp(g, t); })));
  r.push_back(ops_cpu("handshake", "mutual strongest neighbours, filter, compact; with the ops",
                       [](const auto& g, int t, ops::Backend b) { return handshake(g, t, b); }, "handshake-gpu"));
  r.push_back(ops_cpu("ld-rounds", "locally dominant edges in synchronous rounds; with the ops",
                       [](const auto& g, int t, ops::Backend b) { return ld_rounds(g, t, b); }));
  r.push_back(ops_cpu("suitor-bulk", "Suitor in bulk-synchronous rounds; with the ops",
                       [](const auto& g, int t, ops::Backend b) { return suitor_bulk(g, t, b); }));
  r.push_back(sparse_cpu("suitor-heavy", "1/2",
                         "2-Suitor, then optimal matchings of its paths and cycles",
                         [](const auto& g, int t) { return suitor_heavy(g, t); }));
  r.push_back(sparse_cpu("pga", "1/2", "path growing (PGA)",
                         [](const auto& g, int t) { return pga(g, t); }));
  r.push_back(sparse_cpu("pga-dp", "1/2", "PGA': path growing, each path matched optimally by DP",
                         [](const auto& g, int t) { return pga_dp(g, t); }));
  r.push_back(sparse_cpu("gpa", "1/2", "global paths (GPA), DP on paths and even cycles",
                         [](const auto& g, int t) { return gpa(g, t); }));
  r.push_back(roma_sparse_entry(
      "roma-sparse", Device::cpu, false,
      "ROMA with every 2-augmentation centred at a vertex, from Suitor's matching",
      "roma-sparse-gpu", [](const auto& g, const RomaSparseOptions& o, const RunOptions&) { return roma_sparse(g, o); }));
  r.push_back(threaded(roma_sparse_entry(
      "roma-sparse-omp", Device::cpu, true, "roma-sparse with OpenMP threads locking the vertices of each augmentation",
      "", [](const auto& g, const RomaSparseOptions& o, const RunOptions& run) {
        return roma_sparse_omp(g, o, run.threads);
      })));
  r.push_back(roma_sparse_entry(
      "roma-sparse-gpu", Device::gpu, true, "roma-sparse on the GPU, a warp per vertex, the same locks by atomicCAS",
      "roma-sparse", [](const auto& g, const RomaSparseOptions& o, const RunOptions& run) {
        GpuOptions go;
        go.device = run.gpu;
        go.threads = run.threads;
        return roma_sparse_gpu(g, o, go);
      }));

  r.push_back(sparse_gpu(
      "suitor-gpu", "GPU-Suitor, warp-based, NoSync/SyncLB/SyncNoLB/Hybrid", "suitor",
      {threads_per_block,
       {"vertices-per-warp", OptionSpec::Type::integer, "8", {}, 1, 1024, "vertices a warp takes at a time"},
       {"variant", OptionSpec::Type::word, "nosync", {"nosync", "synclb", "syncnolb", "hybrid"}, 0, 0,
        "the synchronisation and load balancing of Naim et al. 2015"},
       {"search", OptionSpec::Type::word, "auto", {"auto", "champions", "walk"}, 0, 0,
        "how rows of up to 128 entries are searched for the next proposal (same matching)"}},
      suitor_gpu_options, [](const auto& g, const SuitorGpuOptions& o) { return suitor_gpu(g, o); }));
  r.push_back(sparse_gpu("ld-gpu", "Locally-Dominant, a GPU thread per vertex: the GPU-LD baseline",
                         "ld", {}, gpu_options, [](const auto& g, const GpuOptions& o) { return ld_gpu(g, o); }));
  r.push_back(sparse_gpu("handshake-gpu", "mutual strongest neighbours, filter, compact; the GPU ops",
                         "handshake", {threads_per_block}, gpu_options,
                         [](const auto& g, const GpuOptions& o) { return handshake_gpu(g, o); }));
  // Memory beyond the input (MatcherInfo::memory), bytes per vertex and per
  // edge: peaks measured by bench/bench_memory on Erdos-Renyi inputs,
  // fitted and rounded up by about 20% (bench/RESULTS.md, "Memory
  // estimates"). GPU entries: host memory, their CPU twin's figures (not
  // measured: no GPU on the development machine).
  set_memory(r, {{"greedy", 8, 40},        {"exact", 580, 104},     {"suitor", 24, 0},
                 {"suitor-locks", 32, 0},  {"suitor-cas", 24, 0},   {"ld", 12, 8},
                 {"ld-omp", 8, 12},        {"handshake", 44, 40},   {"ld-rounds", 36, 0},
                 {"suitor-bulk", 124, 0},  {"suitor-heavy", 92, 0}, {"pga", 16, 4},
                 {"pga-dp", 12, 4},        {"gpa", 16, 40},         {"roma-sparse", 44, 0},
                 {"roma-sparse-omp", 44, 0}, {"roma-sparse-gpu", 44, 0}, {"suitor-gpu", 24, 0},
                 {"ld-gpu", 12, 8},        {"handshake-gpu", 44, 40}});

  using namespace references;
  const std::string handshaking = handshake_project + "; after B. O. Fagginger Auer, R. H. Bisseling, A GPU "
                                  "algorithm for greedy graph matching, Facing the Multicore Challenge II, LNCS 7174, 2012";
  cite(r, {{"greedy", hovland + ", sec. 3.3.1"},
           {"exact", edmonds},
           {"suitor", manne_halappanavar + "; " + mazankiewicz + ", sec. 2.1; " + naim_hipc + ", Alg. 3"},
           {"suitor-locks", manne_halappanavar + "; " + mazankiewicz + ", sec. 2.2"},
           {"suitor-cas", mazankiewicz + ", sec. 2.3"},
           {"ld", naim_hipc + ", Alg. 1-2"},
           {"ld-omp", naim_hipc + ", Alg. 1"},
           {"handshake", handshaking},
           {"ld-rounds", thorsen_merkey + ", Alg. 1"},
           {"suitor-bulk", manne_halappanavar + " (Suitor's proposals, here in bulk-synchronous rounds)"},
           {"suitor-heavy", mazankiewicz + ", sec. 3.1"},
           {"pga", drake_hougardy + "; " + hovland + ", sec. 3.3.2"},
           {"pga-dp", hovland + ", sec. 3.3.2 (PGA')"},
           {"gpa", maue_sanders + "; " + hovland + ", sec. 3.3.3"},
           {"roma-sparse", pettie_sanders + "; " + maue_sanders + "; longer augmentations: " + lin_kernighan},
           {"roma-sparse-omp", pettie_sanders + "; " + maue_sanders + "; longer augmentations: " + lin_kernighan},
           {"roma-sparse-gpu", pettie_sanders + "; " + maue_sanders},
           {"suitor-gpu", naim_hipc + ", Alg. 4"},
           {"ld-gpu", naim_hipc + " (GPU-LD)"},
           {"handshake-gpu", handshaking}});
}

}  // namespace matchblas::registry_detail
