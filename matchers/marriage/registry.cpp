// The stable marriage algorithms' registry entries (matchers/registry.hpp):
// Gale-Shapley and McVitie-Wilson, sequential, OpenMP and GPU, all
// returning the man-optimal stable matching. A new one is one declaration here.
// Memory: bytes per person (men + women) and per list entry beyond the
// lists, fitted to bench/bench_memory's peaks; the GPU entry's host
// memory is its CPU twin's (the same wife and suitor arrays on the host).
#include "matchers/registry.hpp"

#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using namespace references;

// A stable marriage algorithm, f(const RankedLists&, RunOptions).
template <class F>
MatcherInfo marriage(MatcherInfo m, F f) {
  m.problem = Problem::marriage;
  m.guarantee = "man-optimal";
  m.run = MarriageRunner(f);
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

}  // namespace

void add_marriage(std::vector<MatcherInfo>& r) {
  r.push_back(marriage({.name = "gale-shapley",
                        .summary = "Gale-Shapley with a queue of free men",
                        .reference = gale_shapley_1962 + "; " + manne_marriage + ", Alg. 1",
                        .memory = {20, 0}},
                       [](const RankedLists& p, const RunOptions&) { return gale_shapley(p); }));
  r.push_back(marriage({.name = "mcvitie-wilson",
                        .summary = "McVitie-Wilson: the same proposals with a stack",
                        .reference = mcvitie_wilson_1971 + "; " + manne_marriage,
                        .twin = "mcvitie-wilson-gpu",
                        .memory = {20, 0}},
                       [](const RankedLists& p, const RunOptions&) { return mcvitie_wilson(p); }));
  r.push_back(marriage({.name = "gale-shapley-omp",
                        .threaded = true,
                        .summary = "Gale-Shapley in rounds, proposals in parallel by compare-and-swap",
                        .reference = manne_marriage + ", sec. 4",
                        .memory = {24, 0}},
                       [](const RankedLists& p, const RunOptions& o) { return gale_shapley_omp(p, o.threads); }));
  r.push_back(marriage({.name = "mcvitie-wilson-omp",
                        .threaded = true,
                        .summary = "McVitie-Wilson, men in parallel, a woman's suitor word changed by CAS",
                        .reference = manne_marriage + ", sec. 4",
                        .memory = {20, 0}},
                       [](const RankedLists& p, const RunOptions& o) { return mcvitie_wilson_omp(p, o.threads); }));
  r.push_back(marriage({.name = "mcvitie-wilson-gpu",
                        .device = Device::gpu,
                        .summary = "McVitie-Wilson on the GPU, a thread per man, atomicMin on suitor words",
                        .reference = manne_marriage + ", sec. 4",
                        .twin = "mcvitie-wilson",
                        .memory = {20, 0}},
                       [](const RankedLists& p, const RunOptions& o) { return mcvitie_wilson_gpu(p, o.gpu); }));
}

}  // namespace matchblas::registry_detail
