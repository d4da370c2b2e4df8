// The doctest main of the test suites. The GPU suite (MATCHBLAS_GPU_SUITE)
// exits with 77, which CTest reports as "skipped", when no GPU can be used.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "ops/gpu/device.hpp"

int main(int argc, char** argv) {
#ifdef MATCHBLAS_GPU_SUITE
  if (matchblas::gpu::device_count() == 0) {
    std::printf("skipped: no usable CUDA GPU here (%s)\n",
                matchblas::gpu::unavailable_reason().c_str());
    return 77;
  }
#endif
  doctest::Context context(argc, argv);
  return context.run();
}
