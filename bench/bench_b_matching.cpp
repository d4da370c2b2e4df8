// b-matching on R-MAT (or Erdos-Renyi): every b-matching algorithm of the
// registry, for each b: b-greedy (the reference) first, each other CPU entry
// once (one thread) or, when it is an OpenMP one, at each thread count (all
// cores always among them), each GPU entry last; median of --reps runs
// (wall time, and the process's CPU time for the CPU entries), edges/s,
// the weight, and whether each equals b-greedy edge for edge. The GPU rows'
// speed-up is over the fastest OpenMP row on all cores, same run.
//   bench_b_matching [--graph rmat|er] [--scale S] [--edge-factor F]
//                    [--file FILE.mtx] [--b 1,2,5] [--threads 1,16] [--reps R]
//                    [--greedy-reps R] [--no-seq] [--only NAME,...]
//                    [--warmup] [--stream F,...] [--parts P,...] [--link-gbs G]
//                    [--link-us U] [--placement atomic,sorted] [--double]
//                    [--ties K] [--resident-limit GIB] [--gpu ID | --no-gpu]
// --placement: b-suitor-gpu's resident run once per first-round placement
// (a row each). --double: the generated graph with double weights (float by
// default): b-suitor-gpu's keys then search the holder's row, unless every
// weight is a float exactly (--ties K with K a power of two: the K values
// i/K). --ties K: every weight one of K values. --resident-limit GIB: the
// resident GPU runs' device-memory limit (under one, b-suitor-gpu keeps
// double weights' keys even where they are floats exactly).
// --parts P,...: b-Suitor over P parts exchanging in bulk (b_suitor_parts,
// one process: the protocol of b-Suitor over P GPUs), checked against
// b-greedy, with the exchange it needs: rounds, proposals and drops across
// parts, messages, bytes, the busiest part's bytes, and a model of the
// exchange's time: per round and phase the busiest part's bytes over a link
// of --link-gbs GB/s each way (default 450, NVLink 4) plus --link-us
// microseconds a phase (default 10: a host synchronisation and a message).
// --stream: b-suitor-gpu also on the host graph, resident (row "gpu-host":
// upload, match, download) and with its rows streamed through the GPU in
// batches (GpuOptions::device_memory = its state plus fraction F of the
// graph's entry bytes), timed end to end (page-locking, copies, kernels,
// download) against both resident rows and the OpenMP rows; the batches,
// bytes copied and batches read in place are in its phase names; the
// host-to-device bandwidth is measured first.
// --only: the entries to run besides b-greedy; --warmup: one untimed run of
// each CPU entry before its timed ones (the first call in a process also
// pays for faulting in fresh memory). --file: a Matrix Market file instead of a generated graph, read with
// double weights (the same values another tool reads from the file:
// bench/b_suitor_networkit.py).
// --threads: a value <= 0 means all cores. --no-seq skips the one-thread
// entries other than the reference (tens of seconds at scale 24);
// --greedy-reps times b-greedy (always computed) over fewer runs. GPU:
// b-suitor-gpu and b-ld-gpu run on a graph uploaded once (a DeviceGraph; its upload
// reported apart); "match" is the median of GpuTimes::match_s (CUDA events:
// the allocations, kernels and host synchronisations of the run, the
// b-matching left on the device), "+io" adds b's upload and the result's
// download. Another GPU entry runs through the registry, host arrays in and
// out, timed end to end. Skipped without a GPU.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// cpu < 0: not measured (GPU rows).
template <class W>
void row(const Csr<W>& g, int b, const char* matcher, const std::string& threads, double s, double cpu, double m,
         const BMatching& got, const char* same) {
  const std::string c = cpu < 0 ? "-" : std::to_string(cpu).substr(0, 6);
  std::printf("%3d %-14s %7s %10.4f %8s %12.1f %10lld %16.6f %8s\n", b, matcher, threads.c_str(), s, c.c_str(),
              m / s / 1e6, static_cast<long long>(got.num_edges()), b_matching_weight(g, got), same);
  std::fflush(stdout);
}

struct Config {
  int all, device, reps, greedy_reps;
  bool seq, use_gpu;
  std::vector<int> bs, threads;
  std::vector<std::string> only;  // entries to run besides b-greedy (empty: all)
  std::vector<double> stream;     // b-suitor-gpu streamed: device memory = state + these fractions of the entries
  std::vector<BSuitorPlacement> placements;  // b-suitor-gpu resident: a row per first-round placement
  std::size_t resident_limit;                // the resident GPU runs' GpuOptions::device_memory (0: none)
  std::vector<int> parts;         // b_suitor_parts: the exchange of b-Suitor over P parts
  double link_gbs, link_us;       // the exchange model's link: GB/s each way, microseconds per message
  bool warmup;                    // one untimed run of each CPU entry first
};

template <class W>
int run(const Csr<W>& g, const Config& c) {
  const vertex_t n = g.n_rows;
  const double m = double(g.cols.size()) / 2;
  const int all = c.all, device = c.device, reps = c.reps, greedy_reps = c.greedy_reps;
  const bool seq = c.seq, use_gpu = c.use_gpu;
  const std::vector<int>& bs = c.bs;
  const std::vector<int>& threads = c.threads;
  // The GPU: the graph uploaded once, or the reason for skipping.
  std::string no_gpu = use_gpu ? "" : "--no-gpu";
  if (use_gpu && gpu::device_count() == 0) no_gpu = "no GPU (" + gpu::unavailable_reason() + ")";
  if (no_gpu.empty() && (device < 0 || device >= gpu::device_count())) no_gpu = "no GPU with id " + std::to_string(device);
  std::unique_ptr<DeviceGraph<W>> dg;
  if (no_gpu.empty()) {
    dg = std::make_unique<DeviceGraph<W>>(g, device);
    std::printf("device: %s; graph upload (once) %.1f ms\n", gpu::device_description(device).c_str(),
                dg->upload_seconds() * 1e3);
    if (!c.stream.empty())
      std::printf("host-to-device copy (page-locked, 1 GiB): %.1f GB/s\n",
                  gpu::measure_host_copy_bandwidth(device, std::size_t(1) << 30));
  } else {
    std::printf("GPU entries: skipped, %s\n", no_gpu.c_str());
  }

  std::printf("%3s %-14s %7s %10s %8s %12s %10s %16s %8s\n", "b", "matcher", "threads", "median s", "cpu s",
              "Medges/s", "edges", "weight", "=greedy");
  const MatcherInfo& reference = find_matcher("b-greedy", Problem::b_matching);
  for (int b : bs) {
    const std::vector<int> bv = constant_b(n, b);
    BMatching ref, got;
    RunOptions one;
    one.threads = 1;
    if (c.warmup) ref = run_b_matching(reference, &g, bv, one);
    const bench::WallCpu greedy_s =
        bench::median_wall_cpu(greedy_reps, [&] { ref = run_b_matching(reference, &g, bv, one); });
    row(g, b, reference.name.c_str(), "1", greedy_s.wall, greedy_s.cpu, m, ref, "ref");
    for (int p : c.parts) {
      PartsExchange ex;
      const BMatching parted = b_suitor_parts(g, bv, p, &ex);
      long long proposals = 0, drops = 0, messages = 0;
      std::size_t bytes = 0, most = 0;
      double model_s = 0;
      for (const PartsRound& r : ex.rounds) {
        proposals += r.proposals;
        drops += r.drops;
        messages += r.messages;
        bytes += r.bytes;
        const std::size_t busiest = std::max(r.most_sent, r.most_received);
        most += busiest;
        // Each phase: the busiest part's bytes over the link, and one
        // message latency per phase with something to send.
        model_s += double(busiest) / (c.link_gbs * 1e9) + (r.messages > 0 ? 2 : 0) * c.link_us * 1e-6;
      }
      std::printf("    parts %d: %s b-greedy; %zu rounds, %lld proposals and %lld drops across parts "
                  "(%.1f%% of the %lld entries), %lld messages, %.3f MB in all, busiest part %.3f MB; exchange "
                  "at %.0f GB/s and %.0f us a message: %.3f ms\n",
                  p, parted == ref ? "equals" : "DIFFERS FROM", ex.rounds.size(), proposals, drops,
                  100.0 * double(proposals) / double(g.num_entries()), static_cast<long long>(g.num_entries()),
                  messages, double(bytes) * 1e-6, double(most) * 1e-6, c.link_gbs, c.link_us, model_s * 1e3);
      std::fflush(stdout);
    }
    double omp_all_s = 0;  // the fastest OpenMP entry on all cores
    for (const MatcherInfo& info : matchers()) {
      if (info.problem != Problem::b_matching || &info == &reference || info.device != Device::cpu) continue;
      if (!info.threaded && !seq) continue;
      if (!c.only.empty() && std::find(c.only.begin(), c.only.end(), info.name) == c.only.end()) continue;
      for (int t : info.threaded ? threads : std::vector<int>{1}) {
        RunOptions o;
        o.threads = t;
        if (c.warmup) got = run_b_matching(info, &g, bv, o);
        const bench::WallCpu s = bench::median_wall_cpu(reps, [&] { got = run_b_matching(info, &g, bv, o); });
        row(g, b, info.name.c_str(), std::to_string(t), s.wall, s.cpu, m, got, got == ref ? "yes" : "NO");
        if (info.threaded && t == all && (omp_all_s == 0 || s.wall < omp_all_s)) omp_all_s = s.wall;
      }
    }
    if (!dg) continue;
    for (const MatcherInfo& info : matchers()) {
      if (info.problem != Problem::b_matching || info.device != Device::gpu || info.unavailable) continue;
      const bool resident = info.name == "b-suitor-gpu" || info.name == "b-ld-gpu";
      if (!resident) {  // no device-resident call: through the registry, end to end
        RunOptions o;
        o.gpu = device;
        const double s = bench::median_seconds(reps, [&] { got = run_b_matching(info, &g, bv, o); });
        row(g, b, info.name.c_str(), "gpu+io", s, -1, m, got, got == ref ? "yes" : "NO");
        continue;
      }
      GpuOptions o;
      o.device = device;
      o.device_memory = c.resident_limit;
      // b-suitor-gpu once per first-round placement asked for (a row each,
      // named entry/placement when there are several); the first's time is
      // the streamed runs' peer.
      const bool placed = info.name == "b-suitor-gpu";
      const std::vector<BSuitorPlacement> placements =
          placed ? c.placements : std::vector<BSuitorPlacement>{BSuitorPlacement::atomic};
      double gpu_s = 0;
      for (const BSuitorPlacement placement : placements) {
        if (placement == BSuitorPlacement::sorted && !std::is_same_v<W, float>) {
          std::printf("    b-suitor-gpu/sorted: skipped (needs float weights; this graph has double)\n");
          continue;
        }
        const std::string name = info.name + (placed && placements.size() > 1 ? "/" + to_string(placement) : "");
        std::vector<double> match, io;
        GpuTimes last;
        bool same = true;
        for (int r = 0; r < std::max(reps, 1); ++r) {
          GpuTimes t;
          got = placed ? b_suitor_gpu(*dg, bv, BSuitorGpuOptions(o, placement), &t) : b_ld_gpu(*dg, bv, o, &t);
          same = same && got == ref;
          match.push_back(t.match_s);
          io.push_back(t.match_s + t.download_s + (t.upload_s - dg->upload_seconds()));
          last = t;
        }
        const double placement_s = median(match), gpu_io_s = median(io);
        if (gpu_s == 0) gpu_s = placement_s;
        row(g, b, name.c_str(), "gpu", placement_s, -1, m, got, same ? "yes" : "NO");
        std::printf("    %s: match %.3f ms (last run:", name.c_str(), placement_s * 1e3);
        for (const auto& [phase, seconds] : last.phases) std::printf(" %s %.3f", phase.c_str(), seconds * 1e3);
        std::printf("), +io %.3f ms (b upload %.3f, fetch %.3f); OpenMP on %d threads / GPU: %.1fx match, "
                    "%.1fx +io\n",
                    gpu_io_s * 1e3, (last.upload_s - dg->upload_seconds()) * 1e3, last.download_s * 1e3, all,
                    omp_all_s / placement_s, omp_all_s / gpu_io_s);
        std::fflush(stdout);
      }
      double host_resident_s = 0;
      if (!placed) continue;
      // Streamed: the host graph's rows through the GPU in batches, device
      // memory limited to the run's state plus a fraction of the entries.
      const BSuitorGpuMemory need = b_suitor_gpu_memory(g, bv);
      if (!c.stream.empty()) {  // the resident run from the host graph, end to end: the streamed runs' peer
        std::vector<double> total;
        GpuTimes rt;
        for (int r = 0; r < std::max(reps, 1); ++r) {
          got = b_suitor_gpu(g, bv, o, &rt);
          total.push_back(rt.upload_s + rt.match_s + rt.download_s);
        }
        host_resident_s = median(total);
        row(g, b, info.name.c_str(), "gpu-host", host_resident_s, -1, m, got, got == ref ? "yes" : "NO");
        std::printf("    resident from the host graph: upload %.3f ms, match %.3f ms, download %.3f ms\n",
                    rt.upload_s * 1e3, rt.match_s * 1e3, rt.download_s * 1e3);
      }
      for (double f : c.stream) {
        GpuOptions so = o;
        so.device_memory = need.state + need.offsets + std::size_t(f * double(need.entries));
        std::vector<double> total;
        GpuTimes st;
        bool streamed_same = true;
        for (int r = 0; r < std::max(reps, 1); ++r) {
          got = b_suitor_gpu(g, bv, so, &st);
          streamed_same = streamed_same && got == ref;
          total.push_back(st.upload_s + st.match_s + st.download_s);
        }
        const double total_s = median(total);
        char label[32];
        std::snprintf(label, sizeof label, "gpu-stream %.3g", f);
        row(g, b, info.name.c_str(), label, total_s, -1, m, got, streamed_same ? "yes" : "NO");
        std::printf("    streamed at %.3g of the entries' %.3f GB (limit %.3f GB): end to end %.3f ms "
                    "(upload %.3f, match %.3f:",
                    f, double(need.entries) * 1e-9, double(so.device_memory) * 1e-9, total_s * 1e3, st.upload_s * 1e3,
                    st.match_s * 1e3);
        for (const auto& [name, seconds] : st.phases) std::printf(" %s %.3f", name.c_str(), seconds * 1e3);
        std::printf("); / resident match %.2fx, / resident from the host %.2fx; OpenMP on %d threads / streamed: "
                    "%.1fx\n",
                    total_s / gpu_s, total_s / host_resident_s, all, omp_all_s / total_s);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_b_matching [--graph rmat|er] [--scale S] [--edge-factor F]\n"
      "                 [--file FILE.mtx] [--b 1,2,5] [--threads 1,16] [--reps R]\n"
      "                 [--greedy-reps R] [--no-seq] [--only NAME,...]\n"
      "                 [--warmup] [--stream F,...] [--parts P,...] [--link-gbs G]\n"
      "                 [--link-us U] [--placement atomic,sorted] [--double]\n"
      "                 [--ties K] [--resident-limit GIB] [--gpu ID | --no-gpu]\n"
      "\n"
      "b-matching on R-MAT (or Erdos-Renyi): every b-matching algorithm of the\n"
      "registry, for each b: b-greedy (the reference) first, each other CPU entry\n"
      "once (one thread) or, when it is an OpenMP one, at each thread count (all\n"
      "cores always among them), each GPU entry last; median of --reps runs,\n"
      "edges/s, and whether each equals b-greedy edge for edge. The GPU rows'\n"
      "speed-up is over the fastest OpenMP row on all cores, same run. --file:\n"
      "a Matrix Market file (double weights) instead of a generated graph;\n"
      "--only: the entries to run besides b-greedy; --warmup: one untimed run\n"
      "of each CPU entry first. --stream: b-suitor-gpu's rows also streamed\n"
      "through the GPU, device memory = its state + F x the entries' bytes.\n"
      "--placement: b-suitor-gpu's resident run once per first-round placement\n"
      "(default: atomic). --double: the generated graph's weights as doubles\n"
      "(float by default); --ties K: each weight one of K values; --resident-limit\n"
      "GIB: the resident GPU runs' device-memory limit.\n"
      "--parts: b-Suitor over P parts in one process, its exchange, and its\n"
      "time over a link of G GB/s and U microseconds a phase.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 20, reps = 3, greedy_reps = -1, device = 0;
  double edge_factor = 16;
  bool seq = true, use_gpu = true, warmup = false, double_weights = false;
  int ties = 0;
  std::size_t resident_limit = 0;
  std::string graph = "rmat", file;
  std::vector<std::string> only;
  std::vector<double> stream;
  std::vector<BSuitorPlacement> placements = {BSuitorPlacement::atomic};
  std::vector<int> parts;
  double link_gbs = 450, link_us = 10;
  const int all = omp_get_max_threads();
  std::vector<int> bs = {1, 2, 5}, threads = {1, all};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--scale" && v) scale = std::atoi(argv[++i]);
    else if (a == "--stream" && v) stream = bench::real_list(argv[++i]);
    else if (a == "--placement" && v) {
      placements.clear();
      try {
        for (const std::string& name : bench::string_list(argv[++i])) placements.push_back(parse_b_suitor_placement(name));
      } catch (const invalid_input& e) {
        std::fprintf(stderr, "bench_b_matching: %s\n", e.what());
        return 2;
      }
      if (placements.empty()) {
        std::fprintf(stderr, "bench_b_matching: --placement takes at least one of atomic, sorted\n");
        return 2;
      }
    }
    else if (a == "--parts" && v) parts = bench::int_list(argv[++i]);
    else if (a == "--link-gbs" && v) link_gbs = std::atof(argv[++i]);
    else if (a == "--link-us" && v) link_us = std::atof(argv[++i]);
    else if (a == "--edge-factor" && v) edge_factor = std::atof(argv[++i]);
    else if (a == "--graph" && v) graph = argv[++i];
    else if (a == "--file" && v) file = argv[++i];
    else if (a == "--only" && v) only = bench::string_list(argv[++i]);
    else if (a == "--b" && v) bs = bench::int_list(argv[++i]);
    else if (a == "--threads" && v) threads = bench::int_list(argv[++i]);
    else if (a == "--reps" && v) reps = std::atoi(argv[++i]);
    else if (a == "--greedy-reps" && v) greedy_reps = std::atoi(argv[++i]);
    else if (a == "--gpu" && v) device = std::atoi(argv[++i]);
    else if (a == "--no-gpu") use_gpu = false;
    else if (a == "--no-seq") seq = false;
    else if (a == "--warmup") warmup = true;
    else if (a == "--double") double_weights = true;
    else if (a == "--ties" && v) ties = std::atoi(argv[++i]);
    else if (a == "--resident-limit" && v) resident_limit = std::size_t(std::atof(argv[++i]) * double(1 << 30));
    else {
      std::fprintf(stderr, "bench_b_matching: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  if (greedy_reps < 1) greedy_reps = reps;
  for (int& t : threads)
    if (t <= 0) t = all;
  if (std::find(threads.begin(), threads.end(), all) == threads.end()) threads.push_back(all);
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  for (int p : parts)
    if (p < 1) {
      std::fprintf(stderr, "bench_b_matching: --parts takes counts of at least 1, got %d\n", p);
      return 2;
    }
  const Config c{all,   device,     reps,           greedy_reps, seq,      use_gpu, bs,
                 threads, only,     stream,         placements,  resident_limit, parts, link_gbs,
                 link_us, warmup};

  if (!file.empty()) {
    const Csr<double> g =
        std::get<Csr<double>>(graph_in_view(read_matrix_market(file), GraphView::general, Precision::float64).graph);
    std::printf("graph: %s, %d vertices, %.0f edges, double weights\n", file.c_str(), g.n_rows,
                double(g.cols.size()) / 2);
    return run(g, c);
  }
  GenOptions opt;
  opt.edge_factor = edge_factor;
  opt.ties = ties;
  const vertex_t n = vertex_t(1) << scale;
  const auto generated = [&](auto weight) {
    using W = decltype(weight);
    const Csr<W> g = graph == "er" ? erdos_renyi<W>(n, opt) : rmat<W>(n, opt);
    const double m = double(g.cols.size()) / 2;
    std::printf("graph: %s scale %d edge factor %g, %d vertices, %.0f edges (%s 2^27), %s weights%s\n",
                graph == "er" ? "Erdos-Renyi" : "R-MAT", scale, edge_factor, n, m,
                m >= double(1LL << 27) ? ">=" : "<", sizeof(W) == 4 ? "float" : "double",
                ties > 0 ? (" of " + std::to_string(ties) + " values").c_str() : "");
    return run(g, c);
  };
  return double_weights ? generated(0.0) : generated(0.0f);
}
