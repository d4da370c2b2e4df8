// The checks of GpuOptions (ops/gpu/device_graph.hpp); built in every
// configuration, with or without CUDA.
#include <string>

#include "lib/error.hpp"
#include "ops/gpu/device_graph.hpp"

namespace matchblas {

void check_gpu_options(const GpuOptions& opt) {
  const auto expect = [](bool ok, const std::string& what) {
    if (!ok) throw invalid_input("GPU options: " + what);
  };
  expect(opt.device >= 0, "device must be >= 0, got " + std::to_string(opt.device));
  expect(opt.threads >= 0, "threads must be >= 0, got " + std::to_string(opt.threads));
  expect(opt.threads_per_block >= 32 && opt.threads_per_block <= GpuOptions::max_threads_per_block &&
             opt.threads_per_block % 32 == 0,
         "threads-per-block must be a multiple of 32 in [32, " + std::to_string(GpuOptions::max_threads_per_block) +
             "], got " + std::to_string(opt.threads_per_block));
}

}  // namespace matchblas
