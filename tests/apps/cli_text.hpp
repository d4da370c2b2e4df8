// Plain string helpers of the command line tool's tests, instead of the
// standard library's regular expressions (GCC warns, wrongly, about their
// instantiations in the sanitizer build): CMake's project version, the
// numbers of a JSON text, and whether a number is written in its shortest
// form.
#pragma once
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace matchblas::check {

// The VERSION of "project(matchblas VERSION 1.2.3 ..." in CMakeLists.txt's
// text, or "".
inline std::string project_version(const std::string& cmake) {
  const std::string key = "project(matchblas VERSION ";
  const auto at = cmake.find(key);
  if (at == std::string::npos) return "";
  const auto start = at + key.size();
  return cmake.substr(start, cmake.find_first_not_of("0123456789.", start) - start);
}

// The numbers of a JSON text as written, outside its strings.
inline std::vector<std::string> json_numbers(std::string_view json) {
  std::vector<std::string> out;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t end = std::min(json.find_first_of(",]} \n", i), json.size());
      out.emplace_back(json.substr(i, end - i));
      i = end - 1;
    }
  }
  return out;
}

// Whether `text` is an integer, or a number as std::to_chars writes it: the
// shortest decimal that reads back as the same double (0.000362972, not
// 0.00036297199999999998).
inline bool is_shortest_decimal(const std::string& text) {
  if (text.find_first_of(".eE") == std::string::npos) return !text.empty();  // an integer
  double x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr) == text;
}

}  // namespace matchblas::check
