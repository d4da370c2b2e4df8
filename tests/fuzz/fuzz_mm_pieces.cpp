// libFuzzer target: the Matrix Market reader in pieces (read_matrix_market_layout
// and read_matrix_market_piece, what each MPI rank of datasets/distributed/dist_read
// reads) against the whole read (read_matrix_market) of the same file. For 1
// to 5 parts, the pieces are combined as dist_read combines them (entries in
// order, each piece's limit the declared count less the entries before it,
// the first piece's error with its line offset by the lines before it, and
// "file ends after" when the pieces fall short), and must give the whole
// read's entries, or its parse_error with the same line and reason. Any
// other difference, or an exception that is not a matchblas::error, is a
// finding.
#include <cstdint>
#include <string>

#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

using namespace matchblas;

struct Outcome {
  bool other = false;  // an error other than parse_error (out of memory): nothing to compare
  bool failed = false;
  long long line = 0;
  std::string reason;
  MmMatrix m;
};

Outcome whole(const std::string& path) {
  Outcome o;
  try {
    o.m = read_matrix_market(path);
  } catch (const parse_error& e) {
    o = {false, true, e.line(), e.reason(), {}};
  } catch (const error&) {
    o.other = true;
  }
  return o;
}

Outcome in_pieces(const MmLayout& layout, int parts) {
  Outcome o;
  const long long declared = layout.header.entries;
  long long lines = 0, entries = 0;
  for (int part = 0; part < parts; ++part) {
    const MmPiece p = read_matrix_market_piece(layout, part, parts, offset_t(declared - entries));
    o.m.row.insert(o.m.row.end(), p.entries.row.begin(), p.entries.row.end());
    o.m.col.insert(o.m.col.end(), p.entries.col.begin(), p.entries.col.end());
    o.m.val.insert(o.m.val.end(), p.entries.val.begin(), p.entries.val.end());
    if (!p.error.empty())
      return {false, true, p.error_line > 0 ? layout.header_lines + lines + p.error_line : 0, p.error, {}};
    lines += p.lines;
    entries += static_cast<long long>(p.entries.row.size());
  }
  if (entries < declared)
    return {false, true, layout.header_lines + lines + 1,
            "expected " + std::to_string(declared) + " entries, file ends after " + std::to_string(entries), {}};
  // A pair in both triangles of a symmetric file: dist_read refuses it over
  // the ranks with the same message, naming the same entries.
  o.m.header = layout.header;
  if (const std::optional<std::string> why = both_triangles_error(o.m)) return {false, true, 0, *why, {}};
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MemFile f(data, size);
  const Outcome want = whole(f.path);
  if (want.other) return 0;
  MmLayout layout;
  try {
    layout = read_matrix_market_layout(f.path);
  } catch (const parse_error& e) {  // a bad header: the whole read's error
    if (!want.failed || e.line() != want.line || e.reason() != want.reason) __builtin_trap();
    return 0;
  }
  if (!layout.splittable || layout.header.format != MmFormat::coordinate) return 0;
  for (int parts = 1; parts <= 5; ++parts) {
    Outcome got;
    try {
      got = in_pieces(layout, parts);
    } catch (const parse_error& e) {  // thrown instead of returned: dist_read agrees on it the same way
      got = {false, true, e.line(), e.reason(), {}};
    }
    if (got.failed != want.failed) __builtin_trap();
    if (got.failed && (got.line != want.line || got.reason != want.reason)) __builtin_trap();
    if (!got.failed && (got.m.row != want.m.row || got.m.col != want.m.col || got.m.val != want.m.val))
      __builtin_trap();
  }
  return 0;
}
