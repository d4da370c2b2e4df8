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

// Throws error ("matcher 'exact' needs LEMON ...") when m cannot run in
// this build; the one place that turns MatcherInfo::unavailable into an error.
void require_available(const MatcherInfo& m);

// Runs m on g (throws invalid_input when m does not accept g's kind, or
// error when m is unavailable in this build), then validates the result.
MatchRun run_matcher(const MatcherInfo& m, GraphRef g, GraphKind kind, const MatchOptions& opt);

// The gap to optimality in percent; 0 when the optimum is 0.
double gto_percent(double weight, double optimum);

}  // namespace matchblas
