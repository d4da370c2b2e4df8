// The GPU ops on caller-owned device arrays in a build without CUDA: each
// says so (ops/gpu_device_entries.hpp).
#include <cstdint>
#include <string>

#include "lib/error.hpp"
#include "ops/gpu_device_entries.hpp"

namespace matchblas::ops {

namespace {
[[noreturn]] void no_cuda(const char* op) { throw error(std::string(op) + " needs CUDA, which this build lacks"); }
}  // namespace

template <class W>
void argmax_rows_on_device(const DeviceCsrArrays<W>&, const std::uint8_t*, const std::uint8_t*, const W*,
                           const vertex_t*, vertex_t*, W*, int, void*) {
  no_cuda("argmax on device arrays");
}

template <class T>
void assign_on_device(T*, std::size_t, const std::uint8_t*, const T*, T, int, void*) {
  no_cuda("assign on device arrays");
}

template <class W>
OwnedDeviceCsr<W> select_free_on_device(const DeviceCsrArrays<W>&, const vertex_t*, int, void*) {
  no_cuda("select on device arrays");
}

void free_on_device(void*, int) noexcept {}

void copy_from_device(void*, const void*, std::size_t, int, void*, const char*) { no_cuda("copying device arrays"); }

void copy_to_device(void*, const void*, std::size_t, int, void*, const char*) { no_cuda("copying device arrays"); }

void expect_device_array(const void*, int, const char*, std::size_t) { no_cuda("checking device arrays"); }

MATCHBLAS_INSTANTIATE_DEVICE_ENTRIES

}  // namespace matchblas::ops
