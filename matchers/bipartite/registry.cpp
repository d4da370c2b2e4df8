// The bipartite family's registry entries (matchers/registry.hpp): the
// diagonal pre-pass's jobs, each computing MC64's job of the same number on
// an m-by-n matrix. A new one is one entry here.
#include "matchers/registry.hpp"

#include "matchers/bipartite/prepass.hpp"

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

}  // namespace

void add_bipartite(std::vector<MatcherInfo>& r) {
  r.push_back(job_entry("cardinality", 1, "cardinality",
                        "MC64 job 1: maximum cardinality, greedy start then Pothen-Fan augmenting paths "
                        "(Pothen and Fan, ACM TOMS 1990)"));
  r.push_back(job_entry("bottleneck", 2, "bottleneck",
                        "MC64 jobs 2-3: a maximum matching maximising the smallest |a_ij|, binary search over "
                        "thresholds (Duff and Koster, SIMAX 1999)"));
  r.push_back(job_entry("max-sum", 4, "exact",
                        "MC64 job 4: maximum sum of |a_ij| over the maximum matchings, shortest augmenting paths "
                        "with duals (Duff and Koster, SIMAX 2001)"));
  r.push_back(job_entry("max-product", 5, "exact",
                        "MC64 job 5: maximum product of |a_ij| with log scalings from the duals "
                        "(Duff and Koster, SIMAX 2001)"));
}

}  // namespace matchblas::registry_detail
