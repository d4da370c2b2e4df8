#include "tests/check/cli_process.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace matchblas::check {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quoted(const std::filesystem::path& p) {
  std::string s = "'";  // appended, not "'" + string (a GCC 12 -Wrestrict false positive)
  s += p.string();
  s += '\'';
  return s;
}

int shell_status(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

long line_count(const std::string& s) { return static_cast<long>(std::count(s.begin(), s.end(), '\n')); }

std::filesystem::path source_root() { return test_data().parent_path().parent_path(); }

std::vector<std::string> cli_commands(const temp_dir& dir) {
  const std::string help = run_cli(dir, "--help").out;
  std::vector<std::string> names;
  const auto start = help.find("commands:\n");
  if (start == std::string::npos) return names;
  std::istringstream in(help.substr(start + 10));
  for (std::string line; std::getline(in, line) && line.rfind("  ", 0) == 0;)
    names.push_back(line.substr(2, line.find(' ', 2) - 2));
  return names;
}

CliResult run_cli(const temp_dir& dir, const std::string& args, const std::string& before) {
  const std::string cmd = before + (before.empty() ? "" : "; ") + shell_quoted(MATCHBLAS_CLI) + " " + args + " >" +
                          shell_quoted(dir / "stdout") + " 2>" + shell_quoted(dir / "stderr");
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

}  // namespace matchblas::check
