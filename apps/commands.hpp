// The commands of the matchblas tool, one function each (apps/cmd_*.cpp).
#pragma once
#include <string>
#include <vector>

#include "apps/args.hpp"

namespace matchblas::cli {

int command_match(const Args& a);
int command_gen(const Args& a);
int command_list(const Args& a);
int command_demo(const Args& a);
int command_bmatch(const Args& a);
int command_marry(const Args& a);
int command_marriage_gen(const Args& a);
int command_eval(const Args& a);

struct GeneratorKindHelp {
  std::string name, size;
};
std::vector<GeneratorKindHelp> generator_help();

// Applies --threads (0 or absent: all cores).
void apply_threads(const Args& a);

// JSON string literal of s (quotes and escapes).
std::string json_string(const std::string& s);

}  // namespace matchblas::cli
