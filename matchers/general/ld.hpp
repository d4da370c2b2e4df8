// The Locally-Dominant family: 1/2-approximate weighted matching by matching
// locally dominant edges, those heavier (in the greedy order) than every other
// edge at both endpoints among the edges whose endpoints are both free.
//
// Every vertex s keeps candidate[s], its heaviest free neighbour (heaviest
// edge, then smallest index: neighbour_beats of lib/greedy_order.hpp). Mutual
// candidates (candidate[candidate[s]] == s) are matched and queued; when a
// vertex u is matched, the free neighbours whose candidate was u look again.
//
//   ld_seq  one thread, one FIFO queue: Naim et al. 2015 sec. 2.1, Alg. 1-2
//           run sequentially (Mazankiewicz Exercise 1.2); see ld_seq.cpp
//   ld_omp  OpenMP: Naim et al. 2015 Alg. 1 with the queue tail advanced by an atomic
//           fetch_add; each round is two barrier-separated loops, "match the
//           mutual candidates" (CAS on mate) and "recompute the candidates
//           the new matches invalidated" (the two parallel sections of
//           Mazankiewicz Exercise 1.3); see ld_omp.cpp
//
// Guarantee: both return exactly greedy's matching (docs/ARCHITECTURE.md
// "The greedy order"), mate for mate, for every thread count and
// interleaving. Why: (1) an edge {s,t} is matched only when candidate[s] == t and candidate[t] == s;
// each candidate was chosen while every heavier neighbour was already matched,
// and matched vertices stay matched, so {s,t} is locally dominant among the
// free edges at that moment. (2) If the edges matched so far are all greedy's
// and {s,t} is locally dominant, {s,t} is greedy's too: otherwise greedy
// matches s (say) with some x by a heavier edge; that edge is not free, so x
// is already matched, by an edge of greedy's that is not {s,x}, and x would
// have two mates in greedy. (3) The result is maximal (a free vertex whose
// candidate is matched always looks again, and a chain of candidates among
// free vertices ends in a mutual pair), and a maximal matching inside greedy's
// is greedy's.
// Cost: O(n + m log Delta) work in the worst case: Alg. 2 rescans a row once
// per matched candidate (O(m Delta) on tie-heavy hubs), so a row asked a
// third time becomes a heap that drops its matched tops (detail::HeaviestFree);
// O(n + m) in practice. ld_omp: two barriers per round, one round per "wave"
// of matches.
// Preconditions: a general graph (square Csr, both directions stored, no
// self-loops); the tie rule is the greedy order's and nothing else.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "lib/csr.hpp"
#include "lib/greedy_order.hpp"
#include "lib/matching.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// Sequential; `threads` is ignored.
template <class W>
Matching ld_seq(const Csr<W>& g, int threads = 1);

// OpenMP with `threads` threads (<= 0: all OpenMP threads), at most one per
// 1024 vertices.
template <class W>
Matching ld_omp(const Csr<W>& g, int threads = 0);

namespace detail {
// A vertex's heaviest free neighbour (ties to the smaller index), asked again
// every time the previous answer got matched. Free neighbours only ever
// disappear, so the first two asks scan the row (O(degree) each, Naim et al. 2015
// Alg. 2), and from the third ask on a row of 16 or more entries is copied
// into a heap in the vertex's order of its neighbours (O(degree), once); each
// later ask pops the matched tops (O(log degree) each, every entry popped at
// most once). Naim et al. 2015 sec. 2.1 notes that rows sorted by weight make LD
// O(n + m); the heap gets that effect lazily, without sorting rows that are
// asked once or twice. Total O(m log Delta) instead of Alg. 2's O(m Delta) on
// rows whose candidates keep getting matched (tie-heavy hubs).
// Calls for different vertices may run concurrently; `mate` must not change
// during a call. Memory: 13 bytes per vertex, plus the heaps.
template <class W>
class HeaviestFree {
 public:
  explicit HeaviestFree(const Csr<W>& g)
      : g_(g), scans_(static_cast<std::size_t>(g.n_rows), 0), heap_size_(scans_.size(), 0), heap_(scans_.size()) {}

  vertex_t operator()(vertex_t s, std::span<const vertex_t> mate) {
    if (!heap_[s]) {
      if (scans_[s] < 2 || g_.degree(s) < 16) {
        scans_[s] = static_cast<std::uint8_t>(scans_[s] + (scans_[s] < 2));
        return scan(s, mate);
      }
      build_heap(s);
    }
    Entry* heap = heap_[s].get();
    std::uint32_t& size = heap_size_[s];
    while (size > 0 && mate[heap[0].v] != no_vertex) std::pop_heap(heap, heap + size--, Worse{});
    return size > 0 ? heap[0].v : no_vertex;
  }

 private:
  struct Entry {
    W w;
    vertex_t v;
  };
  struct Worse {  // heap order: the top is the best neighbour
    bool operator()(const Entry& a, const Entry& b) const { return neighbour_beats(b.w, b.v, a.w, a.v); }
  };

  vertex_t scan(vertex_t s, std::span<const vertex_t> mate) const {
    return best_neighbour(g_, s, [&](vertex_t t, W) { return mate[t] == no_vertex; }).first;
  }
  void build_heap(vertex_t s) {
    const offset_t begin = g_.offsets[s], degree = g_.degree(s);
    heap_[s] = std::make_unique<Entry[]>(static_cast<std::size_t>(degree));
    Entry* heap = heap_[s].get();
    for (offset_t i = 0; i < degree; ++i) heap[i] = {g_.weights[begin + i], g_.cols[begin + i]};
    std::make_heap(heap, heap + degree, Worse{});
    heap_size_[s] = static_cast<std::uint32_t>(degree);
  }

  const Csr<W>& g_;
  std::vector<std::uint8_t> scans_;             // plain scans so far, capped at 2
  std::vector<std::uint32_t> heap_size_;        // entries not yet popped
  std::vector<std::unique_ptr<Entry[]>> heap_;  // the row as a heap, once built
};
}  // namespace detail

// ld-gpu: the GPU-LD baseline of Naim et al. 2015, a thread per vertex
// (matchers/general/ld_gpu.cu); on a DeviceGraph, opt.device must be the graph's.
template <class W>
Matching ld_gpu(const Csr<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching ld_gpu(const DeviceGraph<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);

}  // namespace matchblas
