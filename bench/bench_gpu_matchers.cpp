// The registry's GPU matchers against each other and against the OpenMP
// Suitor on all CPU cores, in one run. Times are medians of --reps runs of the
// match phase alone (the graph uploaded once, a DeviceGraph; CUDA events;
// upload and the mate array's fetch reported apart); the CPU peer is timed by
// run_matcher. Bandwidth:
// each matcher must read the CSR once, 8 (n + 1) + (4 + sizeof(W)) x entries
// bytes; achieved GB/s is that over the time, set against the measured
// device-to-device copy bandwidth.
//   bench_gpu_matchers [--graph rmat|er] [--scale S] [--edge-factor F]
//                      [--file FILE.mtx] [--reps R] [--only a,b:key=value] [--sweep]
//                      [--sweep-paper] [--jsonl]
// --sweep: suitor-gpu at every variant, threads-per-block (128, 192, 256)
// and vertices-per-warp (1-256), adaptive and as Naim et al. 2015 wrote it;
// --sweep-paper: the latter only. --jsonl: each measured row also as one
// line "ROW {json}" (matcher, config, match_ms, equals_greedy; sweep rows
// with mode, variant, threads_per_block, vertices_per_warp), for scripts
// (bench/replicate.py --source naim-1).
// The graphs are those of `matchblas gen rmat|er 2^S` (same generator, same
// default seed): R-MAT a/b/c = 0.57/0.19/0.19, uniform (0,1] float weights,
// self-loops and duplicates removed.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/luby.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/registry.hpp"
#include "matchers/run_matcher.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

struct Measured {
  double match_s = 0, download_s = 0;
  std::vector<std::pair<std::string, double>> phases;  // of the last run
  Matching matching;
};

Measured median_gpu(int reps, const std::function<Matching(GpuTimes*)>& run) {
  std::vector<double> match, download;
  Measured out;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    GpuTimes t;
    out.matching = run(&t);
    match.push_back(t.match_s);
    download.push_back(t.download_s);
    out.phases = t.phases;
  }
  std::sort(match.begin(), match.end());
  std::sort(download.begin(), download.end());
  out.match_s = match[match.size() / 2];
  out.download_s = download[download.size() / 2];
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_gpu_matchers [--graph rmat|er] [--scale S] [--edge-factor F]\n"
      "                   [--file FILE.mtx] [--reps R] [--only a,b] [--sweep]\n"
      "                   [--sweep-paper] [--jsonl]\n"
      "\n"
      "The registry's GPU matchers against each other and against the OpenMP\n"
      "Suitor on all CPU cores, in one run. Times are medians of --reps runs of the\n"
      "match phase alone (the graph uploaded once, a DeviceGraph; CUDA events;\n"
      "upload and the mate array's fetch reported apart); the CPU peer is timed by\n"
      "run_matcher. Bandwidth:\n"
      "each matcher must read the CSR once, 8 (n + 1) + (4 + sizeof(W)) x entries\n"
      "bytes; achieved GB/s is that over the time, set against the measured\n"
      "device-to-device copy bandwidth.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 20, reps = 5;
  double edge_factor = 16;
  std::string graph = "rmat", file;
  std::vector<std::string> only;
  bool sweep = false, sweep_paper = false, jsonl = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--sweep") sweep = true;
    else if (a == "--sweep-paper") sweep_paper = true;
    else if (a == "--jsonl") jsonl = true;
    else if (a == "--scale" && has_value) scale = std::atoi(argv[++i]);
    else if (a == "--edge-factor" && has_value) edge_factor = std::atof(argv[++i]);
    else if (a == "--graph" && has_value) graph = argv[++i];
    else if (a == "--file" && has_value) file = argv[++i];
    else if (a == "--reps" && has_value) reps = std::atoi(argv[++i]);
    else if (a == "--only" && has_value) only = split(argv[++i]);
    else {
      std::fprintf(stderr, "bench_gpu_matchers: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  if (gpu::device_count() == 0) {
    std::printf("bench_gpu_matchers: skipped, no GPU (%s)\n", gpu::unavailable_reason().c_str());
    return 0;
  }
  // The --only items, each a name with options as "name:key=value:..." (the
  // options apply to the entries run through the registry).
  std::vector<NamedWithOptions> specs;
  try {
    for (const std::string& spec : only) {
      specs.push_back(split_named_options(spec));
      (void)parse_options(find_matcher(specs.back().name), specs.back().given);  // refused before the graph is drawn
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_matchers: --only: %s\n", e.what());
    return 2;
  }
  // The option sets to run `name` with (one, its defaults, without --only).
  const auto wanted = [&](const std::string& name) {
    std::vector<std::map<std::string, std::string>> sets;
    if (specs.empty()) sets.emplace_back();
    for (const NamedWithOptions& spec : specs)
      if (spec.name == name) sets.push_back(spec.given);
    return sets;
  };

  Csr<float> g;
  if (!file.empty()) {
    g = std::get<Csr<float>>(graph_in_view(read_matrix_market(file), GraphView::automatic, Precision::float32).graph);
    std::printf("graph: %s", file.c_str());
  } else {
    GenOptions opt;
    opt.edge_factor = edge_factor;
    const vertex_t n = vertex_t(1) << scale;
    g = graph == "er" ? erdos_renyi<float>(n, opt) : rmat<float>(n, opt);
    std::printf("graph: %s scale %d edge factor %g", graph == "er" ? "Erdos-Renyi" : "R-MAT", scale, edge_factor);
  }
  const double entries = double(g.cols.size());
  const double bytes = 8.0 * (g.n_rows + 1) + 8.0 * entries;
  std::printf(", %d vertices, %lld edges, float weights, max degree %lld\n", g.n_rows,
              static_cast<long long>(num_edges(g)), [&] {
                offset_t d = 0;
                for (vertex_t u = 0; u < g.n_rows; ++u) d = std::max(d, g.offsets[u + 1] - g.offsets[u]);
                return static_cast<long long>(d);
              }());
  const double copy_gbs = gpu::measure_copy_bandwidth(0, std::size_t(1) << 30);
  std::printf("device: %s; copy bandwidth %.0f GB/s (1 GiB device-to-device, read + write)\n",
              gpu::device_description(0).c_str(), copy_gbs);
  std::printf("CSR bytes to read once: %.3f GB; floor at the copy bandwidth: %.3f ms\n", bytes / 1e9,
              bytes / (copy_gbs * 1e9) * 1e3);

  // The CPU peer, all cores; also the reference matching (= greedy's).
  RunOptions cpu;
  cpu.threads = omp_get_max_threads();
  const MatcherInfo& cas = find_matcher("suitor-cas");
  std::vector<double> cpu_times;
  Matching reference;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    MatchRun run = run_matcher(cas, &g, general_graphs, cpu);
    cpu_times.push_back(run.report.time_s);
    reference = std::move(run.matching);
  }
  std::sort(cpu_times.begin(), cpu_times.end());
  const double cpu_s = cpu_times[cpu_times.size() / 2];

  const DeviceGraph<float> dg(g, 0);
  std::printf("upload (once, host to device): %.1f ms\n", dg.upload_seconds() * 1e3);
  const double greedy_weight = matching_weight(g, reference);
  std::printf("%-14s %-22s %10s %10s %9s %7s %10s %8s %8s %9s\n", "matcher", "config", "match ms", "fetch ms", "GB/s",
              "%copy", "Medges/s", "/greedy", "=greedy", "cas/this");
  const auto report = [&](const std::string& name, const std::string& config, const Measured& m) {
    // Equality with greedy is asked of the entries that promise it.
    const char* same = find_matcher(name).guarantee != "greedy" ? "-" : m.matching == reference ? "yes" : "NO";
    std::printf("%-14s %-22s %10.3f %10.2f %9.1f %7.1f %10.1f %8.4f %8s %9.1f\n", name.c_str(), config.c_str(),
                m.match_s * 1e3, m.download_s * 1e3, bytes / m.match_s / 1e9, 100.0 * bytes / m.match_s / 1e9 / copy_gbs,
                num_edges(g) / m.match_s / 1e6, matching_weight(g, m.matching) / greedy_weight, same, cpu_s / m.match_s);
    if (jsonl)
      std::printf("ROW {\"matcher\": \"%s\", \"config\": \"%s\", \"match_ms\": %.6g, \"equals_greedy\": %s}\n",
                  name.c_str(), config.c_str(), m.match_s * 1e3, m.matching == reference ? "true" : "false");
    if (!m.phases.empty()) {
      std::printf("%-14s   phases (last run, ms):", "");
      for (const auto& [name, seconds] : m.phases) std::printf(" %s %.3f", name.c_str(), seconds * 1e3);
      std::printf("\n");
    }
    std::fflush(stdout);
  };
  std::printf("%-14s %-22s %10.3f %10s %9s %7s %10.1f %8.4f %8s %9.1f\n", "suitor-cas", std::to_string(cpu.threads).append(" CPU threads").c_str(),
              cpu_s * 1e3, "-", "-", "-", num_edges(g) / cpu_s / 1e6, 1.0, "ref", 1.0);

  // The registry's GPU matchers of sparse graphs, in its order. Those with a
  // call on the uploaded graph run their configurations below (match phase
  // alone); any other runs through the registry, host arrays in and out, its
  // upload and fetch inside the time (config "registry, +io").
  using Config = std::pair<std::string, std::function<Matching(GpuTimes*)>>;
  std::map<std::string, std::vector<Config>> resident;
  {
    SuitorGpuOptions adaptive, paper;
    paper.adaptive = false;
    std::vector<Config>& suitor = resident["suitor-gpu"];
    suitor.push_back({"adaptive nosync 128x8", [&, adaptive](GpuTimes* t) { return suitor_gpu(dg, adaptive, t); }});
    for (SuitorGpuSearch s : {SuitorGpuSearch::champions, SuitorGpuSearch::walk}) {  // auto's two choices, same run
      SuitorGpuOptions o = adaptive;
      o.search = s;
      suitor.push_back({"adaptive search " + to_string(s), [&, o](GpuTimes* t) { return suitor_gpu(dg, o, t); }});
    }
    suitor.push_back({"paper nosync 128x8", [&, paper](GpuTimes* t) { return suitor_gpu(dg, paper, t); }});
    resident["handshake-gpu"] = {{"default", [&](GpuTimes* t) { return handshake_gpu(dg, GpuOptions{}, t); }}};
    resident["ld-gpu"] = {{"thread per vertex", [&](GpuTimes* t) { return ld_gpu(dg, GpuOptions{}, t); }}};
    // luby-gpu takes host graphs only: its match phase is timed apart from
    // the upload it makes each run.
    resident["luby-gpu"] = {{"thread per vertex", [&](GpuTimes* t) { return luby_gpu(g, 1, GpuOptions{}, t); }}};
  }
  for (const MatcherInfo& info : matchers()) {
    if (info.problem != Problem::matching || info.device != Device::gpu || info.unavailable ||
        !info.accepts(general_graphs) || wanted(info.name).empty())
      continue;
    const auto configs = resident.find(info.name);
    if (configs != resident.end()) {
      for (const auto& given : wanted(info.name))
        if (!given.empty())
          std::fprintf(stderr, "bench_gpu_matchers: options for %s ignored: it runs its own configurations\n",
                       info.name.c_str());
      // ld-gpu is slow on skewed graphs: at most 3 runs.
      const int r = info.name == "ld-gpu" ? std::min(reps, 3) : reps;
      for (const auto& [config, run] : configs->second) report(info.name, config, median_gpu(r, run));
      continue;
    }
    for (const auto& given : wanted(info.name)) {
      RunOptions options;
      options.options = parse_options(info, given);
      std::string config = "registry, +io";
      for (const auto& [k, v] : given) config += " " + k + (v.empty() ? "" : "=" + v);
      std::vector<double> times;
      Measured m;
      for (int r = 0; r < std::max(reps, 1); ++r) {
        MatchRun run = run_matcher(info, &g, general_graphs, options);
        times.push_back(run.report.time_s);
        m.matching = std::move(run.matching);
      }
      std::sort(times.begin(), times.end());
      m.match_s = times[times.size() / 2];
      report(info.name, config, m);
    }
  }

  if (sweep || sweep_paper) {
    std::printf("\nsuitor-gpu sweep: median match ms over %d runs (rows: mode, variant, threads-per-block; columns: "
                "vertices-per-warp)\n%-29s", reps, "");
    const std::vector<int> vpws = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (int v : vpws) std::printf(" %8d", v);
    std::printf("\n");
    std::string rows;  // the --jsonl lines, after the table
    for (bool adaptive : sweep ? std::vector<bool>{true, false} : std::vector<bool>{false})
    for (SuitorGpuVariant variant : {SuitorGpuVariant::no_sync, SuitorGpuVariant::sync_lb,
                                     SuitorGpuVariant::sync_no_lb, SuitorGpuVariant::hybrid})
      for (int tpb : {128, 192, 256}) {
        std::printf("%-9s %-9s %-9d", adaptive ? "adaptive" : "paper", to_string(variant).c_str(), tpb);
        for (int vpw : vpws) {
          SuitorGpuOptions o;
          o.adaptive = adaptive;
          o.variant = variant;
          o.threads_per_block = tpb;
          o.vertices_per_warp = vpw;
          const Measured m = median_gpu(reps, [&](GpuTimes* t) { return suitor_gpu(dg, o, t); });
          std::printf(" %7.2f%s", m.match_s * 1e3, m.matching == reference ? " " : "!");
          std::fflush(stdout);
          char line[256];
          std::snprintf(line, sizeof line,
                        "ROW {\"matcher\": \"suitor-gpu\", \"config\": \"sweep\", \"mode\": \"%s\", "
                        "\"variant\": \"%s\", \"threads_per_block\": %d, \"vertices_per_warp\": %d, "
                        "\"match_ms\": %.6g, \"equals_greedy\": %s}\n",
                        adaptive ? "adaptive" : "paper", to_string(variant).c_str(), tpb, vpw, m.match_s * 1e3,
                        m.matching == reference ? "true" : "false");
          rows += line;
        }
        std::printf("\n");
      }
    std::printf("('!' marks a result different from greedy's)\n");
    if (jsonl) std::printf("%s", rows.c_str());
  }
  return 0;
}
