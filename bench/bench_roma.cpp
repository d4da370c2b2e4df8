// ROMA on generated complete graphs: the per-phase report of Hovland 2020 tables
// 5.2-5.6 (flips, weight, seconds) and one summary line per run, for the
// sequential CPU roma, the thesis-faithful GPU versions 1 and 2 and the fast
// roma-gpu, over a list of sizes and weight distributions, in one run.
//   bench_roma [--n N | --ns N1,N2,...] [--dists uniform,exponential,geometric]
//              [--phases P] [--min-gain G] [--start neighbour|...] [--scan auto|all|changed] [--seed S]
//              [--auction-unassigned F] [--auction-bids B] [--auction-epsilon E]
//              [--auction-ratio R]
//              [--double] [--runs cpu,1,2,fast,fast-bf16] [--kernel auto|cluster|stream|queued] [--cluster C]
//              [--blocks-per-sm B] [--gpu-generate] [--exact-up-to N] [--upper-bound]
//              [--quiet]
// The --auction-* options set RomaOptions::auction (the assignment start):
// unassigned fraction, bids per person per phase, final epsilon, ratio.
// Each GPU run is made once on a 512-vertex graph before the timed ones.
// --gpu-generate draws the graph on the GPU (DeviceDense::generate) for the
// GPU runs, so no host copy exists unless `cpu` runs (n = 131072 on an
// 80 GB GPU). --exact-up-to N: the optimum (LEMON, where built) for n <= N,
// and each run's GTO = 1 - weight / optimum. --upper-bound: an upper bound
// on the optimum from the exact auction on the host, (its value + n
// epsilon) / 2, printed as bound= and used for the GTO where LEMON gives
// none (so a GTO at most). The summary's floor is the
// bytes a phase must read (n^2 weights, as stored: 2 bytes for fast-bf16)
// over the measured copy bandwidth (bytes read plus written per second).
// --kernel picks roma-gpu's phase kernel (RomaGpuOptions::kernel); the
// per-phase table's kernel, past-bound and fallbacks columns are its
// choices and counts (RomaPhase::kernel, past_bound, fallback_flips), and
// the summary's kernels= lists them, c for cluster, s for stream and q for
// queued, with
// cluster= the cluster phase's blocks a pair (RomaPhase::cluster_blocks)
// and fallbacks= the flips made with a pair's later candidate over all
// phases. The summary's start_s is the start
// matching's seconds (RomaRun::start_seconds: greedy on the host, assignment
// on the device for the GPU runs) and start+phases_s the whole run.
// fast-bf16 reports the float weights of its matching (its quality cost).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/general/exact.hpp"
#include "ops/gpu/device_dense.hpp"
#include "matchers/complete/roma.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

struct Settings {
  std::vector<int> ns{4096};
  std::vector<std::string> dists{"uniform"};
  std::vector<std::string> runs{"cpu"};
  RomaOptions opt;
  RomaGpuOptions gpu;
  bool gpu_generate = false;
  int exact_up_to = 0;
  bool upper_bound = false;
  bool quiet = false;
};

WeightDist parse_dist(const std::string& d) { return bench::weight_dist(d, "bench_roma"); }

double copy_gbps = 0;  // measured once when a GPU run is asked for

void report(const std::string& which, const std::string& dist, vertex_t n, std::size_t weight_bytes,
            const RomaRun& r, std::optional<double> optimum, bool optimum_is_bound, bool quiet) {
  if (!quiet) {
    std::printf("%6s %12s %12s %18s %10s %8s %12s %10s\n", "phase", "flips", "scanned", "weight", "seconds", "kernel",
                "past-bound", "fallbacks");
    std::printf("%6s %12s %12s %18.6f %10s\n", "start", "-", "-", r.start_weight, "-");
  }
  double total = 0, worst = 0, later = 0;
  long long scans = 0;
  for (const RomaPhase& p : r.phases) {
    if (!quiet)
      std::printf("%6d %12lld %12s %18.6f %10.6f %8s %12s %10s\n", p.phase, static_cast<long long>(p.flips),
                  p.scanned >= 0 ? std::to_string(p.scanned).c_str() : "-", p.weight, p.seconds,
                  p.kernel.empty() ? "-" : p.kernel.c_str(),
                  p.past_bound >= 0 ? std::to_string(p.past_bound).c_str() : "-",
                  p.fallback_flips >= 0 ? std::to_string(p.fallback_flips).c_str() : "-");
    scans += p.scanned;
    total += p.seconds;
    worst = std::max(worst, p.seconds);
    if (p.phase > 0) later = std::max(later, p.seconds);
  }
  const double weight = r.phases.empty() ? r.start_weight : r.phases.back().weight;
  const double bytes = double(n) * n * weight_bytes;
  const double floor_ms = copy_gbps > 0 ? bytes / (copy_gbps * 1e9) * 1e3 : 0;
  const double last = r.phases.empty() ? 0 : r.phases.back().seconds;
  std::printf("summary run=%s dist=%s n=%d phases=%zu weight=%.6f total_s=%.6f phase0_ms=%.3f max_later_phase_ms=%.3f "
              "last_phase_ms=%.3f floor_ms=%.3f worst/floor=%.2f",
              which.c_str(), dist.c_str(), n, r.phases.size(), weight, total,
              r.phases.empty() ? 0 : r.phases.front().seconds * 1e3, later * 1e3, last * 1e3, floor_ms,
              floor_ms > 0 ? worst * 1e3 / floor_ms : 0.0);
  std::printf(" start_s=%.6f start+phases_s=%.6f", r.start_seconds, r.start_seconds + total);
  if (!r.phases.empty() && r.phases.front().scanned >= 0) std::printf(" scanned=%lld", scans);
  if (!r.phases.empty() && !r.phases.front().kernel.empty()) {  // c: cluster, s: stream, q: queued, phase by phase
    std::string kernels;
    int cluster = 0;
    long long fallbacks = 0;
    for (const RomaPhase& p : r.phases) {
      kernels += p.kernel.front();
      if (p.cluster_blocks > 0) cluster = p.cluster_blocks;
      fallbacks += p.fallback_flips;
    }
    std::printf(" kernels=%s", kernels.c_str());
    if (cluster > 0) std::printf(" cluster=%d", cluster);
    std::printf(" fallbacks=%lld", fallbacks);
  }
  if (optimum)
    std::printf(optimum_is_bound ? " bound=%.6f gto<=%.4f%%" : " optimum=%.6f gto=%.4f%%", *optimum,
                100 * (1 - weight / *optimum));
  std::printf("\n");
  std::fflush(stdout);
}

template <class W>
void run_one(const Settings& s, vertex_t n, const std::string& dist_name) {
  const WeightDist dist = parse_dist(dist_name);
  GenOptions gen;
  gen.seed = s.opt.seed;
  const bool host_needed =
      std::any_of(s.runs.begin(), s.runs.end(), [&](const std::string& r) { return r == "cpu" || !s.gpu_generate; }) ||
      (s.exact_up_to >= n && have_exact()) || s.upper_bound;
  std::optional<Dense<W>> host;
  if (host_needed) host = complete_graph<W>(dist, n, gen);
  std::optional<double> optimum;
  bool optimum_is_bound = false;
  if (host && s.exact_up_to >= n && have_exact()) optimum = matching_weight(*host, exact_perfect_matching(*host));
  if (s.upper_bound) {
    // A perfect matching M is a permutation of value 2 w(M), so the optimum
    // is at most half the best permutation's value, which the exact auction
    // bounds by its own value + n epsilon.
    std::optional<Dense<W>> padded;
    if (host->n % 2) padded = padded_to_even(*host);
    const Dense<W>& even = padded ? *padded : *host;
    AuctionOptions exact;
    exact.final_epsilon = 1e-5;  // n epsilon / 2 below 0.003% of the optimum on the Hovland 2020 graphs
    const std::vector<vertex_t> sigma = dense_auction(even, exact);
    double value = 0, largest = 0;
    for (vertex_t u = 0; u < even.n; ++u) {
      value += even(u, sigma[u]);
      for (vertex_t v = 0; v < even.n; ++v)
        if (u != v) largest = std::max(largest, std::abs(double(even(u, v))));
    }
    const double bound = (value + even.n * exact.final_epsilon * largest) / 2;
    std::printf("bound dist=%s n=%d upper_bound=%.6f ((the auction's value %.6f + n eps) / 2)\n", dist_name.c_str(),
                n, bound, value);
    if (!optimum) {  // the GTO printed is then an upper bound on it
      optimum = bound;
      optimum_is_bound = true;
    }
  }
  for (const std::string& which : s.runs) {
    if (which != "cpu" && gpu::device_count() == 0) {
      std::printf("roma-gpu %s skipped: no GPU (%s)\n", which.c_str(), gpu::unavailable_reason().c_str());
      continue;
    }
    std::printf("%s: complete %s n=%d (%s weights, %.2f GB), start %s, scan %s, phases <= %d, min-gain %g, seed %llu\n",
                which == "cpu"         ? "roma (CPU, sequential)"
                : which == "fast"      ? "roma-gpu"
                : which == "fast-bf16" ? "roma-gpu, bf16 weights"
                                       : ("roma-gpu-" + which).c_str(),
                dist_name.c_str(), n, sizeof(W) == 4 ? "float" : "double", double(n) * n * sizeof(W) / 1e9,
                to_string(s.opt.start).c_str(), to_string(s.opt.scan).c_str(), s.opt.phases, s.opt.min_gain,
                static_cast<unsigned long long>(s.opt.seed));
    RomaRun r;
    if (which == "cpu") {
      r = roma(*host, s.opt);
    } else {
      const DeviceDense<W> d = s.gpu_generate ? DeviceDense<W>::generate(dist, n, gen, s.gpu.device)
                                              : DeviceDense<W>::upload(*host, s.gpu.device);
      std::printf("graph on the GPU in %.3f s (%s)\n", d.seconds(), s.gpu_generate ? "generated there" : "uploaded");
      RomaGpuOptions go = s.gpu;
      go.bf16 = which == "fast-bf16";
      r = which.rfind("fast", 0) == 0 ? roma_gpu(d, s.opt, go) : roma_gpu_thesis(d, std::atoi(which.c_str()), s.opt);
    }
    report(which, dist_name, n, which == "fast-bf16" ? 2 : sizeof(W), r, optimum, optimum_is_bound, s.quiet);
  }
}

// Each GPU run once on a small graph before anything is timed, so that no
// timed run pays for loading kernels or growing the memory pool.
template <class W>
void warm_up(const Settings& s) {
  GenOptions gen;
  gen.seed = s.opt.seed;
  const DeviceDense<W> d = DeviceDense<W>::generate(WeightDist::uniform, 512, gen, s.gpu.device);
  for (const std::string& which : s.runs) {
    if (which == "cpu") continue;
    RomaGpuOptions go = s.gpu;
    go.bf16 = which == "fast-bf16";
    if (which.rfind("fast", 0) == 0) roma_gpu(d, s.opt, go);
    else roma_gpu_thesis(d, std::atoi(which.c_str()), s.opt);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_roma [--n N | --ns N1,N2,...] [--dists uniform,exponential,geometric]\n"
      "           [--phases P] [--min-gain G] [--start neighbour|...] [--scan auto|all|changed] [--seed S]\n"
      "           [--auction-unassigned F] [--auction-bids B] [--auction-epsilon E]\n"
      "           [--auction-ratio R]\n"
      "           [--double] [--runs cpu,1,2,fast,fast-bf16] [--kernel auto|cluster|stream|queued] [--cluster C]\n"
      "           [--blocks-per-sm B] [--gpu-generate] [--exact-up-to N] [--upper-bound]\n"
      "           [--quiet]\n"
      "\n"
      "ROMA on generated complete graphs: the per-phase report of Hovland 2020 tables\n"
      "5.2-5.6 (flips, weight, seconds) and one summary line per run, for the\n"
      "sequential CPU roma, the thesis-faithful GPU versions 1 and 2 and the fast\n"
      "roma-gpu, over a list of sizes and weight distributions, in one run.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  Settings s;
  bool use_double = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--n" && v) s.ns = {std::atoi(argv[++i])};
    else if (a == "--ns" && v) s.ns = bench::int_list(argv[++i]);
    else if ((a == "--dist" || a == "--dists") && v) s.dists = bench::string_list(argv[++i]);
    else if (a == "--phases" && v) s.opt.phases = std::atoi(argv[++i]);
    else if (a == "--min-gain" && v) s.opt.min_gain = std::atof(argv[++i]);
    else if (a == "--start" && v) s.opt.start = parse_roma_start(argv[++i]);
    else if (a == "--scan" && v) s.opt.scan = parse_roma_scan(argv[++i]);
    else if (a == "--auction-unassigned" && v) s.opt.auction.unassigned = std::atof(argv[++i]);
    else if (a == "--auction-bids" && v) s.opt.auction.bids_per_person = std::atof(argv[++i]);
    else if (a == "--auction-epsilon" && v) s.opt.auction.final_epsilon = std::atof(argv[++i]);
    else if (a == "--auction-ratio" && v) s.opt.auction.ratio = std::atof(argv[++i]);
    else if (a == "--seed" && v) s.opt.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--double") use_double = true;
    else if (a == "--runs" && v) s.runs = bench::string_list(argv[++i]);
    else if (a == "--kernel" && v) s.gpu.kernel = parse_roma_gpu_kernel(argv[++i]);
    else if (a == "--cluster" && v) s.gpu.cluster = std::atoi(argv[++i]);
    else if (a == "--blocks-per-sm" && v) s.gpu.blocks_per_sm = std::atoi(argv[++i]);
    else if (a == "--gpu-generate") s.gpu_generate = true;
    else if (a == "--exact-up-to" && v) s.exact_up_to = std::atoi(argv[++i]);
    else if (a == "--upper-bound") s.upper_bound = true;
    else if (a == "--quiet") s.quiet = true;
    else {
      std::fprintf(stderr, "bench_roma: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  for (const std::string& r : s.runs)
    if (r != "cpu" && r != "1" && r != "2" && r != "fast" && r != "fast-bf16") {
      std::fprintf(stderr, "bench_roma: unknown run '%s' (cpu, 1, 2, fast, fast-bf16)\n", r.c_str());
      return 2;
    }
  for (const std::string& d : s.dists) parse_dist(d);
  if (gpu::device_count() > 0 && std::any_of(s.runs.begin(), s.runs.end(), [](auto& r) { return r != "cpu"; })) {
    copy_gbps = gpu::measure_copy_bandwidth(s.gpu.device, std::size_t(1) << 30);
    std::printf("GPU %d: %s; copy bandwidth %.0f GB/s\n", s.gpu.device, gpu::device_description(s.gpu.device).c_str(),
                copy_gbps);
  }
  try {
    if (copy_gbps > 0) use_double ? warm_up<double>(s) : warm_up<float>(s);
    for (const std::string& d : s.dists)
      for (int n : s.ns) use_double ? run_one<double>(s, n, d) : run_one<float>(s, n, d);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_roma: %s\n", e.what());
    return 1;
  }
  return 0;
}
