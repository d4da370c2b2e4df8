// The matchblas command line tool, run as a separate process.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/greedy.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {
struct Result {
  int status;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result cli(const check::temp_dir& dir, const std::string& args) {
  const std::string cmd = std::string("'") + MATCHBLAS_CLI + "' " + args + " >'" + (dir / "stdout").string() +
                          "' 2>'" + (dir / "stderr").string() + "'";
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
}  // namespace

TEST_CASE("list names greedy and exact with their guarantees") {
  check::temp_dir dir;
  const Result r = cli(dir, "list --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"name\": \"greedy\"") != std::string::npos);
  CHECK(r.out.find("\"guarantee\": \"greedy\"") != std::string::npos);
  CHECK(r.out.find("\"guarantee\": \"exact\"") != std::string::npos);
  CHECK(cli(dir, "--help").out.find("matchers:") != std::string::npos);
}

TEST_CASE("gen then match: the mate array is greedy's matching") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", mates = dir / "mates.txt";
  REQUIRE(cli(dir, "gen er 300 --seed 5 --ties 3 --out '" + graph.string() + "'").status == 0);
  const Result r = cli(dir, "match '" + graph.string() + "' --algo greedy --json --out '" + mates.string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (const char* key : {"\"algo\"", "\"n\": 300", "\"edges\"", "\"weight\"", "\"cardinality\"", "\"time_s\"",
                          "\"valid\": true"})
    CHECK(r.out.find(key) != std::string::npos);
  const Csr<double> g = general_graph<double>(read_matrix_market(graph.string()));
  Matching m(300);
  std::ifstream in(mates);
  for (vertex_t& v : m.mate) in >> v;
  CHECK(in.good());
  CHECK(m == greedy(g));
}

TEST_CASE("gen writes to stdout without --out, and is reproducible") {
  check::temp_dir dir;
  const Result a = cli(dir, "gen grid 4 --seed 2");
  const Result b = cli(dir, "gen grid 4 --seed 2");
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  const MmMatrix m = read_matrix_market_text(a.out);
  CHECK(m.header.rows == 16);
  CHECK(m.header.entries == 24);
}

TEST_CASE("bad input: one line on stderr, non-zero exit, no output file") {
  check::temp_dir dir;
  const auto mates = dir / "mates.txt";
  const auto bad = (check::test_data() / "mm_invalid").string();
  std::ofstream(dir / "broken.mtx") << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n";
  const std::vector<std::string> cases = {
      "match '" + (dir / "broken.mtx").string() + "' --algo greedy --out '" + mates.string() + "'",
      "match '" + (dir / "missing.mtx").string() + "' --algo greedy --out '" + mates.string() + "'",
      "match '" + (dir / "broken.mtx").string() + "' --algo no-such-matcher --out '" + mates.string() + "'",
      "match '" + (dir / "broken.mtx").string() + "' --algo greedy --bogus-option",
      "match --algo greedy",
      "gen rmat 1000 --out '" + (dir / "x.mtx").string() + "'",
      "gen nosuchkind 10",
      "frobnicate",
  };
  for (const std::string& args : cases) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status != 0);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
    CHECK(!std::filesystem::exists(mates));
    CHECK(!std::filesystem::exists(dir / "x.mtx"));
  }
  const Result r = cli(dir, "match '" + (dir / "broken.mtx").string() + "' --algo greedy");
  CHECK(r.err.find("broken.mtx:4") != std::string::npos);  // file and line
}

TEST_CASE("match works on every valid shared matrix and refuses the complex one") {
  const auto shared = check::shared_matrices();
  if (!shared) {
    MESSAGE("skipped: the shared matrices are absent");
    return;
  }
  check::temp_dir dir;
  for (const auto& e : std::filesystem::directory_iterator(*shared)) {
    const std::string name = e.path().filename().string();
    if (name.find(".mtx") == std::string::npos) continue;
    CAPTURE(name);
    const Result r = cli(dir, "match '" + e.path().string() + "' --algo greedy --json");
    if (name == "young1c.mtx") {
      CHECK(r.status == 1);
      CHECK(r.err.find("complex") != std::string::npos);
    } else {
      CHECK(r.status == 0);
      CHECK(r.out.find("\"valid\": true") != std::string::npos);
    }
  }
}
