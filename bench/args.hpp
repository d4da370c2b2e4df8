// Option helpers shared by the benchmark programs.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "lib/complete_weights.hpp"

namespace matchblas::bench {

// Whether --help or -h is among the arguments; then `usage` (the program's
// synopsis and what it measures) goes to standard output and the program
// returns 0 without running anything.
inline bool help(int argc, char** argv, const char* usage) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(usage, stdout);
      return true;
    }
  return false;
}

// "1,2,16" -> {1, 2, 16} (each item read as by std::atoi).
inline std::vector<int> int_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atoi(item.c_str()));
  return out;
}

// "0.25,0.5" -> {0.25, 0.5} (each item read as by std::atof).
inline std::vector<double> real_list(const std::string& s) {
  std::vector<double> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::atof(item.c_str()));
  return out;
}

// "a,b,c" -> {"a", "b", "c"}.
inline std::vector<std::string> string_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

// "uniform", "exponential", "geometric" -> the weight distribution of the
// complete graphs of N. H. Hovland, "Maximum weighted matching on a GPU",
// Master's thesis, University of Bergen, 2020, sec. 5.1; anything else: a
// message naming `program` and exit 2.
inline WeightDist weight_dist(const std::string& name, const char* program) {
  if (name == "uniform") return WeightDist::uniform;
  if (name == "exponential") return WeightDist::exponential;
  if (name == "geometric") return WeightDist::geometric;
  std::fprintf(stderr, "%s: unknown distribution '%s' (uniform, exponential, geometric)\n", program, name.c_str());
  std::exit(2);
}

}  // namespace matchblas::bench
