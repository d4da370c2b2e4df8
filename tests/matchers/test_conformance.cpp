// Every CPU entry of the registry against its declared guarantee
// (tests/check/conformance.hpp); the GPU entries are checked the same way in
// tests/gpu/test_conformance_gpu.cpp.
#include <doctest/doctest.h>

#include <filesystem>

#include "matchers/registry.hpp"
#include "tests/check/conformance.hpp"

namespace matchblas {

TEST_CASE("every CPU entry of the registry meets its guarantee") {
  int checked = 0;
  for (const MatcherInfo& m : matchers()) {
    if (m.device != Device::cpu) continue;
    if (m.unavailable) {
      MESSAGE("'" << m.name << "' skipped: " << *m.unavailable);
      continue;
    }
    CAPTURE(m.name);
    check::require_conformance(m);
    ++checked;
  }
  CHECK(checked >= 20);  // the references, the 1/2 family, ROMA, b-matching and marriage
}

TEST_CASE("the registry is consistent: unique names, twins both ways, OpenMP only on the CPU, options well formed") {
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    int same_name = 0;
    for (const MatcherInfo& other : matchers()) same_name += other.name == m.name;
    CHECK(same_name == 1);
    CHECK(!m.guarantee.empty());
    CHECK(!m.summary.empty());
    CHECK(std::filesystem::is_directory(std::filesystem::path(MATCHBLAS_TEST_DATA) / ".." / ".." / "matchers" / m.family));
    if (!m.twin.empty()) {
      const MatcherInfo& twin = find_matcher(m.twin, m.problem);
      CHECK(twin.device != m.device);
      CHECK(twin.twin == m.name);
    }
    if (m.problem == Problem::matching || m.problem == Problem::b_matching) CHECK(m.kinds != 0);
    if (m.problem == Problem::bipartite) CHECK((m.job >= 1 && m.job <= 5));
    if (m.threaded) CHECK(m.device == Device::cpu);  // OpenMP threads: a CPU entry
    for (const OptionSpec& s : m.options) {
      CAPTURE(s.name);
      CHECK(!s.help.empty());
      // Every default passes the entry's own option parsing.
      std::map<std::string, std::string> given;
      if (s.type != OptionSpec::Type::flag) given[s.name] = s.fallback;
      else continue;
      CHECK_NOTHROW(parse_options(m, given));
    }
  }
}

TEST_CASE("options: an option an entry does not take names the entries that do; values are checked") {
  const MatcherInfo& greedy = find_matcher("greedy");
  const std::string phases_takers = takers("phases", Problem::matching);
  CHECK(phases_takers.find("roma-sparse") != std::string::npos);
  CHECK(phases_takers.find("roma-gpu-2") != std::string::npos);
  CHECK_THROWS_WITH_AS(parse_options(greedy, {{"phases", "3"}}),
                       ("--phases is for " + phases_takers + ", not 'greedy'").c_str(), invalid_input);
  CHECK_THROWS_WITH_AS(parse_options(greedy, {{"no-such", "3"}}), "--no-such is not an option of 'greedy'",
                       invalid_input);
  const MatcherInfo& roma = find_matcher("roma");
  CHECK_THROWS_AS(parse_options(roma, {{"phases", "-1"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(roma, {{"phases", "2x"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(roma, {{"min-gain", "nan"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(roma, {{"start", "sorted"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(roma, {{"exact-auction", ""}, {"start", "neighbour"}}),
                  invalid_input);  // needs --start assignment, roma's default
  CHECK_NOTHROW(parse_options(roma, {{"exact-auction", ""}}));
  CHECK_THROWS_AS(parse_options(find_matcher("rama"), {{"exact-auction", ""}}), invalid_input);  // rama: neighbour
  const OptionValues v = parse_options(roma, {{"phases", "3"}});
  CHECK(v.integer("phases") == 3);
  CHECK(v.real("min-gain") == 1e-5);  // the default
  // roma's default; rama's is the neighbour start of N. H. Hovland, "Maximum
  // weighted matching on a GPU", Master's thesis, University of Bergen, 2020,
  // sec. 5.5.7.
  CHECK(v.word("start") == "assignment");
  CHECK(parse_options(find_matcher("rama"), {}).word("start") == "neighbour");
  CHECK(!v.flag("phase-report"));
  const MatcherInfo& fast = find_matcher("roma-gpu");
  CHECK_THROWS_AS(parse_options(fast, {{"bf16", ""}}, Precision::float64), invalid_input);
  CHECK_NOTHROW(parse_options(fast, {{"bf16", ""}}, Precision::float32));
  CHECK_THROWS_AS(parse_options(fast, {{"kernel", "stream"}, {"cluster", "2"}}), invalid_input);
  CHECK_THROWS_AS(parse_options(find_matcher("suitor-gpu"), {{"threads-per-block", "100"}}), invalid_input);
}

TEST_CASE("lookups: by problem, twins by the field, runners by problem") {
  CHECK(find_matcher("b-suitor", Problem::b_matching).problem == Problem::b_matching);
  CHECK_THROWS_WITH_AS(find_matcher("b-suitor"), "'b-suitor' computes a b-matching, not a matching", invalid_input);
  CHECK(on_device(find_matcher("suitor"), Device::gpu).name == "suitor-gpu");
  CHECK(on_device(find_matcher("roma-gpu"), Device::cpu).name == "roma");
  CHECK(on_device(find_matcher("mcvitie-wilson", Problem::marriage), Device::gpu).name == "mcvitie-wilson-gpu");
  CHECK_THROWS_AS(on_device(find_matcher("pga"), Device::gpu), invalid_input);
  const Csr<double> g;
  CHECK_THROWS_AS(run_b_matching(find_matcher("greedy"), &g, {}, {}), invalid_input);
}

}  // namespace matchblas
