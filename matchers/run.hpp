// Running a registered matcher and reporting on it: time, validation,
// weight, cardinality, and the gap to optimality (GTO) when the optimum is
// known. Shared by the CLI, the demo and the benchmarks.
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
  std::optional<double> gto;    // (optimum - weight) / optimum, in percent
};

struct MatchRun {
  Matching matching;
  MatchReport report;
};

// Runs m on g (throws invalid_input when m does not accept g's kind, or
// error when m is unavailable in this build), then validates the result.
MatchRun run_matcher(const MatcherInfo& m, GraphRef g, GraphKind kind, const MatchOptions& opt);

// The gap to optimality in percent; 0 when the optimum is 0.
double gto_percent(double weight, double optimum);


}  // namespace matchblas
