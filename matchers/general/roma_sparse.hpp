// roma-sparse: ROMA on sparse graphs, every 2-augmentation centred at a
// vertex (an alternating path or cycle of new edges at v and its mate), in
// phases over the vertices in a seeded random order.
// Source: Pettie and Sanders, IPL 91(6), 2004 (aug(v) in linear time); Maue
// and Sanders, WEA 2007 (ROMA); as Hovland 2020 sec. 3.3.4-3.3.5.
// Guarantee: a valid matching, weight never below the start's (Suitor's =
// greedy's by default); run to convergence with all candidates, >= 2/3 of
// the optimum less min_gain x the largest weight per matched edge.
// Deterministic for a seed.
// Cost: O(m) a phase, O(n) extra memory (roma-sparse-omp: O(m log d) a
// phase). The gains, their search and the 2/3: docs/algorithms/roma_sparse.md.
//
//   roma_sparse      phases; in each, every vertex in a fresh seeded random
//                    order is augmented when its best gain exceeds min_gain
//                    times the largest edge weight (from phase 1 on, only the
//                    vertices whose search may have changed are searched:
//                    MarkedVertices in roma_sparse_search.hpp); stops after
//                    a phase with none, or after `phases` phases. With length L > 2,
//                    passes of longer ones (roma_sparse_long.hpp, each
//                    counted as a phase) follow while they find some, then
//                    2-augmentation phases again, and so on; the run stops
//                    when a phase of each kind in a row finds none
//                    (PhaseSchedule in roma_sparse_search.hpp).
//                    With candidates K > 0, a vertex's arms and 4-cycles are
//                    read from its K heaviest neighbours only
//   roma_sparse_omp  the same with OpenMP threads and per-vertex locks (below)
//   roma_sparse_gpu  the same on the GPU, a warp per vertex (a thread per
//                    root in the long passes), the same locks
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/csr.hpp"
#include "lib/named_values.hpp"
#include "matchers/common/phased_run.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

enum class RomaSparseStart { suitor, gpa, empty };
inline constexpr NamedValues<RomaSparseStart, 3> roma_sparse_start_names{{
    {"suitor", RomaSparseStart::suitor},
    {"gpa", RomaSparseStart::gpa},
    {"empty", RomaSparseStart::empty},
}};
RomaSparseStart parse_roma_sparse_start(std::string_view name);  // invalid_input lists the names
std::string to_string(RomaSparseStart s);

struct RomaSparseOptions {
  int phases = 100;          // at most this many phases (>= 0)
  double min_gain = 1e-9;    // augment only above min_gain x the largest edge weight (>= 0)
  std::uint64_t seed = 1;    // the vertex order of each phase
  RomaSparseStart start = RomaSparseStart::suitor;  // suitor: greedy's matching; gpa: Maue-Sanders' GPA; empty
  // Each vertex's search reads only its `candidates` heaviest neighbours in
  // the greedy order (0: all; the bounded lists keep a hub's search short).
  int candidates = 0;
  // Longest augmentation, in new edges: 2 is Pettie and Sanders'; more adds
  // passes of longer ones (matchers/general/roma_sparse_long.hpp, on the GPU
  // roma_sparse_gpu_long.cuh; PhaseSchedule says when). The registry's
  // entries default to 4 (bench/RESULTS.md: the gap to the optimum a third
  // of length 2's at 1.5-2.4x its time); roma-sparse-gpu takes at most
  // roma_sparse_gpu_max_length.
  int length = 2;
};

inline constexpr int roma_sparse_gpu_max_length = 16;  // the GPU search's stack lives in local memory

// phases[i].scanned: the vertices searched (n in phase 0, then the marked
// ones); flips: the augmentations applied.
template <class W>
RomaRun roma_sparse(const Csr<W>& g, const RomaSparseOptions& opt = {});

// roma-sparse-omp: the same phases, a phase's vertices augmented by OpenMP
// threads that lock the (at most six) vertices an augmentation touches and
// apply it only when its gain, recomputed under the locks, still exceeds the
// threshold; searches that lose a lock race are redone sequentially at the
// phase's end (matchers/general/roma_sparse_omp.cpp: why the matching stays
// valid, the weight never falls and the phases end as roma-sparse's do).
// The same guarantee; not deterministic. threads <= 0: all.
template <class W>
RomaRun roma_sparse_omp(const Csr<W>& g, const RomaSparseOptions& opt = {}, int threads = 0);

// roma-sparse-gpu: the same phases on the GPU, a warp per vertex, the locks
// of roma-sparse-omp taken by atomicCAS (matchers/general/roma_sparse_gpu.cu;
// longer augmentations, length <= roma_sparse_gpu_max_length, a thread per
// root: roma_sparse_gpu_long.cuh); the start is suitor-gpu's for
// RomaSparseStart::suitor. The same guarantee; not deterministic. Throws
// cuda_error without a usable GPU.
template <class W>
RomaRun roma_sparse_gpu(const Csr<W>& g, const RomaSparseOptions& opt, const GpuOptions& gpu);

}  // namespace matchblas
