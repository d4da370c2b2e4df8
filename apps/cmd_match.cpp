// matchblas match FILE --algo NAME: read, match, validate, report, write mates.
// Bad options (an unknown --algo, --view or --precision) are usage errors,
// found before the file is read; errors from reading the file and building
// the graph name the file.
#include <omp.h>

#include <charconv>
#include <cstdio>
#include <new>
#include <optional>
#include <string>

#include "apps/commands.hpp"
#include "datasets/load.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas::cli {

void apply_threads(const Args& a) {
  const std::int64_t cap = 4 * std::int64_t(omp_get_num_procs());
  const int t = static_cast<int>(a.integer("threads", 0, 0, cap));
  if (t > 0) omp_set_num_threads(t);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += {'\\', c};
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out + "\"";
}

namespace {

// f(), with the library's invalid_input (an unknown name) turned into a
// usage error: the value came from the command line.
template <class F>
decltype(auto) option_value(F f) {
  try {
    return f();
  } catch (const invalid_input& e) {
    throw usage_error(e.what());
  }
}

// f(), with every matchblas error prefixed "FILE: " (unless it already
// starts so, like the reader's) and of the same type.
template <class F>
auto naming_file(const std::string& file, F f) -> decltype(f()) {
  const auto named = [&](const std::exception& e) {
    const std::string what = e.what();
    return what.rfind(file + ":", 0) == 0 ? what : file + ": " + what;
  };
  try {
    return f();
  } catch (const parse_error&) {
    throw;  // "FILE:LINE: reason" already
  } catch (const shape_error& e) {
    throw shape_error(named(e));
  } catch (const invalid_input& e) {
    throw invalid_input(named(e));
  } catch (const out_of_memory& e) {
    throw out_of_memory(named(e));
  } catch (const cuda_error& e) {
    throw cuda_error(named(e));
  } catch (const error& e) {
    throw error(named(e));
  } catch (const std::bad_alloc&) {
    throw out_of_memory(file + ": out of memory while building the graph");
  }
}

void write_mates(const std::string& path, const Matching& m) {
  AtomicFile f(path);
  std::string buf;
  buf.reserve(1 << 20);
  char num[16];
  for (vertex_t v : m.mate) {
    const auto end = std::to_chars(num, num + sizeof num, v).ptr;
    buf.append(num, end);
    buf.push_back('\n');
    if (buf.size() > (1 << 20) - 32) {
      f.write(buf.data(), buf.size());
      buf.clear();
    }
  }
  f.write(buf.data(), buf.size());
  f.commit();
}

// The matcher to run: `m` itself, or its twin on the device --device names
// ("handshake" with --device gpu is "handshake-gpu").
const MatcherInfo& on_device(const MatcherInfo& m, const std::optional<std::string>& device) {
  if (!device) return m;
  if (*device != "cpu" && *device != "gpu") throw usage_error("--device must be cpu or gpu, got '" + *device + "'");
  const Device want = *device == "gpu" ? Device::gpu : Device::cpu;
  if (m.device == want) return m;
  const std::string suffix = "-gpu";
  std::string twin = m.name;
  if (want == Device::gpu) twin += suffix;
  else if (twin.ends_with(suffix)) twin.resize(twin.size() - suffix.size());
  for (const MatcherInfo& other : matchers())
    if (other.name == twin) return other;
  std::string names;
  for (const MatcherInfo& other : matchers())
    if (other.device == want) names += (names.empty() ? "" : ", ") + other.name;
  throw usage_error("matcher '" + m.name + "' has no " + *device + " version (" + *device + " matchers: " + names +
                    ")");
}

// --gpu ID, --threads N (GPU threads per kernel, seed 003), --threads-per-block,
// --vertices-per-warp, --variant, --search; checked here, before the file is read.
SuitorGpuOptions gpu_options(const Args& a) {
  SuitorGpuOptions g;
  g.device = static_cast<int>(a.integer("gpu", 0, 0, 1024));
  g.threads = static_cast<int>(a.integer("threads", 0, 0, std::int64_t(1) << 30));
  g.threads_per_block = static_cast<int>(a.integer("threads-per-block", g.threads_per_block, 32, 1024));
  g.vertices_per_warp = static_cast<int>(a.integer("vertices-per-warp", g.vertices_per_warp, 1, 1024));
  if (const auto v = a.value("variant")) g.variant = option_value([&] { return parse_suitor_gpu_variant(*v); });
  if (const auto v = a.value("search")) g.search = option_value([&] { return parse_suitor_gpu_search(*v); });
  option_value([&] {
    check_suitor_gpu_options(g);
    return 0;
  });
  return g;
}

}  // namespace

int command_match(const Args& a) {
  if (a.positional().size() != 1) throw usage_error("match takes one FILE");
  const auto algo = a.value("algo");
  if (!algo) throw usage_error("match needs --algo NAME (matchblas list shows the names)");
  const MatcherInfo& matcher = on_device(option_value([&]() -> const MatcherInfo& { return find_matcher(*algo); }),
                                         a.value("device"));
  const GraphView view = option_value([&] { return parse_view(a.value("view").value_or("auto")); });
  const Precision precision = option_value([&] { return parse_precision(a.value("precision").value_or("double")); });
  MatchOptions opt;
  opt.seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  const bool augments = matcher.name.starts_with("roma") || matcher.name == "rama";
  RomaRun roma_report;
  if (augments && a.flag("phase-report")) opt.roma_report = &roma_report;
  if (!augments && a.flag("phase-report"))
    throw usage_error("--phase-report is for roma, rama and roma-gpu-*, not '" + matcher.name + "'");
  if (augments) {
    opt.roma.phases = static_cast<int>(a.integer("phases", opt.roma.phases, 0, 1 << 30));
    opt.roma.min_gain = a.real("min-gain", opt.roma.min_gain, 0, 1e300);
    if (const auto s = a.value("start")) opt.roma.start = option_value([&] { return parse_roma_start(*s); });
    if (const auto s = a.value("scan")) opt.roma.scan = option_value([&] { return parse_roma_scan(*s); });
    if (opt.roma.scan == RomaScan::changed && matcher.name != "roma" && matcher.name != "roma-gpu")
      throw usage_error("--scan changed is for roma and roma-gpu, not '" + matcher.name + "'");
    if (a.flag("exact-auction")) {
      if (opt.roma.start != RomaStart::assignment) throw usage_error("--exact-auction is for --start assignment");
      opt.roma.auction = AuctionOptions{};
    }
  } else {
    for (const char* name : {"phases", "min-gain", "start", "scan"})
      if (a.value(name))
        throw usage_error(std::string("--") + name + " is for roma" + (std::string(name) == "scan" ? "" : " and rama") +
                          ", not '" + matcher.name + "'");
    if (a.flag("exact-auction")) throw usage_error("--exact-auction is for roma and rama, not '" + matcher.name + "'");
  }
  if (matcher.name == "roma-gpu") {
    if (const auto k = a.value("kernel")) opt.roma_gpu.kernel = option_value([&] { return parse_roma_gpu_kernel(*k); });
    opt.roma_gpu.cluster = static_cast<int>(a.integer("cluster", 0, 0, 16));
    opt.roma_gpu.blocks_per_sm = static_cast<int>(a.integer("blocks-per-sm", opt.roma_gpu.blocks_per_sm, 1, 2));
    opt.roma_gpu.bf16 = a.flag("bf16");
    if (opt.roma_gpu.kernel == RomaGpuKernel::stream || opt.roma_gpu.kernel == RomaGpuKernel::queued)
      for (const char* name : {"cluster", "blocks-per-sm"})
        if (a.value(name))
          throw usage_error(std::string("--") + name + " shapes the cluster kernel, which --kernel " +
                            to_string(opt.roma_gpu.kernel) + " never runs");
    if (opt.roma_gpu.bf16 && precision != Precision::single)
      throw usage_error("--bf16 stores float weights as bf16: add --precision float");
  } else {
    for (const char* name : {"kernel", "cluster", "blocks-per-sm"})
      if (a.value(name)) throw usage_error(std::string("--") + name + " is for roma-gpu, not '" + matcher.name + "'");
    if (a.flag("bf16")) throw usage_error("--bf16 is for roma-gpu, not '" + matcher.name + "'");
  }
  if (matcher.device == Device::gpu) {
    opt.gpu = gpu_options(a);
  } else {
    for (const char* name : {"gpu", "threads-per-block", "vertices-per-warp", "variant", "search"})
      if (a.value(name)) throw usage_error(std::string("--") + name + " is for the GPU matchers; '" + matcher.name +
                                           "' runs on the CPU (add --device gpu)");
    apply_threads(a);
  }
  opt.threads = omp_get_max_threads();
  require_available(matcher);
  const MatcherInfo& exact = find_matcher("exact");
  if (a.flag("gto")) {
    try {
      require_available(exact);
    } catch (const error& e) {
      throw error(std::string("--gto needs the exact optimum: ") + e.what());
    }
  }
  const std::string& file = a.positional()[0];

  const LoadedGraph graph = naming_file(file, [&] { return graph_from_file(read_matrix_market(file), view, precision); });
  MatchRun run = naming_file(file, [&] { return run_matcher(matcher, graph.ref(), graph.kind, opt); });
  if (!run.report.valid)
    throw error("matcher '" + matcher.name + "' returned an invalid matching on " + file + ": " +
                run.report.violation);
  std::optional<double> gto;
  if (a.flag("gto")) {
    const double optimum = &matcher == &exact ? run.report.weight
                                              : run_matcher(exact, graph.ref(), graph.kind, opt).report.weight;
    gto = gto_percent(run.report.weight, optimum);
  }
  if (const auto out = a.value("out")) write_mates(*out, run.matching);

  const MatchReport& r = run.report;
  if (a.flag("json")) {
    std::printf("{\"algo\": %s, \"file\": %s, \"graph\": %s, \"n\": %d, \"edges\": %lld, "
                "\"weight\": %.17g, \"cardinality\": %lld, \"time_s\": %.6g, \"valid\": %s, "
                "\"threads\": %d, \"gto\": ",
                json_string(r.algo).c_str(), json_string(file).c_str(),
                json_string(kinds_string(graph.kind)).c_str(), r.n, static_cast<long long>(r.edges), r.weight,
                static_cast<long long>(r.cardinality), r.time_s, r.valid ? "true" : "false",
                matcher.device == Device::gpu ? opt.gpu.threads : opt.threads);
    if (gto) std::printf("%.6g}\n", *gto);
    else std::printf("null}\n");
  } else {
    std::printf("%s: %s\n", file.c_str(), graph.description.c_str());
    std::printf("%s: weight %.10g, cardinality %lld, time %.6f s, valid", r.algo.c_str(), r.weight,
                static_cast<long long>(r.cardinality), r.time_s);
    if (gto) std::printf(", GTO %.4f%%", *gto);
    std::printf("\n");
  }
  if (opt.roma_report) {  // seed 000 tables 5.2-5.6: one line per phase
    std::printf("phase %6s %14s %14s %18s %12s %8s %14s %10s\n", "", "flips", "scanned", "weight", "seconds",
                "kernel", "past-bound", "fallbacks");
    std::printf("start %6s %14s %14s %18.10g %12.6f %8s %14s %10s\n", "", "-", "-", roma_report.start_weight,
                roma_report.start_seconds, "-", "-", "-");
    for (const RomaPhase& p : roma_report.phases) {
      const std::string scanned = p.scanned >= 0 ? std::to_string(p.scanned) : "-";
      const std::string past = p.past_bound >= 0 ? std::to_string(p.past_bound) : "-";
      const std::string fallbacks = p.fallback_flips >= 0 ? std::to_string(p.fallback_flips) : "-";
      std::printf("phase %6d %14lld %14s %18.10g %12.6f %8s %14s %10s\n", p.phase, static_cast<long long>(p.flips),
                  scanned.c_str(), p.weight, p.seconds, p.kernel.empty() ? "-" : p.kernel.c_str(), past.c_str(),
                  fallbacks.c_str());
    }
  }
  return 0;
}

}  // namespace matchblas::cli
