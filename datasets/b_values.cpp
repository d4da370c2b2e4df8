// b-value files; see b_values.hpp.
#include "datasets/b_values.hpp"

#include <climits>
#include <cstdint>
#include <string_view>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"

namespace matchblas {

namespace {
std::vector<int> read_stream(const std::string& path, vertex_t n) {
  InputStream in(path);
  LineReader lines(in);
  std::vector<int> b;
  std::string line;
  while (lines.next(line)) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    const std::size_t last = line.find_last_not_of(" \t");
    const std::string_view token(line.data() + first, last - first + 1);
    long long v = -1;
    if (token.find_first_of(" \t") != std::string_view::npos)
      throw parse_error(in.name(), lines.line(), "one integer per line expected: '" + printable(line, 80) + "'");
    if (!parse_integer(token, LLONG_MIN, LLONG_MAX, v))
      throw parse_error(in.name(), lines.line(), "not an integer in range: '" + printable(line, 80) + "'");
    if (v < 0 || v > INT32_MAX) throw parse_error(in.name(), lines.line(), "b must be in 0.." + std::to_string(INT32_MAX));
    if (b.size() == std::size_t(n))
      throw parse_error(in.name(), lines.line(), "more values than the graph's " + std::to_string(n) + " vertices");
    b.push_back(int(v));
  }
  if (b.size() != std::size_t(n))
    throw parse_error(in.name(), 0, "has " + std::to_string(b.size()) + " values, the graph " + std::to_string(n) + " vertices");
  return b;
}
}  // namespace

std::vector<int> read_b_values(const std::string& path, vertex_t n) {
  try {
    return read_stream(path, n);
  } catch (const std::bad_alloc&) {
    throw out_of_memory((path == "-" ? std::string("<stdin>") : path) + ": out of memory while reading the b values");
  }
}

}  // namespace matchblas
