// The bipartite family's registry entries (matchers/registry.hpp): the
// diagonal pre-pass's jobs, each computing MC64's job of the same number on
// an m-by-n matrix. A new one is one entry here.
#include "matchers/registry.hpp"

#include <chrono>
#include <cmath>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality_omp.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

MatcherInfo job_entry(std::string name, int job, std::string guarantee, std::string summary) {
  MatcherInfo m;
  m.name = std::move(name);
  m.problem = Problem::bipartite;
  m.device = Device::cpu;
  m.job = job;
  m.guarantee = std::move(guarantee);
  m.summary = std::move(summary);
  if (job == 5)
    m.options.push_back({.name = "symmetric",
                         .type = OptionSpec::Type::flag,
                         .help = "a symmetric matrix: one scaling vector for rows and columns (MC64's symmetric variant)"});
  m.run = PrepassRunner([job](const Csr<double>& a, const RunOptions& o) {
    return prepass(a, {.job = job, .symmetric = o.options.specs() && o.options.takes("symmetric") && o.options.flag("symmetric")});
  });
  return m;
}

// Job 1 in parallel; after "cardinality", so that find_prepass_job(1) finds
// the sequential entry. The values are checked as prepass() checks them.
MatcherInfo cardinality_omp_entry() {
  MatcherInfo m;
  m.name = "cardinality-omp";
  m.problem = Problem::bipartite;
  m.device = Device::cpu;
  m.threaded = true;
  m.deterministic = false;
  m.job = 1;
  m.guarantee = "cardinality";
  m.summary =
      "MC64 job 1 in parallel: one-sided Karp-Sipser start by atomic claims, then parallel Pothen-Fan with fairness "
      "and lookahead";
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    const ScopedThreads scope(o.threads);
    MATCHBLAS_EXPECTS(a.weights.size() == a.cols.size(), "cardinality-omp: as many values as entries needed");
    bool finite = true;
#pragma omp parallel for schedule(static) reduction(&& : finite)
    for (std::size_t k = 0; k < a.weights.size(); ++k) finite = finite && std::isfinite(a.weights[k]);
    if (!finite) throw invalid_input("cardinality-omp: the matrix has a value that is not finite");
    PrepassResult r = prepass_result(a, 1, max_cardinality_omp(a));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  });
  return m;
}

// AWPM: job 4's objective, approximately; after max-sum, so that
// find_prepass_job(4) finds the exact entry.
MatcherInfo awpm_entry() {
  MatcherInfo m;
  m.name = "awpm";
  m.problem = Problem::bipartite;
  m.device = Device::cpu;
  m.threaded = true;
  m.job = 4;
  m.guarantee = "approximate";
  m.summary =
      "MC64 job 4 approximately: greedy start, maximum cardinality, then locally dominant weight-increasing "
      "4-cycles";
  m.options = {{.name = "min-gain",
                .type = OptionSpec::Type::real,
                .fallback = "1e-12",
                .words = {},
                .lo = 0,
                .hi = 1,
                .help = "apply a 4-cycle only if it gains more than this times the matching's weight"},
               {.name = "max-rounds",
                .type = OptionSpec::Type::integer,
                .fallback = "100000",
                .words = {},
                .lo = 0,
                .hi = 1e9,
                .help = "at most this many rounds of 4-cycles (0: the start and maximum cardinality only)"}};
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    AwpmResult w = awpm(a, {.min_gain = o.options.real("min-gain"),
                            .max_rounds = o.options.integer("max-rounds"),
                            .threads = o.threads});
    PrepassResult r = prepass_result(a, 4, std::move(w.mates));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  });
  return m;
}

}  // namespace

void add_bipartite(std::vector<MatcherInfo>& r) {
  r.push_back(job_entry("cardinality", 1, "cardinality",
                        "MC64 job 1: maximum cardinality, one-sided Karp-Sipser start then Pothen-Fan augmenting "
                        "paths"));
  r.push_back(cardinality_omp_entry());
  r.push_back(job_entry("bottleneck", 2, "bottleneck",
                        "MC64 jobs 2-3: a maximum matching maximising the smallest |a_ij|, binary search over "
                        "thresholds"));
  r.push_back(job_entry("max-sum", 4, "exact",
                        "MC64 job 4: maximum sum of |a_ij| over the maximum matchings, shortest augmenting paths "
                        "with duals"));
  r.push_back(job_entry("max-product", 5, "exact",
                        "MC64 job 5: maximum product of |a_ij| with log scalings from the duals"));
  r.push_back(awpm_entry());

  using namespace references;
  cite(r, {{"cardinality", pothen_fan + ", sec. 3"},
           {"cardinality-omp", azad_ipdps},
           {"bottleneck", duff_koster_1999 + ", sec. 3"},
           {"max-sum", duff_koster_2001 + ", sec. 4"},
           {"max-product", duff_koster_2001 + ", sec. 4 (symmetric scaling: I. S. Duff, S. Pralet, SIAM J. Matrix Anal. Appl. 27(2), 2005, sec. 3)"},
           {"awpm", azad_awpm}});
}

}  // namespace matchblas::registry_detail
