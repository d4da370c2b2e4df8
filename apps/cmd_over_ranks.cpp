// matchblas match|bmatch FILE --algo NAME under mpirun, for the GPU
// entries that also run over MPI ranks (MatcherInfo::over_ranks: suitor-gpu,
// b-suitor-gpu): each rank reads its part of the file (the distributed
// reader, blocks partition), takes a GPU (--gpus, by its rank on the node),
// and the ranks run the entry together; the result is checked over the
// ranks (check_b_matching_over_ranks), rank 0 reports and, with --out,
// writes what the single-process command writes (match: the mate array;
// bmatch: the edges), gathered from the others through AtomicFile (nothing
// is left behind on failure). A failure that every rank sees (a bad file,
// no GPU, too little device memory: the ranks agree on it) makes every rank
// exit 1 and rank 0 print the one line; a fault on one rank during the run,
// which the others cannot learn of, is printed by that rank naming it and
// ends the job (MPI_Abort).
#include <chrono>
#include <climits>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/exit_status.hpp"
#include "apps/memory_check.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "datasets/b_values.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "lib/error.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas::cli {

namespace {

// The GPU ids of --gpus ("0,1,3"); usage error on anything else.
std::vector<int> parse_gpus(const std::string& text) {
  std::vector<int> ids;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos)
      throw usage_error("--gpus takes GPU ids separated by commas (e.g. 0,1,2,3), not '" + text + "'");
    ids.push_back(std::stoi(item));
    at = comma + 1;
  }
  return ids;
}

}  // namespace

int command_over_ranks(const Args& a, const ChosenAlgorithm& chosen, Problem problem, GraphView view,
                       Precision precision) {
  const MatcherInfo& m = *chosen.info;
  const char* command = problem == Problem::b_matching ? "bmatch" : "match";
  if (!mpi::built()) throw usage_error("'" + m.name + "' over MPI ranks needs MPI, which this build lacks");
  if (a.flag("gto")) throw usage_error("--gto is not for runs over MPI ranks ('" + m.name + "')");
  if (const auto p = a.value("partition"); p && *p != "blocks")
    throw usage_error("'" + m.name + "' over MPI ranks takes --partition blocks only, not '" + *p + "'");
  if (a.value("b-file") == "-")
    throw usage_error("--b-file - under mpirun: only rank 0 has standard input; give a file");
  if (a.value("gpu") && a.value("gpus")) throw usage_error("--gpu and --gpus conflict: give one");
  const std::optional<std::vector<int>> gpus =
      a.value("gpus") ? std::optional(parse_gpus(*a.value("gpus")))
                      : a.value("gpu") ? std::optional(std::vector<int>{chosen.run.gpu}) : std::nullopt;
  const int constant_b_value = problem == Problem::b_matching && a.value("b")
                                   ? static_cast<int>(a.integer("b", 1, 0, INT32_MAX))
                                   : 1;
  std::FILE* report = report_stream(a, {"out"});
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;
  mpi::Session session;
  const bool root = session.rank() == 0;
  const auto failed_together = [&] { return fail_together(root, std::current_exception(), command); };

  // Rank 0: the output file; every rank: its GPU. Agreed before reading.
  std::unique_ptr<AtomicFile> out;
  RunOptions run = chosen.run;
  std::string failure;
  try {
    std::vector<std::string> inputs{file};
    if (const auto bf = a.value("b-file")) inputs.push_back(*bf);
    if (root) out = open_output(a, inputs);
    const int devices = gpu::device_count();
    if (devices == 0) throw error("'" + m.name + "' needs a CUDA GPU on every rank: " + gpu::unavailable_reason());
    const int local = mpi::local_rank();
    run.gpu = gpus ? (*gpus)[std::size_t(local) % gpus->size()] : local % devices;
    gpu::use_device(m.name, run.gpu);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (const std::string why = mpi::first_failure(failure); !why.empty())
    return fail_together(root, std::make_exception_ptr(error(why)), command);

  // Every rank: its part of the graph, and b.
  mpi::LoadedPart input;
  std::vector<int> b;
  try {
    input = read_part(a, file, view, precision, m, Partition::blocks, root);
    const vertex_t n = input.part.n;
    const auto b_file = a.value("b-file");
    const std::string b_failure = mpi::first_failure([&] {
      try {
        b = b_file ? read_b_values(*b_file, n) : constant_b(n, constant_b_value);
      } catch (const std::exception& e) {
        return std::string(e.what());
      }
      return std::string();
    }());
    if (!b_failure.empty()) throw error(b_failure);
  } catch (const std::exception&) {
    return failed_together();
  }
  const DistGraph& part = input.part;

  mpi::barrier();
  const auto start = std::chrono::steady_clock::now();
  BMatching rows;
  try {
    rows = run_over_ranks(m, part, b, run);
  } catch (const std::exception& e) {
    // Failures every rank meets end together: the input's and options'
    // (invalid_input, checked before any collective, on the same input
    // everywhere), those the ranks agreed on (first_failure's "rank R: ..."),
    // any with one rank. A fault on one rank ends the job.
    const std::string what = e.what();
    if (session.ranks() == 1 || what.rfind("rank ", 0) == 0 || dynamic_cast<const invalid_input*>(&e))
      return failed_together();
    std::fprintf(stderr, "matchblas: error: rank %d: %s\n", session.rank(), what.c_str());
    mpi::abort_all(exit_failure);
  }
  const double time_s =
      mpi::max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  const BMatchingOverRanks checked = check_b_matching_over_ranks(part, b, rows);
  if (!checked.violation.empty())
    return fail_together(root,
                         std::make_exception_ptr(error("matcher '" + m.name + "' returned an invalid " +
                                                       (problem == Problem::b_matching ? "b-matching" : "matching") +
                                                       " on " + file + ": " + checked.violation)),
                         command);
  if (a.value("out")) {  // every rank: rank 0 alone holds the file
    // Each rank's lines, gathered on rank 0 in rank order (the rows' order).
    std::vector<std::int64_t> mine;
    for (vertex_t i = 0; i < part.count(); ++i) {
      const vertex_t v = part.begin() + i;
      if (problem == Problem::matching) {
        mine.push_back(rows.offsets[std::size_t(i) + 1] > rows.offsets[std::size_t(i)]
                           ? rows.partners[std::size_t(rows.offsets[std::size_t(i)])]
                           : no_vertex);
        continue;
      }
      for (offset_t k = rows.offsets[std::size_t(i)]; k < rows.offsets[std::size_t(i) + 1]; ++k)
        if (v < rows.partners[std::size_t(k)]) {
          mine.push_back(v);
          mine.push_back(rows.partners[std::size_t(k)]);
        }
    }
    const std::vector<std::int64_t> all = mpi::gather_on_root(mine);
    if (out) {
      std::string buf;
      const std::size_t step = problem == Problem::matching ? 1 : 2;
      for (std::size_t k = 0; k < all.size(); k += step) {
        buf += std::to_string(all[k]);
        if (step == 2) buf += ' ' + std::to_string(all[k + 1]);
        buf += '\n';
      }
      out->write(buf.data(), buf.size());
    }
  }
  if (!root) return exit_ok;
  const std::string kind = kinds_string(input.kind);
  if (a.flag("json")) {
    JsonObject json(command);
    json.text("algo", m.name)
        .text("file", file)
        .text("graph", kind)
        .integer("n", part.n)
        .integer("edges", part.edges)
        .number("weight", checked.weight)
        .integer("cardinality", checked.edges)
        .number("time_s", time_s)
        .boolean("valid", true)
        .integer("threads", 1)
        .text("device", to_string(m.device))
        .number("read_s", input.times.parse_s)
        .number("setup_s", input.times.build_s);
    if (problem == Problem::matching) json.number("gto", std::nullopt);
    print_json(json.integer("ranks", session.ranks()).text("partition", "blocks"));
  } else {
    std::fprintf(report, "%s: %s\n", shown.c_str(), input.description.c_str());
    std::fprintf(report, "%s: %lld %s, weight %.10g, time %.6f s, valid, %d ranks (a GPU each)\n", m.name.c_str(),
                 static_cast<long long>(checked.edges), problem == Problem::matching ? "pairs" : "edges",
                 checked.weight, time_s, session.ranks());
  }
  commit_outputs({out.get()});
  return exit_ok;
}

}  // namespace matchblas::cli
