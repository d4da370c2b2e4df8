// The matching calls' input adapters (api/matching_inputs.cpp): the
// caller's graph, however given, as the graph an algorithm accepting
// `kinds` (GraphKind bits) runs on, by the tool's graph rules. Statuses
// through capi::fail.
#pragma once
#include "datasets/load.hpp"
#include "matchblas/coordinate.h"
#include "matchblas/matching.h"

namespace matchblas::capi {

// A matchblas_graph (compressed arrays, a dense buffer or a Matrix Market
// file); a file's errors name it (status bad file).
LoadedGraph load_graph(const matchblas_graph* g, unsigned kinds);

// A matchblas_coordinate_graph (COO arrays, coordinate.h).
LoadedGraph load_coordinate_graph(const matchblas_coordinate_graph* g, unsigned kinds);

// The same sources as the graph community detection takes
// (community_graph, lib/graph_from_matrix.hpp: values as given, negatives
// refused, the view and precision fields not used).
Csr<double> load_community_graph(const matchblas_graph* g);
Csr<double> load_community_coordinate_graph(const matchblas_coordinate_graph* g);

}  // namespace matchblas::capi
