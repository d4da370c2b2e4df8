// `matchblas match --algo ld-mpi-*`: refused with a usage error outside
// mpirun (and in builds without MPI), listed as unavailable with the reason;
// under mpirun (1-4 ranks) the mate array rank 0 writes is greedy's; a rank
// that cannot read its part makes every rank fail with one message from
// rank 0 and no output file; so does a bad command line (status 2). Every
// field of its --json is one docs/json-schema.json describes. suitor-gpu
// and b-suitor-gpu over ranks: listed as such, --gpus refused outside
// mpirun, no GPU one message; with a GPU the single process's output at 1-3
// ranks, rows resident or streamed, and too little memory one message. The
// mpirun runs are skipped with a message in a build without MPI.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/load.hpp"
#include "lib/mmio.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"
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

TEST_CASE("suitor-gpu and b-suitor-gpu over MPI ranks: listed; --gpus only under mpirun; a GPU each or one message") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", out = dir / "b.txt";
  REQUIRE(check::run_cli(dir, "gen rmat 2048 --seed 5 --ties 3 --out " + q(graph)).status == 0);
  // list: the two entries say they also run over ranks; no other entry does.
  const CliResult list = check::run_cli(dir, "list --json");
  REQUIRE(list.status == 0);
  for (const MatcherInfo& m : matchers()) {
    const auto at = list.out.find("{\"name\": \"" + m.name + "\"");
    REQUIRE(at != std::string::npos);
    const std::string entry = list.out.substr(at, list.out.find("\"options\"", at) - at);
    const bool over = m.name == "suitor-gpu" || m.name == "b-suitor-gpu";
    CHECK_MESSAGE(entry.find(over ? "\"over_ranks\": true" : "\"over_ranks\": false") != std::string::npos, m.name);
  }
  const CliResult table = check::run_cli(dir, "list");
  CHECK(table.out.find("gpu, ranks") != std::string::npos);
  // --gpus outside mpirun, or for an entry that does not run over ranks: a usage error.
  for (const auto& [args, says] :
       {std::pair{"bmatch " + q(graph) + " --b 2 --algo b-suitor-gpu --gpus 0", "use --gpu"},
        std::pair{"bmatch " + q(graph) + " --b 2 --algo b-suitor --gpus 0", "--gpus is for suitor-gpu and b-suitor-gpu"},
        std::pair{"match " + q(graph) + " --algo greedy --gpus 0,1", "--gpus is for suitor-gpu and b-suitor-gpu"}}) {
    CAPTURE(args);
    const CliResult r = check::run_cli(dir, args + " --out " + q(out));
    CHECK(r.status == 2);
    CHECK(check::line_count(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
  if (!mpi::built()) {
    MESSAGE("skipped: the runs under mpirun (no MPI in this build)");
    return;
  }
  // Bad lines under mpirun: one usage error from rank 0 (a build without
  // CUDA says that first).
  const bool built = !find_matcher("b-suitor-gpu", Problem::b_matching).unavailable;
  for (const auto& [args, says] :
       {std::pair{" --algo b-suitor-gpu --b 2 --gpus 0,x", "--gpus takes GPU ids"},
        std::pair{" --algo b-suitor-gpu --b 2 --gpu 0 --gpus 0", "--gpu and --gpus conflict"},
        std::pair{" --algo b-suitor-gpu --b-file -", "only rank 0 has standard input"}}) {
    CAPTURE(args);
    const CliResult r = mpirun(dir, 2, "bmatch " + q(graph) + " --out " + q(out) + args);
    CHECK(r.status == 2);
    CHECK_MESSAGE(tool_lines(r.err) == 1, r.err);
    CHECK(r.err.find(built ? says : "cannot run over MPI ranks (a GPU each) with this build") != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
  if (gpu::device_count() == 0) {
    // Every rank lacks a GPU (or the build lacks CUDA): one line, status 1
    // or 2 (unavailable in this build), no output.
    const CliResult r = mpirun(dir, 2, "bmatch " + q(graph) + " --b 2 --algo b-suitor-gpu --out " + q(out));
    CHECK(r.status != 0);
    CHECK_MESSAGE(tool_lines(r.err) == 1, r.err);
    CHECK(r.err.find("GPU") != std::string::npos);
    CHECK(!std::filesystem::exists(out));
    MESSAGE("skipped: the GPU runs over ranks (no GPU: " << gpu::unavailable_reason() << ")");
    return;
  }
  // With a GPU (every rank on it): the same edges and mates as the single
  // process writes, at 1-3 ranks, resident and with rows streamed (a limit
  // that holds every rank's state and two batches of its longest row, and
  // not all its rows).
  const auto want = dir / "want.txt";
  const LoadedGraph loaded = graph_in_view(read_matrix_market(graph.string()), GraphView::general, Precision::float64);
  const Csr<double>& g = std::get<Csr<double>>(loaded.graph);
  for (int b : {1, 2, 5}) {
    REQUIRE(check::run_cli(dir, "bmatch " + q(graph) + " --b " + std::to_string(b) + " --algo b-greedy --out " +
                                    q(want)).status == 0);
    const std::string expected = slurp(want);
    for (int np : {1, 2, 3}) {
      const std::vector<vertex_t> first = balanced_blocks(g.offsets, np);
      std::size_t least = 0, most = SIZE_MAX;
      for (int r = 0; r < np; ++r) {
        const BSuitorGpuMemory need =
            b_suitor_gpu_memory(std::span(g.offsets), constant_b(g.n_rows, b), first[r], first[r + 1]);
        least = std::max(least, need.least_streamed() + 4096);
        most = std::min(most, need.resident());
      }
      REQUIRE(least < most);
      for (const std::string& memory : {std::string(), " --device-memory " + std::to_string(least)}) {
        CAPTURE(b);
        CAPTURE(np);
        CAPTURE(memory);
        std::filesystem::remove(out);
        const CliResult r = mpirun(dir, np, "bmatch " + q(graph) + " --b " + std::to_string(b) +
                                                " --algo b-suitor-gpu --out " + q(out) + memory);
        CHECK_MESSAGE(r.status == 0, r.err);
        CHECK(slurp(out) == expected);
        CHECK(r.out.find(std::to_string(np) + " ranks (a GPU each)") != std::string::npos);
      }
    }
  }
  REQUIRE(check::run_cli(dir, "match " + q(graph) + " --algo greedy --out " + q(want)).status == 0);
  for (int np : {1, 3}) {
    std::filesystem::remove(out);
    const CliResult r = mpirun(dir, np, "match " + q(graph) + " --algo suitor-gpu --out " + q(out));
    CHECK_MESSAGE(r.status == 0, r.err);
    CHECK(slurp(out) == slurp(want));
  }
  std::filesystem::remove(out);
  const CliResult opt = mpirun(dir, 2, "match " + q(graph) + " --algo suitor-gpu --variant synclb --out " + q(out));
  CHECK(opt.status != 0);
  CHECK_MESSAGE(tool_lines(opt.err) == 1, opt.err);
  CHECK(opt.err.find("take no --variant") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  // Too little device memory on every rank: one message naming the bytes.
  std::filesystem::remove(out);
  const CliResult small = mpirun(dir, 2, "bmatch " + q(graph) + " --b 2 --algo b-suitor-gpu --device-memory 1K --out " +
                                             q(out));
  CHECK(small.status == 1);
  CHECK_MESSAGE(tool_lines(small.err) == 1, small.err);
  CHECK(small.err.find("out of memory: b-suitor-gpu needs at least") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  const CliResult json = mpirun(dir, 2, "bmatch " + q(graph) + " --b 3 --algo b-suitor-gpu --json");
  REQUIRE(json.status == 0);
  CHECK(json.out.find("\"ranks\": 2") != std::string::npos);
  CHECK(check::line_count(json.out) == 1);
}
