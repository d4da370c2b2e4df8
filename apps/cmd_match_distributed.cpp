// matchblas match FILE --algo NAME for the distributed entries, under
// mpirun: every rank reads the file and keeps its part of the graph
// (matchers/distributed/dist_graph.hpp: an edge-balanced block of rows and
// its ghosts; the whole graph is freed before the matching starts), the
// ranks run the entry together, rank 0 reports and, with --out, writes the
// whole mate array gathered from the others (through AtomicFile: nothing is
// left behind on failure). A rank that cannot read its part makes every
// rank exit 1, rank 0 printing that rank's one line; a failure inside the
// matcher, which the other ranks cannot learn of, ends the job (MPI_Abort).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <variant>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/exit_status.hpp"
#include "apps/input_graph.hpp"
#include "apps/memory_check.hpp"
#include "apps/progress.hpp"
#include "lib/error.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

void require_distributed(const MatcherInfo& m) {
  if (!mpi::built())
    throw usage_error("'" + m.name + "' needs MPI, which this build lacks (configure where libopenmpi-dev is installed)");
  if (!mpi::launched())
    throw usage_error("'" + m.name + "' runs on MPI ranks: start it with mpirun -np P matchblas match FILE --algo " +
                      m.name);
}

int command_match_distributed(const Args& a, const ChosenAlgorithm& chosen, GraphView view, Precision precision) {
  const MatcherInfo& m = *chosen.info;
  if (a.flag("gto")) throw usage_error("--gto is not for the distributed matchers ('" + m.name + "')");
  std::FILE* report = report_stream(a, {"out"});
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;
  mpi::Session session;
  const bool root = session.rank() == 0;

  // Every rank: the graph, then its part. Rank 0: the output file.
  std::unique_ptr<AtomicFile> out;
  DistGraph part;
  std::string description, kind, failure;
  double read_s = 0, setup_s = 0;
  try {
    if (root) out = open_output(a, {file});
    Progress progress(root ? Progress::level(a) : Progress::Level::quiet);
    InputGraph input = read_input_graph(file, view, precision, m.kinds, progress, [&](const MmHeader& h) {
      check_graph_memory(file, h, view, precision, m);
    });
    description = input.graph.description;
    kind = kinds_string(input.graph.kind);
    read_s = input.read_s;
    const auto start = std::chrono::steady_clock::now();
    part = std::visit(
        [&](const auto& g) -> DistGraph {
          if constexpr (requires { g.n_rows; }) return distribute(g, session.rank(), session.ranks());
          else throw invalid_input("'" + m.name + "' takes sparse graphs, not complete ones");
        },
        input.graph.graph);
    setup_s = input.setup_s + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } catch (const std::exception& e) {  // agreed below: every rank learns of it
    failure = e.what();
  }
  if (const std::string why = mpi::first_failure(failure); !why.empty()) {
    if (root) throw error(why);
    return exit_failure;  // rank 0 says why
  }

  mpi::barrier();
  const auto start = std::chrono::steady_clock::now();
  DistributedMatching result;
  try {
    result = run_distributed(m, part, chosen.run);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "matchblas: error: rank %d: %s\n", session.rank(), e.what());
    mpi::abort_all(exit_failure);
  }
  const double time_s =
      mpi::max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (const std::string why = mpi::first_failure(result.violation); !why.empty()) {
    if (root) throw error("matcher '" + m.name + "' returned an invalid matching on " + file + ": " + why);
    return exit_failure;
  }
  const double weight = mpi::sum_over_ranks(result.weight);
  const std::int64_t pairs = mpi::sum_over_ranks(result.pairs);
  const std::int64_t rounds = mpi::max_over_ranks(result.stats.rounds);
  const std::int64_t remote_ops = mpi::sum_over_ranks(result.stats.remote_ops);
  const std::int64_t remote_bytes = mpi::sum_over_ranks(result.stats.remote_bytes);
  if (a.value("out")) {
    std::vector<vertex_t> mates = mpi::gather_mates(result, part.n);
    if (root) write_mates(*out, mates);
  }
  if (!root) return exit_ok;
  if (a.flag("json")) {
    print_json(JsonObject("match")
                   .text("algo", m.name)
                   .text("file", file)
                   .text("graph", kind)
                   .integer("n", part.n)
                   .integer("edges", part.edges)
                   .number("weight", weight)
                   .integer("cardinality", pairs)
                   .number("time_s", time_s)
                   .boolean("valid", true)
                   .integer("threads", 1)
                   .text("device", to_string(m.device))
                   .number("read_s", read_s)
                   .number("setup_s", setup_s)
                   .number("gto", std::nullopt)
                   .integer("ranks", session.ranks())
                   .integer("rounds", rounds)
                   .integer("remote_ops", remote_ops)
                   .integer("remote_bytes", remote_bytes));
  } else {
    std::fprintf(report, "%s: %s\n", shown.c_str(), description.c_str());
    std::fprintf(report, "%s: weight %.10g, cardinality %lld, time %.6f s, valid, %d ranks, %lld rounds\n",
                 m.name.c_str(), weight, static_cast<long long>(pairs), time_s, session.ranks(),
                 static_cast<long long>(rounds));
  }
  return exit_ok;
}

}  // namespace matchblas::cli
