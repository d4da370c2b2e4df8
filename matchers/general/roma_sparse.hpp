// roma-sparse: ROMA on sparse graphs with every 2-augmentation centred at a
// vertex, sequential.
// Source: Pettie and Sanders, "A simpler linear time 2/3 - epsilon
// approximation for maximum weight matching", Information Processing
// Letters 91(6), 2004 (aug(v) and its linear-time search); ROMA, the phases
// of every vertex in random order: Maue and Sanders, "Engineering algorithms
// for approximate weighted matching", WEA 2007; as described in Hovland,
// "Maximum weighted matching on a GPU", Master's thesis, University of
// Bergen, 2020, sec. 3.3.4-3.3.5, which left general graphs to future work
// (sec. 6.2).
//
// A 2-augmentation centred at v is an alternating path or cycle whose
// non-matching edges all touch v or its mate u = M[v], at most one at each:
// the new edges (v, x) and / or (u, y) replace (u, v) and the matching edges
// at x and y (a 4-cycle when M[x] = y; a path with free ends otherwise).
// Its gain is the new edges' weight less the removed ones'. With the arm
// a_v(x) = w(v, x) - w(x, M[x]) (0 for a free x), the best is the largest of
//   v free:    max_x a_v(x)
//   v matched: max_x a_v(x) - w(u, v),  max_y a_u(y) - w(u, v),
//              max_{x != y} a_v(x) + a_u(y) - w(u, v)  (two best arms a side),
//              max over x with y = M[x] adjacent to u of
//                w(v, x) + w(u, y) - w(u, v) - w(x, y)   (the 4-cycles),
// found in O(deg v + deg u) with u's row scattered into a stamped array, so
// a phase costs O(m) whatever the degrees (a hub is scanned once as a centre
// and once as each of its few mates' partner, not per neighbour).
//   roma_sparse      phases; in each, every vertex in a fresh seeded random
//                    order is augmented when its best gain exceeds min_gain
//                    times the largest edge weight (from phase 1 on, only the
//                    vertices whose search may have changed are searched:
//                    MarkedVertices in roma_sparse_search.hpp); stops after
//                    a phase with none, or after `phases` phases. With length L > 2, a
//                    phase without 2-augmentations is followed by a pass of
//                    longer ones (roma_sparse_long.hpp), counted as a
//                    phase; the run stops at a long pass that finds none.
//                    With candidates K > 0, a vertex's arms and 4-cycles are
//                    read from its K heaviest neighbours only
//   roma_sparse_omp  the same with OpenMP threads and per-vertex locks (below)
//   roma_sparse_gpu  the same on the GPU, a warp per vertex, the same locks
//
// Guarantee: a valid matching whose weight never falls below the start's
// (Suitor's = greedy's by default) and rises with every augmentation; run to
// convergence with all candidates, no 2-augmentation centred anywhere gains
// more than the threshold, so the weight is at least 2/3 of the optimum less
// that threshold per matched edge (Pettie and Sanders: a matching no
// 2-augmentation improves weighs at least 2/3 of the optimum); bounded lists
// give up that bound (only augmentations within them are searched).
// Deterministic for a seed.
// Cost: O(m) a phase, O(n) extra memory (roma-sparse-omp: O(m log d) a
// phase, the 4-cycles' w(u, y) by binary search in u's row).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/csr.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/device_graph.hpp"

namespace matchblas {

enum class RomaSparseStart { suitor, gpa, empty };
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
  // passes of longer ones whenever the 2-augmentation phases converge
  // (matchers/general/roma_sparse_long.hpp; roma-sparse and -omp).
  int length = 2;
};

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
// of roma-sparse-omp taken by atomicCAS (matchers/general/roma_sparse_gpu.cu);
// the start is suitor-gpu's for RomaSparseStart::suitor. The same guarantee;
// not deterministic. Throws cuda_error without a usable GPU.
template <class W>
RomaRun roma_sparse_gpu(const Csr<W>& g, const RomaSparseOptions& opt, const GpuOptions& gpu);

}  // namespace matchblas
