// The graph of a command's input FILE: read (progress step "reading FILE",
// with the percent read) and built by the graph rules (step "building the
// graph"), every error naming the file; the seconds of each step for the
// reports. Used by match and bmatch.
#pragma once
#include <string>

#include "apps/progress.hpp"
#include "datasets/load.hpp"

namespace matchblas::cli {

struct InputGraph {
  LoadedGraph graph;
  double read_s = 0, setup_s = 0;
};

// `kinds`: the GraphKind bits of the algorithm the graph is for (0: any).
InputGraph read_input_graph(const std::string& file, GraphView view, Precision precision, unsigned kinds,
                            Progress& progress);

}  // namespace matchblas::cli
