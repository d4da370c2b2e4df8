// Hostile input and hostile environments, through the tool as a process:
// the memory check of every command (a header or an instance that claims
// more than the machine has is refused with one line before its entries
// are read; MATCHBLAS_MEMORY_AVAILABLE forces a refusal on a small input),
// the list readers' growth check, trailing data after a gzip stream, and a
// thread count the system cannot start.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;
namespace fs = std::filesystem;

namespace {
using check::slurp;
std::string q(const fs::path& p) { return check::shell_quoted(p); }
long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

// The header a 70-byte file can carry: 10^9 x 10^9 with 10^12 entries.
const std::string huge_header = "%%MatrixMarket matrix coordinate real general\n1000000000 1000000000 1000000000000\n";

// A refusal: status 1, one line naming the file (or what), "needs about" and
// "available", and no output file.
void require_refusal(const check::CliResult& r, const std::string& names, const fs::path& out) {
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find(names) != std::string::npos);
  CHECK(r.err.find("needs about") != std::string::npos);
  CHECK(r.err.find("available") != std::string::npos);
  CHECK(r.out.empty());
  CHECK(!fs::exists(out));
}
}  // namespace

TEST_CASE("memory: a header claiming 10^9 x 10^9 with 10^12 entries is refused by every command, before its entries") {
  check::temp_dir dir;
  const fs::path huge = dir / "huge.mtx", packed = dir / "huge.mtx.gz", out = dir / "out.txt";
  std::ofstream(huge) << huge_header;  // no entries: reading them would be a different error
  // A small gzip whose header claims the same, with a few entries after it.
  std::ofstream(dir / "h.txt") << huge_header << "1 2 1.5\n3 4 2.5\n";
  REQUIRE(std::system(("gzip -c " + q(dir / "h.txt") + " >" + q(packed)).c_str()) == 0);
  CHECK(fs::file_size(packed) < 200);
  for (const fs::path& f : {huge, packed}) {
    CAPTURE(f);
    require_refusal(check::run_cli(dir, "match " + q(f) + " --algo suitor --out " + q(out)), f.string(), out);
    require_refusal(check::run_cli(dir, "match " + q(f) + " --algo greedy --view bipartite --json --out " + q(out)),
                    f.string(), out);
    require_refusal(check::run_cli(dir, "bmatch " + q(f) + " --algo b-greedy --b 2 --out " + q(out)), f.string(), out);
    require_refusal(check::run_cli(dir, "perm " + q(f) + " --out " + q(out)), f.string(), out);
    require_refusal(check::run_cli(dir, "perm " + q(f) + " --job 1 --out " + q(out)), f.string(), out);
    // From standard input too: the header decides, nothing else is read.
    require_refusal(check::run_cli(dir, "match - --algo suitor --out " + q(out) + " <" + q(f)), "<stdin>", out);
  }
  // The message says how much.
  const check::CliResult r = check::run_cli(dir, "match " + q(huge) + " --algo suitor");
  CHECK(r.err.find(" TB of memory") != std::string::npos);
  CHECK(r.err.find("1000000000 vertices") != std::string::npos);

  // eval: the matrix is a skipped row with the reason, the others run.
  fs::create_directories(dir / "set");
  fs::copy_file(huge, dir / "set" / "huge.mtx");
  REQUIRE(check::run_cli(dir, "gen er 200 --out " + q(dir / "set" / "small.mtx")).status == 0);
  const check::CliResult e =
      check::run_cli(dir, "eval " + q(dir / "set") + " --algos greedy,suitor --no-plots --out " + q(dir / "ev"));
  INFO(e.err);
  REQUIRE(e.status == 0);
  const std::string rows = slurp(dir / "ev" / "runs.jsonl");
  CHECK(lines(rows) == 4);
  long skipped = 0, ok = 0;
  for (std::size_t at = 0; (at = rows.find("\"status\": \"skipped\"", at)) != std::string::npos; ++at) ++skipped;
  for (std::size_t at = 0; (at = rows.find("\"status\": \"ok\"", at)) != std::string::npos; ++at) ++ok;
  CHECK(skipped == 2);
  CHECK(ok == 2);
  CHECK(rows.find("needs about") != std::string::npos);
}

TEST_CASE("memory: MATCHBLAS_MEMORY_AVAILABLE forces the refusal on a small input, for every command") {
  check::temp_dir dir;
  const fs::path g = dir / "g.mtx", out = dir / "out.txt", m = dir / "m.txt";
  REQUIRE(check::run_cli(dir, "gen er 2000 --out " + q(g)).status == 0);
  REQUIRE(check::run_cli(dir, "marriage-gen easy 300 --out " + q(m)).status == 0);
  const std::string tight = "export MATCHBLAS_MEMORY_AVAILABLE=64K";
  const std::string roomy = "export MATCHBLAS_MEMORY_AVAILABLE=1G";
  const std::vector<std::string> commands = {
      "match " + q(g) + " --algo suitor --out " + q(out), "bmatch " + q(g) + " --algo b-suitor --b 2 --out " + q(out),
      "perm " + q(g) + " --out " + q(out), "marry " + q(m) + " --algo gale-shapley --out " + q(out),
      "gen er 100000 --out " + q(out)};
  for (const std::string& c : commands) {
    CAPTURE(c);
    const check::CliResult refused = check::run_cli(dir, c, tight);
    require_refusal(refused, "MATCHBLAS_MEMORY_AVAILABLE", out);
    const check::CliResult ran = check::run_cli(dir, c, roomy);
    INFO(ran.err);
    CHECK(ran.status == 0);
    CHECK(fs::exists(out));
    fs::remove(out);
  }
  // A bad value is a clear error, not a silent default.
  const check::CliResult bad = check::run_cli(dir, commands[0], "export MATCHBLAS_MEMORY_AVAILABLE=lots");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("MATCHBLAS_MEMORY_AVAILABLE") != std::string::npos);
  CHECK(!fs::exists(out));
}

TEST_CASE("memory: marriage headers and preference lists that will not fit are refused") {
  check::temp_dir dir;
  const fs::path m = dir / "m.txt", out = dir / "wives.txt";
  std::ofstream(m) << "stable-marriage 2000000000 2000000000\n";
  require_refusal(check::run_cli(dir, "marry " + q(m) + " --algo gale-shapley --out " + q(out)), m.string(), out);
  // 400 men and 400 women listing everyone (160,000 entries a side; 1.2 MB
  // of text, a few kB of gzip): the header's estimate fits, and the lists'
  // growth is checked as they are read (the men's lists doubling to 2^18
  // entries need 1 MiB, more than 90% of the 1 MiB allowed).
  const fs::path packed = dir / "long.txt.gz";
  REQUIRE(std::system(("(echo 'stable-marriage 400 400'; for i in $(seq 800); do seq -s ' ' 0 399; done) | gzip >" +
                       q(packed)).c_str()) == 0);
  const check::CliResult r =
      check::run_cli(dir, "marry " + q(packed) + " --algo gale-shapley --out " + q(out), "export MATCHBLAS_MEMORY_AVAILABLE=1M");
  require_refusal(r, packed.string() + ":329: the preference lists", out);
  // With room, the same file is read and matched.
  const check::CliResult listed = check::run_cli(dir, "marry " + q(packed) + " --algo gale-shapley --out " + q(out));
  INFO(listed.err);
  CHECK(listed.status == 0);
}

TEST_CASE("gen: a size that will not fit is refused before generating") {
  check::temp_dir dir;
  const fs::path out = dir / "g.mtx";
  for (const char* c : {"gen er 1000000000 --out ", "gen complete-uniform 200000 --out ", "gen grid 46000 --out ",
                        "gen knn 200000000 --out "})
    require_refusal(check::run_cli(dir, c + q(out)), "gen ", out);
}

TEST_CASE("gzip: every member is read; trailing data after the stream is an error naming the file") {
  check::temp_dir dir;
  const fs::path g = dir / "g.mtx", out = dir / "out.txt";
  REQUIRE(check::run_cli(dir, "gen er 300 --out " + q(g)).status == 0);
  const std::string text = slurp(g);
  // Two members: the first half of the text, then the rest.
  const std::size_t half = text.size() / 2;
  std::ofstream(dir / "a.txt") << text.substr(0, half);
  std::ofstream(dir / "b.txt") << text.substr(half);
  const fs::path two = dir / "two.mtx.gz";
  REQUIRE(std::system(("gzip -c " + q(dir / "a.txt") + " >" + q(two) + " && gzip -c " + q(dir / "b.txt") + " >>" +
                       q(two)).c_str()) == 0);
  const check::CliResult plain = check::run_cli(dir, "match " + q(g) + " --algo greedy --json");
  const check::CliResult joined = check::run_cli(dir, "match " + q(two) + " --algo greedy --json");
  REQUIRE(plain.status == 0);
  REQUIRE(joined.status == 0);
  CHECK(plain.out.substr(plain.out.find("\"weight\"")) .substr(0, 40) ==
        joined.out.substr(joined.out.find("\"weight\"")).substr(0, 40));
  // Trailing bytes that are not a member: garbage, or zero padding; in a
  // matrix and in a b-value file.
  {
    std::ofstream b(dir / "b.txt");
    for (int v = 0; v < 300; ++v) b << 1 << '\n';
  }
  for (const std::string& tail : {std::string("garbage\n"), std::string(512, '\0'), std::string("\x1f")}) {
    const fs::path bad = dir / "bad.mtx.gz", bad_b = dir / "b.txt.gz";
    REQUIRE(std::system(("gzip -c " + q(g) + " >" + q(bad) + " && gzip -c " + q(dir / "b.txt") + " >" + q(bad_b)).c_str()) == 0);
    std::ofstream(bad, std::ios::app | std::ios::binary) << tail;
    std::ofstream(bad_b, std::ios::app | std::ios::binary) << tail;
    for (const std::string& c : {"match " + q(bad) + " --algo greedy --out " + q(out),
                                 "match - --algo greedy --out " + q(out) + " <" + q(bad),
                                 "bmatch " + q(g) + " --algo b-greedy --b-file " + q(bad_b) + " --out " + q(out)}) {
      CAPTURE(c);
      const check::CliResult r = check::run_cli(dir, c);
      INFO(r.err);
      CHECK(r.status == 1);
      CHECK(lines(r.err) == 1);
      CHECK(r.err.find("trailing data after the gzip stream") != std::string::npos);
      CHECK((r.err.find(bad.string()) != std::string::npos || r.err.find(bad_b.string()) != std::string::npos ||
             r.err.find("<stdin>") != std::string::npos));
      CHECK(!fs::exists(out));
    }
  }
}

TEST_CASE("threads: a count the system cannot start is one error line, not the runtime's exit or a crash") {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reserves terabytes of shadow memory at start-up, which an
  // address-space limit refuses before main runs: this check needs a plain build.
  MESSAGE("skipped: an AddressSanitizer build cannot start under ulimit -v");
  return;
#endif
  check::temp_dir dir;
  const fs::path g = dir / "g.mtx", out = dir / "out.txt";
  REQUIRE(check::run_cli(dir, "gen er 500 --out " + q(g)).status == 0);
  // Each OpenMP thread asks for an 8 GiB stack under a 4 GiB address-space
  // limit: the system refuses the second thread, whoever runs the test (a
  // process limit would not bind root).
  const std::string limits = "ulimit -v 4194304; export OMP_STACKSIZE=8G";
  for (const std::string& c : {"match " + q(g) + " --algo suitor-locks --threads 4 --out " + q(out),
                               "match " + q(g) + " --algo greedy --out " + q(out)}) {
    CAPTURE(c);
    const check::CliResult r = check::run_cli(dir, c, limits);
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("cannot start") != std::string::npos);
    CHECK(r.err.find("OMP_STACKSIZE=8G") != std::string::npos);
    CHECK(!fs::exists(out));
  }
  // One thread needs no other: it runs.
  const check::CliResult one = check::run_cli(dir, "match " + q(g) + " --algo suitor-locks --threads 1", limits);
  INFO(one.err);
  CHECK(one.status == 0);
}
