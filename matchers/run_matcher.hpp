// Running a registered matcher and reporting on it: time, validation,
// weight and cardinality. The gap to optimality (GTO) is the caller's: it
// knows whether an optimum exists (gto_percent below). Shared by the CLI, the
// demo and the benchmarks.
#pragma once
#include <optional>
#include <string>

#include "matchers/registry.hpp"

namespace matchblas {

struct MatchReport {
  std::string algo;
  vertex_t n = 0;
  offset_t edges = 0;
  double weight = 0;
  offset_t cardinality = 0;
  double time_s = 0;            // the matcher alone (no I/O, no validation)
  bool valid = false;
  std::string violation;        // why not valid
};

struct MatchRun {
  Matching matching;
  MatchReport report;
};

// Why m cannot run here: MatcherInfo::unavailable (this build lacks what it
// needs), or, for a GPU matcher, that this machine has no usable GPU;
// nullopt when it can run.
std::optional<std::string> unavailable_here(const MatcherInfo& m);

// Throws error ("matcher 'exact' is unavailable: needs LEMON ...") when
// unavailable_here(m) says why; the one place that turns it into an error.
void require_available(const MatcherInfo& m);

// Runs m on g (throws invalid_input when m does not accept g's kind, or
// error when m is unavailable in this build), then validates the result.
MatchRun run_matcher(const MatcherInfo& m, GraphRef g, GraphKind kind, const RunOptions& opt);

// The gap to optimality in percent; 0 when the optimum is 0.
double gto_percent(double weight, double optimum);

}  // namespace matchblas
