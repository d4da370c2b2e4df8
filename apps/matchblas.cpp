// matchblas: the command line tool. The commands, their options and their
// help are apps/command_table.*; the exit-status policy apps/exit_status.*:
// 0 done, 1 bad input or a failure at run time, 2 a bad command line.
//   matchblas COMMAND [ARGUMENTS] [OPTIONS]    (matchblas --help lists them)
//   matchblas COMMAND --help                   (generated from the tables)
//   matchblas --version
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "apps/args.hpp"
#include "apps/command_table.hpp"
#include "apps/commands.hpp"
#include "apps/exit_status.hpp"
#include "lib/named_values.hpp"

namespace matchblas::cli {

namespace {

bool is_help(std::string_view a) { return a == "--help" || a == "-h"; }

// The usage error for a command not in the table: the closest name, and all of them.
usage_error unknown_command(const std::string& name) {
  std::vector<std::string> names;
  for (const Command& k : command_table()) names.push_back(k.name);
  names.insert(names.end(), {"--help", "--version"});
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return usage_error("unknown command '" + name + "'" + did_you_mean(name, names) + " (commands: " + list + ")");
}

int run(int argc, char** argv) {
  if (argc < 2) {
    print_help(stderr);
    return exit_usage;
  }
  const std::string name = argv[1];
  if (is_help(name) || name == "help") {
    if (name == "help" && argc > 2) {
      if (const Command* c = find_command(argv[2])) {
        print_command_help(*c, stdout);
        return exit_ok;
      }
      throw unknown_command(argv[2]);
    }
    print_help(stdout);
    return exit_ok;
  }
  if (name == "--version" || name == "version") {
    if (argc > 2) throw usage_error("--version takes no arguments");
    print_version(stdout);
    return exit_ok;
  }
  const Command* c = find_command(name);
  if (!c) throw unknown_command(name);
  for (int i = 2; i < argc; ++i)
    if (is_help(argv[i])) {
      print_command_help(*c, stdout);
      return exit_ok;
    }
  return c->run(parse_command_line(*c, argc, argv));
}

}  // namespace

}  // namespace matchblas::cli

// Every command's standard output is checked here (check_stdout; a command
// with output files checks it before committing them): a result that did
// not reach stdout (a full disk, a closed descriptor, a broken pipe) is a
// failure, exit status 1 with one line on stderr.
// A descriptor 0-2 the caller closed is held by a read-only /dev/null, so that
// no file the tool opens becomes "stdout" and a write to it fails (EBADF).
int main(int argc, char** argv) {
  using namespace matchblas::cli;
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int held = ::open("/dev/null", O_RDONLY);
      if (held >= 0 && held != fd) ::close(held);  // fd was taken meanwhile: nothing to hold
    }
  const char* command = argc >= 2 && find_command(argv[1]) ? argv[1] : "";
  try {
    const int status = run(argc, argv);
    check_stdout();
    return status;
  } catch (...) {
    return report_exception_once(std::current_exception(), command);
  }
}
