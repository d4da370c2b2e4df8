// ROMA on a generated complete graph: the per-phase report of seed 000
// tables 5.2-5.6 (flips, weight, seconds) and the total, for one weight
// distribution and start matching, for the sequential CPU roma and/or the
// GPU versions 1 and 2 (the phase kernels alone), in one run.
//   bench_roma [--n N] [--dist uniform|exponential|geometric] [--phases P]
//              [--min-gain G] [--start neighbour|...] [--seed S] [--double]
//              [--runs cpu,1,2]
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <string>

#include "datasets/generators.hpp"
#include "matchers/gpu.hpp"
#include "matchers/roma.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {
void report(const RomaRun& r, vertex_t n, std::size_t weight_bytes);

template <class W>
int run(vertex_t n, WeightDist dist, const RomaOptions& opt, const char* dist_name, const std::string& runs) {
  GenOptions gen;
  gen.seed = opt.seed;
  const Dense<W> g = complete_graph<W>(dist, n, gen);
  for (std::size_t start = 0; start < runs.size();) {
    const std::size_t comma = std::min(runs.find(',', start), runs.size());
    const std::string which = runs.substr(start, comma - start);
    start = comma + 1;
    if (which != "cpu" && gpu::device_count() == 0) {
      std::printf("roma-gpu-%s skipped: no GPU (%s)\n", which.c_str(), gpu::unavailable_reason().c_str());
      continue;
    }
    std::printf("%s: complete %s n=%d (%s weights, %.2f GB), start %s, phases <= %d, min-gain %g, seed %llu\n",
                which == "cpu" ? "roma (CPU, sequential)" : ("roma-gpu-" + which).c_str(), dist_name, n,
                sizeof(W) == 4 ? "float" : "double", g.bytes() / 1e9, to_string(opt.start).c_str(), opt.phases,
                opt.min_gain, static_cast<unsigned long long>(opt.seed));
    report(which == "cpu" ? roma(g, opt) : roma_gpu(g, std::stoi(which), opt), n, sizeof(W));
  }
  return 0;
}

void report(const RomaRun& r, vertex_t n, std::size_t weight_bytes) {
  std::printf("%6s %12s %18s %10s\n", "phase", "flips", "weight", "seconds");
  std::printf("%6s %12s %18.6f %10s\n", "start", "-", r.start_weight, "-");
  double total = 0;
  for (const RomaPhase& p : r.phases) {
    std::printf("%6d %12lld %18.6f %10.6f\n", p.phase, static_cast<long long>(p.flips), p.weight, p.seconds);
    total += p.seconds;
  }
  std::printf("total %.6f s over %zu phases; bytes per phase to read w once: %.3f GB\n", total, r.phases.size(),
              double(n) * n * weight_bytes / 1e9);
}
}  // namespace

int main(int argc, char** argv) {
  vertex_t n = 4096;
  std::string dist = "uniform";
  bool use_double = false;
  std::string runs = "cpu";
  RomaOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--n" && v) n = std::atoi(argv[++i]);
    else if (a == "--dist" && v) dist = argv[++i];
    else if (a == "--phases" && v) opt.phases = std::atoi(argv[++i]);
    else if (a == "--min-gain" && v) opt.min_gain = std::atof(argv[++i]);
    else if (a == "--start" && v) opt.start = parse_roma_start(argv[++i]);
    else if (a == "--seed" && v) opt.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--double") use_double = true;
    else if (a == "--runs" && v) runs = argv[++i];
    else {
      std::fprintf(stderr, "bench_roma: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  const WeightDist d = dist == "exponential" ? WeightDist::exponential
                       : dist == "geometric" ? WeightDist::geometric
                                             : WeightDist::uniform;
  return use_double ? run<double>(n, d, opt, dist.c_str(), runs) : run<float>(n, d, opt, dist.c_str(), runs);
}
