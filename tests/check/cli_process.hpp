// The matchblas command line tool run as a separate process, for the tests
// of apps/: its exit status, standard output and standard error.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "tests/check/check.hpp"

namespace matchblas::check {

struct CliResult {
  int status;  // the exit status, -1 when killed by a signal
  std::string out, err;
};

// Runs `matchblas ARGS` through /bin/sh after the shell commands `before`
// (limits, traps, background readers), its output captured in files of dir.
CliResult run_cli(const temp_dir& dir, const std::string& args, const std::string& before = "");

// The whole content of a file ("" when it cannot be read).
std::string slurp(const std::filesystem::path& p);

// p in single quotes, for the shell.
std::string shell_quoted(const std::filesystem::path& p);

// The exit status of a whole /bin/sh command line (-1 when killed).
int shell_status(const std::string& command);

// The number of lines (newlines) in s.
long line_count(const std::string& s);

// The project's source folder (README.md, docs/, CMakeLists.txt).
std::filesystem::path source_root();

// The commands `matchblas --help` lists, in its order.
std::vector<std::string> cli_commands(const temp_dir& dir);

}  // namespace matchblas::check
