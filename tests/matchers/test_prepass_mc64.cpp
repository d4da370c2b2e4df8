// The pre-pass against MC64 itself (SuperLU's copy, mc64ad_, compiled from
// upstream SuperLU's source: Debian's package stubs it out; jobs 2, 4 and 5
// — SuperLU's copy leaves job 1 out): on every square matrix of the shared
// collection and on random square matrices with ties, the matched count
// equals MC64's and the objective equals MC64's within 1e-9 relative on
// structurally nonsingular matrices. On singular ones MC64 keeps the first
// maximum set of columns it meets, so the pre-pass (the best over all
// maximum matchings) must be at least as good. Skipped without the reference.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "ops/transpose.hpp"
#include "tests/check/check.hpp"
#include "tests/check/mc64_reference.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;

#if MATCHBLAS_HAVE_MC64
namespace {

using check::mc64;
using check::Mc64Result;
using check::mc64_objective;

void compare(const std::string& name, const Csr<double>& a) {
  for (int job : {2, 4, 5}) {
    INFO(name << " job " << job);
    const Mc64Result ref = mc64(a, job);
    REQUIRE(ref.info >= 0);
    const PrepassResult r = prepass(a, {.job = job});
    CHECK(r.mates.matched == ref.num);
    const double want = mc64_objective(a, ref.cperm, job);
    if (!std::isfinite(want) || !std::isfinite(r.objective)) {  // a zero had to be matched
      CHECK(r.objective == want);
      continue;
    }
    if (ref.num == a.n_rows) CHECK(r.objective == doctest::Approx(want).epsilon(1e-9));
    else CHECK(r.objective >= want - 1e-9 * std::fabs(want));
  }
}

}  // namespace

TEST_CASE("prepass vs MC64 (SuperLU's mc64ad_): shared square matrices") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("shared matrices absent (MATCHBLAS_SHARED_MATRICES): skipped");
    return;
  }
  int compared = 0;
  for (const check::SharedMatrix& sm : check::shared_prepass_matrices()) {
    if (sm.a.n_rows != sm.a.n_cols || sm.a.num_entries() == 0) continue;
    compare(sm.file, sm.a);
    ++compared;
  }
  MESSAGE("compared " << compared << " square matrices with MC64");
  CHECK(compared >= 30);
}

TEST_CASE("prepass vs MC64 (SuperLU's mc64ad_): random square matrices with ties") {
  std::mt19937 rng(64);
  for (int trial = 0; trial < 300; ++trial) {
    const vertex_t n = 1 + static_cast<vertex_t>(rng() % 60);
    Csr<double> a = check::random_matrix(n, n, 0.02 + (rng() % 20) / 100.0, trial % 3 == 0 ? 4 : 0, rng());
    for (double& w : a.weights) w *= (rng() & 1) ? 1 : -1;
    if (a.num_entries() == 0) continue;
    compare("random " + std::to_string(trial), a);
  }
}
#else
TEST_CASE("prepass vs MC64: no MC64 reference at build time") {
  MESSAGE("no MC64 reference (Debian's SuperLU stubs mc64ad_ out; scripts/fetch_mc64.sh fetches upstream's into "
          ".ref/, then reconfigure): the comparison with MC64 is skipped");
}
#endif
