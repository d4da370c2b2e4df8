// Names and checks of suitor-gpu's options (matchers/general/suitor.hpp);
// built in every configuration, with or without CUDA.
#include <array>
#include <string>
#include <utility>

#include "lib/error.hpp"
#include "lib/named_values.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/general/suitor.hpp"

namespace matchblas {


SuitorGpuVariant parse_suitor_gpu_variant(std::string_view name) {
  return parse_named(suitor_gpu_variant_names, name, "suitor-gpu variant");
}
std::string to_string(SuitorGpuVariant v) { return name_of(suitor_gpu_variant_names, v); }

SuitorGpuSearch parse_suitor_gpu_search(std::string_view name) {
  return parse_named(suitor_gpu_search_names, name, "suitor-gpu search");
}
std::string to_string(SuitorGpuSearch s) { return name_of(suitor_gpu_search_names, s); }

void check_suitor_gpu_options(const SuitorGpuOptions& opt) {
  check_gpu_options(opt);
  const auto expect = [](bool ok, const std::string& what) {
    if (!ok) throw invalid_input("suitor-gpu options: " + what);
  };
  expect(opt.vertices_per_warp >= 1 && opt.vertices_per_warp <= SuitorGpuOptions::max_vertices_per_warp,
         "vertices-per-warp must be in [1, " + std::to_string(SuitorGpuOptions::max_vertices_per_warp) + "], got " + std::to_string(opt.vertices_per_warp));
  expect(opt.hub_degree >= 32, "hub-degree must be >= 32, got " + std::to_string(opt.hub_degree));
  expect(opt.adaptive_min_entries >= 0,
         "adaptive-min-entries must be >= 0, got " + std::to_string(opt.adaptive_min_entries));
  expect(opt.lb_rounds >= 0, "lb-rounds must be >= 0, got " + std::to_string(opt.lb_rounds));
}

}  // namespace matchblas
