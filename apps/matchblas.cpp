// matchblas: the command line tool.
//   matchblas match FILE --algo NAME [--out FILE] [--seed S] [--threads T] [--json] ...
//   matchblas gen KIND N [--seed S] [--out FILE.mtx] ...
//   matchblas list [--json]
//   matchblas demo [--n N] [--seed S]
// Bad input: one line on stderr, exit status 1 (2 for a bad command line),
// and no output file.
#include <omp.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "apps/args.hpp"
#include "apps/commands.hpp"
#include "lib/error.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

void print_help(std::FILE* out) {
  std::fprintf(out,
      "matchblas: weighted matchings of graphs and sparse matrices\n"
      "\n"
      "usage:\n"
      "  matchblas match FILE --algo NAME [--out FILE] [--seed S] [--threads T] [--json]\n"
      "                  [--view auto|general|bipartite|complete] [--precision float|double] [--gto]\n"
      "      read a Matrix Market file (.mtx or .mtx.gz), run a matcher, validate the result;\n"
      "      --out writes the mate array (one line per vertex: the 0-based mate, or -1);\n"
      "      --gto also computes the optimum (exact) and reports the gap to it\n"
      "  matchblas gen KIND N [--seed S] [--out FILE.mtx] [--edge-factor F] [--ties K]\n"
      "      write a generated graph (to stdout without --out); KIND is one of\n");
  for (const GeneratorKindHelp& k : generator_help()) std::fprintf(out, "        %-22s N = %s\n", k.name.c_str(), k.size.c_str());
  std::fprintf(out,
      "  matchblas list [--json]      list the matchers\n"
      "  matchblas demo [--n N] [--seed S]\n"
      "      generate graphs, run every available matcher, print weight, GTO and time\n"
      "  matchblas --help\n"
      "\nmatchers:\n");
  for (const MatcherInfo& m : matchers())
    std::fprintf(out, "  %-10s %-6s %-28s %s%s\n", m.name.c_str(), m.guarantee.c_str(),
                 kinds_string(m.kinds).c_str(), m.summary.c_str(),
                 m.unavailable ? (" [unavailable: " + *m.unavailable + "]").c_str() : "");
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
  if (command == "match") {
    Args a(argc, argv, 2, {"algo", "out", "seed", "threads", "view", "precision", "gpu"}, {"json", "gto"});
    return command_match(a);
  }
  if (command == "gen") {
    Args a(argc, argv, 2, {"seed", "out", "edge-factor", "ties", "precision"}, {});
    return command_gen(a);
  }
  if (command == "list") return command_list(Args(argc, argv, 2, {}, {"json"}));
  if (command == "demo") return command_demo(Args(argc, argv, 2, {"n", "seed", "threads"}, {}));
  throw usage_error("unknown command '" + command + "' (match, gen, list, demo, --help)");
}

}  // namespace matchblas::cli

int main(int argc, char** argv) {
  try {
    return matchblas::cli::run(argc, argv);
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
