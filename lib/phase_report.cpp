#include "lib/phase_report.hpp"

#include "lib/error.hpp"

namespace matchblas {

std::int64_t PhaseReport::phases() const {
  std::int64_t n = 0;
  for (const Row& r : rows) n += r.phase.has_value();
  return n;
}

std::string cell_g(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

std::string cell_f(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string cell_count(std::int64_t x) { return x >= 0 ? std::to_string(x) : "-"; }

void write_phase_report(std::FILE* out, const PhaseReport& report) {
  std::fprintf(out, "phase %6s", "");
  for (const PhaseReport::Column& c : report.columns) std::fprintf(out, " %*s", c.width, c.name.c_str());
  std::fprintf(out, "\n");
  for (const PhaseReport::Row& r : report.rows) {
    if (r.cells.size() != report.columns.size())
      throw error("a phase report row with " + std::to_string(r.cells.size()) + " cells for " +
                  std::to_string(report.columns.size()) + " columns");
    if (r.phase) std::fprintf(out, "phase %6lld", static_cast<long long>(*r.phase));
    else std::fprintf(out, "start %6s", "");
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      std::fprintf(out, " %*s", report.columns[i].width, r.cells[i].c_str());
    std::fprintf(out, "\n");
  }
}

}  // namespace matchblas
