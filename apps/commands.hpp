// The commands of the matchblas tool, one function each (apps/cmd_*.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "apps/args.hpp"
#include "lib/atomic_file.hpp"

namespace matchblas::cli {

int command_match(const Args& a);
int command_gen(const Args& a);
int command_list(const Args& a);
int command_demo(const Args& a);
int command_bmatch(const Args& a);
int command_marry(const Args& a);
int command_marriage_gen(const Args& a);
int command_eval(const Args& a);
int command_perm(const Args& a);

struct GeneratorKindHelp {
  std::string name, size;
};
std::vector<GeneratorKindHelp> generator_help();

// Applies --threads (0 or absent: all cores).
void apply_threads(const Args& a);

// --out's checks before any work: not ".gz" unless gzip_ok (usage error),
// not the same file as one of `inputs` (error).
void check_output_path(const std::string& out, const std::vector<std::string>& inputs, bool gzip_ok);
// --out opened before any work (a missing folder, no permission: an error
// now, not after the work), after check_output_path; nullptr without --out.
std::unique_ptr<AtomicFile> open_output(const Args& a, const std::vector<std::string>& inputs);

// JSON string literal of s (quotes and escapes).
std::string json_string(const std::string& s);

}  // namespace matchblas::cli
