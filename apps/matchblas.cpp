// matchblas: the command line tool.
//   matchblas match FILE --algo NAME [--out FILE] [--seed S] [--threads T] [--json]
//                   [--device gpu --gpu ID --threads-per-block B --vertices-per-warp V --variant X] ...
//   matchblas gen KIND N [--seed S] [--out FILE.mtx] ...
//   matchblas bmatch FILE --algo NAME (--b K | --b-file F) [--gpu ID] ...
//   matchblas marry FILE --algo NAME ... / matchblas marriage-gen easy|hard N ...
//   matchblas list [--json]
//   matchblas demo [--n N] [--seed S] [--threads T]
//   matchblas [COMMAND] --help
// Exit status: 0 done; 1 bad input file or a runtime failure (one line on
// stderr, no output file); 2 a bad command line (unknown command, option,
// matcher, view, precision or graph kind; a bad option value).
#include <omp.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

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
      "      [--device cpu|gpu] [--gpu ID] [--threads-per-block B] [--vertices-per-warp V]\n"
      "      [--variant nosync|synclb|syncnolb|hybrid] [--search auto|champions|walk]\n"
      "      --device gpu runs the GPU twin of NAME (handshake -> handshake-gpu) on GPU ID (default 0);\n"
      "      there --threads T is about how many GPU threads each kernel launches (0: one per item;\n"
      "      the result does not depend on it); the last four shape suitor-gpu (defaults 128, 8, nosync, auto)\n"
      "      [--phases P] [--min-gain G] [--start neighbour|half|shuffled|random|greedy|assignment] [--phase-report]\n"
      "      [--exact-auction] [--scan all|changed]\n"
      "      roma and rama (complete graphs): at most P phases (default 8), flip only when the gain\n"
      "      exceeds G (default 1e-5), from the given start matching (default neighbour; assignment: an\n"
      "      auction stopped early for speed, --exact-auction runs it to the end);\n"
      "      --scan changed (roma, roma-gpu) augments, after phase 0, only the pairs whose edge changed\n"
      "      in the previous phase (default all: every vertex, every phase, as seed 000 Alg. 3);\n"
      "      --phase-report prints flips, augmentations (scanned), weight and seconds per phase\n"
      "      (the start's weight and seconds too), and for roma-gpu each phase's kernel, the edges\n"
      "      its scans found past the gain bound and the flips made with a pair's later candidate\n"
      "      after its better ones were refused (fallbacks)\n"
      "      [--kernel auto|cluster|stream|queued] [--cluster C] [--blocks-per-sm B] [--bf16]\n"
      "      roma-gpu: the phase kernel (default auto: cluster for phase 0 and for scans that gather\n"
      "      much on rows that do not fit L2, else the stream kernel, its gathers queued 32 at a time\n"
      "      except with --bf16 and, from phase 2 on, after scans that passed the bound on most\n"
      "      columns); the cluster kernel's C blocks share a\n"
      "      matched pair's rows (1-16; default: chosen to fill the GPU), B resident blocks per SM (1 or\n"
      "      2, default 2); --bf16 reads a bf16 copy of float weights\n"
      "  matchblas gen KIND N [--seed S] [--out FILE.mtx] [--edge-factor F] [--ties K]\n"
      "      write a generated graph (to stdout without --out); KIND is one of\n");
  for (const GeneratorKindHelp& k : generator_help()) std::fprintf(out, "        %-22s N = %s\n", k.name.c_str(), k.size.c_str());
  std::fprintf(out,
      "  matchblas bmatch FILE --algo b-greedy|b-suitor|b-suitor-omp|b-suitor-gpu (--b K | --b-file F)\n"
      "                   [--out FILE] [--threads T] [--gpu ID] [--view auto|general|bipartite] [--json]\n"
      "      a b-matching (each vertex v in at most b(v) edges; --b-file: one b(v) per line);\n"
      "      --out writes the edges, one 'u v' line each; --gpu ID: b-suitor-gpu's GPU (default 0)\n"
      "  matchblas marry FILE --algo gale-shapley|mcvitie-wilson|gale-shapley-omp|mcvitie-wilson-omp|mcvitie-wilson-gpu\n"
      "                  [--out FILE] [--threads T] [--gpu ID] [--json]\n"
      "      the man-optimal stable matching of a stable marriage instance, checked for stability\n"
      "  matchblas marriage-gen easy|hard N [--eps E] [--seed S] [--out FILE]\n"
      "      Paper IV's instances: easy (each man ranks (1+eps) ln N women), hard (identical lists)\n"
      "  matchblas list [--json]      list the matchers\n"
      "  matchblas demo [--n N] [--seed S] [--threads T]\n"
      "      generate graphs, run every available matcher, print weight, GTO and time\n"
      "  matchblas [COMMAND] --help\n"
      "--threads T: 0 (default) uses every core; at most 4 x the cores\n"
      "exit status: 0 done, 1 bad input or a failure, 2 bad command line\n"
      "\nmatchers:\n");
  for (const MatcherInfo& m : matchers())
    std::fprintf(out, "  %-14s %-6s %-28s %s%s\n", m.name.c_str(), m.guarantee.c_str(),
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
  if (command != "match" && command != "gen" && command != "list" && command != "demo" && command != "bmatch" &&
      command != "marry" && command != "marriage-gen")
    throw usage_error("unknown command '" + command + "' (match, bmatch, marry, gen, marriage-gen, list, demo, --help)");
  for (int i = 2; i < argc; ++i)
    if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
      print_help(stdout);
      return 0;
    }
  if (command == "match") {
    Args a(argc, argv, 2,
           {"algo", "out", "seed", "threads", "view", "precision", "device", "gpu", "threads-per-block",
            "vertices-per-warp", "variant", "search", "phases", "min-gain", "start", "scan", "kernel",
            "cluster", "blocks-per-sm"},
           {"json", "gto", "phase-report", "bf16", "exact-auction"});
    return command_match(a);
  }
  if (command == "bmatch")
    return command_bmatch(Args(argc, argv, 2, {"algo", "b", "b-file", "out", "threads", "view", "gpu"}, {"json"}));
  if (command == "marry") return command_marry(Args(argc, argv, 2, {"algo", "out", "threads", "gpu"}, {"json"}));
  if (command == "marriage-gen") return command_marriage_gen(Args(argc, argv, 2, {"eps", "seed", "out"}, {}));
  if (command == "gen") return command_gen(Args(argc, argv, 2, {"seed", "out", "edge-factor", "ties"}, {}));
  if (command == "list") return command_list(Args(argc, argv, 2, {}, {"json"}));
  return command_demo(Args(argc, argv, 2, {"n", "seed", "threads"}, {}));
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
