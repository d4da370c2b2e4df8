// matchblas match FILE --algo NAME for the distributed entries, under
// mpirun: each rank reads its piece of the file and the ranks exchange
// entries until each holds its part of the graph and no more
// (datasets/distributed/dist_read.hpp: a balanced block of rows and
// its ghosts; gzip files, standard input, array files and the bipartite
// view are read whole by rank 0, which sends the parts), the ranks run the
// entry together, rank 0 reports and, with --out, writes the whole mate
// array gathered from the others (through AtomicFile: nothing is left
// behind on failure). A bad file or a rank that cannot read its part makes
// every rank exit 1, rank 0 printing the one error (for a bad file the
// single-process reader's, with its line); a failure inside the matcher,
// which the other ranks cannot learn of, ends the job (MPI_Abort).
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/exit_status.hpp"
#include "apps/memory_check.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "lib/error.hpp"
#include "datasets/distributed/dist_read.hpp"
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

int fail_together(bool root, std::exception_ptr failure, const char* command) {
  const std::int64_t status = root ? report_exception(failure, command) : 0;
  return int(mpi::max_over_ranks(status));
}

mpi::LoadedPart read_part(const Args& a, const std::string& file, GraphView view, Precision precision,
                          const MatcherInfo& m, Partition partition, bool root) {
  Progress progress(root ? Progress::level(a) : Progress::Level::quiet);
  progress.step("reading " + file + " (each rank its part)");
  // Rank 0 reading a whole file (gzip, standard input, array files, the
  // bipartite view) refuses at the header what the memory cannot hold.
  return naming_file(file, [&] {
    return mpi::load_graph(file, view, precision, [&](const MmHeader& h) {
      check_graph_memory(file, h, view, precision, m);
    }, partition);
  });
}

int report_exception_once(std::exception_ptr e, const char* command) {
  try {
    std::rethrow_exception(e);
  } catch (const usage_error&) {
  } catch (...) {
    return report_exception(e, command);
  }
  if (!mpi::built() || !mpi::launched()) return report_exception(e, command);
  std::optional<mpi::Session> session;
  try {
    session.emplace();
  } catch (const std::exception&) {  // MPI already started and ended here: each rank says it
    return report_exception(e, command);
  }
  const int status = session->rank() == 0 ? report_exception(e, command) : int(exit_usage);
  std::fflush(stderr);
  mpi::idle_barrier();
  return status;
}

int command_match_distributed(const Args& a, const ChosenAlgorithm& chosen, GraphView view, Precision precision) {
  const MatcherInfo& m = *chosen.info;
  if (a.flag("gto")) throw usage_error("--gto is not for the distributed matchers ('" + m.name + "')");
  std::FILE* report = report_stream(a, {"out"});
  const std::string& file = a.positional()[0];
  const std::string partition_arg = a.value("partition").value_or("blocks");
  const std::optional<Partition> chosen_partition = parse_partition(partition_arg);
  if (!chosen_partition) throw usage_error("unknown --partition '" + partition_arg + "' (blocks, spread)");
  const Partition partition = *chosen_partition;
  const std::string shown = file == "-" ? "<stdin>" : file;
  mpi::Session session;
  const bool root = session.rank() == 0;

  // Rank 0: the output file (nothing is written unless the run succeeds).
  std::unique_ptr<AtomicFile> out;
  std::string failure;
  try {
    if (root) out = open_output(a, {file});
  } catch (const std::exception& e) {  // agreed below: every rank learns of it
    failure = e.what();
  }
  if (const std::string why = mpi::first_failure(failure); !why.empty())
    return fail_together(root, std::make_exception_ptr(error(why)), "match");
  // Every rank: its part of the graph, read in pieces (or sent by rank 0).
  // A failure is thrown on every rank alike: rank 0 reports it.
  mpi::LoadedPart input;
  try {
    input = read_part(a, file, view, precision, m, partition, root);
  } catch (const std::exception&) {
    return fail_together(root, std::current_exception(), "match");
  }
  const DistGraph& part = input.part;
  const std::string& description = input.description;
  const std::string kind = kinds_string(input.kind);
  const double read_s = input.times.parse_s, setup_s = input.times.build_s;

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
  if (const std::string why = mpi::first_failure(result.violation); !why.empty())
    return fail_together(root,
                         std::make_exception_ptr(
                             error("matcher '" + m.name + "' returned an invalid matching on " + file + ": " + why)),
                         "match");
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
                   .text("partition", partition_name(part.partition))
                   .integer("rounds", rounds)
                   .integer("remote_ops", remote_ops)
                   .integer("remote_bytes", remote_bytes));
  } else {
    std::fprintf(report, "%s: %s\n", shown.c_str(), description.c_str());
    std::fprintf(report, "%s: weight %.10g, cardinality %lld, time %.6f s, valid, %d ranks (%s), %lld rounds\n",
                 m.name.c_str(), weight, static_cast<long long>(pairs), time_s, session.ranks(),
                 partition_name(part.partition), static_cast<long long>(rounds));
  }
  commit_outputs({out.get()});
  return exit_ok;
}

}  // namespace matchblas::cli
