// matchblas: the command line tool.
//   matchblas match FILE --algo NAME [--out FILE] [--seed S] [--threads T] [--json]
//                   [--device cpu|gpu] [--gpu ID] [the algorithm's options, from the registry] ...
//   matchblas gen KIND N [--seed S] [--out FILE.mtx] ...
//   matchblas bmatch FILE --algo NAME (--b K | --b-file F) [--gpu ID] ...
//   matchblas marry FILE --algo NAME ... / matchblas marriage-gen easy|hard N ...
//   matchblas eval PATH... [--algos a,b | --family NAME] [--exact] [--out DIR] [--resume] ...
//   matchblas list [--json]
//   matchblas demo [--n N] [--seed S] [--threads T]
//   matchblas [COMMAND] --help
// Exit status: 0 done; 1 bad input file or a runtime failure (one line on
// stderr, no output file); 2 a bad command line (unknown command, option,
// matcher, view, precision or graph kind; a bad option value).
#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "apps/algorithm_args.hpp"
#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "lib/error.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

namespace {

// One entry per algorithm option of the registry: name, type, range or
// words, default, help, and the algorithms that take it. An option whose
// spec differs between algorithms (roma's --start and roma-sparse's) gets
// one entry per spec.
void print_algorithm_options(std::FILE* out) {
  const auto same_spec = [](const OptionSpec& a, const OptionSpec& b) {
    return a.name == b.name && a.type == b.type && a.fallback == b.fallback && a.words == b.words && a.lo == b.lo &&
           a.hi == b.hi;
  };
  std::vector<const OptionSpec*> seen;
  for (const MatcherInfo& m : matchers())
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
          form += " " + std::to_string(std::int64_t(s.lo)) + ".." + std::to_string(std::int64_t(s.hi));
          break;
        case OptionSpec::Type::real: form += " X"; break;
      }
      std::vector<std::string> takers;
      for (const MatcherInfo& t : matchers())
        if (const OptionSpec* ts = t.option(s.name); ts && same_spec(*ts, s)) takers.push_back(t.name);
      std::string names;
      for (std::size_t i = 0; i < takers.size(); ++i)
        names += (i == 0 ? "" : i + 1 == takers.size() ? " and " : ", ") + takers[i];
      std::fprintf(out, "  %s\n      %s%s (%s)\n", form.c_str(), s.help.c_str(),
                   s.fallback.empty() ? "" : ("; default " + s.fallback).c_str(), names.c_str());
    }
}

}  // namespace

void print_help(std::FILE* out) {
  std::fprintf(out,
      "matchblas: weighted matchings of graphs and sparse matrices\n"
      "\n"
      "usage:\n"
      "  matchblas match FILE --algo NAME [--out FILE] [--seed S] [--threads T] [--json]\n"
      "                  [--view auto|general|bipartite|complete] [--precision float|double] [--gto]\n"
      "                  [--device cpu|gpu] [--gpu ID] [the algorithm's options, below]\n"
      "      read a Matrix Market file (.mtx or .mtx.gz), run a matcher, validate the result;\n"
      "      --out writes the mate array (one line per vertex: the 0-based mate, or -1);\n"
      "      --gto also computes the optimum (exact) and reports the gap to it;\n"
      "      --device runs NAME's twin on that device (handshake -> handshake-gpu) and --gpu ID\n"
      "      picks the GPU (default 0); for a GPU matcher --threads T is about how many GPU threads\n"
      "      each kernel launches (0: one per item; the result does not depend on it)\n"
      "  matchblas gen KIND N [--seed S] [--out FILE.mtx] [--edge-factor F] [--ties K]\n"
      "      write a generated graph (to stdout without --out); KIND is one of\n");
  for (const GeneratorKindHelp& k : generator_help()) std::fprintf(out, "        %-22s N = %s\n", k.name.c_str(), k.size.c_str());
  std::fprintf(out,
      "  matchblas bmatch FILE --algo NAME (--b K | --b-file F) [--out FILE] [--threads T]\n"
      "                   [--device cpu|gpu] [--gpu ID] [--view auto|general|bipartite] [--json]\n"
      "      a b-matching (each vertex v in at most b(v) edges; --b-file: one b(v) per line);\n"
      "      --out writes the edges, one 'u v' line each\n"
      "  matchblas marry FILE --algo NAME [--out FILE] [--threads T] [--device cpu|gpu] [--gpu ID] [--json]\n"
      "      the man-optimal stable matching of a stable marriage instance, checked for stability\n"
      "  matchblas marriage-gen easy|hard N [--eps E] [--seed S] [--out FILE]\n"
      "      Paper IV's instances: easy (each man ranks (1+eps) ln N women), hard (identical lists)\n"
      "  matchblas eval PATH... [--algos a,b | --family NAME] [--device cpu|gpu] [--threads T] [--reps R]\n"
      "                 [--timeout S] [--exact] [--out DIR] [--resume] [--baseline NAME] [--no-plots] [--cache DIR]\n"
      "      matchers over a matrix collection (directories searched for .mtx and .mtx.gz, manifest .tsv\n"
      "      files with a 'file' column, or files); an algorithm may carry its options: roma-sparse:start=gpa;\n"
      "      each run is a child process (a crash or --timeout S,\n"
      "      default 600, costs one row); DIR (default matchblas-eval) gets runs.csv, runs.jsonl,\n"
      "      summary.md and pictures (python3 with matplotlib); --exact adds the optimum and GTO\n"
      "      (cached by content under --cache, default ~/.cache/matchblas/optimum); --resume continues DIR\n"
      "  matchblas perm FILE [--job J | --algo NAME] [--symmetric] [--out PERM] [--scales-out S]\n"
      "                 [--scaled-out B.mtx] [--threads T] [--json] [the algorithm's options]\n"
      "      the diagonal pre-pass, MC64's jobs: 1 maximum cardinality, 2-3 bottleneck, 4 maximum sum,\n"
      "      5 maximum product with log scalings (default: 5, or 1 for a pattern; 0 none); PERM gets\n"
      "      perm[i] + 1 per row (column perm[i] of A becomes column i: MC64's CPERM), S the scalings\n"
      "      (r I VALUE, c J VALUE: b_ij = a_ij exp(r_i + c_j)), B.mtx the permuted (and scaled) matrix;\n"
      "      --symmetric (job 5): one scaling for a symmetric matrix; structurally singular: a warning\n"
      "  matchblas list [--json]      list the algorithms, their guarantees and options\n"
      "  matchblas demo [--n N] [--seed S] [--threads T]\n"
      "      generate graphs, run every available algorithm, print weight, GTO and time\n"
      "  matchblas [COMMAND] --help\n"
      "--threads T: 0 (default) uses every core; at most 4 x the cores\n"
      "exit status: 0 done, 1 bad input or a failure, 2 bad command line\n"
      "\nalgorithms (NAME; match: matchers, bmatch: b-matching, marry: stable marriage):\n");
  for (const MatcherInfo& m : matchers())
    std::fprintf(out, "  %-18s %-10s %-11s %-28s %s%s\n", m.name.c_str(), to_string(m.problem).c_str(),
                 m.guarantee.c_str(), input_of(m).c_str(),
                 m.summary.c_str(), m.unavailable ? (" [unavailable: " + *m.unavailable + "]").c_str() : "");
  std::fprintf(out, "\nthe algorithms' own options (an option an algorithm does not take is an error):\n");
  print_algorithm_options(out);
}

int run(int argc, char** argv) {
  if (argc < 2) {
    print_help(stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    print_help(stdout);
    return 0;
  }
  if (command != "match" && command != "gen" && command != "list" && command != "demo" && command != "bmatch" &&
      command != "marry" && command != "marriage-gen" && command != "eval" && command != "perm")
    throw usage_error("unknown command '" + command +
                      "' (match, bmatch, marry, perm, gen, marriage-gen, eval, list, demo, --help)");
  for (int i = 2; i < argc; ++i)
    if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
      print_help(stdout);
      return 0;
    }
  if (command == "match")
    return command_match(
        algorithm_args(argc, argv, Problem::matching, {"out", "seed", "view", "precision"}, {"json", "gto"}));
  if (command == "bmatch")
    return command_bmatch(algorithm_args(argc, argv, Problem::b_matching, {"b", "b-file", "out", "view"}, {"json"}));
  if (command == "marry") return command_marry(algorithm_args(argc, argv, Problem::marriage, {"out"}, {"json"}));
  if (command == "marriage-gen") return command_marriage_gen(Args(argc, argv, 2, {"eps", "seed", "out"}, {}));
  if (command == "gen") return command_gen(Args(argc, argv, 2, {"seed", "out", "edge-factor", "ties"}, {}));
  if (command == "eval")
    return command_eval(Args(argc, argv, 2, {"algos", "family", "device", "threads", "reps", "timeout", "out", "baseline", "cache", "gpu"},
                             {"exact", "resume", "no-plots"}));
  if (command == "list") return command_list(Args(argc, argv, 2, {}, {"json"}));
  if (command == "perm")
    return command_perm(algorithm_args(argc, argv, Problem::bipartite, {"job", "out", "scales-out", "scaled-out"}, {"json"}));
  return command_demo(Args(argc, argv, 2, {"n", "seed", "threads"}, {}));
}

}  // namespace matchblas::cli

// Every command's standard output is checked here, once: a result that did
// not reach stdout (a full disk, a closed descriptor, a broken pipe) is a
// failure, exit status 1 with one line on stderr.
// A descriptor 0-2 the caller closed is held by a read-only /dev/null, so that
// no file the tool opens becomes "stdout" and a write to it fails (EBADF).
int main(int argc, char** argv) {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int held = ::open("/dev/null", O_RDONLY);
      if (held >= 0 && held != fd) ::close(held);  // fd was taken meanwhile: nothing to hold
    }
  try {
    const int status = matchblas::cli::run(argc, argv);
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "matchblas: error: cannot write <stdout>: %s\n",
                   errno ? std::strerror(errno) : "write error");
      return 1;
    }
    return status;
  } catch (const matchblas::cli::usage_error& e) {
    std::fprintf(stderr, "matchblas: %s (see matchblas --help)\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "matchblas: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "matchblas: error: %s\n", e.what());
    return 1;
  }
}
