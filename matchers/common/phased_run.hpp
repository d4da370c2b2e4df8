// The record of an augmenting algorithm run in phases (ROMA on complete
// graphs, roma-sparse on sparse ones): the start, then per phase its flips,
// scans, kernel and weight; and that record as the generic PhaseReport
// table the surfaces print (lib/phase_report.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lib/matching.hpp"
#include "lib/phase_report.hpp"

namespace matchblas {

struct RomaPhase {
  int phase = 0;             // 0-based
  std::int64_t flips = 0;
  // Augmentations: scans of one matching edge against all the others. The
  // CPU roma augments vertices (n a phase under RomaScan::all, each edge
  // twice), roma-gpu the pairs it takes from its worklist (at most n/2 under
  // all: a pair whose listed end stopped being its smaller end is skipped);
  // -1 where not counted (roma-gpu-1 and -2 augment every vertex).
  std::int64_t scanned = -1;
  // roma-gpu: the phase's kernel ("cluster", "stream" or "queued", matchers/
  // roma_gpu.cu) and the edges its scans found past the gain bound (what
  // the automatic choice of the next phase's kernel reads); roma-sparse(-omp):
  // "long" for a pass of longer augmentations (its scanned: the roots
  // searched); empty and -1 elsewhere.
  std::string kernel;
  int cluster_blocks = 0;  // roma-gpu's cluster phase: the blocks of a cluster (one pair's); 0 elsewhere
  std::int64_t past_bound = -1;
  // roma-gpu only: flips made with a candidate other than the pair's best,
  // after the better ones were refused (flip_in_gain_order); -1 elsewhere.
  std::int64_t fallback_flips = -1;
  double weight = 0;         // of the matching after the phase
  double seconds = 0;
};

struct RomaRun {
  Matching matching;
  double start_weight = 0;
  double start_seconds = 0;       // computing the start matching (wall clock; the phases' times exclude it;
                                  // on the GPU runners it includes a host copy of the graph for greedy)
  std::vector<RomaPhase> phases;  // the phases run (fewer than opt.phases at convergence)
};

// run's start and phases as a table: flips, scanned, weight, seconds,
// kernel, past-bound, fallbacks (Hovland 2020, tables 5.2-5.6, plus the
// GPU kernels' counts).
PhaseReport phase_report(const RomaRun& run);

}  // namespace matchblas
