// Stable marriage (SM, complete lists) and with incomplete lists (SMI): the
// man-optimal stable matching by proposals (CPU slice).
// Source: Manne et al. 2016 sec. 2 (Gale-Shapley with a queue, Alg. 1, with
// the skip of proposals bound to be refused; McVitie-Wilson as the same loop
// with a stack; the O(1) ranking look-up: each man's list carries the
// woman's rank of him, non-mutual entries purged) and sec. 4 (parallel
// Gale-Shapley and McVitie-Wilson with compare-and-swap on suitor(woman)).
//
// A pair (m, w) is acceptable when each lists the other. An instance is
// given explicitly (MarriageInstance: every list) or, for Manne et al.'s (2016) "hard"
// instances, as identical lists (IdenticalPreferences: one order of the
// women shared by all men, one ranking of the men shared by all women),
// which n^2 entries would not fit.
//   gale_shapley         queue of free men
//   mcvitie_wilson       stack of free men
//   mcvitie_wilson_omp   men in parallel, each rejected man handled by the
//                        thread that rejected him; a woman's suitor is one
//                        64-bit word (her rank of him, him) changed by CAS
//   gale_shapley_omp     rounds: the queue of free men proposes in parallel
//                        (the same CAS), the men displaced form the next
//                        round's queue
// Guarantee: all return the same matching, the man-optimal stable one
// (Gale and Shapley; McVitie and Wilson), whatever the thread count.
// Cost: O(number of proposals), at most the sum of the list lengths
// (n^2 for SM); expected n ln n for random men's lists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lib/marriage_instance.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// Each man's list with, beside each woman, her rank of him (0 = best);
// entries whose woman does not list him are purged (Manne et al. 2016 sec. 2).
struct RankedLists {
  vertex_t men = 0, women = 0;
  std::vector<offset_t> offsets{0};
  std::vector<vertex_t> woman;
  std::vector<std::int32_t> her_rank;  // of this man
};
// Parallel over the men on the caller's OpenMP threads, the same result
// at every thread count; O(L) time and extra space for L list entries.
RankedLists rank_lists(const MarriageInstance& inst);

// The result: wife[m] (or -1) and husband[w] (or -1).
struct Marriage {
  std::vector<vertex_t> wife, husband;
  bool operator==(const Marriage&) const = default;
};

Marriage gale_shapley(const RankedLists& p);
Marriage mcvitie_wilson(const RankedLists& p);
Marriage mcvitie_wilson_omp(const RankedLists& p, int threads = 0);
Marriage gale_shapley_omp(const RankedLists& p, int threads = 0);
Marriage gale_shapley(const IdenticalPreferences& p);
Marriage mcvitie_wilson(const IdenticalPreferences& p);
Marriage mcvitie_wilson_omp(const IdenticalPreferences& p, int threads = 0);
Marriage gale_shapley_omp(const IdenticalPreferences& p, int threads = 0);

// "" when m is a stable matching of inst (every pair acceptable, wife and
// husband consistent, no blocking pair: a man and a woman who list each other
// and each prefer the other to their partner, or are free); otherwise the
// first problem found (the lowest woman's, else the lowest man's: the same
// at every thread count). Independent of the algorithms and of rank_lists:
// it reads the lists directly, through a copy of each woman's list sorted by
// man. Parallel over the women, then the men; cost O(L log l) for L list
// entries in all and lists of length at most l, O(L) extra space.
std::string marriage_violation(const MarriageInstance& inst, const Marriage& m);

// Manne et al.'s (2016) measure: the sum over matched men of (their rank of their wife
// + 1) and over matched women of (their rank of their husband + 1).
std::int64_t rank_sum(const MarriageInstance& inst, const Marriage& m);

// McVitie-Wilson on the GPU, a thread per man following the chain of men it
// rejects, atomicMin on a woman's suitor word (Manne et al. 2016 sec. 4);
// the same man-optimal stable matching as the CPU versions. GpuTimes:
// upload, match (kernels), download. On GPU opt.device, on opt.stream (null:
// a stream of its own; waited for before it returns); GpuOptions's threads
// and threads_per_block are not read. The int forms are opt.device = device.
// matchers/marriage/mcvitie_wilson_gpu.cu.
Marriage mcvitie_wilson_gpu(const RankedLists& p, const GpuOptions& opt, GpuTimes* times = nullptr);
Marriage mcvitie_wilson_gpu(const IdenticalPreferences& p, const GpuOptions& opt, GpuTimes* times = nullptr);
Marriage mcvitie_wilson_gpu(const RankedLists& p, int device = 0, GpuTimes* times = nullptr);
Marriage mcvitie_wilson_gpu(const IdenticalPreferences& p, int device = 0, GpuTimes* times = nullptr);

}  // namespace matchblas
