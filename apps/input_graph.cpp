// A command's input graph with its progress steps and times; see input_graph.hpp.
#include "apps/input_graph.hpp"

#include <chrono>
#include <optional>

#include "apps/naming_file.hpp"
#include "lib/mmio.hpp"

namespace matchblas::cli {

InputGraph read_input_graph(const std::string& file, GraphView view, Precision precision, unsigned kinds,
                            Progress& progress, const std::function<void(const MmHeader&)>& on_header) {
  const auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
  InputGraph in;
  const auto t0 = std::chrono::steady_clock::now();
  progress.step("reading " + file, file);
  std::optional<MmMatrix> matrix = naming_file(file, [&] {
    return on_header ? read_matrix_market(file, on_header) : read_matrix_market(file);
  });
  const auto t1 = std::chrono::steady_clock::now();
  progress.step("building the graph");
  const unsigned wanted = kinds ? kinds : general_graphs | complete_graphs | bipartite_graphs;
  in.graph = naming_file(file, [&] { return graph_in_view(*matrix, view, precision, {}, wanted); });
  matrix.reset();
  in.read_s = seconds(t0, t1);
  in.setup_s = seconds(t1, std::chrono::steady_clock::now());
  return in;
}

}  // namespace matchblas::cli
