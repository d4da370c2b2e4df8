// The tool's commands in one table: name, arguments, what it does, its own
// options (name, value, help). Parsing (which options a command accepts),
// `matchblas --help` and `matchblas COMMAND --help` all read it; a command
// that runs a registered algorithm also accepts its problem's registry
// options, and its help lists them with the algorithms.
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/args.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

struct CommandOption {
  std::string name;   // without "--"
  std::string value;  // its value in the synopsis ("FILE", "cpu|gpu"); "" for a flag
  std::string help;   // one line
};

struct Command {
  std::string name;
  std::string arguments;  // the positional arguments ("FILE", "KIND N")
  std::string summary;    // one line
  std::vector<std::string> details;  // more lines for COMMAND --help
  std::vector<CommandOption> options;
  std::optional<Problem> problem;  // set: runs a registered algorithm of this problem
  int (*run)(const Args&) = nullptr;
};

// Every command, in the order of the help.
const std::vector<Command>& command_table();

// The command called `name`, or nullptr.
const Command* find_command(std::string_view name);

// Parses argv[2..) for c: its own options plus, for an algorithm command,
// every registry option of its problem.
Args parse_command_line(const Command& c, int argc, char** argv);

// `matchblas --help`: the commands, the common options, where the algorithms
// are listed (matchblas list), exit status.
void print_help(std::FILE* out);
// `matchblas COMMAND --help`: its synopsis, options, and (algorithm
// commands) its algorithms with their references and options.
void print_command_help(const Command& c, std::FILE* out);

}  // namespace matchblas::cli
