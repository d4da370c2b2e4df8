// Streams (ops/gpu/device_graph.hpp, ops/gpu/gpu_session.cuh): every GPU
// entry point runs on a caller's stream when GpuOptions::stream (or its
// stream argument) names one, a non-blocking stream that does not order
// with the legacy default stream: the sparse matchers (on a Csr and on a
// DeviceGraph uploaded on that stream) give greedy's matching and b_greedy's
// b-matching, mcvitie-wilson-gpu Gale-Shapley's marriage, DeviceDense's
// upload, generation and copy back the weights, the auction a derangement,
// roma-gpu (every kernel, bf16, the assignment and greedy starts) and
// roma-gpu-1/-2 a perfect matching whose weight never falls; the host reads
// each result only after the call returned, so the call waited for the
// stream; and the stream is still the caller's afterwards (a matcher never
// destroys a stream it was given). Repeated (the GPU matchers race).
#include <doctest/doctest.h>

#ifdef MATCHBLAS_HAVE_CUDA
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/complete/auction.hpp"
#include "ops/gpu/device_dense.hpp"
#include "matchers/complete/roma.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/handshake.hpp"
#include "matchers/general/ld.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// A non-blocking stream on GPU 0 that the test owns.
class CallerStream {
 public:
  CallerStream() {
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    REQUIRE(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking) == cudaSuccess);
  }
  ~CallerStream() { cudaStreamDestroy(s_); }
  CallerStream(const CallerStream&) = delete;
  CallerStream& operator=(const CallerStream&) = delete;
  cudaStream_t get() const { return s_; }
  // The stream is still usable after a call that was given it.
  void check_alive() const { CHECK(cudaStreamSynchronize(s_) == cudaSuccess); }

 private:
  cudaStream_t s_{};
};

// A perfect matching of g (one vertex free for odd n); with `never_lower`,
// reported weights that never fall, phase by phase (not for bf16 rows).
void check_roma_run(const Dense<float>& g, const RomaRun& run, bool never_lower = true) {
  INFO(matching_violation(g, run.matching));
  REQUIRE(matching_violation(g, run.matching).empty());
  REQUIRE(cardinality(run.matching) == g.n / 2);
  REQUIRE_FALSE(run.phases.empty());
  if (!never_lower) return;
  double previous = run.start_weight;
  for (const RomaPhase& p : run.phases) {
    CHECK(p.weight >= previous - 1e-9 * std::abs(previous));
    previous = p.weight;
  }
  CHECK(matching_weight(g, run.matching) == doctest::Approx(previous).epsilon(1e-9));
}

}  // namespace

TEST_CASE("the sparse GPU matchers on a caller's stream: greedy's matching, the stream left to the caller") {
  CallerStream cs;
  const Csr<double> g = check::random_graph(3000, 0.005, 3, 21);
  const Matching ref = greedy(g);
  const std::vector<int> b(std::size_t(g.n_rows), 2);
  const BMatching b_ref = b_greedy(g, b);
  GpuOptions o;
  o.stream = cs.get();
  SuitorGpuOptions so;
  so.stream = cs.get();
  so.adaptive_min_entries = 0;  // the adaptive path (argmax, hubs, warps) on this small graph too
  for (int repeat = 0; repeat < 3; ++repeat) {
    CAPTURE(repeat);
    CHECK(suitor_gpu(g, so) == ref);
    CHECK(ld_gpu(g, o) == ref);
    CHECK(handshake_gpu(g, o) == ref);
    CHECK(b_suitor_gpu(g, b, o) == b_ref);
    cs.check_alive();
    const DeviceGraph<double> dg(g, 0, cs.get());
    GpuTimes t;
    CHECK(suitor_gpu(dg, so, &t) == ref);
    CHECK(t.match_s > 0);
    CHECK(ld_gpu(dg, o) == ref);
    CHECK(handshake_gpu(dg, o) == ref);
    CHECK(b_suitor_gpu(dg, b, o) == b_ref);
    CHECK(suitor_gpu(dg) == ref);  // a graph uploaded on the caller's stream, matched on the matcher's own
    cs.check_alive();
  }
}

TEST_CASE("mcvitie-wilson-gpu on a caller's stream equals Gale-Shapley") {
  CallerStream cs;
  GpuOptions o;
  o.stream = cs.get();
  const RankedLists p = rank_lists(easy_marriage(3000, 0.1, 5));
  const Marriage ref = gale_shapley(p);
  const IdenticalPreferences hard = hard_marriage(500, 3);
  const Marriage hard_ref = gale_shapley(hard);
  for (int repeat = 0; repeat < 3; ++repeat) {
    GpuTimes t;
    CHECK(mcvitie_wilson_gpu(p, o, &t) == ref);
    CHECK(t.match_s > 0);
    CHECK(mcvitie_wilson_gpu(hard, o) == hard_ref);
    cs.check_alive();
  }
}

TEST_CASE("DeviceDense and the GPU auction on a caller's stream") {
  CallerStream cs;
  GenOptions gen;
  gen.seed = 5;
  const Dense<float> g = complete_graph<float>(WeightDist::uniform, 301, gen);
  const DeviceDense<float> d = DeviceDense<float>::upload(g, 0, cs.get());
  CHECK(d.to_host(cs.get()).values == g.values);
  CHECK(d.to_host().values == g.values);
  const DeviceDense<float> own = DeviceDense<float>::generate(WeightDist::exponential, 301, gen);
  const DeviceDense<float> theirs = DeviceDense<float>::generate(WeightDist::exponential, 301, gen, 0, cs.get());
  CHECK(theirs.to_host(cs.get()).values == own.to_host().values);
  const DeviceDense<float> points = DeviceDense<float>::generate(WeightDist::geometric, 301, gen, 0, cs.get());
  CHECK(points.to_host(cs.get()).values == DeviceDense<float>::generate(WeightDist::geometric, 301, gen).to_host().values);
  cs.check_alive();
  for (int repeat = 0; repeat < 3; ++repeat) {
    check::require_derangement(dense_auction_gpu(d, {}, nullptr, cs.get()));
    AuctionGpuStats stats;
    check::require_derangement(dense_auction_gpu(d, {}, &stats, cs.get()));
    CHECK_FALSE(stats.phases.empty());
    const Dense<float> even = padded_to_even(g);
    Matching m(even.n);
    m.mate = assignment_matching_gpu(d, roma_start_auction, nullptr, cs.get());
    INFO(matching_violation(even, m));
    REQUIRE(matching_violation(even, m).empty());
    CHECK(cardinality(m) == even.n / 2);
    cs.check_alive();
  }
}

TEST_CASE("roma-gpu and roma-gpu-1/-2 on a caller's stream: a perfect matching, weight never lower") {
  CallerStream cs;
  GenOptions gen;
  gen.seed = 9;
  const Dense<float> g = complete_graph<float>(WeightDist::exponential, 301, gen);
  const DeviceDense<float> d = DeviceDense<float>::upload(g, 0, cs.get());
  RomaOptions opt;
  RomaGpuOptions go;
  go.stream = cs.get();
  for (int repeat = 0; repeat < 2; ++repeat)
    for (const RomaGpuKernel kernel :
         {RomaGpuKernel::automatic, RomaGpuKernel::cluster, RomaGpuKernel::stream, RomaGpuKernel::queued}) {
      CAPTURE(repeat);
      CAPTURE(to_string(kernel));
      go.kernel = kernel;
      go.bf16 = false;
      check_roma_run(g, roma_gpu(d, opt, go));
      check_roma_run(g, roma_gpu(g, opt, go));
      go.bf16 = true;
      check_roma_run(g, roma_gpu(d, opt, go), /*never_lower=*/false);
      cs.check_alive();
    }
  go.kernel = RomaGpuKernel::automatic;
  go.bf16 = false;
  for (const RomaStart start : {RomaStart::assignment, RomaStart::greedy}) {
    CAPTURE(to_string(start));
    RomaOptions from = opt;
    from.start = start;
    check_roma_run(g, roma_gpu(d, from, go));
    check_roma_run(g, roma_gpu(g, from, go));
  }
  GpuOptions thesis;
  thesis.stream = cs.get();
  for (const int version : {1, 2}) {
    CAPTURE(version);
    check_roma_run(g, roma_gpu_thesis(d, version, opt, cs.get()));
    check_roma_run(g, roma_gpu_thesis(g, version, opt, thesis));
    RomaOptions from = opt;
    from.start = RomaStart::assignment;
    check_roma_run(g, roma_gpu_thesis(d, version, from, cs.get()));
  }
  cs.check_alive();
}

#endif  // MATCHBLAS_HAVE_CUDA
