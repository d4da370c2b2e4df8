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

// --threads T, capped at 4 x the cores; a count from the environment
// (OMP_NUM_THREADS, its first level) gets the same cap, checked before any
// parallel region starts the runtime's threads; then the count is started
// once (require_threads), so that one the system cannot start is an error
// here, not the OpenMP runtime's exit inside the work.
void apply_threads(const Args& a) {
  const std::int64_t cap = 4 * std::int64_t(omp_get_num_procs());
  const int t = static_cast<int>(a.integer("threads", 0, 0, cap));
  if (t > 0) {
    omp_set_num_threads(t);
    require_threads(t);
    return;
  }
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && *env) {
    std::string_view first(env);
    first = first.substr(0, first.find(','));
    while (!first.empty() && (first.front() == ' ' || first.front() == '\t')) first.remove_prefix(1);
    while (!first.empty() && (first.back() == ' ' || first.back() == '\t')) first.remove_suffix(1);
    long long v = 0;
    if (!matchblas::parse_integer(first, 1, cap, v))
      throw usage_error("OMP_NUM_THREADS='" + std::string(env).substr(0, 40) + "' must be a thread count in 1.." +
                        std::to_string(cap) + " (4 x the cores), like --threads");
  }
  if (omp_get_max_threads() > cap) omp_set_num_threads(int(cap));
  require_threads(omp_get_max_threads());
}

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
  f.commit();
}

int command_match(const Args& a) {
  require_one_input(a, "match");
  const GraphView view = option_value([&] { return parse_view(a.value("view").value_or("auto")); });
  const Precision precision = option_value([&] { return parse_precision(a.value("precision").value_or("double")); });
  ChosenAlgorithm chosen = choose_algorithm(a, Problem::matching, "match", precision);
  const MatcherInfo& matcher = *chosen.info;
  if (matcher.device == Device::distributed) return command_match_distributed(a, chosen, view, precision);
  if (a.value("partition"))
    throw usage_error("--partition is for the distributed matchers (ld-mpi-*), not '" + matcher.name + "'");
  RunOptions& opt = chosen.run;
  RomaRun roma_report;
  if (opt.options.takes("phase-report") && opt.options.flag("phase-report")) opt.phase_report = &roma_report;
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
    print_json(JsonObject("match")
                   .text("algo", r.algo)
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
                   .number("gto", gto));
  } else {
    std::fprintf(report, "%s: %s\n", shown.c_str(), graph.description.c_str());
    std::fprintf(report, "%s: weight %.10g, cardinality %lld, time %.6f s, valid", r.algo.c_str(), r.weight,
                 static_cast<long long>(r.cardinality), r.time_s);
    if (gto) std::fprintf(report, ", GTO %.4f%%", *gto);
    std::fprintf(report, "\n");
  }
  if (opt.phase_report) {  // one line per phase, as Hovland 2020 tables 5.2-5.6
    std::fprintf(report, "phase %6s %14s %14s %18s %12s %8s %14s %10s\n", "", "flips", "scanned", "weight", "seconds",
                "kernel", "past-bound", "fallbacks");
    std::fprintf(report, "start %6s %14s %14s %18.10g %12.6f %8s %14s %10s\n", "", "-", "-", roma_report.start_weight,
                roma_report.start_seconds, "-", "-", "-");
    for (const RomaPhase& p : roma_report.phases) {
      const std::string scanned = p.scanned >= 0 ? std::to_string(p.scanned) : "-";
      const std::string past = p.past_bound >= 0 ? std::to_string(p.past_bound) : "-";
      const std::string fallbacks = p.fallback_flips >= 0 ? std::to_string(p.fallback_flips) : "-";
      std::fprintf(report, "phase %6d %14lld %14s %18.10g %12.6f %8s %14s %10s\n", p.phase, static_cast<long long>(p.flips),
                  scanned.c_str(), p.weight, p.seconds, p.kernel.empty() ? "-" : p.kernel.c_str(), past.c_str(),
                  fallbacks.c_str());
    }
  }
  return 0;
}

}  // namespace matchblas::cli
