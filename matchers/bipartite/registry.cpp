// The bipartite family's registry entries (matchers/registry.hpp): the
// diagonal pre-pass's jobs, each computing MC64's job of the same number on
// an m-by-n matrix. A new one is one entry here.
#include "matchers/registry.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/max_cardinality_omp.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

// The values as prepass() checks them: one per entry, all finite.
void check_values(const std::string& name, const Csr<double>& a) {
  MATCHBLAS_EXPECTS(a.weights.size() == a.cols.size(), name + ": as many values as entries needed");
  bool finite = true;
#pragma omp parallel for schedule(static) reduction(&& : finite)
  for (std::size_t k = 0; k < a.weights.size(); ++k) finite = finite && std::isfinite(a.weights[k]);
  if (!finite) throw invalid_input(name + ": the matrix has a value that is not finite");
}

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
                         .fallback = "",
                         .words = {},
                         .lo = 0,
                         .hi = 0,
                         .help = "a symmetric matrix: one scaling vector for rows and columns (MC64's symmetric variant)"});
  if (job == 4 || job == 5)
    m.options.push_back({.name = "init",
                         .type = OptionSpec::Type::word,
                         .fallback = "auction",
                         .words = {"auction", "mc64"},
                         .lo = 0,
                         .hi = 0,
                         .help = "where the shortest augmenting paths start on a square matrix: an "
                                 "auction's prices (auction) or MC64's row and column minima (mc64); "
                                 "the same optimum (and job 5 the same scalings: the matching's canonical duals)"});
  if (job == 4 || job == 5) {
    m.options.push_back({.name = "parallel-bids",
                         .type = OptionSpec::Type::flag,
                         .fallback = "",
                         .words = {},
                         .lo = 0,
                         .hi = 0,
                         .help = "the auction start's first phases bid on every thread (the same optimum; when "
                                 "several matchings are optimal, which one depends on the threads' timing)"});
    // The O(nnz) passes around the searches run on RunOptions::threads
    // threads with the same bits on any count; the bids (unless
    // parallel-bids) and the searches are sequential: deterministic.
    m.threaded = true;
  }
  m.run = PrepassRunner([job](const Csr<double>& a, const RunOptions& o) {
    const auto takes = [&](const char* name) { return o.options.specs() && o.options.takes(name); };
    const ScopedThreads scope(o.threads);
    return prepass(a, {.job = job,
                       .symmetric = takes("symmetric") && o.options.flag("symmetric"),
                       .start = !takes("init")                     ? PrepassOptions::Start::automatic
                                : o.options.word("init") == "auction" ? PrepassOptions::Start::auction
                                                                      : PrepassOptions::Start::mc64,
                       .parallel_bids = takes("parallel-bids") && o.options.flag("parallel-bids")});
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
    check_values("cardinality-omp", a);
    PrepassResult r = prepass_result(a, 1, max_cardinality_omp(a));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  });
  return m;
}

// Job 1 on the GPU, the twin of "cardinality"; options as the other GPU
// entries' (--gpu).
MatcherInfo cardinality_gpu_entry() {
  MatcherInfo m;
  m.name = "cardinality-gpu";
  m.problem = Problem::bipartite;
  m.device = Device::gpu;
  m.deterministic = false;
  m.job = 1;
  m.guarantee = "cardinality";
  m.twin = "cardinality";
  m.summary =
      "MC64 job 1 on the GPU: greedy start, then phases of alternating BFS from every free row with vertex-disjoint "
      "trees";
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    check_values("cardinality-gpu", a);
    GpuOptions g;
    g.device = o.gpu;
    GpuTimes times;
    GpuSearchCounts counts;
    PrepassResult r = prepass_result(a, 1, max_cardinality_bipartite_gpu(a, g, &times, &counts));
    r.searches = counts.phases;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.device_seconds = times.match_s;
    return r;
  });
  return m;
}

// Jobs 4 and 5 on the GPU (max-sum-gpu, max-product-gpu), the twins of
// max-sum and max-product: an auction on the GPU repaired to the exact
// optimum on the host (prepass_gpu); the CPU twin's options.
MatcherInfo job_gpu_entry(std::string name, int job, std::string twin, std::string summary) {
  MatcherInfo m = job_entry(std::move(name), job, "exact", std::move(summary));
  std::erase_if(m.options, [](const OptionSpec& s) {  // the host engine's start
    return s.name == "init" || s.name == "parallel-bids";
  });
  m.device = Device::gpu;
  m.threaded = false;       // (the host's passes take OpenMP's setting)
  m.deterministic = false;  // the objective is; which optimal matching depends on the GPU's start
  m.unavailable = needs_cuda();
  m.twin = std::move(twin);
  m.options.push_back({.name = "tail-rows",
                       .type = OptionSpec::Type::integer,
                       .fallback = "0",
                       .words = {},
                       .lo = -1,
                       .hi = 2e9,
                       .help = "an auction phase ends with at most this many rows unassigned, the host's shortest "
                               "augmenting paths match the last ones (0: rows / 2000; -1: none left)"});
  m.run = PrepassRunner([job](const Csr<double>& a, const RunOptions& o) {
    GpuOptions g;
    g.device = o.gpu;
    AuctionGpuReport report;
    AuctionGpuOptions auction;
    if (o.options.specs()) auction.tail_rows = o.options.integer("tail-rows");
    PrepassResult r = prepass_gpu(
        a, {.job = job, .symmetric = o.options.specs() && o.options.takes("symmetric") && o.options.flag("symmetric")},
        g, auction, &report);
    r.searches = report.repaired;
    r.device_seconds = report.device_s;
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s%lld phases, %lld rounds%s, %d rows assigned (tail %d); upload %.3f s, device %.3f s, "
                  "download %.3f s, repair %.3f s",
                  report.fell_back ? "host engine; " : "", static_cast<long long>(report.phases),
                  static_cast<long long>(report.rounds), report.capped ? " (capped)" : "", report.assigned,
                  report.tail, report.upload_s, report.device_s, report.download_s, report.repair_s);
    r.details = text;
    return r;
  });
  return m;
}

// The options of awpm and awpm-gpu.
std::vector<OptionSpec> awpm_options() {
  return {{.name = "min-gain",
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
  m.options = awpm_options();
  m.twin = "awpm-gpu";
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

// AWPM on the GPU, the twin of awpm (after it: find_prepass_job(4) stays
// the exact entry).
MatcherInfo awpm_gpu_entry() {
  MatcherInfo m;
  m.name = "awpm-gpu";
  m.problem = Problem::bipartite;
  m.device = Device::gpu;
  m.deterministic = false;
  m.job = 4;
  m.guarantee = "approximate";
  m.twin = "awpm";
  m.summary =
      "MC64 job 4 approximately on the GPU: greedy start (one-sided Suitor), maximum cardinality (cardinality-gpu), "
      "then 4-cycles whose rows are each other's best";
  m.options = awpm_options();
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    GpuOptions g;
    g.device = o.gpu;
    GpuTimes times;
    AwpmResult w = awpm_gpu(a, {.min_gain = o.options.real("min-gain"), .max_rounds = o.options.integer("max-rounds")},
                            g, &times);
    PrepassResult r = prepass_result(a, 4, std::move(w.mates));
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.device_seconds = times.match_s;
    return r;
  });
  return m;
}

}  // namespace

void add_bipartite(std::vector<MatcherInfo>& r) {
  MatcherInfo cardinality = job_entry("cardinality", 1, "cardinality",
                                      "MC64 job 1: maximum cardinality, one-sided Karp-Sipser start then Pothen-Fan "
                                      "augmenting paths");
  cardinality.twin = "cardinality-gpu";
  r.push_back(std::move(cardinality));
  r.push_back(cardinality_omp_entry());
  r.push_back(cardinality_gpu_entry());
  r.push_back(job_entry("bottleneck", 2, "bottleneck",
                        "MC64 jobs 2-3: a maximum matching maximising the smallest |a_ij|: a maximum matching "
                        "above the bound of the row and column maxima, else a binary search over thresholds "
                        "finished by widest augmenting paths"));
  MatcherInfo max_sum = job_entry("max-sum", 4, "exact",
                                  "MC64 job 4: maximum sum of |a_ij| over the maximum matchings, shortest augmenting "
                                  "paths with duals from an auction's prices");
  max_sum.twin = "max-sum-gpu";
  r.push_back(std::move(max_sum));
  MatcherInfo max_product =
      job_entry("max-product", 5, "exact",
                "MC64 job 5: maximum product of |a_ij| with log scalings from the duals");
  max_product.twin = "max-product-gpu";
  r.push_back(std::move(max_product));
  r.push_back(awpm_entry());
  r.push_back(awpm_gpu_entry());
  // After max-sum and max-product: find_prepass_job(4, 5) stay the CPU entries.
  r.push_back(job_gpu_entry("max-sum-gpu", 4, "max-sum",
                            "MC64 job 4 on the GPU: an auction with epsilon-scaling on the GPU, repaired to the exact "
                            "optimum by shortest augmenting paths from its prices on the host"));
  r.push_back(job_gpu_entry("max-product-gpu", 5, "max-product",
                            "MC64 job 5 on the GPU: an auction with epsilon-scaling on the GPU, repaired to the exact "
                            "optimum on the host; log scalings from the duals"));
  // Memory beyond the input (MatcherInfo::memory), bytes per vertex and per
  // edge: peaks measured by bench/bench_memory, fitted and rounded up by
  // about 20% (bench/RESULTS.md, "Memory estimates"). Vertices: rows + columns; edges:
  // stored entries.
  // bottleneck: 28 per entry from its arrays, not a fit: on a structurally
  // singular matrix the transpose and the vertical Dulmage-Mendelsohn block
  // (12 bytes an entry each) are held together at the peak, + 20%; the
  // measured inputs stay below that (bench_memory n=131072 ef=4, singular:
  // 31.4 MB).
  // The GPU entries' host memory: their CPU twins' figures (not measured on
  // a GPU; awpm-gpu keeps the same sorted copy on the host, max-sum-gpu and
  // max-product-gpu the same costs, and their repair is the CPU engine).
  set_memory(r, {{"cardinality", 32, 0}, {"cardinality-omp", 24, 0}, {"cardinality-gpu", 32, 0},
                 {"bottleneck", 88, 28}, {"max-sum", 272, 4}, {"max-product", 268, 4}, {"awpm", 52, 32},
                 {"awpm-gpu", 52, 32}, {"max-sum-gpu", 272, 4}, {"max-product-gpu", 268, 4}});

  using namespace references;
  cite(r, {{"cardinality", pothen_fan + ", sec. 3"},
           {"cardinality-omp", azad_ipdps},
           {"bottleneck", duff_koster_1999 + ", sec. 3; the widest augmenting paths: " + duff_koster_2001 + ", sec. 3"},
           {"max-sum", duff_koster_2001 + ", sec. 4; the auction start: " + bertsekas + ", sec. 2-4; its bids on several threads: " + bertsekas_castanon},
           {"max-product", duff_koster_2001 + ", sec. 4 (symmetric scaling: I. S. Duff, S. Pralet, SIAM J. Matrix Anal. Appl. 27(2), 2005, sec. 3); the auction start: " + bertsekas + ", sec. 2-4; its bids on several threads: " + bertsekas_castanon},
           {"awpm", azad_awpm + "; the maximum-cardinality step breadth first as " + deveci_apfb},
           {"cardinality-gpu", deveci_apfb + ", sec. 3 (APFB)"},
           {"awpm-gpu", azad_awpm + "; maximum cardinality: " + deveci_apfb},
           {"max-sum-gpu", bertsekas + ", sec. 2-4; " + bertsekas_castanon + "; exact repair: " + duff_koster_2001 +
                               ", sec. 4"},
           {"max-product-gpu", bertsekas + ", sec. 2-4; " + bertsekas_castanon + "; exact repair: " +
                                   duff_koster_2001 + ", sec. 4"}});
}

}  // namespace matchblas::registry_detail
