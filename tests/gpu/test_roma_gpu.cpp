// roma-gpu-1 and roma-gpu-2 (matchers/gpu.hpp, seed 000 Alg. 6-9): a valid
// perfect matching after every phase and a weight that never falls, on the
// three weight distributions, odd and even n, every start matching, repeated
// (the flips race); and, run to convergence, no 4-cycle of gain above
// min-gain left and a weight near the CPU roma's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <string>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/gpu.hpp"
#include "matchers/roma.hpp"

using namespace matchblas;

namespace {
const WeightDist dists[] = {WeightDist::uniform, WeightDist::exponential, WeightDist::geometric};
}

TEST_CASE("roma-gpu: a perfect matching after every phase, weight never lower, repeated") {
  for (const int version : {1, 2})
    for (const WeightDist dist : dists)
      for (vertex_t n : {2, 4, 7, 64, 257, 1024}) {
        GenOptions gen;
        gen.seed = 3 + n;
        const Dense<float> g = complete_graph<float>(dist, n, gen);
        for (const RomaStart start : {RomaStart::neighbour, RomaStart::shuffled, RomaStart::greedy})
          for (int repeat = 0; repeat < 3; ++repeat) {
            CAPTURE(version);
            CAPTURE(n);
            CAPTURE(to_string(start));
            CAPTURE(repeat);
            RomaOptions opt;
            opt.start = start;
            for (int k : {1, 2, 8}) {
              opt.phases = k;
              const RomaRun run = roma_gpu(g, version, opt);
              INFO(matching_violation(g, run.matching));
              REQUIRE(matching_violation(g, run.matching).empty());
              REQUIRE(cardinality(run.matching) == n / 2);
              double previous = run.start_weight;
              for (const RomaPhase& p : run.phases) {
                CHECK(p.weight >= previous - 1e-9 * std::abs(previous));
                previous = p.weight;
              }
              CHECK(matching_weight(g, run.matching) == doctest::Approx(previous).epsilon(1e-9));
            }
          }
      }
}

// The thesis-faithful versions race for locks, so after 8 phases they can
// trail the CPU (on the H100, n = 1024-2048: version 2 within 1.4%, version 1
// up to 17% behind: few of its threads win their locks per phase). Run to
// convergence they end, like the CPU, with no 4-cycle of gain above
// min-gain (checked by brute force), but at another such local optimum:
// measured GPU/CPU weight 0.984-1.014 over two runs (exponential weights
// differ most).
// (The 0.1% after a phases cap is for the fast roma-gpu, which does
// not exist yet.)
TEST_CASE("roma-gpu-1 and -2 run to convergence: no 4-cycle of gain above min-gain, weight near the CPU's") {
  for (const int version : {1, 2})
    for (const WeightDist dist : dists)
      for (vertex_t n : {1024, 2048}) {
        GenOptions gen;
        gen.seed = 17 + n;
        const Dense<float> g = complete_graph<float>(dist, n, gen);
        RomaOptions opt;
        opt.phases = 100000;
        const double cpu = matching_weight(g, roma(g, opt).matching);
        const RomaRun run = roma_gpu(g, version, opt);
        const double gpu = matching_weight(g, run.matching);
        CAPTURE(version);
        CAPTURE(n);
        CHECK(run.phases.back().flips == 0);
        double best_gain = 0;  // of any flip of two matching edges, in double
        const std::vector<vertex_t>& m = run.matching.mate;
        for (vertex_t u = 0; u < n; ++u)
          for (vertex_t x = u + 1; x < n; ++x) {
            const vertex_t v = m[u], y = m[x];
            if (!(u < v) || !(x < y) || x == v) continue;
            const double current = double(g(u, v)) + g(x, y);
            best_gain = std::max({best_gain, double(g(u, x)) + g(v, y) - current, double(g(u, y)) + g(v, x) - current});
          }
        CHECK(best_gain <= opt.min_gain + 1e-4);  // float sums on the GPU
        CHECK(std::abs(gpu - cpu) <= 3e-2 * cpu);
        MESSAGE("roma-gpu-", version, " n=", n, ": GPU/CPU weight at convergence ", gpu / cpu, " after ",
                run.phases.size(), " phases, best remaining flip gain ", best_gain);
      }
}

TEST_CASE("roma-gpu refuses bad arguments") {
  const Dense<float> g = complete_graph<float>(WeightDist::uniform, 16);
  CHECK_THROWS_AS(roma_gpu(g, 3), invalid_input);
  RomaOptions opt;
  opt.phases = -2;
  CHECK_THROWS_AS(roma_gpu(g, 2, opt), invalid_input);
  CHECK_THROWS_WITH_AS(roma_gpu(g, 2, {}, 4096), doctest::Contains("no GPU with id 4096"), invalid_input);
}
