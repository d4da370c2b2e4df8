// matchblas match FILE --algo NAME: read, match, validate, report, write mates.
// Bad options (an unknown --algo, --view or --precision) are usage errors,
// found before the file is read; errors from reading the file and building
// the graph name the file.
#include <omp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/memory_check.hpp"
#include "apps/input_graph.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "datasets/load.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/mmio.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas::cli {

namespace {

// f(), with the library's invalid_input (an unknown name) turned into a
// usage error: the value came from the command line.
template <class F>
decltype(auto) option_value(F f) {
  try {
    return f();
  } catch (const invalid_input& e) {
    throw usage_error(e.what());
  }
}

}  // namespace

void write_mates(AtomicFile& f, const std::vector<vertex_t>& mate) {
  std::string buf;
  buf.reserve(1 << 20);
  char num[16];
  for (vertex_t v : mate) {
    const auto end = std::to_chars(num, num + sizeof num, v).ptr;
    buf.append(num, end);
    buf.push_back('\n');
    if (buf.size() > (1 << 20) - 32) {
      f.write(buf.data(), buf.size());
      buf.clear();
    }
  }
  f.write(buf.data(), buf.size());
}

int command_match(const Args& a) {
  require_one_input(a, "match");
  const GraphView view = option_value([&] { return parse_view(a.value("view").value_or("auto")); });
  const Precision precision = option_value([&] { return parse_precision(a.value("precision").value_or("double")); });
  ChosenAlgorithm chosen = choose_algorithm(a, Problem::matching, "match", precision);
  const MatcherInfo& matcher = *chosen.info;
  if (matcher.device == Device::distributed) return command_match_distributed(a, chosen, view, precision);
  if (over_ranks(matcher)) return command_over_ranks(a, chosen, Problem::matching, view, precision);
  if (a.value("partition"))
    throw usage_error("--partition is for the distributed matchers (ld-mpi-*), not '" + matcher.name + "'");
  RunOptions& opt = chosen.run;
  PhaseReport phases;
  if (opt.options.takes("phase-report") && opt.options.flag("phase-report")) opt.phases = &phases;
  const MatcherInfo& exact = find_matcher("exact");
  if (a.flag("gto")) {
    try {
      require_available(exact);
    } catch (const error& e) {
      throw error(std::string("--gto needs the exact optimum: ") + e.what());
    }
  }
  std::FILE* report = report_stream(a, {"out"});
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;  // in the text report
  const std::unique_ptr<AtomicFile> out = open_output(a, {file});
  Progress progress(Progress::level(a));

  const InputGraph input =
      read_input_graph(file, view, precision, matcher.kinds, progress, [&](const MmHeader& h) {
        check_graph_memory(file, h, view, precision, matcher);
        if (a.flag("gto") && &matcher != &exact) check_graph_memory(file, h, view, precision, exact);
      });
  const LoadedGraph& graph = input.graph;
  const double read_s = input.read_s, setup_s = input.setup_s;
  progress.step("running " + matcher.name);
  MatchRun run = naming_file(
      file, [&] { return run_matcher(matcher, graph.ref(), graph.kind, opt); }, "running matcher '" + matcher.name + "'");
  if (!run.report.valid)
    throw error("matcher '" + matcher.name + "' returned an invalid matching on " + file + ": " +
                run.report.violation);
  std::optional<double> gto;
  if (a.flag("gto")) {
    progress.step("computing the optimum (exact) for --gto");
    const double optimum = &matcher == &exact ? run.report.weight
                                              : run_matcher(exact, graph.ref(), graph.kind, RunOptions{}).report.weight;
    gto = gto_percent(run.report.weight, optimum);
  }
  progress.step("writing");
  if (out) write_mates(*out, run.matching.mate);
  progress.finish();

  const MatchReport& r = run.report;
  if (a.flag("json")) {
    JsonObject json("match");
    json.text("algo", r.algo)
        .text("file", file)
        .text("graph", kinds_string(graph.kind))
        .integer("n", r.n)
        .integer("edges", r.edges)
        .number("weight", r.weight)
        .integer("cardinality", r.cardinality)
        .number("time_s", r.time_s)
        .boolean("valid", r.valid)
        .integer("threads", opt.threads)
        .text("device", to_string(matcher.device))
        .number("read_s", read_s)
        .number("setup_s", setup_s)
        .number("gto", gto);
    if (opt.phases) json.raw("phases", phase_report_json(phases));
    print_json(json);
  } else {
    std::fprintf(report, "%s: %s\n", shown.c_str(), graph.description.c_str());
    std::fprintf(report, "%s: weight %.10g, cardinality %lld, time %.6f s, valid", r.algo.c_str(), r.weight,
                 static_cast<long long>(r.cardinality), r.time_s);
    if (gto) std::fprintf(report, ", GTO %.4f%%", *gto);
    std::fprintf(report, "\n");
    if (opt.phases) write_phase_report(report, phases);
  }
  commit_outputs({out.get()});
  return 0;
}

}  // namespace matchblas::cli
