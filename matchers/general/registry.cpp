// The general-graph matchers' registry entries (matchers/registry.hpp): the
// references (greedy, exact), the 1/2-approximate family that equals greedy
// on CPU and GPU, and the path-based matchers. A new matcher of this family
// is one declaration here. Memory: bytes per vertex and per edge beyond the
// input, fitted to bench/bench_memory's peaks on Erdos-Renyi inputs; a GPU
// entry's host memory is its CPU twin's (its host side holds the same
// arrays: the graph and the mate array).
#include "matchers/registry.hpp"

#include "matchers/general/exact.hpp"
#include "matchers/general/gpa.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/ld_rounds.hpp"
#include "matchers/general/luby.hpp"
#include "matchers/general/pga.hpp"
#include "matchers/general/roma_sparse.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/general/suitor_bulk.hpp"
#include "matchers/references.hpp"
#include "lib/named_values.hpp"

namespace matchblas::registry_detail {

namespace {

using Type = OptionSpec::Type;
using namespace references;

// A CPU matcher of sparse graphs (general and bipartite views),
// f(const Csr<W>&, threads).
template <class F>
MatcherInfo sparse_cpu(MatcherInfo m, F f) {
  m.kinds = general_graphs | bipartite_graphs;
  m.run = MatchRunner(
      on_sparse<Matching>(m.name, [f](const auto& g, const RunOptions& o) { return f(g, o.threads); }));
  return m;
}

// A GPU matcher of sparse graphs equal to greedy: f(const Csr<W>&, O) where O
// is GpuOptions or a struct derived from it, read from the options by
// m.read_options (or the defaults); the run's device and threads added.
template <class O, class F>
MatcherInfo sparse_gpu(MatcherInfo m, F f) {
  m.kinds = general_graphs | bipartite_graphs;
  m.device = Device::gpu;
  m.guarantee = "greedy";
  m.run = MatchRunner(on_sparse<Matching>(m.name, [f, reads = bool(m.read_options)](const auto& g, const RunOptions& o) {
    O gpu = reads ? o.options.typed<O>() : O{};
    gpu.device = o.gpu;
    gpu.threads = o.threads;
    return f(g, gpu);
  }));
  m.unavailable = needs_cuda();
  return m;
}

// An OpenMP matcher written with the ops and equal to greedy,
// f(const Csr<W>&, threads, ops::Backend), with the option
// --backend plain|graphblas: every op on that backend (graphblas: the graph
// resident in SuiteSparse:GraphBLAS, which the build must have).
template <class F>
MatcherInfo ops_cpu(MatcherInfo m, F f) {
  m.kinds = general_graphs | bipartite_graphs;
  m.threaded = true;
  m.guarantee = "greedy";
  m.options = {{"backend", Type::word, "plain", {"plain", "graphblas"}, 0, 0,
                "the ops' backend: plain (C++/OpenMP) or graphblas (SuiteSparse:GraphBLAS, the reference path)"}};
  m.read_options = [name = m.name](const OptionValues& v, Precision) -> std::any {
    const bool graphblas = v.word("backend") == "graphblas";
    if (graphblas && !ops::have_graphblas())
      throw invalid_input("--backend graphblas of '" + name + "' needs SuiteSparse:GraphBLAS, which this build lacks");
    return graphblas ? ops::Backend::graphblas : ops::Backend::plain;
  };
  m.run = MatchRunner(on_sparse<Matching>(m.name, [f](const auto& g, const RunOptions& o) {
    return f(g, o.threads, o.options.typed<ops::Backend>());
  }));
  return m;
}

// luby and luby-gpu: f(const Csr<W>&, RunOptions); seeded, the same
// matching for a seed on any thread count and either device.
template <class F>
MatcherInfo luby_entry(MatcherInfo m, F f) {
  m.kinds = general_graphs | bipartite_graphs;
  m.seeded = true;
  m.guarantee = "maximal";
  m.run = MatchRunner(on_sparse<Matching>(m.name, f));
  return m;
}

// roma-sparse, -omp and -gpu: f(graph, RomaSparseOptions, RunOptions) ->
// RomaRun; its phases go to RunOptions::phases when set.
template <class F>
MatcherInfo roma_sparse_entry(MatcherInfo m, F f) {
  m.kinds = general_graphs | bipartite_graphs;
  m.deterministic = m.device == Device::cpu && !m.threaded;  // seeded; threads' or warps' races decide otherwise
  m.seeded = true;
  m.guarantee = "2/3-eps";
  m.options = {
      {"phases", Type::integer, "100", {}, 0, 1 << 30, "at most P phases (stops earlier at a phase without augmentations)"},
      {"min-gain", Type::real, "1e-09", {}, 0, 1, "augment only above G x the largest edge weight"},
      {"start", Type::word, "suitor", names_of(roma_sparse_start_names), 0, 0,
       "the start matching (suitor: greedy's; gpa: Maue-Sanders' global paths)"},
      {"candidates", Type::integer, "0", {}, 0, 1 << 30,
       "search only each vertex's K heaviest neighbours (0: all; bounded lists give up the 2/3 bound)"},
      {"phase-report", Type::flag, "", {}, 0, 0, "print augmentations, weight and seconds per phase"}};
  m.options.insert(m.options.end() - 1,
                   {"length", Type::integer, "4", {}, 2, m.device == Device::cpu ? 64.0 : double(roma_sparse_gpu_max_length),
                    "augmentations of up to L new edges (2: Pettie-Sanders' alone; more: passes of longer "
                    "ones between theirs, on the threads or the GPU)"});
  m.read_options = [](const OptionValues& v, Precision) -> std::any {
    RomaSparseOptions ro;
    ro.phases = int(v.integer("phases"));
    ro.min_gain = v.real("min-gain");
    ro.start = parse_roma_sparse_start(v.word("start"));
    ro.candidates = int(v.integer("candidates"));
    ro.length = int(v.integer("length"));
    return ro;
  };
  m.run = MatchRunner(on_sparse<Matching>(m.name, [f](const auto& g, const RunOptions& o) {
    RomaSparseOptions ro = o.options.typed<RomaSparseOptions>();
    ro.seed = o.seed;
    RomaRun run = f(g, ro, o);
    if (o.phases) *o.phases = phase_report(run);
    return std::move(run.matching);
  }));
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

const OptionSpec threads_per_block{"threads-per-block", Type::integer, "128", {}, 32, GpuOptions::max_threads_per_block,
                                   "threads per block, a multiple of 32 (Naim et al. 2015 used 128, 192 or 256)"};


const std::string handshaking = handshake_project + "; after B. O. Fagginger Auer, R. H. Bisseling, A GPU "
                                "algorithm for greedy graph matching, Facing the Multicore Challenge II, LNCS 7174, 2012";
const std::string roma_sparse_sources = pettie_sanders + "; " + maue_sanders;

}  // namespace

void add_general(std::vector<MatcherInfo>& r) {
  r.push_back({.name = "greedy",
               .kinds = general_graphs | complete_graphs | bipartite_graphs,
               .guarantee = "greedy",
               .summary = "sort edges by (weight desc, min id, max id), scan",
               .reference = hovland + ", sec. 3.3.1",
               .memory = {8, 40},
               .run = [](GraphRef g, const RunOptions& o) {
                 return std::visit([&](const auto* graph) { return greedy(*graph, o.threads); }, g);
               }});
  r.push_back({.name = "exact",
               .kinds = general_graphs | complete_graphs | bipartite_graphs,
               .guarantee = "exact",
               .summary = "maximum weight matching, LEMON's blossom algorithm; perfect on complete graphs",
               .reference = edmonds,
               .memory = {580, 104},
               .run = [](GraphRef g, const RunOptions&) {
                 return std::visit(
                     [](const auto* graph) {
                       if constexpr (requires { graph->n_rows; }) return exact_matching(*graph);
                       else return exact_complete_matching(*graph);
                     },
                     g);
               },
               .unavailable = have_exact() ? std::nullopt
                                           : std::optional<std::string>("needs LEMON (liblemon-dev), absent from this build")});
  r.push_back(sparse_cpu({.name = "suitor",
                          .guarantee = "greedy",
                          .summary = "Suitor, sequential",
                          .reference = manne_halappanavar + "; " + mazankiewicz + ", sec. 2.1; " + naim_hipc + ", Alg. 3",
                          .twin = "suitor-gpu",
                          .memory = {24, 0}},
                         [](const auto& g, int t) { return suitor_seq(g, t); }));
  r.push_back(sparse_cpu({.name = "suitor-locks",
                          .threaded = true,
                          .guarantee = "greedy",
                          .summary = "Suitor, OpenMP with one lock per vertex",
                          .reference = manne_halappanavar + "; " + mazankiewicz + ", sec. 2.2",
                          .memory = {32, 0}},
                         [](const auto& g, int t) { return suitor_locks(g, t); }));
  r.push_back(sparse_cpu({.name = "suitor-cas",
                          .threaded = true,
                          .guarantee = "greedy",
                          .summary = "Suitor, OpenMP lock-free with compare-and-swap",
                          .reference = mazankiewicz + ", sec. 2.3",
                          .memory = {24, 0}},
                         [](const auto& g, int t) { return suitor_cas(g, t); }));
  r.push_back(sparse_cpu({.name = "ld",
                          .guarantee = "greedy",
                          .summary = "Locally-Dominant, sequential with a queue",
                          .reference = naim_hipc + ", Alg. 1-2",
                          .twin = "ld-gpu",
                          .memory = {12, 8}},
                         [](const auto& g, int t) { return ld_seq(g, t); }));
  r.push_back(sparse_cpu({.name = "ld-omp",
                          .threaded = true,
                          .guarantee = "greedy",
                          .summary = "Locally-Dominant, OpenMP",
                          .reference = naim_hipc + ", Alg. 1",
                          .memory = {8, 12}},
                         [](const auto& g, int t) { return ld_omp(g, t); }));
  r.push_back(ops_cpu({.name = "handshake",
                       .summary = "mutual strongest neighbours, filter, compact; with the ops",
                       .reference = handshaking,
                       .twin = "handshake-gpu",
                       .memory = {44, 40}},
                      [](const auto& g, int t, ops::Backend b) { return handshake(g, t, b); }));
  r.push_back(ops_cpu({.name = "ld-rounds",
                       .summary = "locally dominant edges in synchronous rounds; with the ops",
                       .reference = thorsen_merkey + ", Alg. 1",
                       .memory = {36, 0}},
                      [](const auto& g, int t, ops::Backend b) { return ld_rounds(g, t, b); }));
  r.push_back(ops_cpu({.name = "suitor-bulk",
                       .summary = "Suitor in bulk-synchronous rounds; with the ops",
                       .reference = manne_halappanavar + " (Suitor's proposals, here in bulk-synchronous rounds)",
                       .memory = {124, 0}},
                      [](const auto& g, int t, ops::Backend b) { return suitor_bulk(g, t, b); }));
  r.push_back(luby_entry({.name = "luby",
                          .threaded = true,
                          .summary = "Luby's algorithm on the line graph: fresh random edge values each round, "
                                     "mutual largest matched; weights unread",
                          .reference = luby_1985 + "; " + thorsen_merkey + ", sec. 3, Alg. 2",
                          .twin = "luby-gpu",
                          .memory = {12, 0}},
                         [](const auto& g, const RunOptions& o) { return luby(g, o.seed, o.threads); }));
  r.push_back(sparse_cpu({.name = "suitor-heavy",
                          .guarantee = "1/2",
                          .summary = "2-Suitor, then optimal matchings of its paths and cycles",
                          .reference = mazankiewicz + ", sec. 3.1",
                          .memory = {92, 0}},
                         [](const auto& g, int t) { return suitor_heavy(g, t); }));
  r.push_back(sparse_cpu({.name = "pga",
                          .guarantee = "1/2",
                          .summary = "path growing (PGA)",
                          .reference = drake_hougardy + "; " + hovland + ", sec. 3.3.2",
                          .memory = {16, 4}},
                         [](const auto& g, int t) { return pga(g, t); }));
  r.push_back(sparse_cpu({.name = "pga-dp",
                          .guarantee = "1/2",
                          .summary = "PGA': path growing, each path matched optimally by DP",
                          .reference = hovland + ", sec. 3.3.2 (PGA')",
                          .memory = {12, 4}},
                         [](const auto& g, int t) { return pga_dp(g, t); }));
  r.push_back(sparse_cpu({.name = "gpa",
                          .guarantee = "1/2",
                          .summary = "global paths (GPA), DP on paths and even cycles",
                          .reference = maue_sanders + "; " + hovland + ", sec. 3.3.3",
                          .memory = {16, 40}},
                         [](const auto& g, int t) { return gpa(g, t); }));
  r.push_back(roma_sparse_entry(
      {.name = "roma-sparse",
       .summary = "ROMA: every 2-augmentation centred at a vertex, and longer ones (up to 4 new edges), from Suitor's matching",
       .reference = roma_sparse_sources + "; longer augmentations: " + lin_kernighan,
       .twin = "roma-sparse-gpu",
       .memory = {64, 29}},  // length 4: the long search's lists (bench_memory: 53 B a vertex, 24 B an edge)
      [](const auto& g, const RomaSparseOptions& o, const RunOptions&) { return roma_sparse(g, o); }));
  r.push_back(roma_sparse_entry(
      {.name = "roma-sparse-omp",
       .threaded = true,
       .summary = "roma-sparse with OpenMP threads locking the vertices of each augmentation",
       .reference = roma_sparse_sources + "; longer augmentations: " + lin_kernighan,
       .memory = {80, 29}},  // as roma-sparse's, and n bytes per searching thread (16 here)
      [](const auto& g, const RomaSparseOptions& o, const RunOptions& run) {
        return roma_sparse_omp(g, o, run.threads);
      }));
  r.push_back(roma_sparse_entry(
      {.name = "roma-sparse-gpu",
       .device = Device::gpu,
       .summary = "roma-sparse on the GPU: a warp per vertex, a thread per root of the longer ones, the same locks "
                  "by atomicCAS",
       .reference = roma_sparse_sources + "; longer augmentations: " + lin_kernighan,
       .twin = "roma-sparse",
       .memory = {44, 0}},
      [](const auto& g, const RomaSparseOptions& o, const RunOptions& run) {
        GpuOptions go;
        go.device = run.gpu;
        go.threads = run.threads;
        return roma_sparse_gpu(g, o, go);
      }));
  r.push_back(sparse_gpu<SuitorGpuOptions>(
      {.name = "suitor-gpu",
       .summary = "GPU-Suitor, warp-based, NoSync/SyncLB/SyncNoLB/Hybrid",
       .reference = naim_hipc + ", Alg. 4",
       .twin = "suitor",
       .memory = {24, 0},
       .options = {threads_per_block,
                   {"vertices-per-warp", Type::integer, "8", {}, 1, SuitorGpuOptions::max_vertices_per_warp,
                    "vertices a warp takes at a time"},
                   {"variant", Type::word, "nosync", names_of(suitor_gpu_variant_names), 0, 0,
                    "the synchronisation and load balancing of Naim et al. 2015"},
                   {"search", Type::word, "auto", names_of(suitor_gpu_search_names), 0, 0,
                    "how rows of up to 128 entries are searched for the next proposal (same matching)"},
                   device_memory_option()},
       .read_options = [](const OptionValues& v, Precision) -> std::any {
         SuitorGpuOptions g;
         g.threads_per_block = int(v.integer("threads-per-block"));
         g.vertices_per_warp = int(v.integer("vertices-per-warp"));
         g.variant = parse_suitor_gpu_variant(v.word("variant"));
         g.search = parse_suitor_gpu_search(v.word("search"));
         g.device_memory = std::size_t(v.bytes("device-memory"));
         check_suitor_gpu_options(g);  // the rules the specs cannot say (whole warps); the kernels re-check nothing
         return g;
       },
       // Over ranks: b-Suitor's rounds with b = 1 (greedy's matching), whose
       // kernels take none of the options above but the memory limit.
       .over_ranks =
           [](const DistGraph& g, const std::vector<int>& b, const RunOptions& o) {
             for (const auto& [name, value] : o.options.given_values())
               if (name != "device-memory")
                 throw invalid_input("suitor-gpu over MPI ranks runs b-Suitor's rounds with b = 1, which take no --" +
                                     name + " (only --device-memory)");
             GpuOptions gpu;
             gpu.device = o.gpu;
             gpu.device_memory = o.options.typed<SuitorGpuOptions>().device_memory;
             return b_suitor_gpu_ranks(g, b, gpu);
           }},
      [](const auto& g, const SuitorGpuOptions& o) { return suitor_gpu(g, o); }));
  r.push_back(sparse_gpu<GpuOptions>({.name = "ld-gpu",
                                      .summary = "Locally-Dominant, a GPU thread per vertex: the GPU-LD baseline",
                                      .reference = naim_hipc + " (GPU-LD)",
                                      .twin = "ld",
                                      .memory = {12, 8}},
                                     [](const auto& g, const GpuOptions& o) { return ld_gpu(g, o); }));
  r.push_back(sparse_gpu<GpuOptions>({.name = "handshake-gpu",
                                      .summary = "mutual strongest neighbours, filter, compact; the GPU ops",
                                      .reference = handshaking,
                                      .twin = "handshake",
                                      .memory = {44, 40},
                                      .options = {threads_per_block},
                                      .read_options = [](const OptionValues& v, Precision) -> std::any {
                                        GpuOptions g;
                                        g.threads_per_block = int(v.integer("threads-per-block"));
                                        check_gpu_options(g);  // whole warps
                                        return g;
                                      }},
                                     [](const auto& g, const GpuOptions& o) { return handshake_gpu(g, o); }));
  r.push_back(luby_entry({.name = "luby-gpu",
                          .device = Device::gpu,
                          .summary = "Luby's algorithm on the line graph, a GPU thread per vertex per round",
                          .reference = luby_1985 + "; " + thorsen_merkey + ", sec. 3, Alg. 2",
                          .twin = "luby",
                          .memory = {12, 0},
                          .unavailable = needs_cuda()},
                         [](const auto& g, const RunOptions& o) {
                           GpuOptions gpu;
                           gpu.device = o.gpu;
                           gpu.threads = o.threads;
                           return luby_gpu(g, o.seed, gpu);
                         }));
}

}  // namespace matchblas::registry_detail
