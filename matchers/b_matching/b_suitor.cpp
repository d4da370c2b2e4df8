// b-Suitor, sequential and OpenMP; see b_matching.hpp.
// Source: Naim and Manne 2017 sec. 2-3 (b-Suitor: a vertex keeps its b(v) best
// offers; a displaced suitor proposes again); the lock-free offer words of
// the project's CAS Suitor (matchers/general/suitor_cas.cpp, Mazankiewicz sec. 2.3),
// one per offer slot.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <vector>

#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

namespace {

struct Placed {
  bool accepted;
  vertex_t dropped;  // the proposer whose offer made room, or no_vertex
};

// The offers every vertex holds, lock-free: cap(v) = min(b(v), degree) slots
// per vertex, each one word: 0 while empty, else 1 + the position in v's own
// row of the proposer's entry (the graph is read-only, so a position names an
// offer: its weight and proposer). A slot's word only ever improves (an
// offer replaces the worst one held, by compare-and-swap), so reads without
// synchronisation see offers no better than the current ones.
template <class W>
class OfferSlots {
 public:
  OfferSlots(const Csr<W>& g, const std::vector<int>& b) : g_(g), start_(std::size_t(g.n_rows) + 1, 0) {
    for (vertex_t v = 0; v < g.n_rows; ++v)
      start_[v + 1] = start_[v] + std::min<offset_t>(b[v], g.offsets[v + 1] - g.offsets[v]);
    slot_.assign(std::size_t(start_[g.n_rows]), 0);
  }

  // Might v take u's offer of weight w? False only when it cannot: the
  // worst offer read is no better than the worst one held now.
  bool may_take(vertex_t v, W w, vertex_t u) const {
    const Worst worst = worst_of(v);
    return worst.at >= 0 && beats(w, u, worst.word);
  }

  // Places u's offer (entry `mine` of v's row = the position of u there) at
  // v when v takes it: the worst held offer, found by a scan, is replaced by
  // CAS; a failed CAS (someone improved that slot) scans again. The worst
  // slot at the CAS holds the worst offer of v at that moment (every other
  // slot read is at least as good now), so v keeps its cap(v) best offers.
  Placed place(vertex_t v, W w, vertex_t u, offset_t mine) {
    for (;;) {
      const Worst worst = worst_of(v);
      if (worst.at < 0 || !beats(w, u, worst.word)) return {false, no_vertex};
      std::uint64_t seen = worst.word;
      if (std::atomic_ref<std::uint64_t>(slot_[std::size_t(worst.at)])
              .compare_exchange_strong(seen, std::uint64_t(mine) + 1, std::memory_order_acq_rel))
        return {true, seen == 0 ? no_vertex : g_.cols[std::size_t(seen - 1)]};
    }
  }

  // Position of v in u's row (present: g is symmetric).
  offset_t position(vertex_t u, vertex_t v) const {
    return offset_t(std::lower_bound(g_.cols.begin() + g_.offsets[u], g_.cols.begin() + g_.offsets[u + 1], v) -
                    g_.cols.begin());
  }

 private:
  struct Worst {
    offset_t at;         // the slot, or -1 when v has none
    std::uint64_t word;  // its word
  };

  Worst worst_of(vertex_t v) const {
    Worst worst{-1, 0};
    for (offset_t i = start_[v]; i < start_[v + 1]; ++i) {
      const std::uint64_t word =
          std::atomic_ref<const std::uint64_t>(slot_[std::size_t(i)]).load(std::memory_order_acquire);
      if (worst.at < 0 || worse(word, worst.word)) worst = {i, word};
      if (word == 0) break;  // an empty slot: nothing is worse
    }
    return worst;
  }
  // Does the offer (w, u) beat the one in `word`?
  bool beats(W w, vertex_t u, std::uint64_t word) const {
    return word == 0 || neighbour_beats(w, u, g_.weights[std::size_t(word - 1)], g_.cols[std::size_t(word - 1)]);
  }
  bool worse(std::uint64_t a, std::uint64_t b) const {
    if (a == 0) return b != 0;
    return b != 0 && neighbour_beats(g_.weights[std::size_t(b - 1)], g_.cols[std::size_t(b - 1)],
                                     g_.weights[std::size_t(a - 1)], g_.cols[std::size_t(a - 1)]);
  }

  const Csr<W>& g_;
  std::vector<offset_t> start_;
  std::vector<std::uint64_t> slot_;
};

// Per entry k of u's row: does u's offer sit at cols[k]? Set by u's
// processor before its CAS (and cleared again when the CAS is refused),
// cleared by whoever displaces u after its own CAS; so a displacement always
// follows the set it undoes. Read by u's processor, and by mutual_offers
// after every thread is done.
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
Candidate<W> best_candidate(const Csr<W>& g, const OfferSlots<W>& heaps, const ProposedFlags& proposed, vertex_t u) {
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
BMatching mutual_offers(const Csr<W>& g, const OfferSlots<W>& heaps, const ProposedFlags& proposed) {
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
  OfferSlots<W> heaps(g, b);
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
      const Placed p = heaps.place(c.v, c.w, u, heaps.position(c.v, u));  // accepted: may_take is exact here
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
  OfferSlots<W> heaps(g, b);
  ProposedFlags proposed(g.cols.size());
  std::vector<int> proposals(static_cast<std::size_t>(n), 0);
  std::vector<std::uint8_t> owned(static_cast<std::size_t>(n), 0), exhausted(static_cast<std::size_t>(n), 0);

  const auto held = [&](vertex_t u) { return std::atomic_ref<int>(proposals[u]); };
  const auto claim = [&](vertex_t u) {
    std::uint8_t free = 0;
    return std::atomic_ref<std::uint8_t>(owned[u]).compare_exchange_strong(free, 1);
  };
  // Needs more proposals and can still make them (exhausted is written by
  // u's owner, read also by a previous owner's last look).
  const auto spent = [&](vertex_t u) { return std::atomic_ref<std::uint8_t>(exhausted[u]); };
  const auto wants = [&](vertex_t u) { return spent(u).load() == 0 && held(u).load() < b[u]; };

  AllocationGuard guard;  // a stack that cannot grow: rethrown after the region
#pragma omp parallel num_threads(t)
  {
    std::vector<vertex_t> stack;
#pragma omp for schedule(dynamic, 64)
    for (vertex_t first = 0; first < n; ++first) {
      guard.run([&] {
        if (!claim(first)) return;  // already being processed
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
              proposed.set(c.k, true);  // before the CAS: a displacement clears it after
              const Placed p = heaps.place(c.v, c.w, u, heaps.position(c.v, u));  // the exact check, a CAS
              if (!p.accepted) {
                proposed.set(c.k, false);
                continue;  // v improved meanwhile: look again
              }
              held(u).fetch_add(1);
              if (p.dropped != no_vertex) {
                proposed.set(heaps.position(p.dropped, c.v), false);
                held(p.dropped).fetch_sub(1);
                if (claim(p.dropped)) stack.push_back(p.dropped);
              }
            }
            // Release, then look again: a displacement that found u owned
            // counted on this check.
            std::atomic_ref<std::uint8_t>(owned[u]).store(0);
            if (!wants(u) || !claim(u)) break;
          }
        }
      });
    }
  }
  guard.rethrow();
  return mutual_offers(g, heaps, proposed);
}

template BMatching b_suitor_seq(const Csr<float>&, const std::vector<int>&);
template BMatching b_suitor_seq(const Csr<double>&, const std::vector<int>&);
template BMatching b_suitor_omp(const Csr<float>&, const std::vector<int>&, int);
template BMatching b_suitor_omp(const Csr<double>&, const std::vector<int>&, int);

}  // namespace matchblas
