// Names and checks of the GPU matchers' options (matchers/gpu.hpp); built in
// every configuration, with or without CUDA.
#include <array>
#include <string>
#include <utility>

#include "lib/error.hpp"
#include "matchers/gpu.hpp"

namespace matchblas {

namespace {
constexpr std::array<std::pair<std::string_view, SuitorGpuVariant>, 4> variant_names{{
    {"nosync", SuitorGpuVariant::no_sync},
    {"synclb", SuitorGpuVariant::sync_lb},
    {"syncnolb", SuitorGpuVariant::sync_no_lb},
    {"hybrid", SuitorGpuVariant::hybrid},
}};
constexpr std::array<std::pair<std::string_view, SuitorGpuSearch>, 3> search_names{{
    {"auto", SuitorGpuSearch::automatic},
    {"champions", SuitorGpuSearch::champions},
    {"walk", SuitorGpuSearch::walk},
}};
constexpr std::array<std::pair<std::string_view, RomaGpuKernel>, 4> kernel_names{{
    {"auto", RomaGpuKernel::automatic},
    {"cluster", RomaGpuKernel::cluster},
    {"stream", RomaGpuKernel::stream},
    {"queued", RomaGpuKernel::queued},
}};

// The value named `name` in `names`, or invalid_input naming `what` and
// listing the names; and the name of a value.
template <class E, std::size_t N>
E parse_named(const std::array<std::pair<std::string_view, E>, N>& names, std::string_view name,
              const std::string& what) {
  std::string known;
  for (const auto& [n, v] : names) {
    if (n == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw invalid_input("unknown " + what + " '" + std::string(name) + "' (known: " + known + ")");
}
template <class E, std::size_t N>
std::string name_of(const std::array<std::pair<std::string_view, E>, N>& names, E value) {
  for (const auto& [n, v] : names)
    if (v == value) return std::string(n);
  return "?";
}
}  // namespace

SuitorGpuVariant parse_suitor_gpu_variant(std::string_view name) {
  return parse_named(variant_names, name, "suitor-gpu variant");
}
std::string to_string(SuitorGpuVariant v) { return name_of(variant_names, v); }

SuitorGpuSearch parse_suitor_gpu_search(std::string_view name) {
  return parse_named(search_names, name, "suitor-gpu search");
}
std::string to_string(SuitorGpuSearch s) { return name_of(search_names, s); }

RomaGpuKernel parse_roma_gpu_kernel(std::string_view name) {
  return parse_named(kernel_names, name, "roma-gpu kernel");
}
std::string to_string(RomaGpuKernel k) { return name_of(kernel_names, k); }

void check_gpu_options(const GpuOptions& opt) {
  const auto expect = [](bool ok, const std::string& what) {
    if (!ok) throw invalid_input("GPU options: " + what);
  };
  expect(opt.device >= 0, "device must be >= 0, got " + std::to_string(opt.device));
  expect(opt.threads >= 0, "threads must be >= 0, got " + std::to_string(opt.threads));
  expect(opt.threads_per_block >= 32 && opt.threads_per_block <= 1024 && opt.threads_per_block % 32 == 0,
         "threads-per-block must be a multiple of 32 in [32, 1024], got " + std::to_string(opt.threads_per_block));
  expect(opt.vertices_per_warp >= 1 && opt.vertices_per_warp <= 1024,
         "vertices-per-warp must be in [1, 1024], got " + std::to_string(opt.vertices_per_warp));
  expect(opt.hub_degree >= 32, "hub-degree must be >= 32, got " + std::to_string(opt.hub_degree));
  expect(opt.adaptive_min_entries >= 0,
         "adaptive-min-entries must be >= 0, got " + std::to_string(opt.adaptive_min_entries));
  expect(opt.lb_rounds >= 0, "lb-rounds must be >= 0, got " + std::to_string(opt.lb_rounds));
}

}  // namespace matchblas
