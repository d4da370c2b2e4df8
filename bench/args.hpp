// Option helpers shared by the benchmark programs.
#pragma once
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace matchblas::bench {

// "1,2,16" -> {1, 2, 16} (each item read as by std::atoi).
inline std::vector<int> int_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atoi(item.c_str()));
  return out;
}

// "a,b,c" -> {"a", "b", "c"}.
inline std::vector<std::string> string_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

}  // namespace matchblas::bench
