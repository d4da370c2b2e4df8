// b-Suitor, sequential and OpenMP; see b_matching.hpp.
// Source: seed 001 Paper II sec. 2-3 (b-Suitor: a vertex keeps its b(v) best
// offers; a displaced suitor proposes again); the lock-per-vertex and floor
// re-check pattern of the project's OpenMP Suitor (matchers/suitor_locks.cpp,
// seed 004 sec. 2.2).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <vector>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "matchers/b_matching.hpp"

namespace matchblas {

namespace {

template <class W>
struct Offer {
  W w;
  vertex_t u;  // the proposer
};

struct Placed {
  bool accepted;
  vertex_t dropped;  // the proposer whose offer made room, or no_vertex
};

// The offers every vertex holds: a heap per vertex of at most cap(v) =
// min(b(v), degree) offers with the worst on top, and a floor word per vertex
// that scans read without locks: -2 when v takes no offer (cap 0), -1 while v
// has room, else the position in v's own row of its worst offer's proposer
// (the graph is read-only, so a position names an offer).
template <class W>
class OfferHeaps {
 public:
  OfferHeaps(const Csr<W>& g, const std::vector<int>& b)
      : g_(g), start_(std::size_t(g.n_rows) + 1, 0), count_(std::size_t(g.n_rows), 0), floor_(std::size_t(g.n_rows)) {
    for (vertex_t v = 0; v < g.n_rows; ++v) {
      start_[v + 1] = start_[v] + std::min<offset_t>(b[v], g.offsets[v + 1] - g.offsets[v]);
      floor_[v] = start_[v + 1] == start_[v] ? -2 : -1;
    }
    held_.resize(std::size_t(start_[g.n_rows]));
  }

  // Might v take u's offer of weight w? False only when it cannot (floors
  // only rise). Safe without v's lock.
  bool may_take(vertex_t v, W w, vertex_t u) const {
    const offset_t t = std::atomic_ref<const offset_t>(floor_[v]).load(std::memory_order_acquire);
    if (t == -2) return false;
    return t == -1 || neighbour_beats(w, u, g_.weights[t], g_.cols[t]);
  }

  // Places u's offer at v when v takes it (exactly, on the heap itself).
  // Needs v's lock in parallel code.
  Placed place(vertex_t v, W w, vertex_t u) {
    Offer<W>* heap = &held_[std::size_t(start_[v])];
    const int cap = int(start_[v + 1] - start_[v]);
    int& count = count_[v];
    Placed r{false, no_vertex};
    if (cap == 0) return r;
    if (count < cap) {
      heap[count++] = {w, u};
      std::push_heap(heap, heap + count, better);
      r.accepted = true;
    } else if (neighbour_beats(w, u, heap[0].w, heap[0].u)) {
      std::pop_heap(heap, heap + cap, better);  // the worst offer to the back
      r.dropped = heap[cap - 1].u;
      heap[cap - 1] = {w, u};
      std::push_heap(heap, heap + cap, better);
      r.accepted = true;
    }
    if (r.accepted && count == cap)
      std::atomic_ref<offset_t>(floor_[v]).store(position(v, heap[0].u), std::memory_order_release);
    return r;
  }

  // Position of v in u's row (present: g is symmetric).
  offset_t position(vertex_t u, vertex_t v) const {
    return offset_t(std::lower_bound(g_.cols.begin() + g_.offsets[u], g_.cols.begin() + g_.offsets[u + 1], v) -
                    g_.cols.begin());
  }

 private:
  // The heap's order: the front (the "largest") is the offer that beats none.
  static bool better(const Offer<W>& a, const Offer<W>& b) { return neighbour_beats(a.w, a.u, b.w, b.u); }

  const Csr<W>& g_;
  std::vector<offset_t> start_;
  std::vector<int> count_;
  std::vector<offset_t> floor_;
  std::vector<Offer<W>> held_;
};

// Per entry k of u's row: does u's offer sit at cols[k]? Written by u's
// processor (set) and by whoever displaces u (clear), both under the lock of
// cols[k]; read by u's processor without it.
class ProposedFlags {
 public:
  explicit ProposedFlags(std::size_t entries) : flag_(entries, 0) {}
  bool get(offset_t k) const { return std::atomic_ref<const std::uint8_t>(flag_[k]).load(std::memory_order_relaxed); }
  void set(offset_t k, bool on) { std::atomic_ref<std::uint8_t>(flag_[k]).store(on, std::memory_order_relaxed); }

 private:
  std::vector<std::uint8_t> flag_;
};

// u's best neighbour not holding u's offer that may take it: (v, w, k).
template <class W>
struct Candidate {
  vertex_t v = no_vertex;
  W w{};
  offset_t k = -1;
};

template <class W>
Candidate<W> best_candidate(const Csr<W>& g, const OfferHeaps<W>& heaps, const ProposedFlags& proposed, vertex_t u) {
  Candidate<W> c;
  for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
    const vertex_t v = g.cols[k];
    const W w = g.weights[k];
    if (c.v != no_vertex && !neighbour_beats(w, v, c.w, c.v)) continue;
    if (proposed.get(k) || !heaps.may_take(v, w, u)) continue;
    c = {v, w, k};
  }
  return c;
}

// {u, v} when each holds the other's offer.
template <class W>
BMatching mutual_offers(const Csr<W>& g, const OfferHeaps<W>& heaps, const ProposedFlags& proposed) {
  std::vector<std::vector<vertex_t>> lists(static_cast<std::size_t>(g.n_rows));
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (proposed.get(k) && proposed.get(heaps.position(g.cols[k], u))) lists[u].push_back(g.cols[k]);
  return detail::from_lists(lists);
}

}  // namespace

template <class W>
BMatching b_suitor_seq(const Csr<W>& g, const std::vector<int>& b) {
  detail::expect_b(g, b, "b_suitor_seq");
  const vertex_t n = g.n_rows;
  OfferHeaps<W> heaps(g, b);
  ProposedFlags proposed(g.cols.size());
  std::vector<int> proposals(static_cast<std::size_t>(n), 0);  // u's offers held somewhere
  std::vector<vertex_t> stack(static_cast<std::size_t>(n));
  std::iota(stack.rbegin(), stack.rend(), 0);  // vertex 0 first
  while (!stack.empty()) {
    const vertex_t u = stack.back();
    stack.pop_back();
    while (proposals[u] < b[u]) {
      const Candidate<W> c = best_candidate(g, heaps, proposed, u);
      if (c.v == no_vertex) break;  // nobody takes more of u's offers
      const Placed p = heaps.place(c.v, c.w, u);  // accepted: the floor check is exact here
      proposed.set(c.k, true);
      ++proposals[u];
      if (p.dropped != no_vertex) {
        proposed.set(heaps.position(p.dropped, c.v), false);
        --proposals[p.dropped];
        stack.push_back(p.dropped);
      }
    }
  }
  return mutual_offers(g, heaps, proposed);
}

template <class W>
BMatching b_suitor_omp(const Csr<W>& g, const std::vector<int>& b, int threads) {
  detail::expect_b(g, b, "b_suitor_omp");
  const vertex_t n = g.n_rows;
  const int t = threads > 0 ? threads : omp_get_max_threads();
  OfferHeaps<W> heaps(g, b);
  ProposedFlags proposed(g.cols.size());
  std::vector<int> proposals(static_cast<std::size_t>(n), 0);
  std::vector<std::uint8_t> owned(static_cast<std::size_t>(n), 0), exhausted(static_cast<std::size_t>(n), 0);
  std::vector<omp_lock_t> locks(static_cast<std::size_t>(n));
  for (omp_lock_t& l : locks) omp_init_lock(&l);

  const auto held = [&](vertex_t u) { return std::atomic_ref<int>(proposals[u]); };
  const auto claim = [&](vertex_t u) {
    std::uint8_t free = 0;
    return std::atomic_ref<std::uint8_t>(owned[u]).compare_exchange_strong(free, 1);
  };
  // Needs more proposals and can still make them (exhausted is written by
  // u's owner, read also by a previous owner's last look).
  const auto spent = [&](vertex_t u) { return std::atomic_ref<std::uint8_t>(exhausted[u]); };
  const auto wants = [&](vertex_t u) { return spent(u).load() == 0 && held(u).load() < b[u]; };

#pragma omp parallel num_threads(t)
  {
    std::vector<vertex_t> stack;
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      if (!claim(first)) continue;  // already being processed
      stack.push_back(first);
      while (!stack.empty()) {
        const vertex_t u = stack.back();
        stack.pop_back();
        for (;;) {
          while (wants(u)) {
            const Candidate<W> c = best_candidate(g, heaps, proposed, u);
            if (c.v == no_vertex) {
              spent(u).store(1);  // floors only rise: nobody will take more
              break;
            }
            omp_set_lock(&locks[c.v]);
            const Placed p = heaps.place(c.v, c.w, u);  // the exact check, under the lock
            if (p.accepted) {
              proposed.set(c.k, true);
              held(u).fetch_add(1);
              if (p.dropped != no_vertex) {
                proposed.set(heaps.position(p.dropped, c.v), false);
                held(p.dropped).fetch_sub(1);
              }
            }
            omp_unset_lock(&locks[c.v]);
            if (p.dropped != no_vertex && claim(p.dropped)) stack.push_back(p.dropped);
          }
          // Release, then look again: a displacement that found u owned
          // counted on this check.
          std::atomic_ref<std::uint8_t>(owned[u]).store(0);
          if (!wants(u) || !claim(u)) break;
        }
      }
    }
  }
  for (omp_lock_t& l : locks) omp_destroy_lock(&l);
  return mutual_offers(g, heaps, proposed);
}

template BMatching b_suitor_seq(const Csr<float>&, const std::vector<int>&);
template BMatching b_suitor_seq(const Csr<double>&, const std::vector<int>&);
template BMatching b_suitor_omp(const Csr<float>&, const std::vector<int>&, int);
template BMatching b_suitor_omp(const Csr<double>&, const std::vector<int>&, int);

}  // namespace matchblas
