// Community detection by the Louvain method: a partition of a weighted
// undirected graph's vertices that is a local optimum of modularity
// (ops/modularity.hpp).
//
//   louvain      sequential (V. D. Blondel, J.-L. Guillaume, R. Lambiotte,
//                E. Lefebvre, "Fast unfolding of communities in large
//                networks", J. Stat. Mech. 2008, sec. 2): levels of local
//                moves (each vertex in turn, 0..n-1, to the neighbouring
//                community of the largest modularity gain) until a pass
//                gains less than the level's threshold, then the graph of
//                the communities (aggregate.hpp), until a level moves no
//                vertex.
//   louvain_omp  the same levels with each round's moves decided on every
//                thread at once (H. Lu, M. Halappanavar, A. Kalyanaraman,
//                "Parallel heuristics for scalable community detection",
//                Parallel Computing 2015, sec. 4-5): by the colour classes
//                of a distance-1 colouring, so no two neighbours decide
//                together (the default), or all at once with the
//                minimum-label rule (a vertex alone moves to another
//                community of one only when that one's label is smaller);
//                thresholds per stage. Deterministic: the same partition at
//                any thread count.
//   louvain_gpu  every stage on the GPU (M. Naim, F. Manne, M. Halappanavar,
//                A. Tumeo, "Community detection on the GPU", IPDPS 2017,
//                sec. 3-4): a warp per vertex hashes the neighbouring
//                communities (shared or global memory by row length), a
//                round's moves by the colour classes of a Jones-Plassmann
//                colouring (32 rounds; the rest in one class that
//                settles: in steps, the vertices whose gain beats every
//                deciding neighbour's move), or all at once by the
//                minimum-label rule (the paper's; --coloring off),
//                aggregation by a sort of (community, community) keys
//                (louvain_gpu.cu).
//
// All three end (unless options.refine is off) with local moves of the
// input graph's vertices until none gains: louvain in whole passes in
// vertex order; louvain_omp and louvain_gpu check every vertex in parallel
// (threads, the device) and move the improving ones one at a time
// (louvain_omp: each to the check's choice while that still improves;
// louvain_gpu: re-decided, when few from a queue that takes in each mover's
// neighbours; aggregate.hpp) or, louvain_gpu from 256 of them up, by
// settling on the device, until
// the check finds none. The guarantee "local optimum" (no vertex of the input
// gains modularity by moving to a neighbouring community or to one of its
// own), which the conformance test checks with its own gain computation.
//
// Gains: moving u (removed from its community, degree k_u) into community
// c gains 2m w_uc - gamma tot_c k_u (2m^2 times the modularity it adds),
// where w_uc is the weight from u into c and tot_c the degree sum of c
// without u; a community of its own gains 0. Exact for integer weights and
// gamma. u moves when the best other gain beats staying by more than
// 1e-12 max(1, gamma) k_u 2m (rounding, not a gain); ties go to the
// smallest label, then to a community of its own (which takes the id
// freed last).
//
// Cost per pass O(n + entries); per level O(entries) to aggregate; memory
// O(n + entries) (the graph of the next level, a label and two doubles per
// vertex, a community's weight per vertex for the neighbour scan).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

// louvain_gpu's settling steps (the vertices left after its colour
// classes, and the final moves): which deciding neighbours may move in one
// step. strict: none (the largest margin in each neighbourhood moves
// first, the others decide again); additive: those whose moves add up
// (matchers/community/move_clash.hpp: the pair's own term of modularity
// is not negative); drawn: additive, and never two neighbours drawn
// together (a positive pair term) into different communities.
enum class LouvainTogether { strict, additive, drawn };

inline constexpr std::array<std::pair<std::string_view, LouvainTogether>, 3> louvain_together_rules = {{
    {"strict", LouvainTogether::strict},
    {"additive", LouvainTogether::additive},
    {"drawn", LouvainTogether::drawn},
}};

// The rule of that name, if there is one.
inline std::optional<LouvainTogether> louvain_together_named(std::string_view name) {
  for (const auto& [n, rule] : louvain_together_rules)
    if (n == name) return rule;
  return std::nullopt;
}

struct LouvainOptions {
  double resolution = 1.0;  // gamma (> 0): larger gives more, smaller communities
  // A level's local moves stop when a pass (a round for louvain_omp) gains
  // less modularity than this; the last level's threshold is `final_threshold`
  // (Naim et al.'s th_bin and th_final; Lu et al.'s per-stage thresholds).
  // 1e-3: at 1e-2 louvain-omp's modularity on ER 2^18 was 10% lower and the
  // run no faster (bench/louvain_thresholds.py, bench/RESULTS.md).
  double threshold = 1e-3;
  double final_threshold = 1e-6;
  int max_levels = 100;
  int threads = 0;  // louvain_omp: OpenMP threads (0: all)
  // louvain_omp and louvain_gpu: decide the moves by colour classes of a
  // distance-1 colouring (no two neighbours at once); false: all at once
  // with the minimum-label rule.
  bool coloring = true;
  // true: after the levels, the input's vertices move until none gains (the
  // guarantee, "local optimum"); false: the levels' partition as it is
  // (Louvain's own result: no vertex of the last level's graph gains by a
  // move at the last threshold; input vertices may) - faster: on R-MAT
  // 2^22 louvain-gpu's final moves take 1.2 s of its 19 s of stages
  // (bench/RESULTS.md).
  bool refine = true;
  LouvainTogether together = LouvainTogether::drawn;  // louvain_gpu only
};

// One level of the hierarchy: the graph it moved on and what came of it.
struct LouvainLevel {
  vertex_t vertices = 0;      // of this level's graph
  offset_t entries = 0;       // its stored entries (both directions, loops once)
  vertex_t communities = 0;   // after its moves
  int passes = 0;             // passes (rounds) of local moves
  vertex_t moved = 0;         // vertex moves, all passes together
  double modularity = 0;      // of the input graph's partition after this level
  double seconds = 0;         // the whole level
  double move_seconds = 0;    // of seconds, the moves with their set-up; the rest renumbers and aggregates
};

struct Communities {
  std::vector<vertex_t> label;  // per input vertex, dense 0..communities-1
  vertex_t communities = 0;
  double modularity = 0;        // ops::modularity of label at the resolution used
  // levels[l]: the level-l graph; hierarchy[l][v]: the community (a
  // vertex of level l + 1) of level l's vertex v. The final refinement of
  // the input's vertices is the level after the last one listed in
  // `levels` when it moved any vertex (refine_moves).
  std::vector<LouvainLevel> levels;
  std::vector<std::vector<vertex_t>> hierarchy;
  vertex_t refine_moves = 0;
  int refine_passes = 0;
  double refine_seconds = 0;
};

// g: symmetric, non-negative weights, loops allowed (community_graph,
// lib/graph_from_matrix.hpp, or an aggregated graph). Throws invalid_input
// on a negative or non-finite weight, an asymmetric graph or a resolution
// <= 0.
Communities louvain(const Csr<double>& g, const LouvainOptions& options = {});
Communities louvain_omp(const Csr<double>& g, const LouvainOptions& options = {});
// On GPU gpu.device (gpu.stream, or a stream of its own); also throws
// matchblas::error in a build without CUDA, cuda_error / out_of_memory
// from the device. options.threads is not used.
Communities louvain_gpu(const Csr<double>& g, const LouvainOptions& options = {}, const GpuOptions& gpu = {});

// Why c is not a partition of g's vertices into 0..communities-1 (each
// community with a member) with the modularity it reports at `gamma` (1e-9
// relative, ops::modularity), or "" when it is: the check the CLI and the
// tests run on every result. O(n + entries).
std::string communities_violation(const Csr<double>& g, const Communities& c, double gamma);

}  // namespace matchblas
