// suitor-gpu's offer words and its searches for a vertex's next proposal
// (matchers/general/suitor_gpu.cu runs them). Source: Naim et al. 2015 sec. 4, Alg. 4
// lines 5-8 (a warp finds u's best neighbour whose offer u beats, then
// proposes with one atomic); the offer word follows the lock-free CPU Suitor
// (matchers/general/suitor_cas.cpp, Mazankiewicz sec. 2.3). .cu files only.
//
// Offer word of v (64 bits, 0 = no offer):
//   float   (order-preserving bits of w) << 32 | ~suitor (ops/gpu/offer_word.cuh),
//           updated with one atomicMax: a larger word is a better offer under
//           neighbour_beats, and atomicMax returns the offer it replaced.
//   double  1 + the position of the suitor's entry in v's row (the graph is
//           read-only, so the position names the offer), updated by
//           compare-and-swap while the proposal still beats the word seen;
//           offers of v only improve, so a position never comes back (no ABA).
// Searches read offer words with ld.cg (L2, not the incoherent L1): a stale
// word is never higher than the current one, so it costs at most a lost
// proposal and a search again, never a wrong match. And since a word only
// rises, a neighbour that refuses u once refuses it for good.
//
// Two searches, the same answer:
//   lane_best     Naim et al. 2015: each lane walks its entries in row order and reads
//                 the word of every entry that beats its best so far (a chain
//                 of dependent reads per lane, and about 3 words per lane of
//                 8 entries on a random row).
//   group_search  champions: entries ranked at or above a known refusal are
//                 skipped unread; each lane reads the word of its one best
//                 entry left, all lanes at once; the group's best accepted
//                 entry is kept, and only lanes whose champion refused look
//                 again, between the kept entry and their refused champion
//                 (two such rounds, then the walk above over what is left).
// On the H100 (matchers/general/suitor_gpu.cu, warps phase): champions win where
// degrees are even (Erdos-Renyi scale 23: 3.2 ms against 4.1), since the
// words read are spread over the whole array and each read is a DRAM miss
// that the lanes then wait for together; the walk wins on skewed graphs
// (R-MAT scale 23: 1.5 ms against 1.8-2.0), where proposals crowd onto few
// vertices whose words stay in L2 and a round costs more than a read.
#pragma once
#include <cuda_runtime.h>

#include <type_traits>

#include "lib/greedy_order.hpp"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/offer_word.cuh"
#include "ops/gpu/row_scan.cuh"

namespace matchblas::suitor_gpu_detail {

using word_t = unsigned long long;
constexpr unsigned full_warp = 0xffffffffu;

template <class W>
struct Proposal {
  bool won;
  vertex_t displaced;  // no_vertex when the word held no offer, or when lost
  W displaced_w;       // the displaced suitor's edge weight (when displaced)
};

// float: the offer is the word itself.
struct PackedOffers {
  __device__ static word_t pack(float w, vertex_t u) { return gpu::pack_offer(w, u); }
  __device__ static float weight(word_t t) { return gpu::offer_weight(t); }
  __device__ bool beats(float w, vertex_t u, word_t seen) const { return pack(w, u) > seen; }
  __device__ vertex_t suitor(word_t t) const { return t == 0 ? no_vertex : gpu::offer_proposer(t); }
  __device__ Proposal<float> propose(word_t* slot, vertex_t /*v*/, float w, vertex_t u) const {
    const word_t mine = pack(w, u);
    const word_t old = atomicMax(slot, mine);
    if (old < mine) return {true, suitor(old), weight(old)};
    return {false, no_vertex, 0.0f};
  }
};

// Any weight type: the word is 1 + the position of the suitor in v's row.
template <class W>
struct PositionOffers {
  gpu::CsrView<W> g;
  __device__ bool beats(W w, vertex_t u, word_t seen) const {
    return seen == 0 || neighbour_beats(w, u, g.weights[seen - 1], g.cols[seen - 1]);
  }
  __device__ vertex_t suitor(word_t t) const { return t == 0 ? no_vertex : g.cols[t - 1]; }
  __device__ Proposal<W> propose(word_t* slot, vertex_t v, W w, vertex_t u) const {
    offset_t lo = g.offsets[v], hi = g.offsets[v + 1];  // u is in v's row: g is symmetric
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (g.cols[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    const word_t mine = word_t(lo) + 1;
    word_t seen = __ldcg(slot);
    while (beats(w, u, seen)) {
      const word_t prev = atomicCAS(slot, seen, mine);
      if (prev == seen) return {true, suitor(seen), seen == 0 ? W(0) : g.weights[seen - 1]};
      seen = prev;
    }
    return {false, no_vertex, W(0)};
  }
};

template <class W>
using OffersFor = std::conditional_t<std::is_same_v<W, float>, PackedOffers, PositionOffers<W>>;

template <class W>
OffersFor<W> offers_for(const gpu::CsrView<W>& g) {
  if constexpr (std::is_same_v<W, float>) return PackedOffers{};
  else return PositionOffers<W>{g};
}

template <class W>
using Best = gpu::BestNeighbour<W>;

// Naim et al. 2015: a lane's best neighbour of u whose offer u beats, among entries
// first, first + width, ... of u's row ranked below `below` and above
// `above` (no_vertex: no bound); the offer word is read only for an entry
// that would beat the lane's best so far.
template <class W, class Offers>
__device__ Best<W> lane_best(const gpu::CsrView<W>& g, const Offers& offers, const word_t* word, vertex_t u, int first,
                             int width, Best<W> below = {}, Best<W> above = {}) {
  Best<W> b = above;
  gpu::for_strided_entries(g, u, first, width, [&](vertex_t v, W w) {
    if (below.v != no_vertex && !neighbour_beats(below.w, below.v, w, v)) return;
    if (b.v != no_vertex && !neighbour_beats(w, v, b.w, b.v)) return;
    if (!offers.beats(w, u, __ldcg(word + v))) return;
    b.v = v;
    b.w = w;
  });
  return b.v == above.v ? Best<W>{} : b;
}

// Butterfly over groups of `width` consecutive lanes (a power of two <= 32):
// every lane of a group ends with the group's best. All 32 lanes call it.
template <class W>
__device__ Best<W> reduce_lanes(Best<W> b, int width) {
  for (int offset = width / 2; offset > 0; offset >>= 1)
    b.offer(__shfl_xor_sync(full_warp, b.v, offset), __shfl_xor_sync(full_warp, b.w, offset));
  return b;
}

// The candidate of u for a group of `width` lanes (member = the lane's place
// in it), Naim et al.'s (2015) way; `mine` false: the lane's group has no vertex but
// must still take part in the shuffles. All 32 lanes call it.
template <class W, class Offers>
__device__ Best<W> group_candidate(const gpu::CsrView<W>& g, const Offers& offers, const word_t* word, vertex_t u,
                                   bool mine, int member, int width) {
  Best<W> b;
  if (mine) b = lane_best(g, offers, word, u, member, width);
  return reduce_lanes(b, width);
}

// The candidate of u by champions (the header): only entries ranked below
// `refused` (a neighbour known to refuse u; no_vertex: none known) count.
// Up to `rounds` rounds: each open lane takes its best entry ranked below its
// own refused bound and above `found` (the group's best accepted entry so
// far), reads its word, and stays open only if refused. Lanes still open
// after the last round finish with Naim et al.'s (2015) walk over the entries between
// found and their refused champion. Exact: every entry ranked above the
// result is at or above a refusal, or was read and refused, and the result
// was accepted when read. All 32 lanes call it.
template <class W, class Offers>
__device__ Best<W> group_search(const gpu::CsrView<W>& g, const Offers& offers, const word_t* word, vertex_t u,
                                bool mine, int member, int width, Best<W> refused, int rounds) {
  Best<W> found;
  bool open = mine;
  for (int round = 0; round < rounds; ++round) {
    Best<W> champion;
    if (open)
      gpu::for_strided_entries(g, u, member, width, [&](vertex_t v, W w) {
        if (refused.v != no_vertex && !neighbour_beats(refused.w, refused.v, w, v)) return;
        if (found.v != no_vertex && !neighbour_beats(w, v, found.w, found.v)) return;
        champion.offer(v, w);
      });
    const bool accepted = champion.v != no_vertex && offers.beats(champion.w, u, __ldcg(word + champion.v));
    const Best<W> group_best = reduce_lanes(accepted ? champion : Best<W>{}, width);
    found.offer(group_best.v, group_best.w);
    open = champion.v != no_vertex && !accepted;
    if (open) refused = champion;
    if (!__any_sync(full_warp, open)) return found;
  }
  const Best<W> walked = reduce_lanes(open ? lane_best(g, offers, word, u, member, width, refused, found) : Best<W>{},
                                      width);
  found.offer(walked.v, walked.w);
  return found;
}

}  // namespace matchblas::suitor_gpu_detail
