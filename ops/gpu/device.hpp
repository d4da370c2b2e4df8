// What the GPU backend can use on this machine. Plain header: callable from
// host code whether or not the build has CUDA.
#pragma once
#include <cstddef>
#include <string>

namespace matchblas::gpu {

// Number of CUDA devices that can run this build's kernels; 0 when the build
// has no CUDA, no driver is loaded, or no device is present.
int device_count();

// Why device_count() is 0 ("" when it is not).
std::string unavailable_reason();

// "NVIDIA H100 80GB HBM3, sm_90, 79.1 GiB" for device `id`; throws
// invalid_input when id is out of range.
std::string device_description(int id);

// Device `id`'s UUID as 32 hex digits (the same GPU gives the same string
// in every process of the node, whatever CUDA_VISIBLE_DEVICES numbers it);
// "" without CUDA or when id is not a device.
std::string device_uuid(int id);

// Makes GPU `id` current for `who` (a matcher's name, for the messages):
// throws error ("WHO needs a CUDA GPU: why") without one and invalid_input
// ("WHO: no GPU with id ID (this machine has N)") for a bad id.
void use_device(const std::string& who, int id);

// The bytes a run may take on the current GPU: `limit` when given (> 0) and
// free, else its free memory less 256 MiB for the context's own use.
std::size_t device_memory_limit(std::size_t limit);

// Device-to-device copy bandwidth of device `id` in GB/s (bytes read plus
// bytes written, per second), the best of 5 cudaMemcpy of `bytes` bytes: the
// ceiling the benchmarks report achieved bandwidth against. Throws error
// without a GPU.
double measure_copy_bandwidth(int id, std::size_t bytes);

// Host-to-device copy bandwidth of device `id` in GB/s (bytes copied per
// second), page-locked host memory, the best of 5 cudaMemcpy of `bytes`
// bytes: the bound for rows streamed from the host. Throws error without a GPU.
double measure_host_copy_bandwidth(int id, std::size_t bytes);

}  // namespace matchblas::gpu
