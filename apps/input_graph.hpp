// The graph of a command's input FILE: read (progress step "reading FILE",
// with the percent read) and built by the graph rules (step "building the
// graph"), every error naming the file; the seconds of each step for the
// reports. Used by match and bmatch.
#pragma once
#include <functional>
#include <string>

#include "apps/progress.hpp"
#include "datasets/load.hpp"
#include "lib/mmio.hpp"

namespace matchblas::cli {

struct InputGraph {
  LoadedGraph graph;
  double read_s = 0, setup_s = 0;
};

// `kinds`: the GraphKind bits of the algorithm the graph is for (0: any).
// on_header, when set, sees the file's header before any entry is read
// (the command's memory check, apps/memory_check.hpp).
InputGraph read_input_graph(const std::string& file, GraphView view, Precision precision, unsigned kinds,
                            Progress& progress, const std::function<void(const MmHeader&)>& on_header = {});

}  // namespace matchblas::cli
