// The stable marriage algorithms' registry entries (matchers/registry.hpp):
// Gale-Shapley and McVitie-Wilson, sequential, OpenMP and GPU, all
// returning the man-optimal stable matching. A new one is one entry here.
#include "matchers/registry.hpp"

#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

template <class F>
MatcherInfo marriage(std::string name, Device device, std::string summary, std::string twin, F f) {
  MatcherInfo m;
  m.name = std::move(name);
  m.problem = Problem::marriage;
  m.device = device;
  m.guarantee = "man-optimal";
  m.summary = std::move(summary);
  m.twin = std::move(twin);
  m.run = MarriageRunner(f);
  if (device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

}  // namespace

void add_marriage(std::vector<MatcherInfo>& r) {
  r.push_back(marriage("gale-shapley", Device::cpu, "Gale-Shapley with a queue of free men",
                       "", [](const RankedLists& p, const RunOptions&) { return gale_shapley(p); }));
  r.push_back(marriage("mcvitie-wilson", Device::cpu, "McVitie-Wilson: the same proposals with a stack",
                       "mcvitie-wilson-gpu", [](const RankedLists& p, const RunOptions&) { return mcvitie_wilson(p); }));
  r.push_back(threaded(marriage("gale-shapley-omp", Device::cpu,
                       "Gale-Shapley in rounds, proposals in parallel by compare-and-swap", "",
                       [](const RankedLists& p, const RunOptions& o) { return gale_shapley_omp(p, o.threads); })));
  r.push_back(threaded(marriage("mcvitie-wilson-omp", Device::cpu,
                       "McVitie-Wilson, men in parallel, a woman's suitor word changed by CAS", "",
                       [](const RankedLists& p, const RunOptions& o) { return mcvitie_wilson_omp(p, o.threads); })));
  r.push_back(marriage("mcvitie-wilson-gpu", Device::gpu,
                       "McVitie-Wilson on the GPU, a thread per man, atomicMin on suitor words",
                       "mcvitie-wilson",
                       [](const RankedLists& p, const RunOptions& o) { return mcvitie_wilson_gpu(p, o.gpu); }));
  // Memory beyond the input (MatcherInfo::memory), bytes per vertex and per
  // edge: peaks measured by bench/bench_memory, fitted and rounded up by
  // about 20% (bench/RESULTS.md, "Memory estimates"). Vertices: men +
  // women; edges: list entries. GPU entries: host
  // memory, their CPU twin's figures (not measured: no GPU on the
  // development machine).
  set_memory(r, {{"gale-shapley", 20, 0}, {"mcvitie-wilson", 20, 0}, {"gale-shapley-omp", 24, 0},
                 {"mcvitie-wilson-omp", 20, 0}, {"mcvitie-wilson-gpu", 20, 0}});

  using namespace references;
  cite(r, {{"gale-shapley", gale_shapley_1962 + "; " + manne_marriage + ", Alg. 1"},
           {"mcvitie-wilson", mcvitie_wilson_1971 + "; " + manne_marriage},
           {"gale-shapley-omp", manne_marriage + ", sec. 4"},
           {"mcvitie-wilson-omp", manne_marriage + ", sec. 4"},
           {"mcvitie-wilson-gpu", manne_marriage + ", sec. 4"}});
}

}  // namespace matchblas::registry_detail
