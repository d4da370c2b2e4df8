// The gpu backend of ops::assign in a build without CUDA: it says so, after
// the same argument checks as the CUDA build.
#include "lib/error.hpp"
#include "ops/assign.hpp"
#include "ops/gpu_ops.hpp"

namespace matchblas::ops {

template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const std::type_identity_t<T>> values,
                int) {
  detail::expect_assign_lengths(out.size(), mask.size(), values.size(), true);
  throw error("assign_gpu needs CUDA, which this build lacks");
}

template <class T>
void assign_gpu(std::span<T> out, std::span<const std::uint8_t> mask, std::type_identity_t<T>, int) {
  detail::expect_assign_lengths(out.size(), mask.size(), 0, false);
  throw error("assign_gpu needs CUDA, which this build lacks");
}

#define MATCHBLAS_ASSIGN_GPU(T)                                                                              \
  template void assign_gpu<T>(std::span<T>, std::span<const std::uint8_t>, std::span<const T>, int);         \
  template void assign_gpu<T>(std::span<T>, std::span<const std::uint8_t>, T, int);
MATCHBLAS_ASSIGN_GPU(std::uint8_t)
MATCHBLAS_ASSIGN_GPU(std::int32_t)
MATCHBLAS_ASSIGN_GPU(std::int64_t)
MATCHBLAS_ASSIGN_GPU(float)
MATCHBLAS_ASSIGN_GPU(double)
#undef MATCHBLAS_ASSIGN_GPU

}  // namespace matchblas::ops
