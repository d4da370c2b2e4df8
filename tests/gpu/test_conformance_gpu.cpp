// Every GPU entry of the registry against its declared guarantee, the same
// checks as the CPU entries' (tests/check/conformance.hpp). The GPU suite
// reports "skipped" without a usable GPU.
#include <doctest/doctest.h>

#include "matchers/registry.hpp"
#include "tests/check/conformance.hpp"

namespace matchblas {

TEST_CASE("every GPU entry of the registry meets its guarantee") {
  int checked = 0;
  for (const MatcherInfo& m : matchers()) {
    if (m.device != Device::gpu) continue;
    REQUIRE_MESSAGE(!m.unavailable, "'" << m.name << "' is unavailable in a build that runs the GPU suite");
    CAPTURE(m.name);
    check::require_conformance(m);
    ++checked;
  }
  CHECK(checked >= 8);
}

}  // namespace matchblas
