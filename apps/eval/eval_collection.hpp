// The matrices `matchblas eval` runs over: directories (searched
// recursively for .mtx and .mtx.gz files), manifests (a .tsv file whose
// header names a `file` column, paths relative to the manifest, as a
// collection's MANIFEST.tsv), and files, in the order given,
// each directory's files sorted; a file met twice is kept once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace matchblas::cli {

struct EvalInput {
  std::string path;  // to read
  std::string name;  // to show: relative to its directory or manifest
};

// Throws usage_error for a path that does not exist, matchblas::error for a
// manifest without a `file` column.
std::vector<EvalInput> collect_inputs(const std::vector<std::string>& paths);

// A 64-bit hash of the file's bytes (FNV-1a) and its size, as hex text: the
// key of the optimum cache. Throws matchblas::error when it cannot be read.
std::string content_key(const std::string& path);

}  // namespace matchblas::cli
