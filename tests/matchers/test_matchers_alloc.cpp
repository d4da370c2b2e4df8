// Every available CPU registry entry under allocation failure (STYLE 18):
// on a small input, the k-th allocation through operator new fails, for
// every k up to the entry's count; each run must end in out_of_memory
// naming the matcher ("out of memory in matcher 'NAME'", from the registry's
// runners) and leave nothing allocated, and the run without a failure must
// still give the same result. An exception escaping an OpenMP region would
// end the test executable (std::terminate): the threaded entries run with
// 2 threads. The leak check counts operator new / delete; the ASan build
// (scripts/test.sh) checks the rest.
#include <doctest/doctest.h>

#include <vector>

#include "matchers/registry.hpp"
#include "tests/check/check.hpp"
#include "tests/check/failing_allocator.hpp"

using namespace matchblas;
namespace alloc = matchblas::check::allocator;

TEST_CASE("every CPU matcher fails cleanly at every allocation") {
  const Csr<double> g = check::random_graph(24, 0.25, 3, 17);
  const Dense<double> complete = check::random_complete_graph(10, 3, 17);
  const Csr<double> matrix = check::random_matrix(14, 14, 0.3, 0, 17);
  MarriageInstance inst;
  inst.men = inst.women = 6;
  for (vertex_t a = 0; a < 6; ++a) {
    for (vertex_t b = 0; b < 6; ++b) inst.men_lists.push_back((a + b) % 6);
    inst.men_offsets.push_back(offset_t(inst.men_lists.size()));
    for (vertex_t b = 0; b < 6; ++b) inst.women_lists.push_back((a * 5 + b) % 6);
    inst.women_offsets.push_back(offset_t(inst.women_lists.size()));
  }
  const RankedLists lists = rank_lists(inst);
  const std::vector<int> b(std::size_t(g.n_rows), 2);
  RunOptions opt;
  opt.threads = 2;
  int entries = 0;
  for (const MatcherInfo& m : matchers()) {
    if (m.device != Device::cpu || m.unavailable) continue;
    CAPTURE(m.name);
    const std::string name = "matcher '" + m.name + "'";
    int failures = 0;
    switch (m.problem) {
      case Problem::matching: {
        const GraphRef input = m.accepts(general_graphs) ? GraphRef(&g) : GraphRef(&complete);
        const Matching want = run_matching(m, input, opt);
        Matching got;
        failures = alloc::fail_every_allocation([&] { got = run_matching(m, input, opt); }, name);
        if (m.deterministic) CHECK(got.mate == want.mate);
        break;
      }
      case Problem::b_matching: {
        const BMatching want = run_b_matching(m, &g, b, opt);
        BMatching got;
        failures = alloc::fail_every_allocation([&] { got = run_b_matching(m, &g, b, opt); }, name);
        if (m.deterministic) CHECK(got.partners == want.partners);
        break;
      }
      case Problem::marriage: {
        const Marriage want = run_marriage(m, lists, opt);
        Marriage got;
        failures = alloc::fail_every_allocation([&] { got = run_marriage(m, lists, opt); }, name);
        if (m.deterministic) CHECK(got == want);
        break;
      }
      case Problem::bipartite: {
        const PrepassResult want = run_prepass(m, matrix, opt);
        PrepassResult got;
        failures = alloc::fail_every_allocation([&] { got = run_prepass(m, matrix, opt); }, name);
        if (m.deterministic) CHECK(got.mates.row_mate == want.mates.row_mate);
        break;
      }
    }
    CHECK(failures > 0);
    ++entries;
  }
  CHECK(entries > 20);
}
