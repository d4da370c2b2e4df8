// Luby's algorithm on the line graph: a maximal matching from random edge
// values drawn afresh every round.
// Source: M. Luby, "A simple parallel algorithm for the maximal independent
// set problem", STOC 1985, run on the line graph L(G) as Thorsen and Merkey
// 2010 sec. 3, Alg. 2 describe it: the randomized relative of the parallel
// greedy matching (locally dominant edges), whose edge values are the
// weights and never change.
//
// Round r: every live edge {u, v} (both ends free) gets the value
// luby_key(seed, r, u, v), 64 random bits that are a pure function of the
// seed, the round and the edge. Every live vertex picks the neighbour of its
// largest value (luby_candidate); mutual picks are edges larger than every
// edge adjacent to them in L(G) (Alg. 2's "locally dominating vertices") and
// are matched. Their ends leave; a vertex without a free neighbour leaves
// for good. The rounds stop when no edge is live.
//
//   luby      OpenMP, a thread per vertex per round (one thread: sequential)
//   luby-gpu  a GPU thread per vertex per round (matchers/general/luby_gpu.cu)
//
// Guarantee: a maximal matching (no edge with both ends free), whatever the
// weights: they are not read. Deterministic: the result is a function of the
// graph's pattern and the seed only, the same for every thread count and on
// the GPU, mate for mate. Why it ends: within a round the values of distinct
// edges differ (the draw is a bijection of the edge's index), so the largest
// live edge is mutual and every round with a live edge matches one.
// Weight: none promised (a random maximal matching); bench/bench_luby
// reports it against greedy's.
// Cost: O(log m) rounds expected (Luby 1985: each round removes a constant
// fraction of L(G)'s edges in expectation); a round scans the rows of the
// live vertices, O(n + their degrees) work, O(max degree) depth.
// Preconditions: a general graph (square Csr); a self-loop is never picked.
#pragma once
#include <cstdint>

#include "lib/counter_rng.hpp"
#include "lib/csr.hpp"
#include "lib/host_device.hpp"
#include "lib/matching.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// The random value of edge {u, v} in one round: 64 bits of the round's
// stream at the index (min(u, v), max(u, v)), so both ends see the same
// value and distinct edges see distinct values.
struct LubyRound {
  rng::Stream stream;
  MATCHBLAS_HD constexpr LubyRound(std::uint64_t seed, std::uint64_t round) noexcept : stream(seed, round) {}
  MATCHBLAS_HD constexpr std::uint64_t key(vertex_t u, vertex_t v) const noexcept {
    const auto lo = static_cast<std::uint32_t>(u < v ? u : v), hi = static_cast<std::uint32_t>(u < v ? v : u);
    return stream.bits((std::uint64_t(lo) << 32) | hi);
  }
};

// The free neighbour of free vertex u with the largest value this round
// (no_vertex when u has none): the scan luby and luby-gpu share.
MATCHBLAS_HD inline vertex_t luby_candidate(const offset_t* offsets, const vertex_t* cols, const vertex_t* mate,
                                            const LubyRound& round, vertex_t u) {
  vertex_t best = no_vertex;
  std::uint64_t best_key = 0;
  for (offset_t k = offsets[u]; k < offsets[u + 1]; ++k) {
    const vertex_t v = cols[k];
    if (v == u || mate[v] != no_vertex) continue;
    const std::uint64_t key = round.key(u, v);
    if (best == no_vertex || key > best_key) {
      best = v;
      best_key = key;
    }
  }
  return best;
}

// How a run went (bench/bench_luby and the tests read it).
struct LubyStats {
  int rounds = 0;  // passes over the live vertices, the last one matching nothing
};

// OpenMP with `threads` threads (<= 0: all OpenMP threads).
template <class W>
Matching luby(const Csr<W>& g, std::uint64_t seed, int threads = 0, LubyStats* stats = nullptr);

// The same rounds on GPU opt.device, two kernels per round; the same
// matching as luby for the same seed.
template <class W>
Matching luby_gpu(const Csr<W>& g, std::uint64_t seed, const GpuOptions& opt = {}, GpuTimes* times = nullptr,
                  LubyStats* stats = nullptr);

}  // namespace matchblas
