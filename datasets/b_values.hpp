// b-value files for b-matching: one integer b(v) in 0..2^31-1 per line for
// v = 0, 1, ..., n-1 (blank lines skipped), from any stream (lib/input_stream:
// a path or "-", plain or gzip). A bad file is one parse_error naming the
// file and line: not an integer, out of range, two values on a line, more or
// fewer than n values.
#pragma once
#include <string>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

std::vector<int> read_b_values(const std::string& path, vertex_t n);

}  // namespace matchblas
