// mcvitie-wilson-gpu (matchers/gpu.hpp): the same man-optimal stable
// matching as Gale-Shapley on easy (SMI) and hard (identical complete lists)
// instances, repeated (the chains race); the independent checker finds it
// stable.
#include <doctest/doctest.h>

#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "matchers/marriage/stable_marriage.hpp"

using namespace matchblas;

TEST_CASE("mcvitie-wilson-gpu equals Gale-Shapley and is stable, repeated") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    const MarriageInstance inst = easy_marriage(vertex_t(seed * 97 % 5000), 0.05 * double(seed % 5), seed);
    const RankedLists p = rank_lists(inst);
    const Marriage ref = gale_shapley(p);
    for (int repeat = 0; repeat < 3; ++repeat) {
      const Marriage m = mcvitie_wilson_gpu(p);
      INFO(marriage_violation(inst, m));
      REQUIRE(marriage_violation(inst, m).empty());
      REQUIRE(m == ref);
    }
  }
  for (vertex_t n : {0, 1, 2, 100, 1000}) {
    CAPTURE(n);
    const IdenticalPreferences hard = hard_marriage(n, 3);
    const Marriage ref = gale_shapley(hard);
    for (int repeat = 0; repeat < 3; ++repeat) REQUIRE(mcvitie_wilson_gpu(hard) == ref);
    CHECK(marriage_violation(explicit_instance(hard), mcvitie_wilson_gpu(hard)).empty());
  }
  IdenticalPreferences bad = hard_marriage(4, 1);
  bad.women_order[0] = bad.women_order[1];
  CHECK_THROWS_AS(mcvitie_wilson_gpu(bad), invalid_input);
  CHECK_THROWS_WITH_AS(mcvitie_wilson_gpu(hard_marriage(4, 1), 4096), doctest::Contains("no GPU with id 4096"),
                       invalid_input);
}
