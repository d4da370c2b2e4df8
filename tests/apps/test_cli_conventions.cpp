// The command line's conventions, command by command: the exit-status
// policy (apps/exit_status.hpp), "-" for standard input and output, the
// versioned JSON schema (docs/json-schema.json), per-command help, --version,
// availability without a GPU, progress, and no unresolvable citations in
// what a user reads.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <fstream>
#include <sstream>

#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"
#include "tests/apps/cli_text.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

namespace {
using Result = check::CliResult;
using check::slurp;

Result run(const check::temp_dir& dir, const std::string& args, const std::string& before = "") {
  return check::run_cli(dir, args, before);
}
std::string q(const std::filesystem::path& p) { return check::shell_quoted(p); }
using check::line_count;
using check::shell_status;
using check::source_root;

// The options COMMAND --help lists in its "options:" section.
std::vector<std::string> command_options(const check::temp_dir& dir, const std::string& command) {
  const std::string help = check::run_cli(dir, command + " --help").out;
  std::vector<std::string> names;
  const auto start = help.find("\noptions:\n");
  REQUIRE(start != std::string::npos);
  std::istringstream in(help.substr(start + 10));
  for (std::string line; std::getline(in, line) && !line.empty();) {  // a long form's help is on the next line
    if (line.rfind("  --", 0) != 0) continue;
    const std::string name = line.substr(4, line.find_first_of(" ", 4) - 4);
    if (name != "help") names.push_back(name);
  }
  return names;
}

// The fixtures every command needs, made once per test.
struct Fixtures {
  check::temp_dir dir;
  std::filesystem::path graph = dir / "g.mtx", marriage = dir / "m.txt", matrix = dir / "a.mtx";
  Fixtures() {
    REQUIRE(run(dir, "gen er 60 --seed 2 --out " + q(graph)).status == 0);
    REQUIRE(run(dir, "marriage-gen easy 30 --seed 2 --out " + q(marriage)).status == 0);
    std::ofstream(matrix) << "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n1 2 5\n2 2 1\n3 1 4\n3 3 3\n";
  }
};

// The first citation of the project's own notes in `text`, lower-cased
// ("seed 003", "paper ii", "issue 17"), or "": these mean nothing to a user.
std::string internal_citation(const std::string& text) {
  std::string lower = text;
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  const auto is_digit = [&](std::size_t i) { return i < lower.size() && lower[i] >= '0' && lower[i] <= '9'; };
  for (std::size_t i = 0; i < lower.size(); ++i) {
    const std::string_view rest = std::string_view(lower).substr(i);
    if (rest.starts_with("seed 00") && rest.size() > 7 && rest[7] >= '0' && rest[7] <= '4') return lower.substr(i, 8);
    if (rest.starts_with("issue ") && is_digit(i + 6)) {
      std::size_t end = i + 6;
      while (is_digit(end)) ++end;
      return lower.substr(i, end - i);
    }
    if (rest.starts_with("paper ")) {
      std::size_t end = i + 6;  // a roman numeral i..iv, then not a letter, digit or '_'
      while (end < lower.size() && (lower[end] == 'i' || lower[end] == 'v')) ++end;
      const std::string numeral = lower.substr(i + 6, end - i - 6);
      const bool word_ends = end == lower.size() || !(std::isalnum(static_cast<unsigned char>(lower[end])) || lower[end] == '_');
      if ((numeral == "i" || numeral == "ii" || numeral == "iii" || numeral == "iv") && word_ends)
        return lower.substr(i, end - i);
    }
  }
  return "";
}

// A python3 that imports jsonschema, or "".
std::string jsonschema_python() {
  for (const char* python : {"python3", "/usr/bin/python3"})
    if (shell_status(std::string(python) + " -c 'import jsonschema' >/dev/null 2>&1") == 0) return python;
  return "";
}
}  // namespace

TEST_CASE("exit status: 0 done, 1 bad input or run-time failure, 2 bad command line, for every command") {
  Fixtures f;
  const std::string g = q(f.graph), m = q(f.marriage), a = q(f.matrix), missing = q(f.dir / "missing");
  const std::vector<std::pair<std::string, int>> cases = {
      {"match " + g + " --algo greedy", 0},
      {"bmatch " + g + " --algo b-greedy --b 2", 0},
      {"marry " + m + " --algo gale-shapley", 0},
      {"perm " + a + " --job 5", 0},
      {"gen grid 3", 0},
      {"marriage-gen easy 5", 0},
      {"list", 0},
      {"--version", 0},
      // 1: a bad or missing input file
      {"match " + missing + " --algo greedy", 1},
      {"bmatch " + missing + " --algo b-greedy --b 1", 1},
      {"marry " + missing + " --algo gale-shapley", 1},
      {"perm " + missing, 1},
      {"match " + q(f.dir.path()) + " --algo greedy", 1},  // a directory
      {"marry " + g + " --algo gale-shapley", 1},          // not an instance
      // 2: unknown command or option, a short option, repeated option, bad value
      {"frobnicate", 2},
      {"match " + g + " -o x.txt --algo greedy", 2},
      {"gen er 10 -s 3", 2},
      {"match " + g + " --algo greedy --out a --out b", 2},
      {"gen rmat 1000", 2},  // N must be a power of two
      {"gen er 10 --edge-factor lots", 2},
      {"marriage-gen easy 10 --eps -1", 2},
      {"perm " + a + " --job 7", 2},
      {"list extra", 2},
      {"demo --n 1", 2},
      {"eval " + g + " --algos no-such", 2},
      // 2: an option the algorithm does not take, conflicting options
      {"match " + g + " --algo greedy --seed 3", 2},
      {"match " + g + " --algo suitor-gpu --device cpu", 2},
      {"match " + g + " --algo greedy --gpu 0", 2},
      {"bmatch " + g + " --algo b-greedy --b 2 --b-file " + g, 2},
      {"match " + g + " --algo greedy --out - --json", 2},
      {"perm " + a + " --out - --scales-out -", 2},
      {"match " + g + " --algo greedy --quiet --verbose", 2},
      {"perm " + a + " --job 1 --algo max-sum", 2},
      // 2: an option the generator or view does not use, an empty output name
      {"gen grid 3 --edge-factor 5", 2},
      {"gen er 30 --edge-factor 5", 0},
      {"marriage-gen hard 3 --eps 5", 2},
      {"bmatch " + g + " --algo b-greedy --b 1 --view complete", 2},
      {"match " + g + " --algo greedy --out ''", 2},
      {"eval " + g + " --algos greedy --cache " + g + " --out " + q(f.dir / "ev"), 2},
  };
  for (const auto& [args, status] : cases) {
    CAPTURE(args);
    const Result r = run(f.dir, args);
    INFO(r.err);
    CHECK(r.status == status);
    if (status != 0) {
      CHECK(line_count(r.err) == 1);
      CHECK(r.out.empty());
    }
    if (status == 2) CHECK(r.err.find(" --help)") != std::string::npos);  // points at the help
  }
  // The messages say what is wrong.
  CHECK(run(f.dir, "match " + g + " -o x.txt --algo greedy").err.find("unknown option -o") != std::string::npos);
  CHECK(run(f.dir, "match " + g + " --algo suitor-gpu --device cpu").err.find("conflicts") != std::string::npos);
  CHECK(run(f.dir, "match " + g + " --algo greedy --seed 3").err.find("'greedy' uses no seed") != std::string::npos);
  CHECK(run(f.dir, "match " + g + " --algo roma-sparse --seed 3").status == 0);  // a seeded algorithm takes it
  CHECK(run(f.dir, "match " + q(f.dir.path()) + " --algo greedy").err.find(":1:") == std::string::npos);
  const Result under_file = run(f.dir, "match " + g + " --algo greedy --out " + q(f.graph / "x.txt"));
  CHECK(under_file.status == 1);
  CHECK(under_file.err.find(f.graph.string() + " is not a folder") != std::string::npos);
}

TEST_CASE("- is standard output for every --out and standard input for every input") {
  Fixtures f;
  const std::string bin = q(MATCHBLAS_CLI);
  const auto out = f.dir / "out.txt", err = f.dir / "err.txt";
  // --out - : the output on stdout, the report on stderr, no file named "-".
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {"match " + q(f.graph) + " --algo greedy --out -", "--out FILE"},
      {"bmatch " + q(f.graph) + " --algo b-greedy --b 1 --out -", "--out FILE"},
      {"marry " + q(f.marriage) + " --algo gale-shapley --out -", "--out FILE"},
      {"perm " + q(f.matrix) + " --out -", "--out FILE"},
      {"perm " + q(f.matrix) + " --scales-out -", "--scales-out FILE"},
      {"perm " + q(f.matrix) + " --scaled-out -", "--scaled-out FILE"},
      {"gen grid 3 --out -", "--out FILE"},
      {"marriage-gen easy 5 --out -", "--out FILE"},
  };
  for (const auto& [args, same_as] : outputs) {
    CAPTURE(args);
    const Result r = run(f.dir, args, "cd " + q(f.dir.path()));
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(!std::filesystem::exists(f.dir / "-"));
    // The same bytes as the output written to a file.
    std::string to_file = args;
    const std::string option = same_as.substr(0, same_as.find(' '));
    to_file.replace(to_file.find(option + " -"), option.size() + 2, option + " " + q(f.dir / "file.txt"));
    REQUIRE(run(f.dir, to_file).status == 0);
    CHECK(r.out == slurp(f.dir / "file.txt"));
    std::filesystem::remove(f.dir / "file.txt");
  }
  // FILE - : every reader takes standard input.
  const std::vector<std::string> inputs = {
      "cat " + q(f.graph) + " | " + bin + " match - --algo greedy",
      "cat " + q(f.graph) + " | " + bin + " bmatch - --algo b-greedy --b 1",
      "seq 60 | " + bin + " bmatch " + q(f.graph) + " --algo b-greedy --b-file -",
      "cat " + q(f.marriage) + " | " + bin + " marry - --algo gale-shapley",
      "cat " + q(f.matrix) + " | " + bin + " perm -",
  };
  for (const std::string& cmd : inputs) {
    CAPTURE(cmd);
    CHECK(shell_status(cmd + " >" + q(out) + " 2>" + q(err)) == 0);
    INFO(slurp(err));
    if (cmd.find("--b-file -") == std::string::npos) CHECK(slurp(out).find("<stdin>: ") != std::string::npos);
    else CHECK(slurp(out).find("valid") != std::string::npos);
  }
  CHECK(shell_status("cat " + q(f.graph) + " | " + bin + " bmatch - --algo b-greedy --b-file - >" + q(out) + " 2>" + q(err)) == 2);
}

TEST_CASE("two outputs naming one file, or both standard output, are a usage error; nothing is written") {
  Fixtures f;
  const auto o = f.dir / "o.txt";
  std::filesystem::create_directory(f.dir / "sub");
  const std::vector<std::string> same = {
      "perm " + q(f.matrix) + " --out " + q(o) + " --scales-out " + q(o),
      "perm " + q(f.matrix) + " --out " + q(o) + " --scaled-out " + q(f.dir / "sub" / ".." / "o.txt"),
      "perm " + q(f.matrix) + " --out o.txt --scales-out " + q(o),  // relative and absolute, run in f.dir
      "cluster " + q(f.graph) + " --algo louvain --out " + q(o) + " --levels-out " + q(o),
      "perm " + q(f.matrix) + " --out - --scales-out /dev/stdout",
  };
  for (const std::string& args : same) {
    CAPTURE(args);
    const Result r = run(f.dir, args, "cd " + q(f.dir.path()));
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK((r.err.find("name the same file") != std::string::npos ||
           r.err.find("both name standard output") != std::string::npos));
    CHECK(!std::filesystem::exists(o));
  }
  // A symbolic link to the other output, dangling until it is written: refused.
  {
    std::filesystem::create_symlink(o, f.dir / "link.txt");
    const Result r = run(f.dir, "perm " + q(f.matrix) + " --out " + q(f.dir / "link.txt") + " --scales-out " + q(o));
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(!std::filesystem::exists(o));
    std::filesystem::remove(f.dir / "link.txt");
  }
  // Two hard links to one file are two names: each output replaces its own.
  {
    std::ofstream(o) << "before\n";
    std::filesystem::create_hard_link(o, f.dir / "hard.txt");
    const Result r = run(f.dir, "perm " + q(f.matrix) + " --out " + q(o) + " --scales-out " + q(f.dir / "hard.txt"));
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(slurp(o) != slurp(f.dir / "hard.txt"));
    std::filesystem::remove(o);
    std::filesystem::remove(f.dir / "hard.txt");
  }
  // A device takes any number of outputs.
  CHECK(run(f.dir, "perm " + q(f.matrix) + " --out /dev/null --scales-out /dev/null").status == 0);
}

TEST_CASE("a report that cannot reach standard output fails the command and leaves every output file as it was") {
  if (!std::filesystem::exists("/dev/full")) {
    MESSAGE("skipped: no /dev/full here");
    return;
  }
  Fixtures f;
  const auto o = f.dir / "o.txt", p = f.dir / "p.txt";
  const std::vector<std::string> commands = {
      "match " + q(f.graph) + " --algo greedy --out " + q(o),
      "match " + q(f.graph) + " --algo greedy --json --out " + q(o),
      "bmatch " + q(f.graph) + " --algo b-greedy --b 2 --out " + q(o),
      "perm " + q(f.matrix) + " --out " + q(o) + " --scales-out " + q(p),
      "cluster " + q(f.graph) + " --algo louvain --out " + q(o) + " --levels-out " + q(p),
      "marry " + q(f.marriage) + " --algo mcvitie-wilson --out " + q(o),
  };
  for (const std::string& args : commands) {
    CAPTURE(args);
    std::ofstream(o) << "before\n";
    std::filesystem::remove(p);
    const auto err = f.dir / "err.txt";
    const int status = shell_status(q(MATCHBLAS_CLI) + " " + args + " >/dev/full 2>" + q(err));
    INFO(slurp(err));
    CHECK(status == 1);
    CHECK(slurp(err).find("cannot write <stdout>") != std::string::npos);
    CHECK(line_count(slurp(err)) == 1);
    CHECK(slurp(o) == "before\n");
    CHECK(!std::filesystem::exists(p));
    // The same command with a writable standard output replaces the file.
    const Result r = run(f.dir, args);
    CHECK(r.status == 0);
    CHECK(slurp(o) != "before\n");
  }
}

TEST_CASE("every command's --json validates against docs/json-schema.json, one version and field meaning") {
  const std::string python = jsonschema_python();
  if (python.empty()) {
    MESSAGE("skipped: no python3 with jsonschema (Debian python3-jsonschema, installed by scripts/install_deps.sh)");
    return;
  }
  Fixtures f;
  const auto schema = source_root() / "docs" / "json-schema.json";
  REQUIRE(std::filesystem::exists(schema));
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"match", "match " + q(f.graph) + " --algo suitor --json"},
      {"match", "match " + q(f.graph) + " --algo greedy --view bipartite --json"},
      {"match", "match " + q(f.graph) + " --algo roma-sparse --phase-report --json"},
      {"match", "match " + q(f.dir / "huge.mtx") + " --algo greedy --json"},  // a weight that overflows: null
      {"bmatch", "bmatch " + q(f.dir / "huge.mtx") + " --algo b-greedy --b 1 --json"},
      {"bmatch", "bmatch " + q(f.graph) + " --algo b-suitor --b 2 --json"},
      {"marry", "marry " + q(f.marriage) + " --algo mcvitie-wilson --json"},
      {"perm", "perm " + q(f.matrix) + " --json"},
      {"perm", "perm " + q(f.matrix) + " --job 1 --json"},
      {"cluster", "cluster " + q(f.graph) + " --algo louvain --json"},
      {"list", "list --json"},
  };
  std::ofstream(f.dir / "huge.mtx") << "%%MatrixMarket matrix coordinate real general\n4 4 3\n1 2 1e308\n2 3 1e308\n3 4 1e308\n";
  std::vector<std::string> seen;
  for (const auto& [command, args] : commands) {
    CAPTURE(args);
    const Result r = run(f.dir, args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("{\"schema_version\": 1, \"command\": \"" + command + "\"", 0) == 0);
    std::ofstream(f.dir / "out.json") << r.out;
    const std::string validate =
        python + " -c 'import json, sys, jsonschema; s = json.load(open(sys.argv[1])); "
                 "jsonschema.validators.validator_for(s)(s).validate(json.load(open(sys.argv[2])))' " +
        q(schema) + " " + q(f.dir / "out.json") + " 2>" + q(f.dir / "why.txt");
    CHECK_MESSAGE(shell_status(validate) == 0, slurp(f.dir / "why.txt"));
    seen.push_back(command);
  }
  // Every command that takes --json was validated.
  for (const std::string& c : check::cli_commands(f.dir)) {
    const auto options = command_options(f.dir, c);
    if (std::find(options.begin(), options.end(), "json") != options.end())
      CHECK_MESSAGE(std::count(seen.begin(), seen.end(), c) > 0, c);
  }
  // A document that breaks the schema is refused (the check can fail).
  std::ofstream(f.dir / "out.json") << "{\"schema_version\": 1, \"command\": \"match\", \"algo\": \"greedy\"}\n";
  CHECK(shell_status(python + " -c 'import json, sys, jsonschema; s = json.load(open(sys.argv[1])); "
                    "jsonschema.validators.validator_for(s)(s).validate(json.load(open(sys.argv[2])))' " +
           q(schema) + " " + q(f.dir / "out.json") + " 2>/dev/null") != 0);
}

TEST_CASE("COMMAND --help for every command: options the parser takes and, for algorithm commands, its algorithms") {
  check::temp_dir dir;
  const std::vector<std::string> commands = check::cli_commands(dir);
  CHECK(commands.size() >= 9);
  const std::map<std::string, Problem> algorithm_commands = {
      {"match", Problem::matching}, {"bmatch", Problem::b_matching}, {"marry", Problem::marriage}, {"perm", Problem::bipartite}};
  for (const std::string& c : commands) {
    CAPTURE(c);
    for (const std::string& args : {c + " --help", "help " + c}) {
      const Result r = run(dir, args);
      CHECK(r.status == 0);
      CHECK(r.out.rfind("usage: matchblas " + c, 0) == 0);
    }
    // Every option the help lists is one the parser takes (a missing value,
    // a bad value or another error, never "unknown option").
    const std::vector<std::string> options = command_options(dir, c);
    CHECK(!options.empty());
    if (c == "match")  // the long forms' lines are read too
      for (const char* o : {"view", "precision", "gto", "seed", "quiet", "verbose"})
        CHECK(std::find(options.begin(), options.end(), o) != options.end());
    for (const std::string& o : options) {
      const Result r = run(dir, c + " --" + o + " --no-such-option");
      for (const char* after : {" (", ";"})  // ";": a suggestion follows
        CHECK_MESSAGE(r.err.find("unknown option --" + o + after) == std::string::npos, o);
    }
    const auto problem = algorithm_commands.find(c);
    if (problem == algorithm_commands.end()) continue;
    const std::string help = run(dir, c + " --help").out;
    for (const MatcherInfo& m : matchers()) {
      if (m.problem != problem->second) {
        CHECK_MESSAGE(help.find("\n  " + m.name + " ") == std::string::npos, m.name);  // another command's
        continue;
      }
      CHECK_MESSAGE(help.find("\n  " + m.name + " ") != std::string::npos, m.name);
      CHECK_MESSAGE(help.find(m.reference) != std::string::npos, m.name);  // its source
      for (const OptionSpec& s : m.options) CHECK_MESSAGE(help.find("--" + s.name) != std::string::npos, s.name);
    }
  }
  CHECK(run(dir, "help frobnicate").status == 2);
  CHECK(run(dir, "gen rmat 1000 --help").status == 0);  // help, not a run
  // The top-level help names every command and the exit statuses.
  const std::string top = run(dir, "--help").out;
  CHECK(top.find("exit status: 0") != std::string::npos);
}

TEST_CASE("--version: CMake's project version, the revision, the build options") {
  check::temp_dir dir;
  const Result r = run(dir, "--version");
  REQUIRE(r.status == 0);
  const std::string cmake = slurp(source_root() / "CMakeLists.txt");
  const std::string version = check::project_version(cmake);
  REQUIRE(!version.empty());
  CHECK(r.out.rfind("matchblas " + version + " (git ", 0) == 0);
  for (const char* what : {"CUDA: ", "SuiteSparse:GraphBLAS: ", "LEMON: ", "SuperLU: "})
    CHECK(r.out.find(what) != std::string::npos);
#ifdef MATCHBLAS_HAVE_CUDA
  CHECK(r.out.find("CUDA: yes, architectures ") != std::string::npos);
#else
  CHECK(r.out.find("CUDA: no") != std::string::npos);
#endif
  CHECK(run(dir, "--version extra").status == 2);
}

TEST_CASE("availability as it is here: a GPU algorithm without a usable GPU says why, in list and when run") {
  Fixtures f;
  const Result list = run(f.dir, "list --json");
  REQUIRE(list.status == 0);
  const std::string why = gpu::device_count() == 0 ? gpu::unavailable_reason() : "";
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    const auto at = list.out.find("{\"name\": \"" + m.name + "\"");
    REQUIRE(at != std::string::npos);
    const std::string entry = list.out.substr(at, list.out.find("\"options\"", at) - at);
    // Distributed entries run only under mpirun (tests/apps/test_cli_distributed.cpp).
    const bool expected = !m.unavailable && (m.device == Device::cpu ||
                                             (m.device == Device::gpu && gpu::device_count() > 0));
    CHECK(entry.find(std::string("\"available\": ") + (expected ? "true" : "false")) != std::string::npos);
    if (!expected && !m.unavailable && m.device == Device::gpu) CHECK(entry.find(why) != std::string::npos);
  }
  if (gpu::device_count() > 0) {
    MESSAGE("a GPU is present: the no-GPU messages are not checked here");
    return;
  }
#ifdef MATCHBLAS_HAVE_CUDA
  CHECK(why.find("no CUDA GPU found") != std::string::npos);  // not CUDA's driver message, when the OS shows no GPU
#endif
  for (const std::string& args : {"match " + q(f.graph) + " --algo suitor-gpu", "match " + q(f.graph) + " --algo suitor --device gpu",
                                  "bmatch " + q(f.graph) + " --algo b-suitor-gpu --b 1",
                                  "marry " + q(f.marriage) + " --algo mcvitie-wilson-gpu"}) {
    CAPTURE(args);
    const Result r = run(f.dir, args);
    CHECK(r.status == 1);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("is unavailable: needs") != std::string::npos);
    CHECK(r.err.find("driver version") == std::string::npos);
  }
  const Result text = run(f.dir, "list");
  CHECK(text.out.find("no: needs") != std::string::npos);
}

TEST_CASE("progress: --verbose reports each step on stderr, --quiet and a pipe print nothing") {
  Fixtures f;
  const Result verbose = run(f.dir, "match " + q(f.graph) + " --algo greedy --verbose");
  REQUIRE(verbose.status == 0);
  for (const char* step : {"matchblas: reading ", "matchblas: building the graph: ", "matchblas: running greedy: "})
    CHECK_MESSAGE(verbose.err.find(step) != std::string::npos, step);
  CHECK(verbose.out.find("greedy: weight") != std::string::npos);
  for (const std::string& args : {"match " + q(f.graph) + " --algo greedy --quiet", "match " + q(f.graph) + " --algo greedy",
                                  "bmatch " + q(f.graph) + " --algo b-greedy --b 1", "perm " + q(f.matrix)}) {
    CAPTURE(args);
    const Result r = run(f.dir, args);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
  }
  // On a terminal (script(1) gives one) a run over a second draws the line:
  // a FIFO that is written after 1.5 s keeps the reading step going.
  if (shell_status("command -v script >/dev/null") != 0) {
    MESSAGE("terminal check skipped: no script(1)");
    return;
  }
  REQUIRE(shell_status("mkfifo " + q(f.dir / "slow")) == 0);
  const std::string run = std::string(MATCHBLAS_CLI) + " match " + (f.dir / "slow").string() + " --algo greedy";
  CHECK(shell_status("(sleep 1.5; cat " + q(f.graph) + " >" + q(f.dir / "slow") + ") & script -qec " + q(run) + " /dev/null >" +
           q(f.dir / "tty.txt") + " 2>&1; wait") == 0);
  const std::string tty = slurp(f.dir / "tty.txt");
  CHECK(tty.find("matchblas: reading ") != std::string::npos);
  CHECK(tty.find(" s\033[K") != std::string::npos);
  CHECK(tty.find("greedy: weight") != std::string::npos);
}

TEST_CASE("what a user reads cites sources, not the project's seed files or issue numbers") {
  check::temp_dir dir;
  std::vector<std::string> texts = {"--help", "list", "list --long", "list --json", "--version"};
  for (const std::string& c : check::cli_commands(dir)) texts.push_back(c + " --help");
  for (const std::string& args : texts) {
    CAPTURE(args);
    const Result r = run(dir, args);
    CHECK(r.status == 0);
    CHECK(internal_citation(r.out) == "");
  }
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    CHECK(!m.reference.empty());
    CHECK(internal_citation(m.summary + m.reference) == "");
  }
  CHECK(internal_citation("as in Paper II, sec. 3") == "paper ii");  // the check can fail
  CHECK(internal_citation("see Issue 17") == "issue 17");
  CHECK(internal_citation("seed 003.md") == "seed 003");
  CHECK(internal_citation("paper iiv, paper vi, seed 005, issue x, paper in") == "");
}
