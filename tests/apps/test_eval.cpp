// `matchblas eval`, run as a separate process: its rows against direct
// `matchblas match --json` runs, the optimum and GTO, the pictures, a
// malformed matrix in the set, a timeout, a killed run resumed, usage errors.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
using namespace matchblas;

using Result = check::CliResult;
using check::slurp;

std::string q(const fs::path& p) { return check::shell_quoted(p); }
Result cli(const check::temp_dir& dir, const std::string& args) { return check::run_cli(dir, args); }

// RFC 4180 rows: quoted fields with doubled quotes, commas and newlines inside.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  const std::string text = slurp(p);
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
    } else if (c == '\n') {
      record.push_back(field);
      records.push_back(record);
      record.clear();
      field.clear();
    } else {
      field += c;
    }
  }
  REQUIRE(record.empty());  // the file ends with a newline
  REQUIRE(!records.empty());
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t r = 1; r < records.size(); ++r) {
    REQUIRE(records[r].size() == records[0].size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < records[0].size(); ++i) row[records[0][i]] = records[r][i];
    rows.push_back(row);
  }
  (void)any;
  return rows;
}

// A number of `match --json`'s flat output.
double json_number(const std::string& json, const std::string& name) {
  const std::string key = "\"" + name + "\": ";
  const auto at = json.find(key);
  REQUIRE_MESSAGE(at != std::string::npos, name << " in " << json);
  return std::stod(json.substr(at + key.size()));
}

bool have_exact(const check::temp_dir& dir) {
  const std::string out = cli(dir, "list --json").out;
  const auto at = out.find("\"name\": \"exact\"");
  REQUIRE(at != std::string::npos);
  return out.find("\"available\": true", at) < out.find('}', at);
}

bool have_matplotlib() {
  return std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") == 0 ||
         std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}

long count_lines(const std::string& s) { return long(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("eval: every row equals a direct match --json of the same matrix and algorithm, with the optimum") {
  const std::optional<fs::path> found = check::shared_matrices();
  if (!found) {
    MESSAGE("skipped: the shared matrices are absent");
    return;
  }
  const fs::path shared = *found;
  check::temp_dir dir;
  const bool exact = have_exact(dir);
  const std::vector<std::string> files = {"494_bus.mtx", "LFAT5.mtx", "lp_afiro.mtx", "ash219.mtx"};
  std::string paths;
  for (const std::string& f : files) paths += q(shared / f) + " ";
  const Result r = cli(dir, "eval " + paths + "--algos greedy,suitor,pga,roma --reps 2 --out " + q(dir / "ev") +
                                " --cache " + q(dir / "cache") + (exact ? " --exact" : ""));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  CHECK(rows.size() == files.size() * 4 * 2);
  CHECK(count_lines(slurp(dir / "ev" / "runs.jsonl")) == long(rows.size()));
  std::set<std::string> keys;
  for (const auto& row : rows) {
    CAPTURE(row.at("path"));
    CAPTURE(row.at("algo"));
    keys.insert(row.at("path") + "|" + row.at("algo") + "|" + row.at("rep"));
    if (row.at("algo") == "roma") {  // complete graphs only: skipped with the reason
      CHECK(row.at("status") == "skipped");
      CHECK(row.at("message").find("complete") != std::string::npos);
      continue;
    }
    REQUIRE(row.at("status") == "ok");
    const Result direct = cli(dir, "match " + q(row.at("path")) + " --algo " + row.at("algo") + " --json");
    REQUIRE(direct.status == 0);
    CHECK(std::stoll(row.at("n")) == (long long)json_number(direct.out, "n"));
    CHECK(std::stoll(row.at("edges")) == (long long)json_number(direct.out, "edges"));
    CHECK(std::stoll(row.at("cardinality")) == (long long)json_number(direct.out, "cardinality"));
    CHECK(std::stod(row.at("weight")) == doctest::Approx(json_number(direct.out, "weight")).epsilon(1e-12));
    CHECK(std::stod(row.at("compute_s")) >= 0);
    CHECK(std::stod(row.at("max_rss_mb")) > 0);
    CHECK(!row.at("git").empty());
    if (exact) {
      const Result opt = cli(dir, "match " + q(row.at("path")) + " --algo exact --json");
      REQUIRE(opt.status == 0);
      const double optimum = json_number(opt.out, "weight");
      CHECK(std::stod(row.at("optimum")) == doctest::Approx(optimum).epsilon(1e-12));
      const double gto = 100.0 * (optimum - std::stod(row.at("weight"))) / optimum;
      CHECK(std::stod(row.at("gto_percent")) == doctest::Approx(gto).epsilon(1e-9));
    } else {
      CHECK(row.at("gto_percent").empty());
    }
  }
  CHECK(keys.size() == rows.size());
  const std::string summary = slurp(dir / "ev" / "summary.md");
  for (const char* a : {"| greedy |", "| suitor |", "| pga |", "| roma | 0 |"}) CHECK(summary.find(a) != std::string::npos);

  if (exact) {  // a second run reads the optima from the cache: no "optimum of" line, even with --verbose
    const Result again = cli(dir, "eval " + paths + "--algos greedy --out " + q(dir / "ev2") + " --cache " +
                                      q(dir / "cache") + " --exact --no-plots --verbose");
    REQUIRE(again.status == 0);
    CHECK(again.err.find("the optimum of") == std::string::npos);
    for (const auto& row : read_csv(dir / "ev2" / "runs.csv")) CHECK(!row.at("optimum").empty());
  }
  if (!have_matplotlib()) {
    MESSAGE("pictures not checked: no python3 with matplotlib (scripts/install_deps.sh installs it)");
    return;
  }
  std::vector<std::string> pictures = {"profile_time", "quality_time", "speedup"};
  if (exact) pictures.push_back("profile_quality");
  for (const std::string& p : pictures) {
    CAPTURE(p);
    const std::string png = slurp(dir / "ev" / (p + ".png"));
    REQUIRE(png.size() > 1000);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    const std::string svg = slurp(dir / "ev" / (p + ".svg"));
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
  }
}

TEST_CASE("eval: a malformed matrix is a row with its error, the others run; odd names stay valid CSV") {
  check::temp_dir dir;
  fs::create_directories(dir / "set");
  REQUIRE(cli(dir, "gen er 300 --out " + q(dir / "set" / "a,b \"c\".mtx")).status == 0);
  REQUIRE(cli(dir, "gen grid 12 --out " + q(dir / "set" / "grid.mtx")).status == 0);
  {
    std::ofstream bad(dir / "set" / "bad.mtx");
    bad << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n9 1 2.0\n";
  }
  const Result r = cli(dir, "eval " + q(dir / "set") + " --algos greedy,ld --out " + q(dir / "ev") + " --no-plots");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  REQUIRE(rows.size() == 6);
  int errors = 0;
  for (const auto& row : rows) {
    if (row.at("matrix") == "bad.mtx") {
      ++errors;
      CHECK(row.at("status") == "error");
      CHECK(row.at("message").find("bad.mtx:4:") != std::string::npos);
    } else {
      CHECK(row.at("status") == "ok");
      CHECK((row.at("matrix") == "a,b \"c\".mtx" || row.at("matrix") == "grid.mtx"));
    }
  }
  CHECK(errors == 2);
  // The JSON lines hold the same name, escaped.
  CHECK(slurp(dir / "ev" / "runs.jsonl").find("\"a,b \\\"c\\\".mtx\"") != std::string::npos);
}

TEST_CASE("eval: an algorithm with options (name:option=value) runs as match with those options") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 400 --seed 3 --out " + q(dir / "g.mtx")).status == 0);
  const Result r = cli(dir, "eval " + q(dir / "g.mtx") +
                                " --algos roma-sparse:start=gpa:phases=2,roma-sparse --no-plots --out " + q(dir / "ev"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("algo") == "roma-sparse:start=gpa:phases=2");
  CHECK(rows[1].at("algo") == "roma-sparse");
  const Result direct = cli(dir, "match " + q(dir / "g.mtx") + " --algo roma-sparse --start gpa --phases 2 --json");
  REQUIRE(direct.status == 0);
  CHECK(std::stod(rows[0].at("weight")) == doctest::Approx(json_number(direct.out, "weight")).epsilon(1e-12));
}

TEST_CASE("eval: a run over --timeout is a timeout row") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 20000 --out " + q(dir / "g.mtx")).status == 0);
  const Result r = cli(dir, "eval " + q(dir / "g.mtx") + " --algos greedy --timeout 0.001 --out " + q(dir / "ev") +
                                " --no-plots");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("status") == "timeout");
  CHECK(rows[0].at("message").find("--timeout") != std::string::npos);
}

TEST_CASE("eval: a killed run resumes without rewriting or duplicating a row") {
  check::temp_dir dir;
  fs::create_directories(dir / "set");
  for (const char* n : {"a", "b", "c"})
    REQUIRE(cli(dir, std::string("gen er 200 --seed 7 --out ") + q(dir / "set" / (std::string(n) + ".mtx"))).status == 0);
  const std::string args = "eval " + q(dir / "set") + " --algos greedy,suitor,ld --reps 40 --no-plots --out " +
                           q(dir / "ev");
  const fs::path jsonl = dir / "ev" / "runs.jsonl";
  // In the background; killed (SIGKILL: no clean-up at all) after a few rows.
  REQUIRE(std::system((std::string("'") + MATCHBLAS_CLI + "' " + args + " >/dev/null 2>&1 & echo $! >" +
                       q(dir / "pid")).c_str()) == 0);
  const auto start = std::chrono::steady_clock::now();
  while (count_lines(slurp(jsonl)) < 5 && std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(std::system(("kill -9 $(cat " + q(dir / "pid") + ") 2>/dev/null; sleep 0.2").c_str()) >= 0);
  const std::string before = slurp(jsonl);
  const long kept = count_lines(before);
  CHECK(kept >= 5);
  if (kept == 360) MESSAGE("the run finished before the kill; the resume below has nothing to do");

  const Result again = cli(dir, args);  // without --resume: refused, nothing touched
  CHECK(again.status == 2);
  CHECK(again.err.find("--resume") != std::string::npos);
  CHECK(slurp(jsonl) == before);

  const Result resumed = cli(dir, args + " --resume");
  INFO(resumed.err);
  REQUIRE(resumed.status == 0);
  const std::string after = slurp(jsonl);
  CHECK(after.compare(0, before.size(), before) == 0);  // what was written stays as written
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  CHECK(rows.size() == 360);
  CHECK(count_lines(after) == 360);
  std::set<std::string> keys;
  for (const auto& row : rows) {
    keys.insert(row.at("path") + "|" + row.at("algo") + "|" + row.at("rep"));
    CHECK(row.at("status") == "ok");
  }
  CHECK(keys.size() == 360);
}

TEST_CASE("eval: bad command lines are usage errors before anything runs") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 50 --out " + q(dir / "g.mtx")).status == 0);
  const std::string g = q(dir / "g.mtx");
  for (const std::string& args : std::vector<std::string>{"eval " + g + " --algos nosuch", "eval " + g + " --algos greedy --family general",
        "eval " + g + " --family nosuch", "eval " + q(dir / "missing.mtx"), "eval",
        "eval " + g + " --algos greedy --device gpu", "eval " + g + " --baseline nosuch",
        "eval " + g + " --algos greedy:phases=3", "eval " + g + " --algos roma-sparse:start=nosuch",
        "eval " + g + " --algos roma-sparse:phases=1:phases=2", "eval " + g + " --algos louvain,greedy",
        "eval " + g + " --algos louvain --exact", "eval " + g + " --algos louvain:coloring=off"}) {
    CAPTURE(args);
    const Result r = cli(dir, args + " --out " + q(dir / "ev"));
    CHECK(r.status == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(!fs::exists(dir / "ev" / "runs.csv"));
  }
}

TEST_CASE("eval: community detection entries run as cluster: modularity and communities per row, a summary") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 300 --seed 4 --out " + q(dir / "g.mtx")).status == 0);
  {  // a rectangular matrix: skipped by community detection
    std::ofstream b(dir / "b.mtx");
    b << "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.0\n2 4 2.0\n";
  }
  const std::string plots = have_matplotlib() ? "" : " --no-plots";
  const Result r = cli(dir, "eval " + q(dir / "g.mtx") + " " + q(dir / "b.mtx") +
                                " --algos louvain,louvain-omp:resolution=2 --threads 1" + plots + " --out " + q(dir / "ev"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = read_csv(dir / "ev" / "runs.csv");
  REQUIRE(rows.size() == 4);
  int ok = 0;
  for (const auto& row : rows) {
    CAPTURE(row.at("matrix"));
    CAPTURE(row.at("algo"));
    CHECK(row.at("weight").empty());
    if (row.at("path").find("b.mtx") != std::string::npos) {  // rectangular
      CHECK(row.at("status") == "skipped");
      CHECK(row.at("message").find("square") != std::string::npos);
      continue;
    }
    REQUIRE(row.at("status") == "ok");
    ++ok;
    const bool two = row.at("algo") == "louvain-omp:resolution=2";
    const Result direct = cli(dir, "cluster " + q(dir / "g.mtx") + " --algo " + (two ? "louvain-omp --resolution 2" : "louvain") +
                                       " --threads 1 --json");
    REQUIRE(direct.status == 0);
    CHECK(std::stod(row.at("modularity")) == json_number(direct.out, "modularity"));
    CHECK(std::stod(row.at("communities")) == json_number(direct.out, "communities"));
    CHECK(std::stod(row.at("n")) == 300);
  }
  CHECK(ok == 2);
  const std::string summary = slurp(dir / "ev" / "summary.md");
  CHECK(summary.find("mean modularity") != std::string::npos);
  CHECK(summary.find("| best | modularity |") != std::string::npos);
  if (plots.empty()) CHECK(fs::exists(dir / "ev" / "quality_time.png"));
  // --family community: the CPU Louvain entries (--device cpu, the default).
  const Result f = cli(dir, "eval " + q(dir / "g.mtx") + " --family community --no-plots --out " + q(dir / "ev2"));
  INFO(f.err);
  REQUIRE(f.status == 0);
  std::set<std::string> algos;
  for (const auto& row : read_csv(dir / "ev2" / "runs.csv")) algos.insert(row.at("algo"));
  CHECK(algos.count("louvain"));
  CHECK(algos.count("louvain-omp"));
  CHECK(!algos.count("greedy"));
}

TEST_CASE("eval: a tie for the heaviest names every tied algorithm, not one of them") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 300 --seed 2 --out " + q(dir / "g.mtx")).status == 0);
  // greedy and suitor return the same matching by design.
  const Result r = cli(dir, "eval " + q(dir / "g.mtx") + " --algos greedy,suitor --no-plots --out " + q(dir / "ev"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string summary = slurp(dir / "ev" / "summary.md");
  CHECK(summary.find(" | greedy = suitor | ") != std::string::npos);
}

TEST_CASE("eval: a line per run on standard error only when it is a terminal, or with --verbose") {
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 300 --seed 2 --out " + q(dir / "g.mtx")).status == 0);
  const std::string args = "eval " + q(dir / "g.mtx") + " --algos greedy,suitor --no-plots --cache " + q(dir / "cache") +
                           (have_exact(dir) ? " --exact" : "");
  // Standard error a file: nothing (run_cli sends it to one).
  const Result quiet = cli(dir, args + " --out " + q(dir / "ev"));
  REQUIRE(quiet.status == 0);
  CHECK(quiet.err.empty());
  CHECK(quiet.out.find("eval: 2 rows in ") != std::string::npos);
  // --verbose: the lines, wherever standard error goes.
  const Result verbose = cli(dir, args + " --verbose --out " + q(dir / "ev2"));
  REQUIRE(verbose.status == 0);
  CHECK(verbose.err.find("eval [1/2] g.mtx greedy rep 1: ok ") != std::string::npos);
  CHECK(verbose.err.find("eval [2/2] g.mtx suitor rep 1: ok ") != std::string::npos);
  CHECK(cli(dir, args + " --verbose --quiet --out " + q(dir / "ev3")).status == 2);
  // A terminal (script(1) gives one): the lines.
  if (std::system("command -v script >/dev/null") != 0) {
    MESSAGE("terminal check skipped: no script(1)");
    return;
  }
  const std::string run = std::string(MATCHBLAS_CLI) + " eval " + (dir / "g.mtx").string() +
                          " --algos greedy,suitor --no-plots --out " + (dir / "ev4").string();  // quoted whole below
  REQUIRE(std::system(("script -qec " + q(run) + " /dev/null >" + q(dir / "tty.txt") + " 2>&1").c_str()) == 0);
  CHECK(slurp(dir / "tty.txt").find("eval [2/2] g.mtx suitor rep 1: ok ") != std::string::npos);
}

TEST_CASE("eval's pictures: gaps that are all 0 get a y-range from 0 and a note, not -0.04..0.04") {
  if (!have_matplotlib()) {
    MESSAGE("skipped: no python3 with matplotlib");
    return;
  }
  check::temp_dir dir;
  REQUIRE(cli(dir, "gen er 300 --seed 2 --out " + q(dir / "g.mtx")).status == 0);
  const Result r = cli(dir, "eval " + q(dir / "g.mtx") + " --algos greedy,suitor --out " + q(dir / "ev"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string svg = slurp(dir / "ev" / "quality_time.svg");  // its text kept as text
  CHECK(svg.find("every gap is 0 %") != std::string::npos);
  // The y-axis' tick labels (right-aligned text): none below 0.
  int ticks = 0;
  for (std::size_t at = svg.find("text-anchor: end"); at != std::string::npos; at = svg.find("text-anchor: end", at + 1)) {
    const std::size_t start = svg.find('>', at) + 1;
    const std::string label = svg.substr(start, svg.find('<', start) - start);
    CAPTURE(label);
    ++ticks;
    CHECK(label.rfind("\xe2\x88\x92", 0) == std::string::npos);  // U+2212, matplotlib's minus
    CHECK(label.rfind("-", 0) == std::string::npos);
  }
  CHECK(ticks >= 2);
}
