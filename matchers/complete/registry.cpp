// The complete-graph matchers' registry entries (matchers/registry.hpp):
// ROMA and RAMA on the CPU, roma-gpu and the thesis's GPU versions, with
// their options. A new matcher of this family is one declaration here.
// Memory: bytes per vertex and per edge beyond the input, fitted to
// bench/bench_memory's peaks; per edge: an odd n's padded copy of the
// weights (16 bytes per pair). GPU entries: host memory, their CPU twin's
// figures (the host side holds the same start-matching arrays).
#include "matchers/registry.hpp"

#include "matchers/complete/roma.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using Type = OptionSpec::Type;
using namespace references;

// The options every ROMA-family entry takes; `scan` only where the
// changed-pairs scan exists (roma, roma-gpu). roma and roma-gpu start from
// the assignment (the heaviest result for its cost: bench/RESULTS.md, "The
// default start of roma and roma-gpu"); rama and the thesis's GPU versions
// keep the thesis's neighbour start (Hovland 2020, sec. 5.5.7). Their scan
// follows the start and the size unless given (scan_to_run, roma.hpp).
std::vector<OptionSpec> roma_specs(bool scan, const char* start = "neighbour") {
  std::vector<OptionSpec> s = {
      {"phases", Type::integer, "8", {}, 0, 1 << 30, "at most P phases (ROMA stops earlier at a phase without flips)"},
      {"min-gain", Type::real, "1e-05", {}, 0, 1e300, "flip only when the gain exceeds G (Hovland 2020, sec. 5.3)"},
      {"start", Type::word, start, {"neighbour", "half", "shuffled", "random", "greedy", "assignment"}, 0, 0,
       "the start matching (assignment: an auction stopped early for speed)"},
      {"exact-auction", Type::flag, "", {}, 0, 0, "with --start assignment: run the auction to the end"},
      {"phase-report", Type::flag, "", {}, 0, 0, "print flips, augmentations, weight and seconds per phase"},
  };
  if (scan)
    s.push_back({"scan", Type::word, "auto", {"auto", "all", "changed"}, 0, 0,
                 "after phase 0 augment every pair (all) or only those whose edge changed in the last phase "
                 "(changed); auto: changed after the assignment start from 16384 vertices on, else all"});
  return s;
}

// The options of every ROMA-family entry as RomaOptions (the seed is the run's).
RomaOptions read_roma(const OptionValues& v) {
  if (v.flag("exact-auction") && v.word("start") != "assignment")
    throw invalid_input("--exact-auction is for --start assignment");
  RomaOptions ro;
  ro.phases = int(v.integer("phases"));
  ro.min_gain = v.real("min-gain");
  ro.start = parse_roma_start(v.word("start"));
  if (v.takes("scan")) ro.scan = parse_roma_scan(v.word("scan"));
  if (v.flag("exact-auction")) ro.auction = AuctionOptions{};
  return ro;
}

// roma-gpu's options: ROMA's and its kernels'.
struct RomaGpuRead {
  RomaOptions roma;
  RomaGpuOptions gpu;
};

RomaGpuRead read_roma_gpu(const OptionValues& v, Precision precision) {
  RomaGpuRead r{read_roma(v), {}};
  const std::string kernel = v.word("kernel");
  if (kernel == "stream" || kernel == "queued")
    for (const char* name : {"cluster", "blocks-per-sm"})
      if (v.given(name))
        throw invalid_input(std::string("--") + name + " shapes the cluster kernel, which --kernel " + kernel +
                            " never runs");
  if (v.flag("bf16") && precision != Precision::float32)
    throw invalid_input("--bf16 stores float weights as bf16: add --precision float");
  r.gpu.kernel = parse_roma_gpu_kernel(kernel);
  r.gpu.cluster = int(v.integer("cluster"));
  r.gpu.blocks_per_sm = int(v.integer("blocks-per-sm"));
  r.gpu.bf16 = v.flag("bf16");
  return r;
}

// A ROMA-family entry: f(dense graph, typed options O, RunOptions) -> RomaRun;
// its phases go to RunOptions::phases when set.
template <class O, class F>
MatcherInfo complete_roma(MatcherInfo m, F f) {
  m.kinds = complete_graphs;
  m.deterministic = m.device == Device::cpu;  // seeded on the CPU; racing flips on the GPU
  m.seeded = true;
  m.guarantee = "2/3-eps";
  m.memory = {480, 16};
  if (!m.read_options)
    m.read_options = [](const OptionValues& v, Precision) -> std::any { return read_roma(v); };
  m.run = on_complete(m.name, [f](const auto& g, const RunOptions& o) {
    RomaRun run = f(g, o.options.typed<O>(), o);
    if (o.phases) *o.phases = phase_report(run);
    return std::move(run.matching);
  });
  if (m.device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

// o with the run's seed.
RomaOptions seeded(RomaOptions o, const RunOptions& run) {
  o.seed = run.seed;
  return o;
}

std::vector<OptionSpec> roma_gpu_specs() {
  std::vector<OptionSpec> s = roma_specs(true, "assignment");
  s.insert(s.end(), {{"kernel", Type::word, "auto", {"auto", "cluster", "stream", "queued"}, 0, 0,
                      "the phase kernel (auto: chosen per phase)"},
                     {"cluster", Type::integer, "0", {}, 0, 16,
                      "the cluster kernel's blocks sharing a matched pair's rows (0: chosen to fill the GPU)"},
                     {"blocks-per-sm", Type::integer, "2", {}, 1, 2, "the cluster kernel's resident blocks per SM"},
                     {"bf16", Type::flag, "", {}, 0, 0,
                      "with --precision float: the kernels read a bf16 copy of the weights"}});
  return s;
}

}  // namespace

void add_complete(std::vector<MatcherInfo>& r) {
  r.push_back(complete_roma<RomaOptions>(
      {.name = "roma",
       .summary = "4-cycle augmentation, every vertex per phase in random order",
       .reference = hovland + ", Alg. 3-5; " + maue_sanders + "; assignment start: " + bertsekas,
       .twin = "roma-gpu",
       .options = roma_specs(true, "assignment")},
      [](const auto& g, const RomaOptions& o, const RunOptions& run) { return roma(g, seeded(o, run)); }));
  r.push_back(complete_roma<RomaOptions>(
      {.name = "rama",
       .summary = "4-cycle augmentation of random vertices, n per phase",
       .reference = hovland + ", Alg. 2, 4-5; " + pettie_sanders,
       .options = roma_specs(false)},
      [](const auto& g, const RomaOptions& o, const RunOptions& run) { return rama(g, seeded(o, run)); }));
  r.push_back(complete_roma<RomaGpuRead>(
      {.name = "roma-gpu",
       .device = Device::gpu,
       .summary = "ROMA on the GPU: per phase a cluster, stream or queued kernel over matched pairs (ours)",
       .reference = hovland + ", Alg. 6-9 (our kernels; bench/RESULTS.md); assignment start: " + bertsekas,
       .twin = "roma",
       .options = roma_gpu_specs(),
       .read_options = [](const OptionValues& v, Precision p) -> std::any { return read_roma_gpu(v, p); }},
      [](const auto& g, const RomaGpuRead& o, const RunOptions& run) {
        RomaGpuOptions go = o.gpu;
        go.device = run.gpu;
        return roma_gpu(g, seeded(o.roma, run), go);
      }));
  for (const int version : {1, 2})
    r.push_back(complete_roma<RomaOptions>(
        {.name = "roma-gpu-" + std::to_string(version),
         .device = Device::gpu,
         .summary = version == 1 ? "ROMA on the GPU, a thread per matching edge, atomicFlip"
                                 : "ROMA on the GPU, a block per matching edge, block max-reduction",
         .reference = hovland + (version == 1 ? ", Alg. 6, 7, 9" : ", Alg. 7-9"),
         .options = roma_specs(false)},
        [version](const auto& g, const RomaOptions& o, const RunOptions& run) {
          return roma_gpu_thesis(g, version, seeded(o, run), run.gpu);
        }));
}

}  // namespace matchblas::registry_detail
