// matchblas match FILE --algo NAME: read, match, validate, report, write mates.
#include <omp.h>

#include <charconv>
#include <cstdio>
#include <string>

#include "apps/commands.hpp"
#include "datasets/load.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "matchers/run.hpp"

namespace matchblas::cli {

void apply_threads(const Args& a) {
  const int t = static_cast<int>(a.integer("threads", 0, 0, 4096));
  if (t > 0) omp_set_num_threads(t);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += {'\\', c};
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out + "\"";
}

namespace {

void write_mates(const std::string& path, const Matching& m) {
  AtomicFile f(path);
  std::string buf;
  buf.reserve(1 << 20);
  char num[16];
  for (vertex_t v : m.mate) {
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

}  // namespace

int command_match(const Args& a) {
  if (a.positional().size() != 1) throw usage_error("match takes one FILE");
  const auto algo = a.value("algo");
  if (!algo) throw usage_error("match needs --algo NAME (matchblas list shows the names)");
  const MatcherInfo& matcher = find_matcher(*algo);
  if (matcher.unavailable) throw error("matcher '" + matcher.name + "' " + *matcher.unavailable);
  apply_threads(a);
  MatchOptions opt;
  opt.seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  opt.threads = omp_get_max_threads();
  opt.gpu = static_cast<int>(a.integer("gpu", 0, 0, 1024));
  const GraphView view = parse_view(a.value("view").value_or("auto"));
  const Precision precision = parse_precision(a.value("precision").value_or("double"));
  const std::string& file = a.positional()[0];

  const LoadedGraph graph = graph_from_file(read_matrix_market(file), view, precision);
  MatchRun run = run_matcher(matcher, graph.ref(), graph.kind, opt);
  if (!run.report.valid)
    throw error("matcher '" + matcher.name + "' returned an invalid matching on " + file + ": " +
                run.report.violation);
  if (a.flag("gto")) {
    const MatchRun best = run_matcher(find_matcher("exact"), graph.ref(), graph.kind, opt);
    run.report.gto = gto_percent(run.report.weight, best.report.weight);
  }
  if (const auto out = a.value("out")) write_mates(*out, run.matching);

  const MatchReport& r = run.report;
  if (a.flag("json")) {
    std::printf("{\"algo\": %s, \"file\": %s, \"graph\": %s, \"n\": %d, \"edges\": %lld, "
                "\"weight\": %.17g, \"cardinality\": %lld, \"time_s\": %.6g, \"valid\": %s, "
                "\"threads\": %d, \"gto\": ",
                json_string(r.algo).c_str(), json_string(file).c_str(),
                json_string(kinds_string(graph.kind)).c_str(), r.n, static_cast<long long>(r.edges), r.weight,
                static_cast<long long>(r.cardinality), r.time_s, r.valid ? "true" : "false", opt.threads);
    if (r.gto) std::printf("%.6g}\n", *r.gto);
    else std::printf("null}\n");
  } else {
    std::printf("%s: %s\n", file.c_str(), graph.description.c_str());
    std::printf("%s: weight %.10g, cardinality %lld, time %.6f s, valid", r.algo.c_str(), r.weight,
                static_cast<long long>(r.cardinality), r.time_s);
    if (r.gto) std::printf(", GTO %.4f%%", *r.gto);
    std::printf("\n");
  }
  return 0;
}

}  // namespace matchblas::cli
