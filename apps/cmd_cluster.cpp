// matchblas cluster FILE --algo NAME: communities of the graph of a square
// Matrix Market file by a registered community detection entry (Louvain),
// checked: every vertex labelled 0..k-1, the modularity recomputed by
// ops::modularity equal to the entry's. Reports the modularity, the
// communities, the levels (vertices, communities, passes, time each) and
// read / compute seconds; --out writes each vertex's community, one line
// per vertex; --levels-out the hierarchy, 'LEVEL VERTEX COMMUNITY' per
// line (level l's vertices are level l-1's communities; the final
// refinement of the input's vertices is not a level).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/json_output.hpp"
#include "apps/memory_check.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/community/louvain.hpp"

namespace matchblas::cli {

namespace {

void write_text(AtomicFile& f, const std::string& s) { f.write(s.data(), s.size()); }

}  // namespace

int command_cluster(const Args& a) {
  require_one_input(a, "cluster");
  const ChosenAlgorithm chosen = choose_algorithm(a, Problem::community, "cluster");
  const std::string& algo = chosen.info->name;
  const double gamma = chosen.run.options.typed<LouvainOptions>().resolution;
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;  // in the text report
  std::FILE* report = report_stream(a, {"out", "levels-out"});
  const std::unique_ptr<AtomicFile> out = open_output(a, {file});
  const std::unique_ptr<AtomicFile> levels_out = open_named_output(a, "levels-out", file);
  Progress progress(Progress::level(a));
  const auto t0 = std::chrono::steady_clock::now();
  progress.step("reading " + file, file);
  std::optional<MmMatrix> mm = naming_file(file, [&] {
    return read_matrix_market(file, [&](const MmHeader& h) { check_community_memory(file, h, *chosen.info); });
  });
  const Csr<double> g = naming_file(file, [&] { return community_graph(*mm); });
  mm.reset();
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.step("running " + algo);
  const auto start = std::chrono::steady_clock::now();
  const Communities c =
      naming_file(file, [&] { return run_community(*chosen.info, g, chosen.run); }, "running '" + algo + "'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.step("checking the partition");
  const std::string why = communities_violation(g, c, gamma);
  if (!why.empty()) throw error("'" + algo + "' returned an invalid partition of " + file + ": " + why);
  if (out || levels_out) progress.step("writing");
  if (out) {
    std::string buf;
    for (vertex_t l : c.label) buf += std::to_string(l) + '\n';
    write_text(*out, buf);
  }
  if (levels_out) {
    std::string buf;
    for (std::size_t l = 0; l < c.hierarchy.size(); ++l)
      for (std::size_t v = 0; v < c.hierarchy[l].size(); ++v)
        buf += std::to_string(l) + ' ' + std::to_string(v) + ' ' + std::to_string(c.hierarchy[l][v]) + '\n';
    write_text(*levels_out, buf);
  }
  progress.finish();
  const offset_t edges = [&] {
    offset_t e = 0;
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) e += g.cols[k] >= u;
    return e;
  }();
  if (a.flag("json")) {
    std::string levels = "[";
    for (std::size_t l = 0; l < c.levels.size(); ++l) {
      const LouvainLevel& x = c.levels[l];
      levels += (l ? ", " : "") + JsonObject()
                                      .integer("vertices", x.vertices)
                                      .integer("entries", x.entries)
                                      .integer("communities", x.communities)
                                      .integer("passes", x.passes)
                                      .integer("moved", x.moved)
                                      .number("modularity", x.modularity)
                                      .number("time_s", x.seconds)
                                      .number("move_s", x.move_seconds)
                                      .str();
    }
    levels += "]";
    print_json(JsonObject("cluster")
                   .text("algo", algo)
                   .text("file", file)
                   .integer("vertices", g.n_rows)
                   .integer("edges", edges)
                   .number("resolution", gamma)
                   .number("modularity", c.modularity)
                   .integer("communities", c.communities)
                   .raw("levels", levels)
                   .integer("refine_moves", c.refine_moves)
                   .integer("refine_passes", c.refine_passes)
                   .number("refine_s", c.refine_seconds)
                   .number("time_s", seconds)
                   .integer("threads", chosen.run.threads)
                   .text("device", to_string(chosen.info->device))
                   .number("read_s", read_s));
  } else {
    std::fprintf(report, "%s: %d vertices, %lld edges\n%s: modularity %.6f, %d communities, %zu levels, time %.6f s\n",
                 shown.c_str(), g.n_rows, static_cast<long long>(edges), algo.c_str(), c.modularity, c.communities,
                 c.levels.size(), seconds);
  }
  commit_outputs({out.get(), levels_out.get()});  // together at the end: both or neither
  return 0;
}

}  // namespace matchblas::cli
