// The rows of `matchblas eval`: one per (matrix, algorithm, repetition),
// appended whole to runs.jsonl and runs.csv as each run ends (so an
// interrupted evaluation keeps every finished row), read back by --resume,
// and summed up in summary.md. Also the flat JSON objects the child
// `matchblas match --json` prints.
#pragma once
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace matchblas::cli {

struct EvalRow {
  static constexpr double none = std::numeric_limits<double>::quiet_NaN();
  std::string matrix;  // the name shown (the path relative to the collection's root)
  std::string path;    // the file read
  std::string algo, device;
  int threads = 0;
  int rep = 1;         // 1-based
  std::string status;  // ok, timeout, error, skipped
  std::string message;  // error: the child's message; skipped: why; timeout: the limit
  long long n = -1, edges = -1, cardinality = -1;
  double weight = none, read_s = none, setup_s = none, compute_s = none, wall_s = none, max_rss_mb = none;
  double optimum = none, gto_percent = none;
  std::string git;
  // Community detection runs (`cluster`): the modularity and the
  // communities; weight and cardinality stay empty.
  double modularity = none;
  long long communities = -1;
};

// What identifies a run for --resume.
std::string row_key(const std::string& path, const std::string& algo, int rep);

std::string csv_header();
std::string to_csv(const EvalRow& r);    // one line with its newline
std::string to_jsonl(const EvalRow& r);  // one line with its newline
// A line of runs.jsonl back; throws matchblas::error naming `where`.
EvalRow row_from_json(const std::string& line, const std::string& where);

// A flat JSON object (string, number, true/false/null values) as name ->
// text: strings unescaped, other values as written; null values are left
// out. Throws matchblas::error naming `where` on anything else, or, with
// skip_nested, leaves array and object values out (`cluster --json`'s
// levels).
std::map<std::string, std::string> parse_flat_json(const std::string& text, const std::string& where,
                                                   bool skip_nested = false);

// Appends `text` to the file at `path` (created when absent) with one
// write: a row is in the file whole or not at all. Throws matchblas::error.
void append_to_file(const std::string& path, const std::string& text);

// summary.md: per algorithm the matrices solved, the geometric mean of the
// median compute time over the matrices every listed algorithm solved, the
// mean and largest GTO (community detection: the mean modularity); per
// matrix the fastest and the heaviest algorithm (every one tied for the
// heaviest, "greedy = suitor"; community detection: the largest modularity).
std::string summary_markdown(const std::vector<EvalRow>& rows);

}  // namespace matchblas::cli
