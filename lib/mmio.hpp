// Matrix Market I/O: read and write the coordinate and array formats.
//
// Reads: coordinate real / integer / pattern, array real / integer; symmetry
// general, symmetric, skew-symmetric (not with pattern: the format forbids
// it); comment lines; 1-based indices; files
// compressed with gzip (recognised by their magic bytes, any name). Refuses
// complex and hermitian matrices and anything malformed with a parse_error
// naming the file, the 1-based line and the reason: missing or bad banner,
// bad size line, index out of range, bad or missing number, NaN or Inf,
// too many or too few entries, truncated file, extra tokens on a line.
// Reads in bounded chunks (no whole-file buffer); numbers parsed with
// std::from_chars. Spec: https://math.nist.gov/MatrixMarket/formats.html
//
// Writes: the same formats, gzip-compressed when the path ends in ".gz".
// A write to a path goes through lib/atomic_file.hpp (a temporary put in
// place on success, so that a failed write leaves no partial file; devices,
// FIFOs and symbolic links are written directly).
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

enum class MmFormat { coordinate, array };
enum class MmField { real, integer, pattern };
enum class MmSymmetry { general, symmetric, skew_symmetric };

struct MmHeader {
  MmFormat format = MmFormat::coordinate;
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
  vertex_t rows = 0;
  vertex_t cols = 0;
  offset_t entries = 0;  // stored entries: the size line's count (coordinate)
                         // or the number of values stored (array)
};

// A matrix as stored in the file, indices made 0-based.
//  coordinate: row[k], col[k], val[k] for every stored entry in file order;
//              val is empty for pattern files. Symmetric files are NOT
//              expanded here (the graph rules do that).
//  array:      row and col are empty; val holds all rows*cols values in
//              row-major order, expanded for symmetric (a_ji = a_ij) and
//              skew-symmetric (a_ji = -a_ij, zero diagonal) files.
struct MmMatrix {
  MmHeader header;
  std::vector<vertex_t> row;
  std::vector<vertex_t> col;
  std::vector<double> val;
  // How the graph builders' messages number rows and columns: 1 as a file
  // does; the C API's arrays set their caller's base (0 or 1).
  int shown_base = 1;
};

// Reads a file (plain or gzip; "-": standard input). `path` is the name
// used in error messages. on_header, when set, sees the header as soon as
// the size line is read, before any entry is read or memory reserved for
// them: the caller's memory check, which refuses by throwing. Without it the
// vectors are reserved no larger than the input's size can fill (a lying
// header cannot reserve terabytes); with it, at the declared size.
MmMatrix read_matrix_market(const std::string& path,
                            const std::function<void(const MmHeader&)>& on_header = {});

// A symmetric or skew-symmetric coordinate file stores one triangle (the
// format's rule; the other is implied), so a pair stored as both (i, j) and
// (j, i) would count twice once the transpose is added: every reader
// refuses it (parse_error without a line), the writer too. Either triangle
// alone, or a mix without such a pair, is accepted.
//   pair_in_both_triangles: the pair with the smallest (min, max) stored on
// both sides, as its first entry on each side (0-based, in file order:
// first < second); nullopt when there is none. One pass when the entries lie
// on one side; else 16 bytes per off-diagonal entry and a sort (less than
// the graph build that follows a read holds).
//   both_triangles_reason: the message naming such a pair (1-based entry
// numbers, 1-based row and column of each as stored).
//   both_triangles_error: for a symmetric or skew-symmetric coordinate
// matrix, that message for its pair; nullopt when it has none (or is
// general, or an array).
struct EntryPair {
  std::int64_t first, second;
};
std::optional<EntryPair> pair_in_both_triangles(const std::vector<vertex_t>& row, const std::vector<vertex_t>& col);
std::string both_triangles_reason(MmSymmetry symmetry, std::int64_t first, vertex_t first_row, vertex_t first_col,
                                  std::int64_t second, vertex_t second_row, vertex_t second_col);
std::optional<std::string> both_triangles_error(const MmMatrix& m);

// Only the banner and the size line of a file (its entries are not read or
// checked).
MmHeader read_matrix_market_header(const std::string& path);

// The bytes the reader holds at its peak for a file with this header: the
// 0-based index and value vectors (an array file's values twice while they
// are expanded to the full matrix), plus its chunk buffer.
double matrix_market_bytes(const MmHeader& h);

// Reading one file in pieces (each MPI rank its own, datasets/distributed/):
// the layout says where the entries begin; piece `part` of `parts` is the
// entry lines whose first byte lies in the part-th of `parts` equal byte
// ranges of the entries (so every line is in exactly one piece, in order).
struct MmLayout {
  std::string path, name;     // the path, and the name used in messages
  bool splittable = false;    // a non-empty plain regular file; when false nothing below is set
  MmHeader header;
  std::uint64_t data_begin = 0;  // the byte after the size line
  std::uint64_t file_bytes = 0;
  long long header_lines = 0;    // lines up to and with the size line
};
struct MmPiece {
  MmMatrix entries;           // as read_matrix_market's (0-based, file order, symmetric not expanded)
  long long lines = 0;        // lines in the piece (a last line without '\n' counts)
  // The piece's first error, if any: its line counted from 1 at the piece's
  // first line, and read_matrix_market's reason for it; entries holds those
  // before it.
  long long error_line = 0;
  std::string error;
};
// The header of path, read as read_matrix_market reads it (the same
// parse_error for a bad one); splittable false, and nothing read, for "-",
// pipes, FIFOs, devices, missing and empty files, and false for gzip files:
// only a whole read takes those.
MmLayout read_matrix_market_layout(const std::string& path);
// Piece `part` of a coordinate file (layout.splittable); its entry after
// the first `limit` is the error "more entries than the N declared". No
// end-of-file checks (too few entries): the caller sums the pieces. Memory:
// its entries and one chunk buffer.
MmPiece read_matrix_market_piece(const MmLayout& layout, int part, int parts, offset_t limit);

// Reads from memory; `name` is the name used in error messages.
MmMatrix read_matrix_market_text(std::string_view text, const std::string& name = "<text>");

// Writes m to path (gzip when path ends in ".gz"), atomically. For
// symmetric and skew-symmetric coordinate matrices the entries are written as
// given (callers pass one triangle). Array matrices write the lower triangle
// (column by column, as the format says) when the symmetry is not general.
// `comment` lines (without the leading '%') follow the banner.
void write_matrix_market(const std::string& path, const MmMatrix& m,
                         const std::vector<std::string>& comment = {});

// The same text (never gzip) to a FILE* the caller opened and keeps open
// (stdout, a pipe); `name` is the name used in error messages. Flushes the
// FILE*; throws error on a write error.
void write_matrix_market(std::FILE* file, const MmMatrix& m, const std::vector<std::string>& comment,
                         const std::string& name);

std::string to_string(MmFormat f);
std::string to_string(MmField f);
std::string to_string(MmSymmetry s);

}  // namespace matchblas
