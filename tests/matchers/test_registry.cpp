// The registry's declarations: each entry whole (every field, checked by
// registry_defects), cites its source (MatcherInfo::reference) as
// docs/REFERENCES.md lists it, and no summary or reference cites the
// project's internal names for its sources; entries chosen by fields
// (pre-pass jobs); options read once into typed structs; how a list names
// an entry with its options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <set>
#include <string>

#include "lib/named_values.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/general/suitor.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/registry.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

namespace {

// Plain string scans (std::regex draws -Wmaybe-uninitialized from GCC 12's
// headers in the sanitizer build, where warnings are errors).

bool has_year(const std::string& s) {  // 19xx or 20xx
  for (std::size_t i = 0; i + 4 <= s.size(); ++i)
    if ((s.compare(i, 2, "19") == 0 || s.compare(i, 2, "20") == 0) && std::isdigit((unsigned char)s[i + 2]) &&
        std::isdigit((unsigned char)s[i + 3]))
      return true;
  return false;
}

// "seed 000".."seed 004", "paper i/ii/iii/iv" (a whole word), "issue N": how
// the project's own notes name things, which users never see.
bool names_internal_notes(std::string s) {
  for (char& c : s) c = char(std::tolower((unsigned char)c));
  for (char d = '0'; d <= '4'; ++d)
    if (s.find(std::string("seed 00") + d) != std::string::npos) return true;
  for (const char* roman : {"i", "ii", "iii", "iv"}) {
    const std::string word = std::string("paper ") + roman;
    for (std::size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1)) {
      const std::size_t end = at + word.size();
      if (end == s.size() || !(std::isalnum((unsigned char)s[end]) || s[end] == '_')) return true;
    }
  }
  for (std::size_t at = s.find("issue "); at != std::string::npos; at = s.find("issue ", at + 1))
    if (at + 6 < s.size() && std::isdigit((unsigned char)s[at + 6])) return true;
  return false;
}

}  // namespace

TEST_CASE("the plain scans of the reference checks") {
  CHECK(has_year("Parallel Computing 2015"));
  CHECK(!has_year("sec. 3.3.1"));
  CHECK(names_internal_notes("see Seed 003"));
  CHECK(names_internal_notes("as in paper III."));
  CHECK(names_internal_notes("issue 12"));
  CHECK(!names_internal_notes("paper index, the issue of ties"));
}

TEST_CASE("every registry entry has a reference, and docs/REFERENCES.md lists it with the same text") {
  const std::string doc = check::slurp(check::test_data().parent_path().parent_path() / "docs" / "REFERENCES.md");
  REQUIRE(!doc.empty());
  std::set<std::string> names;
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    CHECK(names.insert(m.name).second);
    CHECK(m.reference.size() > 20);
    CHECK((has_year(m.reference) || m.reference.find("course") != std::string::npos));  // a year (or the course texts)
    CHECK(!names_internal_notes(m.reference));
    CHECK(!names_internal_notes(m.summary));
    const std::string row = "| `" + m.name + "` | " + to_string(m.problem) + " | " + m.reference + " |\n";
    CHECK_MESSAGE(doc.find(row) != std::string::npos, row);
  }
  // And no row for an entry that is gone.
  const std::string row_start = "\n| `";
  int rows = 0;
  for (std::size_t at = doc.find(row_start); at != std::string::npos; at = doc.find(row_start, at + 1)) {
    const std::size_t from = at + row_start.size(), to = doc.find("` |", from);
    if (to == std::string::npos) continue;
    const std::string name = doc.substr(from, to - from);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) continue;
    ++rows;
    CHECK_MESSAGE(names.count(name) == 1, name);
  }
  CHECK(rows == int(names.size()));
}

TEST_CASE("every entry is one whole declaration: no field missing") {
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    const std::vector<std::string> defects = registry_defects(m, matchers());
    for (const std::string& d : defects) MESSAGE(d);
    CHECK(defects.empty());
  }
}

TEST_CASE("registry_defects names each missing or wrong field") {
  MatcherInfo m = find_matcher("suitor");
  REQUIRE(registry_defects(m, matchers()).empty());
  m.reference.clear();
  m.memory = {};
  m.guarantee = "b-greedy";  // another problem's
  m.twin = "no-such-entry";
  const std::vector<std::string> d = registry_defects(m, matchers());
  CHECK(d.size() == 4);
  for (const char* what : {"no reference", "no memory", "no guarantee", "twin that is not"}) {
    CAPTURE(what);
    CHECK(std::any_of(d.begin(), d.end(), [&](const std::string& x) { return x.find(what) != std::string::npos; }));
  }
  MatcherInfo b = find_matcher("cardinality", Problem::bipartite);
  b.job = 0;
  b.run = MatchRunner{};
  CHECK(registry_defects(b, matchers()).size() == 2);  // no job, no runner of its problem
}

TEST_CASE("each pre-pass job has exactly one default entry, chosen by its fields") {
  const std::map<int, std::string> want = {
      {1, "cardinality"}, {2, "bottleneck"}, {3, "bottleneck"}, {4, "max-sum"}, {5, "max-product"}};
  for (const auto& [job, name] : want) {
    CAPTURE(job);
    CHECK(find_prepass_job(job).name == name);
    int defaults = 0;
    for (const MatcherInfo& m : matchers())
      defaults += m.problem == Problem::bipartite && m.job == (job == 3 ? 2 : job) && m.device == Device::cpu &&
                  m.deterministic && m.guarantee != "approximate";
    CHECK(defaults == 1);
  }
  CHECK(&find_prepass_job(4) == &find_prepass_job(4));
  for (const int bad : {0, 6, -1}) CHECK_THROWS_AS(find_prepass_job(bad), invalid_input);
}

TEST_CASE("parse_options reads an entry's options once into the struct its runner receives") {
  const MatcherInfo& gpu = find_matcher("suitor-gpu");
  const OptionValues v = parse_options(gpu, {{"threads-per-block", "96"}, {"variant", "hybrid"}});
  CHECK(v.typed<SuitorGpuOptions>().threads_per_block == 96);
  CHECK(v.typed<SuitorGpuOptions>().variant == SuitorGpuVariant::hybrid);
  CHECK(v.typed<SuitorGpuOptions>().vertices_per_warp == 8);  // the spec's default
  // Jobs 4-5's bids: the word reaches PrepassOptions; --parallel-bids
  // alone is the asynchronous bids, and with --bids it is refused.
  for (const char* job : {"max-sum", "max-product"}) {
    using Bids = PrepassOptions::Bids;
    const MatcherInfo& m = find_matcher(job, Problem::bipartite);
    CHECK(parse_options(m, {{"bids", "jacobi"}}).typed<PrepassOptions>().bids == Bids::jacobi);
    CHECK(parse_options(m, {{"bids", "sequential"}}).typed<PrepassOptions>().bids == Bids::sequential);
    CHECK(parse_options(m, {}).typed<PrepassOptions>().bids == Bids::jacobi);
    CHECK(parse_options(m, {{"parallel-bids", ""}}).typed<PrepassOptions>().bids == Bids::asynchronous);
    for (const char* word : {"jacobi", "sequential"})
      CHECK_THROWS_WITH_AS(parse_options(m, {{"bids", word}, {"parallel-bids", ""}}), doctest::Contains("choose one"),
                           invalid_input);
    CHECK_THROWS_WITH_AS(parse_options(m, {{"bids", "gauss"}}), doctest::Contains("--bids"), invalid_input);
  }
  CHECK_THROWS_AS(v.typed<int>(), std::logic_error);
  CHECK_THROWS_WITH_AS(parse_options(gpu, {{"threads-per-block", "100"}}),
                       doctest::Contains("threads-per-block must be a multiple of 32"), invalid_input);
  CHECK_THROWS_AS(parse_options(gpu, {{"threads-per-block", "2048"}}), invalid_input);  // the spec's range
  // The variant's words are the parser's table.
  CHECK(gpu.option("variant")->words == names_of(suitor_gpu_variant_names));
  // Byte counts: digits with an optional K, M, G or T (powers of 1024), then B or iB.
  CHECK(v.typed<SuitorGpuOptions>().device_memory == 0);
  CHECK(parse_options(gpu, {{"device-memory", "512M"}}).typed<SuitorGpuOptions>().device_memory == 512u << 20);
  const MatcherInfo& b_gpu = find_matcher("b-suitor-gpu", Problem::b_matching);
  using BRead = BSuitorGpuOptions;
  CHECK(parse_options(b_gpu, {{"device-memory", "4GiB"}}).typed<BRead>().device_memory == std::size_t(4) << 30);
  CHECK(parse_options(b_gpu, {{"device-memory", "4096"}}).typed<BRead>().device_memory == 4096);
  CHECK(parse_options(b_gpu, {{"device-memory", "2kb"}}).typed<BRead>().device_memory == 2048);
  CHECK(parse_options(b_gpu, {}).typed<BRead>().device_memory == 0);
  // b-suitor-gpu's first-round placement: atomic unless asked; the words are the parser's.
  CHECK(parse_options(b_gpu, {}).typed<BRead>().first_round == BSuitorPlacement::atomic);
  CHECK(parse_options(b_gpu, {{"placement", "sorted"}}, Precision::float32).typed<BRead>().first_round ==
        BSuitorPlacement::sorted);
  // sorted where it cannot run is refused as the options are read
  CHECK_THROWS_WITH_AS(parse_options(b_gpu, {{"placement", "sorted"}}), doctest::Contains("float weights"),
                       invalid_input);
  CHECK_THROWS_WITH_AS(parse_options(b_gpu, {{"placement", "sorted"}, {"device-memory", "1G"}}, Precision::float32),
                       doctest::Contains("--device-memory"), invalid_input);
  for (const std::string& word : b_gpu.option("placement")->words)
    CHECK(to_string(parse_b_suitor_placement(word)) == word);
  CHECK_THROWS_AS(parse_options(b_gpu, {{"placement", "auto"}}), invalid_input);
  for (const char* bad : {"1.5G", "4Q", "", "G", "-1", "12GG", "99999999999T"})
    CHECK_THROWS_WITH_AS(parse_options(b_gpu, {{"device-memory", bad}}), doctest::Contains("must be a byte count"),
                         invalid_input);
  const MatcherInfo& roma = find_matcher("roma");
  CHECK_THROWS_AS(parse_options(roma, {{"exact-auction", ""}, {"start", "greedy"}}), invalid_input);
  CHECK(parse_options(roma, {{"phases", "3"}}).typed<RomaOptions>().phases == 3);
  // --scan auto (the default) is resolved per run: changed after the
  // assignment start (the default start) from changed_scan_from vertices
  // on, all otherwise; an explicit scan is kept.
  const auto scan_of = [&](const std::map<std::string, std::string>& given) {
    return parse_options(roma, given).typed<RomaOptions>().scan;
  };
  CHECK(parse_options(roma, {}).typed<RomaOptions>().start == RomaStart::assignment);
  CHECK(scan_of({}) == RomaScan::automatic);
  CHECK(scan_of({{"scan", "auto"}}) == RomaScan::automatic);
  CHECK(scan_of({{"scan", "all"}}) == RomaScan::all);
  CHECK(scan_of({{"scan", "changed"}}) == RomaScan::changed);
  CHECK(RomaOptions{}.scan == RomaScan::automatic);
  const std::int64_t large = changed_scan_from, small = changed_scan_from - 1;
  CHECK(scan_to_run(RomaScan::automatic, RomaStart::assignment, large) == RomaScan::changed);
  CHECK(scan_to_run(RomaScan::automatic, RomaStart::assignment, small) == RomaScan::all);
  for (const RomaStart start :
       {RomaStart::neighbour, RomaStart::half, RomaStart::shuffled, RomaStart::random, RomaStart::greedy}) {
    CAPTURE(to_string(start));
    CHECK(scan_to_run(RomaScan::automatic, start, large) == RomaScan::all);
    CHECK(scan_to_run(RomaScan::changed, start, small) == RomaScan::changed);
  }
  CHECK(scan_to_run(RomaScan::all, RomaStart::assignment, large) == RomaScan::all);
  CHECK_THROWS_AS(parse_options(roma, {{"scan", "some"}}), invalid_input);
}

TEST_CASE("every problem's row names its guarantees, and every entry's problem has a row") {
  for (const MatcherInfo& m : matchers()) CHECK_NOTHROW(problem_info(m.problem));
  for (const ProblemInfo& p : problems()) {
    CHECK(std::string(p.name).size() > 0);
    CHECK(!p.guarantees.empty());
  }
}

TEST_CASE("no family folder includes another family's headers (shared code lives in matchers/common/)") {
  namespace fs = std::filesystem;
  const fs::path matchers = check::test_data().parent_path().parent_path() / "matchers";
  REQUIRE(fs::is_directory(matchers));
  // The exceptions, an algorithm's dispatch rather than shared code:
  // b-suitor-gpu with b = 1 everywhere runs suitor-gpu, and suitor-gpu on a
  // graph larger than the device runs b-suitor-gpu's streamed rounds (b = 1).
  const std::set<std::string> allowed = {"b_matching/b_suitor_gpu.cu -> general/suitor.hpp",
                                         "general/suitor_gpu.cu -> b_matching/b_matching.hpp"};
  const std::string include = "#include \"matchers/";
  int files = 0;
  for (const fs::directory_entry& family : fs::directory_iterator(matchers)) {
    if (!family.is_directory() || family.path().filename() == "common") continue;
    const std::string name = family.path().filename().string();
    for (const fs::directory_entry& f : fs::recursive_directory_iterator(family.path())) {
      if (!f.is_regular_file()) continue;
      ++files;
      const std::string text = check::slurp(f.path());
      for (std::size_t at = text.find(include); at != std::string::npos; at = text.find(include, at + 1)) {
        const std::size_t from = at + include.size(), slash = text.find('/', from), quote = text.find('"', from);
        if (slash == std::string::npos || quote == std::string::npos || slash > quote) continue;  // matchers/X.hpp
        const std::string other = text.substr(from, slash - from);
        if (other == name || other == "common") continue;
        const std::string edge = name + "/" + f.path().filename().string() + " -> " + other + "/" +
                                 text.substr(slash + 1, quote - slash - 1);
        CHECK_MESSAGE(allowed.count(edge) == 1, edge);
      }
    }
  }
  CHECK(files > 50);
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
