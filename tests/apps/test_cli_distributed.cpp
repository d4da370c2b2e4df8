// `matchblas match --algo ld-mpi-*`: refused with a usage error outside
// mpirun (and in builds without MPI), listed as unavailable with the reason;
// under mpirun (1-4 ranks) the mate array rank 0 writes is greedy's; a rank
// that cannot read its part makes every rank fail with one message from
// rank 0 and no output file; so does a bad command line (status 2). Every
// field of its --json is one docs/json-schema.json describes. The mpirun runs are skipped with a message in a
// build without MPI.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "matchers/distributed/mpi_session.hpp"
#include "matchers/registry.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

namespace {

using check::CliResult;
using check::slurp;

std::string q(const std::filesystem::path& p) { return check::shell_quoted(p); }

// `matchblas ARGS` under mpirun with `ranks` ranks (as root too, and more
// ranks than cores: these settings for this command only). `wrap`, when
// set, is a shell snippet run by each rank before the tool (it sees
// OMPI_COMM_WORLD_RANK).
CliResult mpirun(const check::temp_dir& dir, int ranks, const std::string& args, const std::string& wrap = "") {
  const std::string tool = q(MATCHBLAS_CLI) + " " + args;
  const std::string each = wrap.empty() ? tool : "/bin/sh -c " + q(wrap + "; exec " + tool);
  const std::string cmd = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + q(MATCHBLAS_MPIEXEC) +
                          " -n " + std::to_string(ranks) + " " + MATCHBLAS_MPIEXEC_FLAGS + " " + each + " >" +
                          q(dir / "stdout") + " 2>" + q(dir / "stderr");
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

// The lines of s that the tool wrote ("matchblas: ..."), not mpirun's.
int tool_lines(const std::string& s) {
  int n = 0;
  for (std::size_t at = 0; (at = s.find("matchblas: ", at)) != std::string::npos; ++at)
    if (at == 0 || s[at - 1] == '\n') ++n;
  return n;
}

const char* const variants[] = {"ld-mpi-sync-poll", "ld-mpi-async-poll", "ld-mpi-sync-notify", "ld-mpi-async-notify"};

}  // namespace

TEST_CASE("outside mpirun, or without MPI, a distributed entry is a usage error that says how to run it") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx";
  REQUIRE(check::run_cli(dir, "gen er 50 --seed 2 --out " + q(graph)).status == 0);
  for (const char* algo : variants) {
    CAPTURE(algo);
    const CliResult r = check::run_cli(dir, "match " + q(graph) + " --algo " + algo + " --out " + q(dir / "m.txt"));
    CHECK(r.status == 2);
    CHECK(check::line_count(r.err) == 1);
    CHECK(r.err.find(mpi::built() ? "mpirun -np P matchblas match FILE --algo" : "needs MPI") != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "m.txt"));
  }
  // list: unavailable here, with the reason; device "distributed".
  const CliResult list = check::run_cli(dir, "list --json");
  REQUIRE(list.status == 0);
  for (const char* algo : variants) {
    const auto at = list.out.find(std::string("{\"name\": \"") + algo + "\"");
    REQUIRE(at != std::string::npos);
    const std::string entry = list.out.substr(at, list.out.find("\"options\"", at) - at);
    CHECK(entry.find("\"device\": \"distributed\"") != std::string::npos);
    CHECK(entry.find("\"available\": false") != std::string::npos);
    CHECK(entry.find(mpi::built() ? "only under mpirun" : "needs MPI") != std::string::npos);
  }
}

TEST_CASE("under mpirun at 1-4 ranks, rank 0 writes greedy's mate array; --json reports the ranks") {
  if (!mpi::built()) {
    MESSAGE("skipped: no MPI in this build");
    return;
  }
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", want = dir / "greedy.txt";
  REQUIRE(check::run_cli(dir, "gen rmat 1024 --seed 3 --ties 4 --out " + q(graph)).status == 0);
  REQUIRE(check::run_cli(dir, "match " + q(graph) + " --algo greedy --out " + q(want)).status == 0);
  const std::string expected = slurp(want);
  REQUIRE(!expected.empty());
  int ranks = 1;
  for (const char* algo : variants) {
    for (int np : {ranks, ranks % 4 + 1}) {  // each variant at two rank counts, every count in all
      CAPTURE(algo);
      CAPTURE(np);
      const auto got = dir / "m.txt";
      std::filesystem::remove(got);
      const CliResult r = mpirun(dir, np, "match " + q(graph) + " --algo " + algo + " --out " + q(got));
      CHECK_MESSAGE(r.status == 0, r.err);
      CHECK(slurp(got) == expected);
      CHECK(r.out.find(std::string(algo) + ": weight ") != std::string::npos);
      CHECK(r.out.find(", " + std::to_string(np) + " ranks (blocks)") != std::string::npos);
    }
    ranks = ranks % 4 + 1;
  }
  // Either partition at any rank count gives the same mates.
  for (const auto& [np, partition] : {std::pair{3, "spread"}, std::pair{1, "spread"}, std::pair{2, "blocks"}}) {
    CAPTURE(np);
    CAPTURE(partition);
    const auto got = dir / "m.txt";
    std::filesystem::remove(got);
    const CliResult r = mpirun(dir, np, "match " + q(graph) + " --algo ld-mpi-async-poll --partition " +
                                            partition + " --out " + q(got));
    CHECK_MESSAGE(r.status == 0, r.err);
    CHECK(slurp(got) == expected);
  }
  // A bad --partition, or one for a matcher that is not distributed: one usage error, no output, also
  // under mpirun (every rank meets it; rank 0 alone prints it); so for an error of the command line
  // itself (--partition without its value).
  const auto none = dir / "none.txt";
  for (const auto& [args, says] :
       {std::pair{" --algo ld-mpi-sync-poll --partition rows", "unknown --partition 'rows'"},
        std::pair{" --algo greedy --partition spread", "--partition is for the distributed matchers"},
        std::pair{" --algo ld-mpi-async-notify --gto", "--gto is not for the distributed matchers"},
        std::pair{" --algo ld-mpi-async-poll --partition", "--partition needs a value"}}) {
    CAPTURE(args);
    const CliResult bad = mpirun(dir, 4, "match " + q(graph) + " --out " + q(none) + args);
    CHECK(bad.status == 2);
    CHECK_MESSAGE(tool_lines(bad.err) == 1, bad.err);
    CHECK(bad.err.find(says) != std::string::npos);
    CHECK(!std::filesystem::exists(none));
  }
  const CliResult serial = check::run_cli(dir, "match " + q(graph) + " --algo greedy --partition spread --out " + q(none));
  CHECK(serial.status == 2);
  CHECK(check::line_count(serial.err) == 1);
  CHECK(serial.err.find("--partition is for the distributed matchers") != std::string::npos);
  CHECK(!std::filesystem::exists(none));
  const CliResult json = mpirun(dir, 2, "match " + q(graph) + " --algo ld-mpi-sync-poll --json");
  REQUIRE(json.status == 0);
  CHECK(json.out.find("\"device\": \"distributed\"") != std::string::npos);
  CHECK(json.out.find("\"ranks\": 2") != std::string::npos);
  CHECK(json.out.find("\"partition\": \"blocks\"") != std::string::npos);
  CHECK(check::line_count(json.out) == 1);  // rank 0 alone reports
  // Every field it writes is one docs/json-schema.json describes.
  const std::string schema = slurp(check::source_root() / "docs" / "json-schema.json");
  for (std::size_t at = json.out.find('"'); at != std::string::npos; at = json.out.find('"', at + 1)) {
    const std::size_t end = json.out.find('"', at + 1);
    if (end == std::string::npos) break;
    if (json.out.compare(end + 1, 1, ":") == 0) {
      const std::string key = json.out.substr(at, end - at + 1);
      CHECK_MESSAGE(schema.find(key + ": {") != std::string::npos, key << " is not in docs/json-schema.json");
    }
    at = end;
  }
}

TEST_CASE("under mpirun, a rank that cannot read its part fails every rank with one message and no output") {
  if (!mpi::built()) {
    MESSAGE("skipped: no MPI in this build");
    return;
  }
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", out = dir / "m.txt";
  REQUIRE(check::run_cli(dir, "gen er 400 --seed 2 --out " + q(graph)).status == 0);
  // Rank 2 alone is told it has almost no memory: its read is refused.
  const CliResult r = mpirun(dir, 3, "match " + q(graph) + " --algo ld-mpi-async-notify --out " + q(out),
                             "[ \"$OMPI_COMM_WORLD_RANK\" = 2 ] && export MATCHBLAS_MEMORY_AVAILABLE=1000");
  CHECK(r.status != 0);
  CHECK(tool_lines(r.err) == 1);
  CHECK(r.err.find("matchblas: error: ") != std::string::npos);
  CHECK(r.err.find("rank 2's part (1/3)") != std::string::npos);
  CHECK(r.err.find("of memory") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  // A bad file (each rank reads its piece, the bad line in a later one): the
  // single-process error, file and line, once.
  std::string text = "%%MatrixMarket matrix coordinate real general\n300 300 600\n";
  for (int k = 0; k < 600; ++k)
    text += (k == 450 ? std::string("7 x 1") : std::to_string(k % 300 + 1) + " " + std::to_string(k * 7 % 300 + 1) + " 1.5") + "\n";
  const auto bad = dir / "bad.mtx";
  std::ofstream(bad) << text;
  const CliResult single = check::run_cli(dir, "match " + q(bad) + " --algo greedy");
  REQUIRE(single.status != 0);
  CHECK(single.err.find("bad.mtx:453: bad column index 'x'") != std::string::npos);
  for (int np : {2, 3, 4}) {
    const CliResult r = mpirun(dir, np, "match " + q(bad) + " --algo ld-mpi-async-poll --out " + q(out));
    CHECK(r.status == single.status);
    CHECK(tool_lines(r.err) == 1);
    CHECK_MESSAGE(r.err.find(single.err) != std::string::npos, r.err);
    CHECK(!std::filesystem::exists(out));
  }
  // A file no rank can read: one line too, naming the file.
  const CliResult missing = mpirun(dir, 2, "match " + q(dir / "none.mtx") + " --algo ld-mpi-sync-poll --out " + q(out));
  CHECK(missing.status != 0);
  CHECK(tool_lines(missing.err) == 1);
  CHECK(missing.err.find("none.mtx") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
}
