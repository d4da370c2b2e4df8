// The levels both Louvain entries share (louvain.hpp): local moves on the
// level's graph by the entry's own rule, renumbering, the next level's
// graph, the threshold stages, and the final refinement of the input's
// vertices.
#pragma once
#include <functional>

#include "matchers/community/aggregate.hpp"
#include "matchers/community/louvain.hpp"

namespace matchblas::community {

// An entry's local moves on one level's graph from singletons: moves until
// a pass (round) gains less than the threshold; returns the moves, adds
// its passes.
using LevelMoves = std::function<vertex_t(const Csr<double>&, MoveState&, double threshold, int* passes)>;

// The final refinement of the input's vertices from the levels' labels,
// until no vertex move improves (the guarantee); returns the moves, adds
// its passes.
using FinalMoves = std::function<vertex_t(const Csr<double>&, MoveState&, int* passes)>;

// The levels: `threshold` until a level gains less modularity than it,
// then `final_threshold`; they end when a level moves nothing or leaves
// every vertex alone, or after max_levels. Then `refine`. Level 0 and
// `refine` see g itself or, for weights near the ends of the double range,
// its copy scaled by a power of two (scaled_to_safe_range: the same rows).
Communities run_levels(const Csr<double>& g, const LouvainOptions& options, const LevelMoves& moves,
                       const FinalMoves& refine);

}  // namespace matchblas::community
