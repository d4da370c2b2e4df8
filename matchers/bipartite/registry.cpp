// The bipartite family's registry entries (matchers/registry.hpp): the
// diagonal pre-pass's jobs, each computing MC64's job of the same number on
// an m-by-n matrix. A new one is one declaration here. Memory: bytes per
// vertex (rows + columns) and per stored entry beyond the matrix, fitted to
// bench/bench_memory's peaks unless an entry says otherwise; a GPU entry's
// host memory is its CPU twin's (awpm-gpu keeps the same sorted copy on the
// host; max-sum-gpu and max-product-gpu keep the CPU engine's host copies).
#include "matchers/registry.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "lib/error.hpp"
#include "lib/named_values.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/bipartite/awpm.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "matchers/bipartite/max_cardinality_omp.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using Type = OptionSpec::Type;
using namespace references;
using Clock = std::chrono::steady_clock;

// The values as prepass() checks them: one per entry, all finite (for the
// cardinality entries, whose algorithms read only the pattern; awpm checks
// its values itself).
void check_values(const std::string& name, const Csr<double>& a) {
  MATCHBLAS_EXPECTS(a.weights.size() == a.cols.size(), name + ": as many values as entries needed");
  bool finite = true;
#pragma omp parallel for schedule(static) reduction(&& : finite)
  for (std::size_t k = 0; k < a.weights.size(); ++k) finite = finite && std::isfinite(a.weights[k]);
  if (!finite) throw invalid_input(name + ": the matrix has a value that is not finite");
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

const OptionSpec symmetric_option{
    "symmetric", Type::flag, "", {}, 0, 0,
    "a symmetric matrix: one scaling vector for rows and columns (MC64's symmetric variant)"};

// awpm's auction start's bids (CPU).
const OptionSpec awpm_bids_option{
    "bids", Type::word, "jacobi", {"jacobi", "sequential"}, 0, 0,
    "the auction start's bids: one row at a time (sequential) or in synchronous rounds on every thread "
    "(jacobi); the result does not depend on the thread count either way"};
bool jacobi_bids(const OptionValues& v) { return v.takes("bids") && v.word("bids") == "jacobi"; }

// Jobs 4-5's auction start's bids.
inline constexpr NamedValues<PrepassOptions::Bids, 2> bids_names{{
    {"jacobi", PrepassOptions::Bids::jacobi},
    {"sequential", PrepassOptions::Bids::sequential},
}};
const OptionSpec job_bids_option{
    "bids", Type::word, "jacobi", names_of(bids_names), 0, 0,
    "the auction start's bids: in synchronous rounds on every thread (jacobi) or one row at a time "
    "(sequential); the result does not depend on the thread count either way (where several matchings are "
    "optimal, the two may return different ones)"};

inline constexpr NamedValues<PrepassOptions::Start, 3> start_names{{
    {"automatic", PrepassOptions::Start::automatic},
    {"auction", PrepassOptions::Start::auction},
    {"mc64", PrepassOptions::Start::mc64},
}};

// The options of job's entry run by prepass(): job 5 --symmetric; jobs 4-5
// where the searches start and whether the auction bids on every thread.
std::vector<OptionSpec> solver_options(int job) {
  std::vector<OptionSpec> s;
  if (job == 5) s.push_back(symmetric_option);
  if (job == 4 || job == 5) {
    s.push_back({"init", Type::word, "automatic", names_of(start_names), 0, 0,
                 "where the shortest augmenting paths start on a square matrix: an auction's prices (auction), "
                 "MC64's row and column minima (mc64), or MC64's where it leaves at most n/2000 rows free (a "
                 "dominant diagonal) and else the auction's (automatic); the same optimum (and job 5 the same "
                 "scalings: the matching's canonical duals)"});
    s.push_back({"parallel-bids", Type::flag, "", {}, 0, 0,
                 "the auction start's first phases bid on every thread at once, a lock per column (the same "
                 "optimum; when several matchings are optimal, which one depends on the threads' timing); not "
                 "with --bids"});
    s.push_back(job_bids_option);
  }
  return s;
}

PrepassOptions read_solver_options(const OptionValues& v, int job) {
  PrepassOptions p{.job = job};
  p.symmetric = v.takes("symmetric") && v.flag("symmetric");
  if (v.takes("init")) p.start = parse_named(start_names, v.word("init"), "--init");
  if (v.takes("bids")) p.bids = parse_named(bids_names, v.word("bids"), "--bids");
  if (v.takes("parallel-bids") && v.flag("parallel-bids")) {
    if (v.given("bids"))
      throw invalid_input("--parallel-bids and --bids are two ways of choosing how the auction bids; choose one");
    p.bids = PrepassOptions::Bids::asynchronous;
  }
  return p;
}

// A job computed by prepass() on the CPU (MC64's engine: Karp-Sipser and
// Pothen-Fan, thresholds and widest paths, shortest augmenting paths with
// duals). Jobs 4-5 are `threaded`: the O(nnz) passes around the searches run
// on RunOptions::threads threads with the same bits on any count; the bids
// run in synchronous rounds on the threads (or, --bids sequential, in one
// thread's order), and the searches run in rounds on 4 or more threads with
// the serial result bit for bit: deterministic either way (--parallel-bids:
// not).
MatcherInfo solver_entry(MatcherInfo m) {
  m.problem = Problem::bipartite;
  m.threaded = m.job == 4 || m.job == 5;
  m.options = solver_options(m.job);
  m.read_options = [job = m.job](const OptionValues& v, Precision) -> std::any { return read_solver_options(v, job); };
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const ScopedThreads scope(o.threads);
    return prepass(a, o.options.typed<PrepassOptions>());
  });
  return m;
}

// A job's matching computed another way: f(a, RunOptions) -> PrepassResult
// (through prepass_result, adding what the algorithm counts; f checks the
// values where its algorithm does not), the run timed with everything in it.
template <class F>
MatcherInfo matching_entry(MatcherInfo m, F f) {
  m.problem = Problem::bipartite;
  m.run = PrepassRunner([f](const Csr<double>& a, const RunOptions& o) {
    const auto start = Clock::now();
    const ScopedThreads scope(o.threads);
    PrepassResult r = f(a, o);
    r.seconds = seconds_since(start);
    return r;
  });
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

GpuOptions on_gpu(const RunOptions& o) {
  GpuOptions g;
  g.device = o.gpu;
  return g;
}

inline constexpr NamedValues<AwpmOptions::Start, 2> awpm_start_names{{
    {"auction", AwpmOptions::Start::auction},
    {"greedy", AwpmOptions::Start::greedy},
}};

// awpm's and awpm-gpu's options.
std::vector<OptionSpec> awpm_options() {
  return {{"init", Type::word, "auction", names_of(awpm_start_names), 0, 0,
           "the start: an auction in one phase at a coarse epsilon (auction) or the greedy matching of |a| "
           "(greedy)"},
          {"auction-epsilon", Type::real, "0.1", {}, 1e-6, 1,
           "the auction start's epsilon, a fraction of the bidding rows' mean largest |a_ij| (smaller: closer to "
           "the optimum, more bids)"},
          {"min-gain", Type::real, "1e-12", {}, 0, 1,
           "apply a 4-cycle only if it gains more than this times the matching's weight"},
          {"max-rounds", Type::integer, "100000", {}, 0, 1e9,
           "at most this many rounds of 4-cycles (0: the start and maximum cardinality only)"}};
}

// awpm's (CPU): the auction start's bids besides.
std::vector<OptionSpec> awpm_cpu_options() {
  std::vector<OptionSpec> o = awpm_options();
  o.push_back(awpm_bids_option);
  return o;
}

std::any read_awpm_options(const OptionValues& v, Precision) {
  return AwpmOptions{.start = parse_named(awpm_start_names, v.word("init"), "--init"),
                     .auction_epsilon = v.real("auction-epsilon"),
                     .jacobi_bids = jacobi_bids(v),
                     .min_gain = v.real("min-gain"),
                     .max_rounds = v.integer("max-rounds")};
}

// max-sum-gpu's and max-product-gpu's options: the job's, and the auction's.
struct AuctionJobOptions {
  PrepassOptions job{};
  AuctionGpuOptions auction{};
};

// Jobs 4 and 5 on the GPU: an auction on the GPU repaired to the exact
// optimum on the GPU or the host (prepass_gpu); job 5's --symmetric, the
// auction's tail, and where the repair runs.
MatcherInfo auction_gpu_entry(MatcherInfo m) {
  m.problem = Problem::bipartite;
  m.device = Device::gpu;
  m.deterministic = false;  // the objective is; which optimal matching depends on the GPU's start
  m.guarantee = "exact";
  if (m.job == 5) m.options.push_back(symmetric_option);
  m.options.push_back({"tail-rows", Type::integer, "0", {}, -1, 2e9,
                       "the auction's last phase (and, by default, each earlier one) ends with at most this many "
                       "rows unassigned, the repair matches the last ones (0: rows / 2000; -1: none left)"});
  m.options.push_back({"earlier-tail-rows", Type::integer, "0", {}, -1, 2e9,
                       "the phases before the last end with at most this many rows unassigned, at most "
                       "--tail-rows (0: as --tail-rows; -1: none left)"});
  m.options.push_back({"repair", Type::word, "device", {"device", "host"}, 0, 0,
                       "where the auction's result is made exact: primal-dual phases on the GPU, or the host's "
                       "shortest augmenting paths"});
  m.read_options = [job = m.job](const OptionValues& v, Precision) -> std::any {
    AuctionJobOptions r{.job = {.job = job, .symmetric = v.takes("symmetric") && v.flag("symmetric")}};
    r.auction.tail_rows = v.integer("tail-rows");
    r.auction.earlier_tail_rows = v.integer("earlier-tail-rows");
    r.auction.host_repair = v.word("repair") == "host";
    return r;
  };
  m.run = PrepassRunner([](const Csr<double>& a, const RunOptions& o) {
    const AuctionJobOptions& opt = o.options.typed<AuctionJobOptions>();
    AuctionGpuReport report;
    PrepassResult r = prepass_gpu(a, opt.job, on_gpu(o), opt.auction, &report);
    r.searches = report.repaired;
    r.device_seconds = report.device_s;
    char text[640];
    std::snprintf(text, sizeof text,
                  "%s%lld phases, %lld rounds%s, %d rows assigned (tail %d); upload %.3f s, device %.3f s (check %.3f), "
                  "repair %.3f s (%lld rows; %lld device phases (%lld stopped early), %lld levels, %lld rows relaxed%s; duals %.3f, distances %.3f, "
                  "tight %.3f, augment %.3f s (%lld by maximum matching)%s), download %.3f s; host: prepare %.3f, session %.3f, finish "
                  "%.3f s",
                  report.fell_back ? "host engine; " : "", static_cast<long long>(report.phases),
                  static_cast<long long>(report.rounds), report.capped ? " (capped)" : "", report.assigned,
                  report.tail, report.upload_s, report.device_s, report.check_s, report.repair_s,
                  static_cast<long long>(report.repaired), static_cast<long long>(report.repair_phases),
                  static_cast<long long>(report.repair_early_stops),
                  static_cast<long long>(report.repair_levels),
                  static_cast<long long>(report.repair_rows_relaxed), report.host_repaired ? "; host searches" : "",
                  report.repair_steps_s[0], report.repair_steps_s[1], report.repair_steps_s[2],
                  report.repair_steps_s[3], static_cast<long long>(report.repair_maximum_matchings),
                  report.canonical_on_device ? "; canonical duals on the device" : "",
                  report.download_s, report.prepare_s, report.session_s, report.finish_s);
    r.details = text;
    return r;
  });
  m.unavailable = needs_cuda();
  return m;
}

const std::string mc64_sources = duff_koster_2001 + ", sec. 4";
const std::string auction_start = "the auction start: " + bertsekas + ", sec. 2-4; its bids on several threads: " +
                                  bertsekas_castanon;
const std::string auction_repaired = bertsekas + ", sec. 2-4; " + bertsekas_castanon +
                                     "; exact repair on the device: the Hungarian method's phases as in " + date_nagi +
                                     ", distances by near-far: " + davidson_near_far + "; on the host: " +
                                     duff_koster_2001 + ", sec. 4";

}  // namespace

void add_bipartite(std::vector<MatcherInfo>& r) {
  r.push_back(solver_entry({.name = "cardinality",
                            .guarantee = "cardinality",
                            .job = 1,
                            .summary = "MC64 job 1: maximum cardinality, one-sided Karp-Sipser start then Pothen-Fan "
                                       "augmenting paths",
                            .reference = pothen_fan + ", sec. 3",
                            .twin = "cardinality-gpu",
                            .memory = {32, 0}}));
  r.push_back(matching_entry({.name = "cardinality-omp",
                              .deterministic = false,
                              .threaded = true,
                              .guarantee = "cardinality",
                              .job = 1,
                              .summary = "MC64 job 1 in parallel: one-sided Karp-Sipser start by atomic claims, then "
                                         "parallel Pothen-Fan with fairness and lookahead",
                              .reference = azad_ipdps,
                              .memory = {24, 0}},
                             [](const Csr<double>& a, const RunOptions&) {
                               check_values("cardinality-omp", a);
                               return prepass_result(a, 1, max_cardinality_omp(a));
                             }));
  r.push_back(matching_entry({.name = "cardinality-gpu",
                              .device = Device::gpu,
                              .deterministic = false,
                              .guarantee = "cardinality",
                              .job = 1,
                              .summary = "MC64 job 1 on the GPU: greedy start, then phases of alternating BFS from "
                                         "every free row with vertex-disjoint trees",
                              .reference = deveci_apfb + ", sec. 3 (APFB)",
                              .twin = "cardinality",
                              .memory = {32, 0}},
                             [](const Csr<double>& a, const RunOptions& o) {
                               check_values("cardinality-gpu", a);
                               GpuTimes times;
                               GpuSearchCounts counts;
                               PrepassResult r =
                                   prepass_result(a, 1, max_cardinality_bipartite_gpu(a, on_gpu(o), &times, &counts));
                               r.searches = counts.phases;
                               r.device_seconds = times.match_s;
                               return r;
                             }));
  // bottleneck's memory: 28 per entry from its arrays, not a fit: on a
  // structurally singular matrix the transpose and the vertical
  // Dulmage-Mendelsohn block (12 bytes an entry each) are held together at
  // the peak, + 20%; the measured inputs stay below that (bench_memory
  // n=131072 ef=4, singular: 31.4 MB).
  r.push_back(solver_entry({.name = "bottleneck",
                            .guarantee = "bottleneck",
                            .job = 2,
                            .summary = "MC64 jobs 2-3: a maximum matching maximising the smallest |a_ij|: a maximum "
                                       "matching above the bound of the row and column maxima, else a binary search "
                                       "over thresholds finished by widest augmenting paths",
                            .reference = duff_koster_1999 + ", sec. 3; the widest augmenting paths: " +
                                         duff_koster_2001 + ", sec. 3",
                            .memory = {88, 28}}));
  r.push_back(solver_entry({.name = "max-sum",
                            .guarantee = "exact",
                            .job = 4,
                            .summary = "MC64 job 4: maximum sum of |a_ij| over the maximum matchings, shortest "
                                       "augmenting paths with duals from an auction's prices",
                            .reference = mc64_sources + "; " + auction_start,
                            .twin = "max-sum-gpu",
                            .memory = {272, 4}}));
  r.push_back(solver_entry({.name = "max-product",
                            .guarantee = "exact",
                            .job = 5,
                            .summary = "MC64 job 5: maximum product of |a_ij| with log scalings from the duals",
                            .reference = mc64_sources +
                                         " (symmetric scaling: I. S. Duff, S. Pralet, SIAM J. Matrix Anal. Appl. "
                                         "27(2), 2005, sec. 3); " + auction_start,
                            .twin = "max-product-gpu",
                            .memory = {268, 4}}));
  r.push_back(matching_entry({.name = "awpm",
                              .threaded = true,
                              .guarantee = "approximate",
                              .job = 4,
                              .summary = "MC64 job 4 approximately: a coarse auction's start, maximum "
                                         "cardinality, then locally dominant weight-increasing 4-cycles",
                              .reference = azad_awpm + "; the auction start: " + bertsekas +
                                           "; the maximum-cardinality step breadth first as " + deveci_apfb,
                              .twin = "awpm-gpu",
                              .memory = {52, 32},
                              .options = awpm_cpu_options(),
                              .read_options = read_awpm_options},
                             [](const Csr<double>& a, const RunOptions& o) {
                               AwpmOptions opt = o.options.typed<AwpmOptions>();
                               opt.threads = o.threads;
                               return prepass_result(a, 4, awpm(a, opt).mates);
                             }));
  r.push_back(matching_entry({.name = "awpm-gpu",
                              .device = Device::gpu,
                              .deterministic = false,
                              .guarantee = "approximate",
                              .job = 4,
                              .summary = "MC64 job 4 approximately on the GPU: a coarse auction's start in Jacobi "
                                         "rounds (square matrices; else greedy by one-sided Suitor), maximum "
                                         "cardinality (cardinality-gpu), then 4-cycles whose rows are each other's best",
                              .reference = azad_awpm + "; the auction start: " + bertsekas + "; maximum cardinality: " +
                                           deveci_apfb,
                              .twin = "awpm",
                              .memory = {52, 32},
                              .options = awpm_options(),
                              .read_options = read_awpm_options},
                             [](const Csr<double>& a, const RunOptions& o) {
                               GpuTimes times;
                               PrepassResult r =
                                   prepass_result(a, 4, awpm_gpu(a, o.options.typed<AwpmOptions>(), on_gpu(o), &times).mates);
                               r.device_seconds = times.match_s;
                               return r;
                             }));
  r.push_back(auction_gpu_entry({.name = "max-sum-gpu",
                                 .job = 4,
                                 .summary = "MC64 job 4 on the GPU: an auction with epsilon-scaling, repaired to "
                                            "the exact optimum by primal-dual phases on the GPU (or on the host)",
                                 .reference = auction_repaired,
                                 .twin = "max-sum",
                                 .memory = {272, 4}}));
  r.push_back(auction_gpu_entry({.name = "max-product-gpu",
                                 .job = 5,
                                 .summary = "MC64 job 5 on the GPU: an auction with epsilon-scaling, repaired to "
                                            "the exact optimum on the GPU (or on the host); log scalings from the "
                                            "duals",
                                 .reference = auction_repaired,
                                 .twin = "max-product",
                                 .memory = {268, 4}}));
}

}  // namespace matchblas::registry_detail
