// The command table and the help generated from it; see command_table.hpp.
#include "apps/command_table.hpp"

#include <algorithm>

#include "apps/commands.hpp"
#include "apps/exit_status.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas::cli {

namespace {

// The options every algorithm command takes (besides the registry's).
std::vector<CommandOption> algorithm_options(bool gpu) {
  std::vector<CommandOption> o = {
      {"algo", "NAME", "the algorithm (below; matchblas list shows where each can run)"},
      {"threads", "T", "CPU threads (0, the default: every core; at most 4 x the cores)"}};
  if (gpu) {
    o.push_back({"device", "cpu|gpu",
                 "gpu: run NAME's GPU twin (handshake -> handshake-gpu); a GPU algorithm with cpu is a usage error"});
    o.push_back({"gpu", "ID", "the GPU a GPU algorithm runs on (default 0)"});
  }
  return o;
}

// match and bmatch: the GPUs of a GPU entry over MPI ranks.
const CommandOption gpus_option = {
    "gpus", "ID,ID,...",
    "under mpirun, suitor-gpu and b-suitor-gpu: the GPUs of the ranks, by their rank on the node r (the (r mod "
    "k)-th of the k ids; default: the node's GPUs in turn)"};

const std::vector<CommandOption> progress_options = {
    {"quiet", "", "no progress on standard error"},
    {"verbose", "", "a line per step (read, graph, run, check) with its time, on standard error"}};

std::vector<CommandOption> join(std::vector<CommandOption> a, const std::vector<CommandOption>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Command> make_table() {
  std::vector<Command> t;
  t.push_back({"match", "FILE", "a matching of the graph of a Matrix Market file, validated",
               {"FILE: .mtx or .mtx.gz, or - for standard input. A square coordinate matrix is a general graph",
                "(weight |a_ij|, symmetrised by max, diagonal ignored), a rectangular one the bipartite view,",
                "an array or complete coordinate file a complete graph (--view).",
                "Under mpirun -np P: ld-mpi-* on P ranks; suitor-gpu over the P ranks, a GPU each."},
               join(join(algorithm_options(true),
                         {{"out", "FILE", "write the mate array: one line per vertex, its 0-based mate or -1 (- : stdout)"},
                          {"json", "", "one JSON object on standard output (docs/JSON.md)"},
                          {"view", "auto|general|bipartite|complete", "how the matrix becomes a graph (default auto)"},
                          {"precision", "float|double", "the weights' type (default double)"},
                          {"gto", "", "also compute the optimum (exact) and report the gap to it"},
                          {"seed", "S", "the seed of a randomised algorithm (default 1; only those that use one)"},
                          {"partition", "blocks|spread",
                           "ld-mpi-*: how the ranks share the vertices: blocks of ids balanced by entries and "
                           "vertices (default), or spread: renumbered pseudo-randomly, equal blocks (for graphs "
                           "whose ids crowd the heavy vertices together); suitor-gpu over ranks: blocks"},
                          gpus_option}),
                    progress_options),
               Problem::matching, command_match});
  t.push_back({"bmatch", "FILE", "a b-matching (each vertex v in at most b(v) edges), validated",
               {"--b K for every vertex, or --b-file F with one b(v) per line (v = 0, 1, ...).",
                "Under mpirun -np P, b-suitor-gpu runs over the P ranks, a GPU each, each rank reading its part."},
               join(join(algorithm_options(true),
                         {{"b", "K", "b(v) = K for every vertex"},
                          {"b-file", "F", "one b(v) per line (- : standard input)"},
                          {"out", "FILE", "write the edges, one 'u v' line each, 0-based, u < v (- : stdout)"},
                          {"view", "auto|general|bipartite", "how the matrix becomes a graph (default auto)"},
                          {"precision", "float|double",
                           "the weights' type (default double; float: b-suitor-gpu compares offers as packed words)"},
                          {"json", "", "one JSON object on standard output (docs/JSON.md)"},
                          gpus_option}),
                    progress_options),
               Problem::b_matching, command_bmatch});
  t.push_back({"marry", "FILE", "the man-optimal stable matching of a stable marriage instance, checked",
               {"FILE: 'stable-marriage MEN WOMEN', then each man's list of women, best first, then each",
                "woman's list of men (datasets/marriage.hpp); marriage-gen writes such instances."},
               join(join(algorithm_options(true),
                         {{"out", "FILE", "write each man's wife, one line per man, 0-based or -1 (- : stdout)"},
                          {"json", "", "one JSON object on standard output (docs/JSON.md)"}}),
                    progress_options),
               Problem::marriage, command_marry});
  t.push_back({"perm", "FILE", "the diagonal pre-pass of sparse solvers (MC64's jobs) on an m x n matrix",
               {"Jobs: 1 maximum cardinality, 2-3 bottleneck (the largest smallest |a_ij|), 4 maximum sum of",
                "|a_ij|, 5 maximum product with log scalings; 0 none: the identity permutation, no matching.",
                "Default: 5, or 1 for a pattern file.",
                "A structurally singular matrix gives a maximum partial matching and a warning (status 0).",
                "All output files are written together at the end, or none."},
               join(join(algorithm_options(true),
                         {{"job", "J", "MC64's job 1-5, or 0 (none: the identity permutation); instead of --algo"},
                          {"out", "PERM", "perm[i] + 1 per row: the column of A that becomes column i (MC64's CPERM)"},
                          {"scales-out", "S", "job 5's log scalings: 'r I VALUE' per row, 'c J VALUE' per column"},
                          {"scaled-out", "B.mtx", "A Q, scaled when job 5 ran (square matrices)"},
                          {"json", "", "one JSON object on standard output (docs/JSON.md)"}}),
                    progress_options),
               Problem::bipartite, command_perm});
  t.push_back({"cluster", "FILE", "communities of the graph of a square Matrix Market file (Louvain), checked",
               {"The graph: vertex i = row i, w(u,v) = max(a_uv, a_vu) as given (1 for a pattern file; a negative",
                "value is refused), the diagonal ignored. Reports the modularity Q = sum e_c/m - gamma (a_c/2m)^2."},
               join(join(algorithm_options(false),
                         {{"out", "FILE", "write the communities: one line per vertex, its community 0..k-1 (- : stdout)"},
                          {"levels-out", "FILE",
                           "write the hierarchy: 'LEVEL VERTEX COMMUNITY' per line, level 0 the input's vertices"},
                          {"json", "", "one JSON object on standard output (docs/JSON.md)"}}),
                    progress_options),
               Problem::community, command_cluster});
  std::vector<std::string> kinds = {"KIND (N means):"};
  for (const GeneratorKindHelp& k : generator_help()) kinds.push_back("  " + k.name + ": " + k.size);
  t.push_back({"gen", "KIND N", "write a generated graph as Matrix Market (to standard output without --out)",
               kinds,
               {{"seed", "S", "the generator's seed (default 1)"},
                {"out", "FILE.mtx", "the output file (.gz: gzip; - : standard output)"},
                {"edge-factor", "F", "edges per vertex of er and rmat; k of knn (default 16)"},
                {"ties", "K", "draw every weight from K values (default 0: continuous)"}},
               std::nullopt, command_gen});
  t.push_back({"marriage-gen", "easy|hard N", "write a stable marriage instance",
               {"easy: each man ranks about (1 + eps) ln N women at random; hard: identical lists",
                "(N^2 entries a side). The instances of Manne, Naim, Lerring and Halappanavar, CSC 2016."},
               {{"eps", "E", "easy: the lists' length factor (default 0.1)"},
                {"seed", "S", "the generator's seed (default 1)"},
                {"out", "FILE", "the output file (- : standard output, the default)"}},
               std::nullopt, command_marriage_gen});
  t.push_back({"eval", "PATH...", "run matchers over a matrix collection: rows, a summary and pictures",
               {"PATH: a directory (searched for .mtx and .mtx.gz), a manifest .tsv with a 'file' column, or a",
                "file. Each (matrix, algorithm, repetition) is one child process: a crash or a timeout costs one",
                "row. DIR gets runs.jsonl, runs.csv, summary.md and pictures (python3 with matplotlib).",
                "Community detection: --algos louvain,louvain-omp or --family community (modularity per row)."},
               {{"algos", "a,b", "these algorithms, each with its options: roma-sparse:start=gpa"},
                {"family", "NAME", "every matcher of matchers/NAME/ (community: the Louvain entries)"},
                {"device", "cpu|gpu", "every available matcher on this device (default cpu)"},
                {"gpu", "ID", "the GPU of the GPU matchers (default 0)"},
                {"threads", "T", "CPU threads of each run"},
                {"reps", "R", "repetitions of each run (default 1)"},
                {"timeout", "S", "seconds a run may take (default 600)"},
                {"exact", "", "also the optimum and each row's gap to it (cached by content)"},
                {"out", "DIR", "the results folder (default matchblas-eval)"},
                {"resume", "", "continue DIR: run only what its runs.jsonl lacks"},
                {"baseline", "NAME", "the speed-up pictures' reference (default greedy)"},
                {"no-plots", "", "no pictures"},
                {"cache", "DIR", "the optimum cache (default ~/.cache/matchblas/optimum); read without LEMON"},
                {"quiet", "", "no progress on standard error"},
                {"verbose", "", "a line per run on standard error, also when it is not a terminal"}},
               std::nullopt, command_eval});
  t.push_back({"list", "", "the algorithms: problem, device, guarantee, availability here (--long: and sources)",
               {"One row per algorithm; --long adds its graphs, twin, summary, source and options."},
               {{"long", "", "each algorithm's graphs, twin, summary, source, options, and why it cannot run here"},
                {"json", "", "one JSON object on standard output (docs/JSON.md)"}},
               std::nullopt, command_list});
  t.push_back({"demo", "", "generate graphs, run every available algorithm, print weight, GTO and time",
               {},
               {{"n", "N", "vertices of the generated graphs (default 4096)"},
                {"seed", "S", "the generators' seed (default 1)"},
                {"threads", "T", "CPU threads (0, the default: every core)"}},
               std::nullopt, command_demo});
  return t;
}

std::string option_form(const CommandOption& o) {
  return "--" + o.name + (o.value.empty() ? "" : " " + o.value);
}

// The registry options of `problem`'s algorithms: one entry per spec (an
// option whose spec differs between algorithms, roma's --start and
// roma-sparse's, gets one each), with the algorithms that take it.
void print_algorithm_options(std::FILE* out, Problem problem) {
  const auto same_spec = [](const OptionSpec& a, const OptionSpec& b) {
    return a.name == b.name && a.type == b.type && a.fallback == b.fallback && a.words == b.words && a.lo == b.lo &&
           a.hi == b.hi;
  };
  std::vector<const OptionSpec*> seen;
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != problem) continue;
    for (const OptionSpec& s : m.options) {
      if (std::any_of(seen.begin(), seen.end(), [&](const OptionSpec* t) { return same_spec(*t, s); })) continue;
      seen.push_back(&s);
      std::string form = "--" + s.name;
      switch (s.type) {
        case OptionSpec::Type::flag: break;
        case OptionSpec::Type::word: {
          std::string words;
          for (const std::string& w : s.words) words += (words.empty() ? "" : "|") + w;
          form += " " + words;
          break;
        }
        case OptionSpec::Type::integer:
          // appended piece by piece (GCC 12 warns, wrongly, on " " + std::string&&)
          form += ' ';
          form += std::to_string(std::int64_t(s.lo));
          form += "..";
          form += std::to_string(std::int64_t(s.hi));
          break;
        case OptionSpec::Type::real: form += " X"; break;
        case OptionSpec::Type::bytes: form += " BYTES"; break;
      }
      std::vector<std::string> names;
      for (const MatcherInfo& t : matchers())
        if (const OptionSpec* ts = t.option(s.name); t.problem == problem && ts && same_spec(*ts, s))
          names.push_back(t.name);
      std::string list;
      for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
      std::fprintf(out, "  %s\n      %s%s (%s)\n", form.c_str(), s.help.c_str(),
                   s.fallback.empty() ? "" : ("; default " + s.fallback).c_str(), list.c_str());
    }
  }
}

// `problem`'s algorithms with their sources (COMMAND --help).
void print_algorithms(std::FILE* out, Problem problem) {
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != problem) continue;
    const std::optional<std::string> why = unavailable_here(m);
    std::fprintf(out, "  %-18s %-15s %-11s %s%s\n", m.name.c_str(), to_string(m.problem).c_str(),
                 m.guarantee.c_str(), m.summary.c_str(), why ? (" [unavailable: " + *why + "]").c_str() : "");
    std::fprintf(out, "  %-18s source: %s\n", "", m.reference.c_str());
  }
}

// The options of `matchblas --help`: those most commands share.
const std::vector<CommandOption> common_options = {
    {"algo", "NAME", "the algorithm of match, bmatch, marry and perm (names: matchblas list)"},
    {"out", "FILE", "the command's output file (- : standard output)"},
    {"json", "", "one JSON object on standard output (docs/JSON.md)"},
    {"threads", "T", "CPU threads (0, the default: every core)"},
    {"device", "cpu|gpu", "gpu: the algorithm's GPU twin (suitor -> suitor-gpu)"},
    {"quiet", "", "no progress on standard error"},
    {"verbose", "", "a line per step with its time on standard error"}};

const char* exit_text =
    "exit status: 0 done; 1 bad input or a failure at run time (one line on stderr, no output file);\n"
    "             2 a bad command line (unknown or repeated option, bad value, option the algorithm does\n"
    "             not take, conflicting options)\n";

}  // namespace

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = make_table();
  return table;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : command_table())
    if (c.name == name) return &c;
  return nullptr;
}

Args parse_command_line(const Command& c, int argc, char** argv) {
  std::set<std::string> valued, flags;
  for (const CommandOption& o : c.options) (o.value.empty() ? flags : valued).insert(o.name);
  if (c.problem)
    for (const MatcherInfo& m : matchers())
      if (m.problem == *c.problem)
        for (const OptionSpec& s : m.options) (s.type == OptionSpec::Type::flag ? flags : valued).insert(s.name);
  return Args(argc, argv, 2, valued, flags);
}

void print_help(std::FILE* out) {
  std::fprintf(out,
               "matchblas: weighted matchings of graphs and sparse matrices\n\n"
               "usage: matchblas COMMAND [ARGUMENTS] [OPTIONS]\n"
               "       matchblas COMMAND --help     the command's options, and its algorithms with their sources\n"
               "       matchblas --version          version, git revision and build options\n\n"
               "commands:\n");
  for (const Command& c : command_table())
    std::fprintf(out, "  %-13s %-12s %s\n", c.name.c_str(), c.arguments.c_str(), c.summary.c_str());
  std::fprintf(out, "\ncommon options (matchblas COMMAND --help lists all of a command's):\n");
  for (const CommandOption& o : common_options)
    std::fprintf(out, "  %-20s %s\n", option_form(o).c_str(), o.help.c_str());
  std::fprintf(out,
               "\nFILE may be - (standard input) and --out FILE may be - (standard output) everywhere;\n"
               "inputs may be gzip. Options are --name VALUE or --name=VALUE, each at most once.\n\n"
               "algorithms: matchblas list (matchblas list --long: with their sources and options)\n\n%s",
               exit_text);
}

void print_command_help(const Command& c, std::FILE* out) {
  std::string synopsis = "matchblas " + c.name + (c.arguments.empty() ? "" : " " + c.arguments);
  if (c.problem) synopsis += " --algo NAME";
  std::fprintf(out, "usage: %s [options]\n\n%s\n", synopsis.c_str(), c.summary.c_str());
  for (const std::string& line : c.details) std::fprintf(out, "%s\n", line.c_str());
  std::fprintf(out, "\noptions:\n");
  for (const CommandOption& o : c.options) {
    const std::string form = option_form(o);
    if (form.size() > 36) std::fprintf(out, "  %s\n  %-36s %s\n", form.c_str(), "", o.help.c_str());
    else std::fprintf(out, "  %-36s %s\n", form.c_str(), o.help.c_str());
  }
  std::fprintf(out, "  %-36s %s\n", "--help", "this text");
  if (c.problem) {
    std::fprintf(out, "\nalgorithms (NAME, problem, guarantee, what it does, where it comes from):\n");
    print_algorithms(out, *c.problem);
    bool any = false;
    for (const MatcherInfo& m : matchers()) any = any || (m.problem == *c.problem && !m.options.empty());
    if (any) {
      std::fprintf(out, "\nthe algorithms' own options (one an algorithm does not take is a usage error):\n");
      print_algorithm_options(out, *c.problem);
    }
  }
  std::fprintf(out, "\n%s", exit_text);
}

}  // namespace matchblas::cli
