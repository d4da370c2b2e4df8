// The commands of the matchblas tool, one function each (apps/cmd_*.cpp).
#pragma once
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/args.hpp"
#include "apps/json_output.hpp"
#include "lib/atomic_file.hpp"
#include "lib/types.hpp"

namespace matchblas {
struct MatcherInfo;  // matchers/registry.hpp
}

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
int command_cluster(const Args& a);
// The mate array, one line per vertex, committed (match --out).
void write_mates(AtomicFile& f, const std::vector<vertex_t>& mate);
// --version's text (apps/version.cpp).
void print_version(std::FILE* out);

struct GeneratorKindHelp {
  std::string name, size;
};
std::vector<GeneratorKindHelp> generator_help();

// Why m cannot run here in a few words ("needs CUDA", "needs a CUDA GPU",
// "needs mpirun"), for tables (list, demo); nothing when it can.
// unavailable_here has the whole sentence.
std::optional<std::string> unavailable_briefly(const MatcherInfo& m);

// The one positional FILE of `command` (usage error otherwise, naming what
// was given).
void require_one_input(const Args& a, const std::string& command);

// Where the command's report goes: standard output, or standard error when
// one of `outputs` (option names) is standard output ("-", /dev/stdout).
// Two of them on standard output, or one with --json, or two leading to
// one file (symbolic links followed; devices excepted) conflict (usage error).
std::FILE* report_stream(const Args& a, const std::vector<std::string>& outputs);

// --out's checks before any work ("-", standard output, has none): not ".gz" unless gzip_ok (usage error),
// not the same file as one of `inputs` (error).
void check_output_path(const std::string& out, const std::vector<std::string>& inputs, bool gzip_ok);
// --out opened before any work ("-": standard output) (a missing folder, no permission: an error
// now, not after the work), after check_output_path; nullptr without --out.
std::unique_ptr<AtomicFile> open_output(const Args& a, const std::vector<std::string>& inputs);
// The same for another output option (--scales-out, --levels-out).
std::unique_ptr<AtomicFile> open_named_output(const Args& a, const std::string& option, const std::string& input);

// Flushes standard output; error "cannot write <stdout>: WHY" when what was
// written there did not reach it (a full disk, a closed descriptor, a broken
// pipe).
void check_stdout();

// The command's output files put in place (AtomicFile::commit), once its
// report has reached standard output: a report that cannot be written (a
// full disk, a closed pipe) fails the command with every file left as it
// was. Null entries are skipped. Every command ends with it.
void commit_outputs(std::initializer_list<AtomicFile*> files);

}  // namespace matchblas::cli
