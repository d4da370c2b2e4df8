// A small command-line parser for the matchblas tool: positional arguments
// and --name VALUE (or --name=VALUE) / --flag options, each option declared
// before use, so that a misspelt option is an error and not silently ignored.
// A separate VALUE may not start with "--"; a flag takes no "=VALUE"; a
// word starting with one "-" and a letter ("-o") is an unknown option, "-"
// alone a positional argument (standard input).
// usage_error means a bad command line: the tool exits with status 2.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace matchblas::cli {

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // Parses argv[first..argc): `valued` options take a value, `flags` do not.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued,
       const std::set<std::string>& flags);

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
  double real(const std::string& name, double fallback, double lo, double hi) const;

 private:
  std::vector<std::string> positional_;
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
};

// Parses a whole decimal integer in [lo, hi]; throws usage_error naming `what`.
std::int64_t parse_integer(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi);

}  // namespace matchblas::cli
