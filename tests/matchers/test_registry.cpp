// The registry's declarations a user reads: every entry cites its source
// (MatcherInfo::reference), docs/REFERENCES.md lists each entry with that
// same text, and no summary or reference cites the project's internal
// names for its sources; and how a list names an entry with its options.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>

#include "matchers/registry.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

TEST_CASE("every registry entry has a reference, and docs/REFERENCES.md lists it with the same text") {
  const std::string doc = check::slurp(check::test_data().parent_path().parent_path() / "docs" / "REFERENCES.md");
  REQUIRE(!doc.empty());
  const std::regex internal("seed 00[0-4]|paper (i|ii|iii|iv)\\b|issue [0-9]+", std::regex::icase);
  std::set<std::string> names;
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    CHECK(names.insert(m.name).second);
    CHECK(m.reference.size() > 20);
    CHECK(std::regex_search(m.reference, std::regex("(19|20)[0-9][0-9]|course")));  // a year (or the course texts)
    CHECK(!std::regex_search(m.reference, internal));
    CHECK(!std::regex_search(m.summary, internal));
    const std::string row = "| `" + m.name + "` | " + to_string(m.problem) + " | " + m.reference + " |\n";
    CHECK_MESSAGE(doc.find(row) != std::string::npos, row);
  }
  // And no row for an entry that is gone.
  const std::regex row("\n\\| `([a-z0-9-]+)` \\|");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it)
    CHECK_MESSAGE(names.count((*it)[1].str()) == 1, (*it)[1].str());
}

TEST_CASE("cite() refuses a name the registry does not have") {
  std::vector<MatcherInfo> r(1);
  r[0].name = "a";
  registry_detail::cite(r, {{"a", "X, Y, 2020"}});
  CHECK(r[0].reference == "X, Y, 2020");
  CHECK_THROWS_AS(registry_detail::cite(r, {{"b", "Z"}}), error);
}

TEST_CASE("split_named_options: a name with its options as written in a list") {
  const NamedWithOptions a = split_named_options("roma-sparse:start=gpa:phases=20:phase-report");
  CHECK(a.name == "roma-sparse");
  CHECK(a.given == std::map<std::string, std::string>{{"start", "gpa"}, {"phases", "20"}, {"phase-report", ""}});
  CHECK(split_named_options("suitor").given.empty());
  CHECK(split_named_options("x:a=b=c").given.at("a") == "b=c");
  for (const char* bad : {"", ":start=gpa", "roma:", "roma::phases=2", "roma:=3", "roma:phases=2:phases=3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(split_named_options(bad), invalid_input);
  }
}
