#include "tests/check/shared_collection.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "tests/check/check.hpp"

namespace matchblas::check {

namespace {
std::vector<std::string> tab_separated(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string c; std::getline(in, c, '\t');) cells.push_back(c);
  return cells;
}
}  // namespace

std::vector<ManifestRow> shared_manifest() {
  std::vector<ManifestRow> rows;
  const auto dir = shared_matrices();
  if (!dir) return rows;
  std::ifstream manifest(*dir / "MANIFEST.tsv");
  std::string line;
  std::getline(manifest, line);
  const std::vector<std::string> names = tab_separated(line);
  REQUIRE_MESSAGE(!names.empty(), "MANIFEST.tsv has no header");
  REQUIRE_MESSAGE(names[0] == "file", "MANIFEST.tsv's first column is '" << names[0] << "', not 'file'");
  while (std::getline(manifest, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = tab_separated(line);
    ManifestRow r;
    for (std::size_t i = 0; i < names.size(); ++i) r.field[names[i]] = i < cells.size() ? cells[i] : "";
    r.file = r.field["file"];
    r.path = *dir / r.file;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<SharedMatrix> shared_prepass_matrices() {
  std::vector<SharedMatrix> out;
  for (ManifestRow& row : shared_manifest()) {
    const std::string& rank = row.field["structural_rank"];
    try {
      out.push_back({row.file, rank.empty() ? -1 : vertex_t(std::stol(rank)),
                     matrix_as_given(read_matrix_market(row.path.string()))});
    } catch (const error& e) {
      MESSAGE("skipped " << row.file << ": " << std::string(e.what()));
    }
  }
  return out;
}

}  // namespace matchblas::check
