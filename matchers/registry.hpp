// The registry: every matcher of matchblas by name, with what it accepts,
// where it runs, whether it is deterministic and what it guarantees.
// The CLI, the benchmarks and the tests find matchers here; a new matcher is
// one entry in registry.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lib/graph.hpp"
#include "lib/matching.hpp"
#include "matchers/device_graph.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/complete/roma.hpp"

namespace matchblas {

enum class Device { cpu, gpu };

struct MatchOptions {
  std::uint64_t seed = 1;  // for randomised matchers
  int threads = 0;         // CPU threads; <= 0: all
  SuitorGpuOptions gpu;    // the GPU matchers' device and launch shape
  RomaOptions roma;        // roma, rama: phases, min-gain, start (its seed is `seed` above)
  RomaGpuOptions roma_gpu; // roma-gpu: cluster, blocks per SM, bf16 (its device is gpu.device)
  RomaRun* roma_report = nullptr;  // when set, roma / rama / roma-gpu-* leave their phases there
};

struct MatcherInfo {
  std::string name;
  unsigned kinds = 0;       // GraphKind bits
  Device device = Device::cpu;
  bool deterministic = true;
  std::string guarantee;    // "greedy" (equals Greedy), "1/2", "2/3-eps", "exact", ...
  std::string summary;      // one line: the algorithm and its source
  std::function<Matching(GraphRef, const MatchOptions&)> run;
  // When set, the matcher is registered but cannot run in this build; the
  // string says why (e.g. "needs LEMON").
  std::optional<std::string> unavailable;

  bool accepts(GraphKind k) const { return (kinds & k) != 0; }
};

// Every registered matcher, in a fixed order.
const std::vector<MatcherInfo>& matchers();

// The matcher called `name`; throws invalid_input listing the known names.
const MatcherInfo& find_matcher(std::string_view name);

std::string to_string(Device d);

}  // namespace matchblas
