// The GPU is there and runs this build's kernels (the suite's main skips the
// whole GPU suite, with status 77, when it is not); a failed CUDA call
// leaves nothing behind that a later call would report as its own.
#include <doctest/doctest.h>

#include <cstddef>

#include "lib/error.hpp"
#include "matchers/bipartite/max_cardinality.hpp"
#include "ops/gpu/device.hpp"
#include "tests/check/check.hpp"

TEST_CASE("a GPU is present and describes itself") {
  const int n = matchblas::gpu::device_count();
  REQUIRE(n >= 1);
  CHECK(matchblas::gpu::unavailable_reason().empty());
  const std::string d = matchblas::gpu::device_description(0);
  MESSAGE("GPU 0: ", d);
  CHECK(d.find("sm_") != std::string::npos);
  CHECK_THROWS_AS(matchblas::gpu::device_description(n), matchblas::invalid_input);
}

TEST_CASE("a failed CUDA call does not fail the next one") {
  // An allocation far beyond any GPU fails inside measure_copy_bandwidth
  // (MATCHBLAS_CUDA_TRY); its error used to stay as the thread's last error,
  // which the next launch check (of any later call) reported as its own.
  CHECK_THROWS_AS(matchblas::gpu::measure_copy_bandwidth(0, std::size_t(1) << 60), matchblas::out_of_memory);
  const matchblas::Csr<double> a = matchblas::check::random_matrix(40, 40, 0.1, 3, 1);
  CHECK(matchblas::max_cardinality_bipartite_gpu(a).matched == matchblas::max_cardinality_bipartite(a).matched);
}
