// The complete-graph matchers' registry entries (matchers/registry.hpp):
// ROMA and RAMA on the CPU, roma-gpu and the thesis's GPU versions, with
// their options. A new matcher of this family is one entry here.
#include "matchers/registry.hpp"

#include "matchers/complete/roma.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using Type = OptionSpec::Type;

// The options every ROMA-family entry takes; `scan` only where the
// changed-pairs scan exists (roma, roma-gpu). roma and roma-gpu start from
// the assignment (the heaviest result for its cost: bench/RESULTS.md, "The
// default start of roma and roma-gpu"); rama and the thesis's GPU versions
// keep the thesis's neighbour start (Hovland 2020, sec. 5.5.7).
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
    s.push_back({"scan", Type::word, "all", {"all", "changed"}, 0, 0,
                 "after phase 0 augment every pair (all) or only those whose edge changed in the last phase"});
  return s;
}

void check_roma(const OptionValues& v, Precision) {
  if (v.flag("exact-auction") && v.word("start") != "assignment")
    throw invalid_input("--exact-auction is for --start assignment");
}

RomaOptions roma_options(const RunOptions& o) {
  RomaOptions ro;
  ro.seed = o.seed;
  ro.phases = int(o.options.integer("phases"));
  ro.min_gain = o.options.real("min-gain");
  ro.start = parse_roma_start(o.options.word("start"));
  if (o.options.takes("scan")) ro.scan = parse_roma_scan(o.options.word("scan"));
  if (o.options.flag("exact-auction")) ro.auction = AuctionOptions{};
  return ro;
}

// A ROMA-family entry: f(dense graph, RunOptions) -> RomaRun; its phases go
// to RunOptions::phase_report when set.
template <class F>
MatcherInfo complete_roma(std::string name, Device device, std::string summary, std::vector<OptionSpec> specs, F f) {
  MatcherInfo m;
  m.name = name;
  m.kinds = complete_graphs;
  m.device = device;
  m.deterministic = device == Device::cpu;  // seeded on the CPU; racing flips on the GPU
  m.seeded = true;
  m.guarantee = "2/3-eps";
  m.summary = std::move(summary);
  m.options = std::move(specs);
  m.check = check_roma;
  m.run = on_complete(std::move(name), [f](const auto& g, const RunOptions& o) {
    RomaRun run = f(g, o);
    if (o.phase_report) *o.phase_report = run;
    return std::move(run.matching);
  });
  if (device == Device::gpu) m.unavailable = needs_cuda();
  return m;
}

}  // namespace

void add_complete(std::vector<MatcherInfo>& r) {
  MatcherInfo roma_cpu = complete_roma(
      "roma", Device::cpu, "4-cycle augmentation, every vertex per phase in random order",
      roma_specs(true, "assignment"), [](const auto& g, const RunOptions& o) { return roma(g, roma_options(o)); });
  roma_cpu.twin = "roma-gpu";
  r.push_back(std::move(roma_cpu));
  r.push_back(complete_roma("rama", Device::cpu,
                            "4-cycle augmentation of random vertices, n per phase",
                            roma_specs(false),
                            [](const auto& g, const RunOptions& o) { return rama(g, roma_options(o)); }));

  std::vector<OptionSpec> fast = roma_specs(true, "assignment");
  fast.insert(fast.end(),
              {{"kernel", Type::word, "auto", {"auto", "cluster", "stream", "queued"}, 0, 0,
                "the phase kernel (auto: chosen per phase)"},
               {"cluster", Type::integer, "0", {}, 0, 16,
                "the cluster kernel's blocks sharing a matched pair's rows (0: chosen to fill the GPU)"},
               {"blocks-per-sm", Type::integer, "2", {}, 1, 2, "the cluster kernel's resident blocks per SM"},
               {"bf16", Type::flag, "", {}, 0, 0, "with --precision float: the kernels read a bf16 copy of the weights"}});
  MatcherInfo fast_gpu = complete_roma(
      "roma-gpu", Device::gpu,
      "ROMA on the GPU: per phase a cluster, stream or queued kernel over matched pairs (ours)", fast,
      [](const auto& g, const RunOptions& o) {
        RomaGpuOptions go;
        go.device = o.gpu;
        go.kernel = parse_roma_gpu_kernel(o.options.word("kernel"));
        go.cluster = int(o.options.integer("cluster"));
        go.blocks_per_sm = int(o.options.integer("blocks-per-sm"));
        go.bf16 = o.options.flag("bf16");
        return roma_gpu(g, roma_options(o), go);
      });
  fast_gpu.twin = "roma";
  fast_gpu.check = [](const OptionValues& v, Precision precision) {
    check_roma(v, precision);
    const std::string kernel = v.word("kernel");
    if (kernel == "stream" || kernel == "queued")
      for (const char* name : {"cluster", "blocks-per-sm"})
        if (v.given(name))
          throw invalid_input(std::string("--") + name + " shapes the cluster kernel, which --kernel " + kernel +
                              " never runs");
    if (v.flag("bf16") && precision != Precision::single)
      throw invalid_input("--bf16 stores float weights as bf16: add --precision float");
  };
  r.push_back(std::move(fast_gpu));
  for (const int version : {1, 2})
    r.push_back(complete_roma(
        "roma-gpu-" + std::to_string(version), Device::gpu,
        version == 1 ? "ROMA on the GPU, a thread per matching edge, atomicFlip"
                     : "ROMA on the GPU, a block per matching edge, block max-reduction",
        roma_specs(false),
        [version](const auto& g, const RunOptions& o) { return roma_gpu_thesis(g, version, roma_options(o), o.gpu); }));
  // Memory beyond the input (MatcherInfo::memory), bytes per vertex and per
  // edge: peaks measured by bench/bench_memory, fitted and rounded up by
  // about 20% (bench/RESULTS.md, "Memory estimates"). GPU entries: host
  // memory, their CPU twin's figures (not measured: no GPU on the
  // development machine).
  // Per edge: an odd n's padded copy of the weights (16 bytes per pair).
  set_memory(r, {{"roma", 480, 16}, {"rama", 480, 16}, {"roma-gpu", 480, 16}, {"roma-gpu-1", 480, 16},
                 {"roma-gpu-2", 480, 16}});

  using namespace references;
  cite(r, {{"roma", hovland + ", Alg. 3-5; " + maue_sanders + "; assignment start: " + bertsekas},
           {"rama", hovland + ", Alg. 2, 4-5; " + pettie_sanders},
           {"roma-gpu", hovland + ", Alg. 6-9 (our kernels; bench/RESULTS.md); assignment start: " + bertsekas},
           {"roma-gpu-1", hovland + ", Alg. 6, 7, 9"},
           {"roma-gpu-2", hovland + ", Alg. 7-9"}});
}

}  // namespace matchblas::registry_detail
