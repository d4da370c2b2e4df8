// The Suitor family: 1/2-approximate weighted matching by proposals, plus the
// heavier "suitor_heavy" built on a 2-Suitor.
//
// Every vertex v remembers the best offer it has received, (ws[v], suitor[v]).
// A vertex u proposes to the neighbour v it likes best (heaviest edge, then
// smallest index) among those whose offer it beats: (w(u,v), u) beats
// (ws[v], suitor[v]) under neighbour_beats (heavier, then smaller proposer), or
// v has no offer yet. If u displaces a suitor y, y proposes again ("current =
// displaced vertex"). At the end u and v are matched when suitor[u] == v and
// suitor[v] == u.
//
//   suitor_seq    sequential (Mazankiewicz sec. 2.1; Naim et al. 2015 sec. 2.2
//                 Alg. 3 run on one thread; Manne & Halappanavar 2014 Alg. 2)
//   suitor_locks  OpenMP, one omp_lock_t per vertex; the offer is re-checked
//                 under the partner's lock (Mazankiewicz sec. 2.2; Naim et al. 2015 Alg. 3)
//   suitor_cas    OpenMP, lock-free: a vertex's offer is one 64-bit word
//                 changed by compare-and-swap (Mazankiewicz sec. 2.3)
//   suitor_heavy  2-Suitor, then an optimal matching of its paths and cycles
//                 by dynamic programming (Mazankiewicz sec. 3.1; Manne &
//                 Halappanavar 2014 sec. 4); see suitor_heavy.cpp
//
// Guarantee: suitor_seq, suitor_locks and suitor_cas return exactly greedy's
// matching (docs/ARCHITECTURE.md "The greedy order"), mate for mate, for
// every thread count and every interleaving: every vertex ranks its neighbours by the
// greedy order restricted to its edges, which is a strict total order, and
// under such an order Suitor is McVitie-Wilson on the equivalent stable
// roommates instance, whose unique solution is the greedy matching (Naim 2017
// Manne et al. 2016, Lemma 3.1 and the remark after it). suitor_heavy: a valid,
// maximal matching of weight >= greedy's >= 1/2 optimum.
// Cost: O(sum over proposals of the proposer's degree), at most O(m Delta);
// O(m) in practice (Naim et al. 2015 sec. 2.2). Parallel depth: not bounded (a chain
// of displacements is followed by one thread).
// Preconditions: g is a general graph (square Csr, both directions stored with
// equal weights, no self-loops, columns sorted: the lock-free double variant
// looks edges up by binary search), weights not NaN. threads <= 0: all
// OpenMP threads; suitor_seq and suitor_heavy ignore it.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/csr.hpp"
#include "lib/greedy_order.hpp"
#include "lib/matching.hpp"
#include "lib/named_values.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

template <class W>
Matching suitor_seq(const Csr<W>& g, int threads = 0);

template <class W>
Matching suitor_locks(const Csr<W>& g, int threads = 0);

template <class W>
Matching suitor_cas(const Csr<W>& g, int threads = 0);

template <class W>
Matching suitor_heavy(const Csr<W>& g, int threads = 0);

namespace detail {

// True when proposer u with edge weight w beats v's offer (ws_v, suitor_v);
// any proposal beats "no offer" (suitor_v == no_vertex).
template <class W>
constexpr bool beats_offer(W w, vertex_t u, W ws_v, vertex_t suitor_v) noexcept {
  return suitor_v == no_vertex || neighbour_beats(w, u, ws_v, suitor_v);
}

// mate[u] = suitor[u] where suitor[suitor[u]] == u.
inline Matching matching_from_suitors(const std::vector<vertex_t>& suitor) {
  Matching m(static_cast<vertex_t>(suitor.size()));
  for (vertex_t u = 0; u < m.size(); ++u) {
    const vertex_t s = suitor[u];
    if (s != no_vertex && suitor[s] == u) m.mate[u] = s;
  }
  return m;
}

}  // namespace detail
// ---- suitor-gpu ----
// Naim et al. 2015 sec. 4, "Synchronization and Load Balancing".
enum class SuitorGpuVariant {
  no_sync,     // warps never wait for each other (the default, Naim et al.'s (2015) best)
  sync_lb,     // block-synchronised rounds; load balanced over the warps of a
               // block during the first lb_rounds rounds
  sync_no_lb,  // block-synchronised rounds, no load balancing
  hybrid,      // load balanced for the first lb_rounds rounds, then NoSync
};

// How suitor-gpu's adaptive mode searches rows of up to 128 entries for a
// vertex's next proposal (matchers/general/suitor_gpu_search.cuh); same matching.
enum class SuitorGpuSearch {
  automatic,  // champions when no row has more than 128 entries, else walk
  champions,  // each lane's best entry first, one offer word per lane at a time
              // (walk instead when the launch shape leaves no shared memory
              // for the refusals it keeps: 8 more bytes per queue slot)
  walk,       // Naim et al. 2015: each lane walks its entries, reading words as it goes
};

// suitor-gpu's launch shape and departures from Naim et al. 2015 (the device and the
// threads of GpuOptions too).
struct SuitorGpuOptions : GpuOptions {
  static constexpr int max_vertices_per_warp = 1024;
  int vertices_per_warp = 8;    // Naim et al. 2015: 8 was best (1..max_vertices_per_warp)
  SuitorGpuVariant variant = SuitorGpuVariant::no_sync;
  int lb_rounds = 4;            // sync_lb / hybrid: rounds with load balancing
  // suitor_gpu: true (default) adds three departures from Naim et al.'s (2015) warp
  // per vertex, same result: a bulk first round (every vertex proposes to
  // its heaviest neighbour, found by a streaming row argmax), rows longer
  // than hub_degree left after it are matched by a block each (a warp would
  // take degree / 32 dependent steps), and the warps scan rows of <= 32
  // entries with groups of 4 lanes and rows of <= 128 with groups of 8
  // (searched as `search` says).
  // false: Naim et al. 2015 as written (matchers/general/suitor_gpu.cu).
  bool adaptive = true;
  int hub_degree = 1024;
  SuitorGpuSearch search = SuitorGpuSearch::automatic;
  // ... but only on graphs of at least this many stored entries: below, the
  // adaptive mode's extra launches and host synchronisations cost more than
  // they save (bcsstk16, 285k entries: 0.17 ms adaptive, 0.08 ms Naim et al. 2015,
  // on the H100). The crossover was not measured more finely.
  long long adaptive_min_entries = 1LL << 20;
};

// On a host graph: upload (GpuTimes::upload_s), match, download; a graph
// that does not fit opt.device_memory (0: the device's free memory) is
// matched by b-suitor-gpu with b = 1 on rows streamed in batches
// (matchers/b_matching/b_matching.hpp: the same matching, its GpuTimes).
// On a DeviceGraph: opt.device must be the graph's device (invalid_input
// otherwise) and upload_s is 0. Double weights that are all floats exactly
// (integers up to 2^24, say) run on float offer words, the same matching,
// unless opt.device_memory is set (they take 4 bytes an entry more); other
// double weights use words that search the holder's row (about 2x slower).
template <class W>
Matching suitor_gpu(const Csr<W>& g, const SuitorGpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching suitor_gpu(const DeviceGraph<W>& g, const SuitorGpuOptions& opt = {}, GpuTimes* times = nullptr);

// The option words of the variant and the search, in one table each (the
// registry's specs list them); parse throws invalid_input listing them.
inline constexpr NamedValues<SuitorGpuVariant, 4> suitor_gpu_variant_names{{
    {"nosync", SuitorGpuVariant::no_sync},
    {"synclb", SuitorGpuVariant::sync_lb},
    {"syncnolb", SuitorGpuVariant::sync_no_lb},
    {"hybrid", SuitorGpuVariant::hybrid},
}};
inline constexpr NamedValues<SuitorGpuSearch, 3> suitor_gpu_search_names{{
    {"auto", SuitorGpuSearch::automatic},
    {"champions", SuitorGpuSearch::champions},
    {"walk", SuitorGpuSearch::walk},
}};

SuitorGpuVariant parse_suitor_gpu_variant(std::string_view name);
std::string to_string(SuitorGpuVariant v);
SuitorGpuSearch parse_suitor_gpu_search(std::string_view name);  // auto, champions, walk
std::string to_string(SuitorGpuSearch s);

// Throws invalid_input naming the bad field (those of check_gpu_options;
// vertices_per_warp in [1, 1024]; lb_rounds >= 0; hub_degree >= 32; adaptive_min_entries >= 0).
void check_suitor_gpu_options(const SuitorGpuOptions& opt);

}  // namespace matchblas
