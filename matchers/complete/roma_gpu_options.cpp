// Names of roma-gpu's phase kernels (matchers/complete/roma.hpp); built in
// every configuration, with or without CUDA.
#include <string>

#include "lib/named_values.hpp"
#include "matchers/complete/roma.hpp"

namespace matchblas {

namespace {
constexpr NamedValues<RomaGpuKernel, 4> kernel_names{{
    {"auto", RomaGpuKernel::automatic},
    {"cluster", RomaGpuKernel::cluster},
    {"stream", RomaGpuKernel::stream},
    {"queued", RomaGpuKernel::queued},
}};
}  // namespace

RomaGpuKernel parse_roma_gpu_kernel(std::string_view name) {
  return parse_named(kernel_names, name, "roma-gpu kernel");
}
std::string to_string(RomaGpuKernel k) { return name_of(kernel_names, k); }

}  // namespace matchblas
