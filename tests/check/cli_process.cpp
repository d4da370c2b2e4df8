#include "tests/check/cli_process.hpp"

#include <sys/wait.h>

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

CliResult run_cli(const temp_dir& dir, const std::string& args, const std::string& before) {
  const std::string cmd = before + (before.empty() ? "" : "; ") + shell_quoted(MATCHBLAS_CLI) + " " + args + " >" +
                          shell_quoted(dir / "stdout") + " 2>" + shell_quoted(dir / "stderr");
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

}  // namespace matchblas::check
