// The phases of a phased algorithm as a table: named columns, a row for the
// start and one per phase, each cell already written as text ("-" where the
// algorithm has no value). Algorithms with phases fill one when asked
// (RunOptions::phases); every surface prints it with write_phase_report.
#pragma once
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace matchblas {

struct PhaseReport {
  struct Column {
    std::string name;
    int width = 12;  // characters, right-aligned
  };
  struct Row {
    std::optional<std::int64_t> phase;  // none: the start
    std::vector<std::string> cells;     // one per column
  };
  std::vector<Column> columns;
  std::vector<Row> rows;

  // The rows that are phases (not the start).
  std::int64_t phases() const;
};

// "%.*g" / "%.*f" of x, for a cell.
std::string cell_g(double x, int digits = 10);
std::string cell_f(double x, int digits = 6);
// An integer cell; a negative count (the algorithm does not count it) is "-".
std::string cell_count(std::int64_t x);

// One header line, then one line per row ("start" or "phase N", then the
// cells); throws error when a row has the wrong number of cells.
void write_phase_report(std::FILE* out, const PhaseReport& report);

}  // namespace matchblas
