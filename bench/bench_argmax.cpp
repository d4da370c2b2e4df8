// Row argmax (ops/argmax.hpp) on an R-MAT (or Erdos-Renyi) graph: the plain backend against a
// peer measured in the same run, the hand-written loop below (the simplest
// loop a programmer would write, same semantics), and the graphblas backend
// on the graph resident in GraphBLAS (a GraphBlasGraph made once, as the
// matchers do; "grb s") and on the Csr (importing it per call,
// "grb+imp s", whose imports find GraphBLAS's memory pool warm), with the
// import alone ("import s", measured first, while no graph is resident: a
// matcher's first import).
// Two cases: no masks (every row, every column); and a random half of the
// rows active with a per-column floor (half the columns hold a suitor).
//   bench_argmax [--scale S] [--edge-factor F] [--er 0|1] [--threads T1,T2,...] [--reps R] [--seed X]
// (--er 1: an Erdos-Renyi graph instead of R-MAT.)
// Defaults: scale 22, edge factor 16, threads 1 and all, 5 repetitions
// (median reported; the resident graph's first masked call, which makes
// its column view once, is a warm-up). GB/s counts offsets + cols + weights
// read once (the floor of any argmax over all rows; the masked case reads
// fewer entries and adds random reads of the masks, but is reported against
// the same bytes). Targets: plain/hand <= 2; graphblas (resident)
// / plain <= 5.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/generators.hpp"
#include "ops/argmax.hpp"
#include "ops/graphblas_graph.hpp"

using namespace matchblas;
using bench::median_seconds;

namespace {

// The peer: what one would write by hand for the same contract.
void hand_argmax(const Csr<float>& g, const std::uint8_t* active, const float* floor_w, const vertex_t* floor_v,
                 vertex_t* best, float* best_w) {
#pragma omp parallel for schedule(dynamic, 1024)
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    vertex_t b = -1;
    float w = 0;
    if (active == nullptr || active[u]) {
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        const vertex_t v = g.cols[k];
        const float x = g.weights[k];
        if (floor_w != nullptr && !(x > floor_w[v] || (x == floor_w[v] && u < floor_v[v]))) continue;
        if (b == -1 || x > w || (x == w && v < b)) {
          b = v;
          w = x;
        }
      }
    }
    best[u] = b;
    best_w[u] = w;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_argmax [--scale S] [--edge-factor F] [--threads T1,T2,...] [--reps R] [--seed X]\n"
      "\n"
      "Row argmax (ops/argmax.hpp) on an R-MAT graph: the plain backend against a\n"
      "peer measured in the same run, the hand-written loop below (the simplest\n"
      "loop a programmer would write, same semantics), and the graphblas backend.\n"
      "Two cases: no masks (every row, every column); and a random half of the\n"
      "rows active with a per-column floor (half the columns hold a suitor).\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  int scale = 22, reps = 5;
  double edge_factor = 16;
  std::uint64_t seed = 1;
  bool er = false;
  std::vector<int> threads{1, omp_get_max_threads()};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--scale") scale = std::atoi(argv[i + 1]);
    else if (a == "--edge-factor") edge_factor = std::atof(argv[i + 1]);
    else if (a == "--threads") threads = bench::int_list(argv[i + 1]);
    else if (a == "--reps") reps = std::atoi(argv[i + 1]);
    else if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--er") er = std::atoi(argv[i + 1]) != 0;
    else {
      std::fprintf(stderr, "bench_argmax: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  GenOptions opt;
  opt.seed = seed;
  opt.edge_factor = edge_factor;
  const auto t0 = std::chrono::steady_clock::now();
  const Csr<float> g = er ? erdos_renyi<float>(vertex_t(1) << scale, opt) : rmat<float>(vertex_t(1) << scale, opt);
  const double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double bytes = double(g.bytes());
  std::printf("%s scale %d, edge factor %g: %d rows, %lld entries, %.1f MB of CSR (generated in %.1f s)\n",
              er ? "Erdos-Renyi" : "R-MAT", scale,
              edge_factor, g.n_rows, static_cast<long long>(g.num_entries()), bytes / 1e6, gen_s);
  std::printf("graphblas backend: %s\n", ops::have_graphblas() ? "yes" : "not in this build");

  // The masked case: each row active with probability 1/2; each column has
  // a suitor (a weight uniform in (0,1], a random row) with probability 1/2.
  const std::size_t n = std::size_t(g.n_rows);
  std::vector<std::uint8_t> active(n);
  std::vector<float> floor_w(n, 0.0f);
  std::vector<vertex_t> floor_v(n, -1);
  std::mt19937_64 rng(seed + 1);
  for (std::size_t v = 0; v < n; ++v) {
    active[v] = std::uint8_t(rng() & 1);
    if (rng() & 1) {
      floor_w[v] = float(1.0 - std::uniform_real_distribution<double>(0, 1)(rng));
      floor_v[v] = vertex_t(rng() % n);
    }
  }
  const ops::ArgmaxMasks<float> masked{active, {}, floor_w, floor_v};

  std::vector<vertex_t> best(n), best_ref(n);
  std::vector<float> best_w(n), best_w_ref(n);
  std::printf("%-7s %-7s %10s %10s %10s %10s %10s %10s %10s %10s\n", "case", "threads", "plain s", "hand s",
              "grb s", "grb+imp s", "import s", "plain GB/s", "plain/hand", "grb/plain");
  // The import alone, per thread count, while no other GraphBlasGraph lives
  // (so GraphBLAS's memory pool holds nothing: a matcher's first import).
  std::vector<double> import_s(threads.size(), 0.0);
  if (ops::have_graphblas())
    for (std::size_t k = 0; k < threads.size(); ++k) {
      omp_set_num_threads(threads[k]);
      import_s[k] = median_seconds(reps, [&] { ops::GraphBlasGraph<float> imported(g); });
    }
  std::optional<ops::GraphBlasGraph<float>> resident;
  if (ops::have_graphblas()) resident.emplace(g);
  for (const bool with_masks : {false, true}) {
    const ops::ArgmaxMasks<float> masks = with_masks ? masked : ops::ArgmaxMasks<float>{};
    for (std::size_t tk = 0; tk < threads.size(); ++tk) {
      const int t = threads[tk];
      omp_set_num_threads(t);
      const auto hand = [&] {
        hand_argmax(g, with_masks ? active.data() : nullptr, with_masks ? floor_w.data() : nullptr,
                    with_masks ? floor_v.data() : nullptr, best_ref.data(), best_w_ref.data());
      };
      const double hand_s = median_seconds(reps, hand);
      const double plain_s =
          median_seconds(reps, [&] { ops::argmax_rows<float>(g, masks, best, best_w, ops::Backend::plain); });
      if (best != best_ref || best_w != best_w_ref) {
        std::fprintf(stderr, "bench_argmax: plain and hand disagree\n");
        return 1;
      }
      double grb_s = 0, grb_import_s = 0;
      if (resident) {
        ops::argmax_rows<float>(*resident, masks, best, best_w);  // warm-up
        grb_s = median_seconds(reps, [&] { ops::argmax_rows<float>(*resident, masks, best, best_w); });
        if (best != best_ref || best_w != best_w_ref) {
          std::fprintf(stderr, "bench_argmax: graphblas and hand disagree\n");
          return 1;
        }
        grb_import_s =
            median_seconds(reps, [&] { ops::argmax_rows<float>(g, masks, best, best_w, ops::Backend::graphblas); });
        if (best != best_ref || best_w != best_w_ref) {
          std::fprintf(stderr, "bench_argmax: graphblas (per call) and hand disagree\n");
          return 1;
        }
      }
      std::printf("%-7s %-7d %10.3f %10.3f %10.3f %10.3f %10.3f %10.2f %10.2f %10.2f\n", with_masks ? "masked" : "all",
                  t, plain_s, hand_s, grb_s, grb_import_s, with_masks ? 0.0 : import_s[tk], bytes / plain_s / 1e9,
                  plain_s / hand_s,
                  grb_s / plain_s);
      std::fflush(stdout);
    }
  }
  return 0;
}
