// The GPU is there and runs this build's kernels (the suite's main skips the
// whole GPU suite, with status 77, when it is not).
#include <doctest/doctest.h>

#include "lib/error.hpp"
#include "ops/gpu/device.hpp"

TEST_CASE("a GPU is present and describes itself") {
  const int n = matchblas::gpu::device_count();
  REQUIRE(n >= 1);
  CHECK(matchblas::gpu::unavailable_reason().empty());
  const std::string d = matchblas::gpu::device_description(0);
  MESSAGE("GPU 0: ", d);
  CHECK(d.find("sm_") != std::string::npos);
  CHECK_THROWS_AS(matchblas::gpu::device_description(n), matchblas::invalid_input);
}
