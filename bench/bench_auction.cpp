// The GPU auction (matchers/complete/auction_gpu.cu) on the Hovland 2020 complete graphs:
// per epsilon phase its kernel time, bids, lost bids, row scans, persons left
// unassigned and the tail (when the unassigned count fell to 2^k), then one
// summary line per run: the auction's seconds, the assignment's value, and
// the weight of the perfect matching read off it. With --cpu, the sequential
// CPU auction (matchers/complete/auction.hpp) on the same graph, as the peer.
//   bench_auction [--ns N1,N2,...] [--dists uniform,exponential,geometric]
//                 [--unassigned F1,F2,...] [--final-epsilon E] [--ratio R] [--bids B]
//                 [--seed S] [--cpu] [--quiet]
// Floors: each phase reads every row at least once (n^2 weights, 4 bytes
// each) unless a list proves the bid; the summary's floor_ms is one such
// read over 3.0 TB/s.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "lib/matching.hpp"
#include "matchers/complete/auction.hpp"
#include "ops/gpu/device_dense.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

WeightDist parse_dist(const std::string& d) { return bench::weight_dist(d, "bench_auction"); }

double value(const Dense<float>& g, const std::vector<vertex_t>& sigma) {
  double v = 0;
  for (vertex_t u = 0; u < g.n; ++u)
    if (sigma[u] != no_vertex) v += g(u, sigma[u]);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_auction [--ns N1,N2,...] [--dists uniform,exponential,geometric]\n"
      "              [--unassigned F1,F2,...] [--final-epsilon E] [--ratio R] [--bids B]\n"
      "              [--seed S] [--cpu] [--quiet]\n"
      "\n"
      "The GPU auction (matchers/complete/auction_gpu.cu) on the Hovland 2020 complete graphs:\n"
      "per epsilon phase its kernel time, bids, lost bids, row scans, persons left\n"
      "unassigned and the tail (when the unassigned count fell to 2^k), then one\n"
      "summary line per run: the auction's seconds, the assignment's value, and\n"
      "the weight of the perfect matching read off it. With --cpu, the sequential\n"
      "CPU auction (matchers/complete/auction.hpp) on the same graph, as the peer.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  std::vector<int> ns{4096};
  std::vector<std::string> dists{"uniform", "exponential", "geometric"};
  std::vector<double> fractions{0};
  AuctionOptions base;
  std::uint64_t seed = 1;
  bool cpu = false, quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--ns" && v) ns = bench::int_list(argv[++i]);
    else if (a == "--dists" && v) dists = bench::string_list(argv[++i]);
    else if (a == "--unassigned" && v) {
      fractions.clear();
      for (const std::string& f : bench::string_list(argv[++i])) fractions.push_back(std::atof(f.c_str()));
    } else if (a == "--final-epsilon" && v) base.final_epsilon = std::atof(argv[++i]);
    else if (a == "--ratio" && v) base.ratio = std::atof(argv[++i]);
    else if (a == "--bids" && v) base.bids_per_person = std::atof(argv[++i]);
    else if (a == "--seed" && v) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--cpu") cpu = true;
    else if (a == "--quiet") quiet = true;
    else {
      std::fprintf(stderr, "bench_auction: unknown option or missing value: %s\n", a.c_str());
      return 2;
    }
  }
  for (const std::string& d : dists) parse_dist(d);
  for (const int n : ns)
    if (n < 2 || n % 2) {
      std::fprintf(stderr, "bench_auction: n must be even and >= 2 (the matching is read off the padded order), got %d\n",
                   n);
      return 2;
    }
  if (gpu::device_count() == 0) {
    std::printf("bench_auction skipped: no GPU (%s)\n", gpu::unavailable_reason().c_str());
    return 0;
  }
  try {
    for (const std::string& d : dists)
      for (const int n : ns) {
        GenOptions gen;
        gen.seed = seed;
        const DeviceDense<float> g = DeviceDense<float>::generate(parse_dist(d), n, gen);
        const Dense<float> host = g.to_host();
        if (cpu) {
          const auto t0 = std::chrono::steady_clock::now();
          const std::vector<vertex_t> mate = assignment_matching(host, base);
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          Matching m(n);
          m.mate = mate;
          std::printf("summary run=cpu dist=%s n=%d unassigned=0 seconds=%.6f matching_weight=%.6f\n", d.c_str(), n, s,
                      matching_weight(host, m));
        }
        for (const double f : fractions) {
          AuctionOptions opt = base;
          opt.unassigned = f;
          AuctionGpuStats stats;
          const std::vector<vertex_t> sigma = dense_auction_gpu(g, opt, &stats);
          AuctionGpuStats again;
          Matching m(n);
          m.mate = assignment_matching_gpu(g, opt, &again);
          std::int64_t bids = 0, scans = 0;
          for (const AuctionGpuPhase& p : stats.phases) {
            bids += p.bids;
            scans += p.scans;
            if (quiet) continue;
            std::printf("  phase eps=%.3g ms=%.3f bids=%lld lost=%lld scans=%lld unassigned=%d tail(left:ms)=", p.epsilon,
                        p.seconds * 1e3, static_cast<long long>(p.bids), static_cast<long long>(p.lost_bids),
                        static_cast<long long>(p.scans), p.unassigned);
            for (const auto& [left, s] : p.tail) std::printf(" %d:%.3f", left, s * 1e3);
            std::printf("\n");
          }
          std::printf("summary run=gpu dist=%s n=%d unassigned=%g seconds=%.6f again_s=%.6f phases=%zu bids/n=%.2f "
                      "scans/n=%.2f floor_ms=%.3f value=%.6f matching_weight=%.6f\n",
                      d.c_str(), n, f, stats.seconds, again.seconds, stats.phases.size(), double(bids) / n,
                      double(scans) / n, double(n) * n * 4 / 3.0e12 * 1e3, value(host, sigma),
                      matching_weight(host, m));
          std::fflush(stdout);
        }
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_auction: %s\n", e.what());
    return 1;
  }
  return 0;
}
