// The command line of the commands that run a registered algorithm (match,
// bmatch, marry): which options to accept (the command's own plus every
// option of the problem's algorithms, from the registry), and the chosen
// algorithm with its options and run settings, checked before any input is
// read (usage errors, status 2).
#pragma once
#include <set>
#include <string>

#include "apps/args.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

// Parses argv[2..) for a command of `problem` whose own options are
// `valued` and `flags`; adds --device, --gpu and every option of the
// problem's registry entries.
Args algorithm_args(int argc, char** argv, Problem problem, std::set<std::string> valued,
                    std::set<std::string> flags);

struct ChosenAlgorithm {
  const MatcherInfo* info = nullptr;
  RunOptions run;  // seed, threads (applied to OpenMP for CPU entries), GPU, the entry's options
};

// The algorithm --algo names (its twin when --device names the other
// device), its options checked against its registry entry (one it does not
// take is a usage error naming the algorithms that do), --gpu only for GPU
// entries, --threads applied, and whether it can run here (error, status 1).
ChosenAlgorithm choose_algorithm(const Args& a, Problem problem, const std::string& command,
                                 Precision precision = Precision::dual);

// The same for an entry the command chose itself (perm's --job): its options
// from the command line, --gpu, --threads, availability.
ChosenAlgorithm configure_algorithm(const MatcherInfo& entry, const Args& a, Precision precision = Precision::dual);

}  // namespace matchblas::cli
