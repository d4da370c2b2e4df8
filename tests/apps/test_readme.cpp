// The README's worked examples, run: every ```console block's "$ ..."
// lines are run in order in a fresh folder (the tool first on PATH) and
// each line of their standard output is compared with the README's line
// below the command, every number replaced by N (times and thread counts
// differ between machines; the words, the fields and their order must not).
// Also: the README names every command, and CITATION.cff carries CMake's
// project version.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "matchers/registry.hpp"
#include "tests/apps/cli_text.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

namespace {

using check::source_root;

struct Example {
  std::string command;
  std::vector<std::string> output;
  int line = 0;  // in README.md
};

// The console blocks of `text`, each a list of examples.
std::vector<std::vector<Example>> console_blocks(const std::string& text) {
  std::vector<std::vector<Example>> blocks;
  std::istringstream in(text);
  bool inside = false;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!inside) {
      if (line == "```console") {
        inside = true;
        blocks.emplace_back();
      }
      continue;
    }
    if (line == "```") {
      inside = false;
      continue;
    }
    if (line.rfind("$ ", 0) == 0) blocks.back().push_back({line.substr(2), {}, number});
    else if (!blocks.back().empty()) blocks.back().back().output.push_back(line);
  }
  return blocks;
}

std::string shape(const std::string& line) {
  // Numbers ([-+]D[.D][e[-+]D], D digits) become N and runs of blanks one
  // blank: a right-aligned column shifts with the width of its numbers (a
  // slower build's longer times).
  const auto digit = [&](std::size_t i) { return i < line.size() && line[i] >= '0' && line[i] <= '9'; };
  const auto digits = [&](std::size_t i) {
    while (digit(i)) ++i;
    return i;
  };
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t start = i + ((line[i] == '-' || line[i] == '+') && digit(i + 1));
    if (digit(start)) {
      i = digits(start);
      if (line[i] == '.' && digit(i + 1)) i = digits(i + 1);
      if (i < line.size() && (line[i] == 'e' || line[i] == 'E')) {
        const std::size_t e = i + 1 + (i + 1 < line.size() && (line[i + 1] == '-' || line[i + 1] == '+'));
        if (digit(e)) i = digits(e);
      }
      out += 'N';
    } else if (line[i] == ' ') {
      if (out.empty() || out.back() != ' ') out += ' ';
      ++i;
    } else {
      out += line[i++];
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("README: every console example runs and prints what the README shows, numbers aside") {
  const std::string readme = check::slurp(source_root() / "README.md");
  REQUIRE(!readme.empty());
  const auto blocks = console_blocks(readme);
  REQUIRE(blocks.size() >= 8);
  const bool have_exact = !find_matcher("exact").unavailable;
  check::temp_dir dir;
  const std::string bin_dir = std::filesystem::path(MATCHBLAS_CLI).parent_path().string();
  int ran = 0;
  for (const auto& block : blocks) {
    for (const Example& e : block) {
      CAPTURE(e.line);
      CAPTURE(e.command);
      // These need the optimum (LEMON): skipped with the rest of the block where it is absent.
      if (!have_exact && (e.command.find("--gto") != std::string::npos || e.command.find("--exact") != std::string::npos ||
                          e.command.find(" demo") != std::string::npos)) {
        MESSAGE("skipped (no LEMON in this build): " << e.command);
        break;
      }
      const std::string cmd = "cd " + check::shell_quoted(dir.path()) + " && PATH=" + check::shell_quoted(bin_dir) +
                              ":\"$PATH\" && " + e.command + " >" + check::shell_quoted(dir / "example.out") +
                              " 2>" + check::shell_quoted(dir / "example.err");
      const int status = std::system(cmd.c_str());
      INFO(check::slurp(dir / "example.err"));
      CHECK(status == 0);
      const std::vector<std::string> got = lines_of(check::slurp(dir / "example.out"));
      CHECK(got.size() == e.output.size());
      for (std::size_t i = 0; i < std::min(got.size(), e.output.size()); ++i) {
        CAPTURE(i);
        CHECK(shape(got[i]) == shape(e.output[i]));
      }
      ++ran;
    }
  }
  CHECK(ran >= 15);
}

TEST_CASE("README: the examples' comparison ignores numbers and the width of blanks") {
  CHECK(shape("  greedy   105.077572   121  -8.4e-05 x2 1.5.3 v1. 2e") == " greedy N N N xN N.N vN. Ne");
  CHECK(shape("time 0.016199 s, GTO 4.1438%") == "time N s, GTO N%");
}

TEST_CASE("README: every command is named, with the exit statuses; CITATION.cff has the project's version") {
  const std::string readme = check::slurp(source_root() / "README.md");
  check::temp_dir dir;
  const std::vector<std::string> commands = check::cli_commands(dir);
  for (const std::string& name : commands) CHECK_MESSAGE(readme.find("| `" + name) != std::string::npos, name);
  CHECK(commands.size() >= 9);
  for (const char* section : {"## Install", "## The command line tool", "### Exit status", "### Worked examples",
                              "## Which matcher when", "## Where the test data comes from",
                              "## The diagonal pre-pass as a library", "## License and citation"})
    CHECK_MESSAGE(readme.find(std::string("\n") + section + "\n") != std::string::npos, section);
  const std::string cmake = check::slurp(source_root() / "CMakeLists.txt");
  const std::string version = check::project_version(cmake);
  REQUIRE(!version.empty());
  const std::string citation = check::slurp(source_root() / "CITATION.cff");
  CHECK(citation.find("\nversion: " + version + "\n") != std::string::npos);
  CHECK(citation.find("license: Apache-2.0") != std::string::npos);
  CHECK(check::slurp(source_root() / "LICENSE").find("Apache License") != std::string::npos);
}
