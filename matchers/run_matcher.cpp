// Running a matcher with timing and validation; see run_matcher.hpp.
#include "matchers/run_matcher.hpp"

#include <chrono>

#include "lib/error.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas {

double gto_percent(double weight, double optimum) {
  return optimum == 0 ? 0.0 : 100.0 * (optimum - weight) / optimum;
}

std::optional<std::string> unavailable_here(const MatcherInfo& m) {
  if (m.unavailable) return m.unavailable;
  if (m.device == Device::gpu && gpu::device_count() == 0) return "needs a CUDA GPU: " + gpu::unavailable_reason();
  if (m.device == Device::distributed)
    return "runs on MPI ranks, only under mpirun: mpirun -np P matchblas match FILE --algo " + m.name;
  return std::nullopt;
}

void require_available(const MatcherInfo& m) {
  const std::optional<std::string> reason = unavailable_here(m);
  if (!reason) return;
  std::string why = "matcher '";  // built up with += (GCC 12 warns, wrongly, on "..." + std::string&&)
  why += m.name;
  why += "' is unavailable: ";
  why += *reason;
  throw error(why);
}

MatchRun run_matcher(const MatcherInfo& m, GraphRef g, GraphKind kind, const RunOptions& opt) {
  require_available(m);
  if (!m.accepts(kind))
    throw invalid_input("matcher '" + m.name + "' does not accept " + kinds_string(kind) +
                        " graphs (it takes: " + kinds_string(m.kinds) + ")");
  MatchRun r;
  const auto start = std::chrono::steady_clock::now();
  r.matching = run_matching(m, g, opt);
  const auto stop = std::chrono::steady_clock::now();
  MatchReport& rep = r.report;
  rep.algo = m.name;
  rep.n = num_vertices(g);
  rep.edges = num_edges(g);
  rep.time_s = std::chrono::duration<double>(stop - start).count();
  rep.violation = std::visit([&](const auto* graph) { return matching_violation(*graph, r.matching); }, g);
  rep.valid = rep.violation.empty();
  if (rep.valid) {
    rep.weight = std::visit([&](const auto* graph) { return matching_weight(*graph, r.matching); }, g);
    rep.cardinality = cardinality(r.matching);
  }
  return r;
}

}  // namespace matchblas
