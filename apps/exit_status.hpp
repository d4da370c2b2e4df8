// The tool's exit-status policy, in one place (README "Exit status"):
//   0 done;
//   1 bad input (a file that cannot be read or parsed, a graph an algorithm
//     does not take) or a failure at run time (out of memory, no usable GPU,
//     a write error): one line on stderr, no output file;
//   2 a bad command line: an unknown command or option, an option given
//     twice or without its value, a bad value, an option the chosen
//     algorithm does not take, conflicting options (a GPU algorithm with
//     --device cpu, --b with --b-file).
// Commands throw usage_error (apps/args.hpp) for status 2 and anything else
// for status 1; main() turns the exception into the line and the status.
#pragma once
#include <exception>

namespace matchblas::cli {

enum ExitStatus : int { exit_ok = 0, exit_failure = 1, exit_usage = 2 };

// Prints the one line for the exception `e` on stderr ("matchblas: error:
// ..." or, for a usage error, "matchblas: ... (see matchblas COMMAND
// --help)") and returns its status. `command` is "" before one is known.
int report_exception(std::exception_ptr e, const char* command);

// The same, once per job under mpirun (apps/cmd_match_distributed.cpp): a
// usage error there is met by every rank alike (the same command line), and
// each printing it would repeat the line once per rank; rank 0 alone prints
// it, and no rank returns before it has (mpirun ends the job at the first
// non-zero exit). Elsewhere, or for any other failure, report_exception.
int report_exception_once(std::exception_ptr e, const char* command);

}  // namespace matchblas::cli
