// roma-gpu's host-side policy (matchers/complete/roma_gpu_policy.hpp), on the
// CPU: each branch of the automatic kernel choice with concrete numbers (a
// requested kernel passes through; phase 0 takes the cluster phase; the L2
// rule; stream or queued from phase 2 on; bf16 rows never queued), the L2
// test of the rows in flight, and the arithmetic of the cluster phase's
// shape (slices, the shared memory budgets, the 95% rule of the cluster
// size) with the H100's numbers of bench/RESULTS.md.
#include <doctest/doctest.h>

#include <vector>

#include "matchers/complete/roma.hpp"
#include "matchers/complete/roma_gpu_policy.hpp"

using namespace matchblas;
using namespace matchblas::roma_gpu_policy;

namespace {

constexpr RomaGpuKernel automatic = RomaGpuKernel::automatic, cluster = RomaGpuKernel::cluster,
                        stream = RomaGpuKernel::stream, queued = RomaGpuKernel::queued;

// n = 1000 and 500 pairs taken: passed = past_bound / 500000, so a past-bound
// count of 100000 is 0.2 (gathers_much) and 150000 is 0.3 (gathers_everywhere).
constexpr vertex_t n = 1000;
constexpr unsigned long long pairs = 500;

RomaGpuKernel automatic_choice(int phase, unsigned long long past_bound, bool fit, bool queue_ok = true) {
  return choose_kernel(automatic, phase, past_bound, pairs, n, fit, queue_ok);
}

}  // namespace

TEST_CASE("roma-gpu policy: a requested kernel passes through whatever the phase and counts") {
  for (const RomaGpuKernel k : {cluster, stream, queued})
    for (const int phase : {0, 1, 2, 7})
      for (const unsigned long long past : {0ULL, 100001ULL, 500000ULL})
        for (const bool fit : {false, true})
          for (const bool queue_ok : {false, true}) {
            CAPTURE(phase);
            CAPTURE(past);
            CHECK(choose_kernel(k, phase, past, pairs, n, fit, queue_ok) == k);
          }
}

TEST_CASE("roma-gpu policy: phase 0 takes the cluster phase (it records the row maxima)") {
  for (const bool fit : {false, true})
    for (const bool queue_ok : {false, true}) {
      CHECK(choose_kernel(automatic, 0, 0, 0, n, fit, queue_ok) == cluster);
      CHECK(choose_kernel(automatic, 0, 400000, pairs, n, fit, queue_ok) == cluster);
    }
}

TEST_CASE("roma-gpu policy: the L2 rule, the cluster phase after much gathering when the rows do not fit L2") {
  CHECK(gathers_much == 0.2);
  // Past the bound on more than 0.2 of the columns a pair: cluster unless the rows fit L2.
  CHECK(automatic_choice(1, 100001, false) == cluster);
  CHECK(automatic_choice(1, 100001, true) == queued);
  CHECK(automatic_choice(5, 140000, false) == cluster);
  CHECK(automatic_choice(5, 140000, true) == queued);
  // Exactly 0.2 is not more: the stream phase (queued) though the rows do not fit.
  CHECK(automatic_choice(1, 100000, false) == queued);
  CHECK(automatic_choice(3, 0, false) == queued);
  // The L2 rule comes before the bf16 rule: bf16 rows that gathered much still cluster.
  CHECK(automatic_choice(3, 200000, false, /*queue_ok=*/false) == cluster);
  // No pair taken in the previous phase counts as one (no division by zero).
  CHECK(choose_kernel(automatic, 2, 201, 0, n, false, true) == cluster);   // 201 / 1000 > 0.2
  CHECK(choose_kernel(automatic, 2, 200, 0, n, false, true) == queued);    // 200 / 1000 = 0.2
}

TEST_CASE("roma-gpu policy: from phase 2 on, the stream phase after gathering everywhere, else queued") {
  CHECK(gathers_everywhere == 0.3);
  // Rows fit L2 (else the L2 rule takes these counts to the cluster phase).
  CHECK(automatic_choice(2, 150001, true) == stream);
  CHECK(automatic_choice(9, 230000, true) == stream);  // geometric weights pass at about 0.46
  CHECK(automatic_choice(2, 150000, true) == queued);  // exactly 0.3 is not more
  CHECK(automatic_choice(2, 50000, true) == queued);   // exponential weights after phase 1: 0.02-0.11
  // Phase 1 is queued whatever phase 0 counted (its count says nothing of later scans).
  CHECK(automatic_choice(1, 450000, true) == queued);
  // Between 0.2 and 0.3 with the rows outside L2: cluster, in phase 1 as in phase 2.
  CHECK(automatic_choice(2, 120000, false) == cluster);
}

TEST_CASE("roma-gpu policy: bf16 rows (queue not allowed) take the stream phase, never the queued one") {
  for (const int phase : {1, 2, 6})
    for (const unsigned long long past : {0ULL, 100000ULL, 150001ULL, 400000ULL}) {
      CAPTURE(phase);
      CAPTURE(past);
      CHECK(automatic_choice(phase, past, true, /*queue_ok=*/false) == stream);
    }
  CHECK(automatic_choice(1, 50000, false, /*queue_ok=*/false) == stream);  // little gathering, rows outside L2
  CHECK(automatic_choice(0, 0, true, /*queue_ok=*/false) == cluster);
}

TEST_CASE("roma-gpu policy: the stream phase's rows in flight against L2") {
  CHECK(rows_in_l2 == 1.0);
  // The H100: 132 pairs of 32768 floats a row take 34.6 MB of its 50 MiB L2; 65536 floats a row do not fit.
  const long long h100_l2 = 50LL << 20;
  CHECK(rows_fit_l2(132, 32768, 4, h100_l2));
  CHECK_FALSE(rows_fit_l2(132, 65536, 4, h100_l2));
  CHECK(rows_fit_l2(132, 65536, 2, h100_l2));  // bf16: half the bytes
  CHECK_FALSE(rows_fit_l2(132, 32768, 8, h100_l2));  // double: twice
  // At most L2's size fits: one pair of two 1024-float rows is 8192 bytes.
  CHECK(rows_fit_l2(1, 1024, 4, 8192));
  CHECK_FALSE(rows_fit_l2(1, 1024, 4, 8191));
}

TEST_CASE("roma-gpu policy: the cluster phase's slices start on 16-byte boundaries") {
  // n = 65536 in 5 blocks of float rows: 13108 columns a block, 104864 bytes (the "105 KB" of the rule).
  ClusterShape s = cluster_shape(65536, 5, 4, 4);
  CHECK(s.cluster == 5);
  CHECK(s.slice == 13108);
  CHECK(s.smem == 104864);
  // n = 1000 in 3 blocks: 334 columns rounded up to 336 (four floats a load), two rows of them.
  s = cluster_shape(1000, 3, 4, 4);
  CHECK(s.slice == 336);
  CHECK(s.smem == 2 * 336 * 4);
  // bf16 rows of a float graph: eight columns a load, the slices held as float.
  s = cluster_shape(1002, 1, 8, 4);
  CHECK(s.slice == 1008);
  CHECK(s.smem == 2 * 1008 * 4);
  // double: two columns a load, eight bytes a column.
  s = cluster_shape(1001, 2, 2, 8);
  CHECK(s.slice == 502);
  CHECK(s.smem == 2 * 502 * 8);
  s = cluster_shape(4, 16, 4, 4);  // more blocks than columns: one load's worth each
  CHECK(s.slice == 4);
}

TEST_CASE("roma-gpu policy: the shared memory budgets of a block") {
  // The H100: 228 KiB an SM, 227 KiB at most a block (opt-in), 1 KiB a resident block.
  const std::size_t per_sm = 233472, optin = 232448, static_smem = 1000;
  CHECK(smem_budget(per_sm, optin, 2, static_smem) == per_sm / 2 - 1024 - static_smem);
  CHECK(smem_budget(per_sm, optin, 1, static_smem) == per_sm - 1024 - static_smem);
  CHECK(smem_budget(per_sm, 100000, 1, 0) == 100000);  // the opt-in maximum binds
  CHECK(smem_budget(per_sm, optin, 2, per_sm) == 0);  // static memory takes it all
  const SmemLimits limits = smem_limits(per_sm, optin, 2, static_smem);
  CHECK(limits.preferred == preferred_smem_per_sm / 2 - 1024 - static_smem);
  CHECK(limits.all == per_sm / 2 - 1024 - static_smem);
  const SmemLimits small = smem_limits(100 * 1024, optin, 1, 0);  // an SM below the preferred share
  CHECK(small.preferred == small.all);
}

TEST_CASE("roma-gpu policy: the cluster size keeping 95% of the best resident blocks, fewest blocks first") {
  CHECK(cluster_size_count == 9);
  CHECK(cluster_sizes[8] == 16);
  // The H100 at n = 32768-90112: 237 / 248 / 235 / 234 / 240 of 264 slots for 3 / 4 / 5 / 6 / 8
  // blocks (1, 2 and 7 not fitting here): 3 keeps 237 >= 0.95 x 248.
  const std::vector<long long> h100 = {0, 0, 237, 248, 235, 234, 0, 240, 0};
  CHECK(pick_cluster_size(h100) == 2);
  CHECK(cluster_sizes[pick_cluster_size(h100)] == 3);
  // Below 95% of the best: the next size that keeps it.
  CHECK(pick_cluster_size(std::vector<long long>{200, 240, 0, 0, 0, 0, 0, 0, 0}) == 1);
  // Exactly 95% is enough.
  CHECK(pick_cluster_size(std::vector<long long>{190, 200, 0, 0, 0, 0, 0, 0, 0}) == 0);
  CHECK(pick_cluster_size(std::vector<long long>{189, 200, 0, 0, 0, 0, 0, 0, 0}) == 1);
  // Only 16 blocks fit.
  CHECK(pick_cluster_size(std::vector<long long>{0, 0, 0, 0, 0, 0, 0, 0, 256}) == 8);
  // Nothing fits the budget: -1 (the caller tries the next budget, then refuses n).
  CHECK(pick_cluster_size(std::vector<long long>(9, 0)) == -1);
}

TEST_CASE("roma-gpu policy: without thread-block clusters (before sm_90) the cluster phase becomes a stream phase") {
  using roma_gpu_policy::without_clusters;
  for (const RomaGpuKernel k : {RomaGpuKernel::cluster, RomaGpuKernel::stream, RomaGpuKernel::queued})
    CHECK(without_clusters(k, true, true) == k);  // sm_90: unchanged
  CHECK(without_clusters(RomaGpuKernel::cluster, false, true) == RomaGpuKernel::queued);
  CHECK(without_clusters(RomaGpuKernel::cluster, false, false) == RomaGpuKernel::stream);  // bf16 rows: never queued
  CHECK(without_clusters(RomaGpuKernel::stream, false, true) == RomaGpuKernel::stream);
  CHECK(without_clusters(RomaGpuKernel::queued, false, true) == RomaGpuKernel::queued);
  // Every phase's automatic choice runs on an older GPU.
  for (int phase = 0; phase < 4; ++phase)
    for (const bool fit : {false, true}) {
      const RomaGpuKernel k = roma_gpu_policy::choose_kernel(RomaGpuKernel::automatic, phase, 1ULL << 40, 1, 4096, fit, true);
      CHECK(without_clusters(k, false, true) != RomaGpuKernel::cluster);
    }
}
