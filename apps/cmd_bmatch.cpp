// matchblas bmatch FILE --algo NAME (--b K | --b-file F) [--gpu ID]: a
// b-matching of the graph of a Matrix Market file (general or bipartite
// view; double weights, or float with --precision float) by a registered
// b-matching algorithm, validated;
// reports edges, weight and time (b-suitor-gpu: with the uploads and the
// download); --out writes the edges, one "u v" line each (0-based, u < v).
// --gpu ID (GPU entries only, default 0) picks the GPU; without one, a GPU
// entry fails (status 1, one line saying why) before reading FILE.
// --b-file: one integer b(v) >= 0 per line for v = 0, 1, ... (n lines).
// Under mpirun, b-suitor-gpu runs over the ranks (apps/cmd_over_ranks.cpp).
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/memory_check.hpp"
#include "apps/input_graph.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "datasets/b_values.hpp"
#include "datasets/load.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas::cli {

namespace {

// The rest of bmatch on the graph read (float or double weights): b, the
// run, the check, the output and the report.
template <class W>
int finish_bmatch(const Args& a, const ChosenAlgorithm& chosen, const Csr<W>& csr, const LoadedGraph& graph,
                  const InputGraph& input, const std::string& shown, std::FILE* report, AtomicFile* out,
                  Progress& progress) {
  const Csr<W>* g = &csr;  // as run_b_matching's GraphRef takes it
  const std::string& algo = chosen.info->name;
  const std::string& file = a.positional()[0];
  const int constant = static_cast<int>(a.integer("b", 1, 0, INT32_MAX));
  const std::vector<int> b =
      a.value("b-file") ? read_b_values(*a.value("b-file"), g->n_rows) : constant_b(g->n_rows, constant);
  const double read_s = input.read_s, setup_s = input.setup_s;

  progress.step("running " + algo);
  const auto start = std::chrono::steady_clock::now();
  const BMatching m = naming_file(
      file, [&] { return run_b_matching(*chosen.info, g, b, chosen.run); }, "running '" + algo + "'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.step("checking");
  const std::string why = b_matching_violation(*g, b, m);
  if (!why.empty()) throw error("matcher '" + algo + "' returned an invalid b-matching on " + file + ": " + why);
  if (out) {
    progress.step("writing");
    AtomicFile& f = *out;
    std::string buf;
    for (vertex_t u = 0; u < m.n(); ++u)
      for (offset_t i = m.offsets[u]; i < m.offsets[u + 1]; ++i)
        if (u < m.partners[i]) buf += std::to_string(u) + ' ' + std::to_string(m.partners[i]) + '\n';
    f.write(buf.data(), buf.size());
  }
  progress.finish();
  const double weight = b_matching_weight(*g, m);
  if (a.flag("json"))
    print_json(JsonObject("bmatch")
                   .text("algo", algo)
                   .text("file", file)
                   .text("graph", kinds_string(graph.kind))
                   .integer("n", g->n_rows)
                   .integer("edges", g->num_entries() / 2)
                   .number("weight", weight)
                   .integer("cardinality", m.num_edges())
                   .number("time_s", seconds)
                   .boolean("valid", true)
                   .integer("threads", chosen.run.threads)
                   .text("device", to_string(chosen.info->device))
                   .number("read_s", read_s)
                   .number("setup_s", setup_s));
  else
    std::fprintf(report, "%s: %s\n%s: %lld edges, weight %.10g, time %.6f s, valid\n", shown.c_str(),
                 graph.description.c_str(), algo.c_str(), static_cast<long long>(m.num_edges()), weight, seconds);
  commit_outputs({out});
  return 0;
}

}  // namespace

int command_bmatch(const Args& a) {
  require_one_input(a, "bmatch");
  if (a.value("b").has_value() == a.value("b-file").has_value())
    throw usage_error(a.value("b") ? "--b and --b-file conflict: give one" : "bmatch needs one of --b K and --b-file F");
  (void)a.integer("b", 1, 0, INT32_MAX);  // a bad --b is refused before the file is read
  // A value the library refuses (invalid_input) is a usage error here.
  const auto usage = [](auto parse) {
    try {
      return parse();
    } catch (const invalid_input& e) {
      throw usage_error(e.what());
    }
  };
  const Precision precision =
      usage([&] { return parse_precision(a.value("precision").value_or("double")); });
  const ChosenAlgorithm chosen = choose_algorithm(a, Problem::b_matching, "bmatch", precision);
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;  // in the text report
  if (file == "-" && a.value("b-file") == "-")
    throw usage_error("FILE - and --b-file - conflict: standard input can be read once");
  const GraphView view = usage([&] { return parse_view(a.value("view").value_or("auto")); });
  if (view == GraphView::complete)
    throw usage_error("--view complete: bmatch takes sparse graphs (the general or bipartite view)");
  if (over_ranks(*chosen.info)) return command_over_ranks(a, chosen, Problem::b_matching, view, precision);
  std::FILE* report = report_stream(a, {"out"});
  std::vector<std::string> inputs{file};
  if (const auto bf = a.value("b-file")) inputs.push_back(*bf);
  const std::unique_ptr<AtomicFile> out = open_output(a, inputs);
  Progress progress(Progress::level(a));
  const InputGraph input = read_input_graph(file, view, precision, 0, progress, [&](const MmHeader& h) {
    check_graph_memory(file, h, view, precision, *chosen.info, sizeof(int));  // and b(v)
  });
  const LoadedGraph& graph = input.graph;
  if (const auto* g = std::get_if<Csr<float>>(&graph.graph))
    return finish_bmatch(a, chosen, *g, graph, input, shown, report, out.get(), progress);
  if (const auto* g = std::get_if<Csr<double>>(&graph.graph))
    return finish_bmatch(a, chosen, *g, graph, input, shown, report, out.get(), progress);
  throw invalid_input(file + ": bmatch takes sparse graphs (general or bipartite view), not complete ones");
}

}  // namespace matchblas::cli
