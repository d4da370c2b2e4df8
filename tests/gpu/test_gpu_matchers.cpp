// The GPU matchers (matchers/gpu.hpp): suitor-gpu in every variant and
// several launch shapes, ld-gpu and handshake-gpu each equal greedy mate for
// mate on every test graph (random tie-heavy graphs, the generated families,
// the real matrices, negative weights), with float and double weights, and
// repeatedly on tie-heavy R-MAT and Erdos-Renyi graphs (races show up as
// flakiness). Also: the result does not depend on handshake-gpu's thread
// count, and bad options are refused with invalid_input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/common/greedy.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

// The "threads" knob of the family check, read as a launch shape: 1, one
// vertex per warp (adaptive); 2, as written in M. Naim, F. Manne,
// M. Halappanavar, A. Tumeo, J. Langguth, "Optimizing approximate weighted
// matching on Nvidia Kepler K40", HiPC 2015 (128 x 8, no sub-warp groups, no
// hub kernel); 8, 64 vertices per warp and every row longer than
// 32 a hub (the hub kernel runs on the small test graphs too).
SuitorGpuOptions suitor_shape(int threads, SuitorGpuVariant variant) {
  SuitorGpuOptions o;
  o.variant = variant;
  o.adaptive_min_entries = 0;  // the adaptive path on the small test graphs too
  if (threads == 1) {
    o.threads_per_block = 32;
    o.vertices_per_warp = 1;
  } else if (threads == 2) {
    o.threads_per_block = 128;
    o.vertices_per_warp = 8;
    o.adaptive = false;
  } else {
    o.threads_per_block = 256;
    o.vertices_per_warp = 64;
    o.lb_rounds = 2;
    o.hub_degree = 32;
  }
  return o;
}

SuitorGpuOptions with_threads(int threads) {
  SuitorGpuOptions o;
  o.threads = threads == 1 ? 32 : threads == 2 ? 1000 : 0;  // few, odd, one per item
  return o;
}

}  // namespace

TEST_CASE("suitor-gpu (NoSync, the default) equals greedy on every test graph, repeated") {
  check::require_greedy_family(
      [](const Csr<double>& g, int t) { return suitor_gpu(g, suitor_shape(t, SuitorGpuVariant::no_sync)); },
      [](const Csr<float>& g, int t) { return suitor_gpu(g, suitor_shape(t, SuitorGpuVariant::no_sync)); },
      /*parallel=*/true, /*repeats=*/10);
}

TEST_CASE("suitor-gpu SyncLB, SyncNoLB and Hybrid equal greedy, in several launch shapes") {
  check::FamilyOptions opt;
  opt.random_graphs = 120;
  opt.real = false;
  for (SuitorGpuVariant v : {SuitorGpuVariant::sync_lb, SuitorGpuVariant::sync_no_lb, SuitorGpuVariant::hybrid}) {
    CAPTURE(to_string(v));
    check::require_greedy_family([&](const Csr<double>& g, int t) { return suitor_gpu(g, suitor_shape(t, v)); },
                                 [&](const Csr<float>& g, int t) { return suitor_gpu(g, suitor_shape(t, v)); },
                                 /*parallel=*/true, /*repeats=*/3, opt);
  }
}

TEST_CASE("suitor-gpu's row searches (champions, walk, auto) equal greedy, repeated") {
  check::FamilyOptions opt;
  opt.random_graphs = 120;
  for (SuitorGpuSearch search : {SuitorGpuSearch::champions, SuitorGpuSearch::walk, SuitorGpuSearch::automatic}) {
    CAPTURE(to_string(search));
    const auto shape = [&](int t) {
      SuitorGpuOptions o = suitor_shape(t == 2 ? 1 : t, SuitorGpuVariant::no_sync);  // adaptive shapes only
      o.search = search;
      return o;
    };
    check::require_greedy_family([&](const Csr<double>& g, int t) { return suitor_gpu(g, shape(t)); },
                                 [&](const Csr<float>& g, int t) { return suitor_gpu(g, shape(t)); },
                                 /*parallel=*/true, /*repeats=*/5, opt);
  }
}

TEST_CASE("suitor-gpu's champion search with load balancing, and where its refusals do not fit") {
  check::FamilyOptions opt;
  opt.random_graphs = 60;
  opt.real = false;
  for (SuitorGpuVariant v : {SuitorGpuVariant::sync_lb, SuitorGpuVariant::hybrid}) {
    CAPTURE(to_string(v));
    const auto shape = [&](int t) {
      SuitorGpuOptions o = suitor_shape(t == 2 ? 8 : t, v);  // 8: 256 x 64, balanced for 2 rounds
      o.search = SuitorGpuSearch::champions;
      return o;
    };
    check::require_greedy_family([&](const Csr<double>& g, int t) { return suitor_gpu(g, shape(t)); },
                                 [&](const Csr<float>& g, int t) { return suitor_gpu(g, shape(t)); },
                                 /*parallel=*/true, /*repeats=*/3, opt);
  }
  // 1024 x 512 float: 12 bytes a queue slot fit the shared memory, the
  // champions' 20 do not; the walk runs instead, same matching.
  GenOptions gen;
  gen.seed = 21;
  gen.ties = 3;
  const Csr<float> g = erdos_renyi<float>(20000, gen);
  SuitorGpuOptions o;
  o.adaptive_min_entries = 0;
  o.threads_per_block = 1024;
  o.vertices_per_warp = 512;
  o.search = SuitorGpuSearch::champions;
  CHECK(suitor_gpu(g, o).mate == greedy(g, 1).mate);
}

TEST_CASE("suitor-gpu with float weights equals greedy on the generated families, every variant") {
  for (const check::GeneratedFamily& family : check::generated_families())
    for (int ties : {0, 3}) {
      GenOptions gen;
      gen.seed = 5 + ties;
      gen.ties = ties;
      const Csr<float> g = check::with_weights<float>(family.make(gen));
      const Matching reference = greedy(g, 1);
      for (SuitorGpuVariant v : {SuitorGpuVariant::no_sync, SuitorGpuVariant::sync_lb, SuitorGpuVariant::sync_no_lb,
                                 SuitorGpuVariant::hybrid})
        for (int shape : {1, 2, 8}) {
          CAPTURE(family.name);
          CAPTURE(ties);
          CAPTURE(to_string(v));
          CAPTURE(shape);
          const Matching m = suitor_gpu(g, suitor_shape(shape, v));
          INFO(matching_violation(g, m));
          REQUIRE(m == reference);
        }
    }
}

TEST_CASE("suitor-gpu on double weights that are all floats exactly runs on float offer words, greedy's matching") {
  const auto float_keys = [](const GpuTimes& t) {
    for (const auto& [name, seconds] : t.phases)
      if (name.find("as float keys") != std::string::npos) return true;
    return false;
  };
  for (const check::GeneratedFamily& family : check::generated_families())
    for (int ties : {4, 3}) {  // the values i/4 are floats exactly, i/3 (mostly) not
      GenOptions gen;
      gen.seed = 11 + ties;
      gen.ties = ties;
      const Csr<double> g = family.make(gen);
      if (g.num_entries() == 0) continue;
      bool exact = true;
      for (const double w : g.weights) exact = exact && double(float(w)) == w;
      const Matching reference = greedy(g, 1);
      for (int shape : {1, 2, 8}) {
        CAPTURE(family.name);
        CAPTURE(ties);
        CAPTURE(shape);
        GpuTimes t;
        const Matching m = suitor_gpu(g, suitor_shape(shape, SuitorGpuVariant::no_sync), &t);
        INFO(matching_violation(g, m));
        REQUIRE(m == reference);
        CHECK(float_keys(t) == exact);
      }
      SuitorGpuOptions limited;
      limited.device_memory = std::size_t(1) << 30;  // under a limit: no float copy
      GpuTimes t;
      REQUIRE(suitor_gpu(g, limited, &t) == reference);
      CHECK(!float_keys(t));
      const DeviceGraph<double> dg(g, 0);
      REQUIRE(suitor_gpu(dg, SuitorGpuOptions{}, &t) == reference);
      CHECK(float_keys(t) == exact);
    }
}

TEST_CASE("ld-gpu equals greedy on every test graph, repeated") {
  check::require_greedy_family([](const Csr<double>& g, int t) { return ld_gpu(g, with_threads(t)); },
                               [](const Csr<float>& g, int t) { return ld_gpu(g, with_threads(t)); },
                               /*parallel=*/true, /*repeats=*/5);
}

TEST_CASE("handshake-gpu equals greedy on every test graph whatever its thread count, repeated") {
  check::require_greedy_family([](const Csr<double>& g, int t) { return handshake_gpu(g, with_threads(t)); },
                               [](const Csr<float>& g, int t) { return handshake_gpu(g, with_threads(t)); },
                               /*parallel=*/true, /*repeats=*/5);
}

TEST_CASE("the GPU matchers on n = 0, n = 1 and graphs without edges") {
  for (vertex_t n : {0, 1, 5}) {
    const Csr<double> g = check::random_graph(n, 0.0, 0, 1);
    for (const Matching& m : {suitor_gpu(g), ld_gpu(g), handshake_gpu(g)}) {
      REQUIRE(m.mate.size() == std::size_t(n));
      for (vertex_t v : m.mate) REQUIRE(v == no_vertex);
    }
  }
}

TEST_CASE("the GPU matchers refuse bad options and shapes with invalid_input") {
  const Csr<double> g = check::random_graph(20, 0.3, 0, 3);
  // The option rules are checked once, where the options are read (the
  // registry's read_options; the entry points re-check them in debug
  // builds only): check_suitor_gpu_options is that check.
  SuitorGpuOptions o;
  o.threads_per_block = 100;
  CHECK_THROWS_AS(check_suitor_gpu_options(o), invalid_input);
  o = {};
  o.vertices_per_warp = 0;
  CHECK_THROWS_AS(check_suitor_gpu_options(o), invalid_input);
  o = {};
  o.adaptive_min_entries = -1;
  CHECK_THROWS_AS(check_suitor_gpu_options(o), invalid_input);
  o = {};
  o.hub_degree = 8;
  CHECK_THROWS_AS(check_suitor_gpu_options(o), invalid_input);
  // What only the device can say is checked by the entry point.
  o = {};
  o.threads_per_block = 1024;
  o.vertices_per_warp = 1024;  // 512 KiB of shared memory per block
  CHECK_THROWS_WITH_AS(suitor_gpu(g, o), doctest::Contains("shared memory"), invalid_input);
  o = {};
  o.device = 4096;
  CHECK_THROWS_WITH_AS(ld_gpu(g, o), doctest::Contains("no GPU with id 4096"), invalid_input);
  Csr<double> rect = g;
  rect.n_cols += 1;
  CHECK_THROWS_AS(handshake_gpu(rect), invalid_input);
  CHECK_THROWS_AS(parse_suitor_gpu_variant("fast"), invalid_input);
  CHECK_THROWS_AS(parse_suitor_gpu_search("fast"), invalid_input);
  for (SuitorGpuSearch s : {SuitorGpuSearch::automatic, SuitorGpuSearch::champions, SuitorGpuSearch::walk})
    CHECK(parse_suitor_gpu_search(to_string(s)) == s);
}

TEST_CASE("GpuTimes splits the run into upload, match and download") {
  GenOptions gen;
  gen.seed = 9;
  const Csr<float> g = rmat<float>(1 << 12, gen);
  GpuTimes t;
  SuitorGpuOptions o;
  o.adaptive_min_entries = 0;  // the adaptive path, which reports its phases
  const Matching m = suitor_gpu(g, o, &t);
  REQUIRE(m == greedy(g, 1));
  CHECK(t.upload_s > 0);
  CHECK(t.match_s > 0);
  CHECK(t.download_s > 0);
  REQUIRE(t.phases.size() == 4);
  double parts = 0;
  for (const auto& [name, seconds] : t.phases) {
    CHECK(seconds >= 0);
    parts += seconds;
  }
  CHECK(parts <= t.match_s * 1.01);
}
