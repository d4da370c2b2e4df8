// Sequential ROMA (matchers/roma.hpp) on a generated complete graph: the
// per-phase report of seed 000 tables 5.2-5.6 (flips, weight, seconds) and
// the total, for one weight distribution, order and start matching.
//   bench_roma [--n N] [--dist uniform|exponential|geometric] [--phases P]
//              [--min-gain G] [--start neighbour|...] [--seed S] [--double]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "datasets/generators.hpp"
#include "matchers/roma.hpp"

using namespace matchblas;

namespace {
template <class W>
int run(vertex_t n, WeightDist dist, const RomaOptions& opt, const char* dist_name) {
  GenOptions gen;
  gen.seed = opt.seed;
  const Dense<W> g = complete_graph<W>(dist, n, gen);
  std::printf("complete %s n=%d (%s weights, %.2f GB), start %s, phases <= %d, min-gain %g, seed %llu\n", dist_name, n,
              sizeof(W) == 4 ? "float" : "double", g.bytes() / 1e9, to_string(opt.start).c_str(), opt.phases,
              opt.min_gain, static_cast<unsigned long long>(opt.seed));
  const RomaRun r = roma(g, opt);
  std::printf("%6s %12s %18s %10s\n", "phase", "flips", "weight", "seconds");
  std::printf("%6s %12s %18.6f %10s\n", "start", "-", r.start_weight, "-");
  double total = 0;
  for (const RomaPhase& p : r.phases) {
    std::printf("%6d %12lld %18.6f %10.3f\n", p.phase, static_cast<long long>(p.flips), p.weight, p.seconds);
    total += p.seconds;
  }
  std::printf("total %.3f s over %zu phases; read floor per phase (n^2 x %zu bytes once): %.2f GB\n", total,
              r.phases.size(), sizeof(W), double(n) * n * sizeof(W) / 1e9);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  vertex_t n = 4096;
  std::string dist = "uniform";
  bool use_double = false;
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
    else {
      std::fprintf(stderr, "bench_roma: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  const WeightDist d = dist == "exponential" ? WeightDist::exponential
                       : dist == "geometric" ? WeightDist::geometric
                                             : WeightDist::uniform;
  return use_double ? run<double>(n, d, opt, dist.c_str()) : run<float>(n, d, opt, dist.c_str());
}
