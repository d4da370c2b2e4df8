#include "matchers/common/phased_run.hpp"

namespace matchblas {

PhaseReport phase_report(const RomaRun& run) {
  PhaseReport r;
  r.columns = {{"flips", 14}, {"scanned", 14},   {"weight", 18},   {"seconds", 12},
               {"kernel", 8}, {"past-bound", 14}, {"fallbacks", 10}};
  r.rows.push_back({std::nullopt, {"-", "-", cell_g(run.start_weight), cell_f(run.start_seconds), "-", "-", "-"}});
  for (const RomaPhase& p : run.phases)
    r.rows.push_back({p.phase,
                      {std::to_string(p.flips), cell_count(p.scanned), cell_g(p.weight), cell_f(p.seconds),
                       p.kernel.empty() ? "-" : p.kernel, cell_count(p.past_bound), cell_count(p.fallback_flips)}});
  return r;
}

}  // namespace matchblas
