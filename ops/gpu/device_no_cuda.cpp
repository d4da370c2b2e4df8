// Device discovery for a build without CUDA: there is never a GPU.
#include "lib/error.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas::gpu {

int device_count() { return 0; }
std::string unavailable_reason() {
  return "this build has no CUDA backend (configured with MATCHBLAS_CUDA=OFF or without nvcc)";
}
std::string device_description(int id) {
  throw invalid_input("no GPU with id " + std::to_string(id) + ": this build has no CUDA backend");
}

std::string device_uuid(int) { return ""; }

void use_device(const std::string& who, int) {
  throw error(who + " needs a CUDA GPU: this build has no CUDA backend");
}

std::size_t device_memory_limit(std::size_t) {
  throw error("device_memory_limit needs a CUDA GPU: this build has no CUDA backend");
}

double measure_copy_bandwidth(int, std::size_t) {
  throw error("measure_copy_bandwidth needs a CUDA GPU: this build has no CUDA backend");
}

double measure_host_copy_bandwidth(int, std::size_t) {
  throw error("measure_host_copy_bandwidth needs a CUDA GPU: this build has no CUDA backend");
}

}  // namespace matchblas::gpu
