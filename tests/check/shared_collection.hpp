// The shared matrix collection as the tests read it: its MANIFEST.tsv's rows
// (columns by the header's names), and its matrices as the pre-pass takes
// them. Both are empty when the collection is absent (shared_matrices()).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lib/csr.hpp"

namespace matchblas::check {

struct ManifestRow {
  std::string file;                          // relative to the collection's folder
  std::filesystem::path path;                // the file itself
  std::map<std::string, std::string> field;  // every column of the row, by name ("" when missing)
};

std::vector<ManifestRow> shared_manifest();

struct SharedMatrix {
  std::string file;
  vertex_t structural_rank;  // MANIFEST's, -1 when it gives none
  Csr<double> a;             // matrix_as_given
};

// Every matrix of the collection the reader takes (a refused one, the
// complex file, is skipped with a doctest MESSAGE naming it).
std::vector<SharedMatrix> shared_prepass_matrices();

}  // namespace matchblas::check
