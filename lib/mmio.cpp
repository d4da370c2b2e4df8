// Matrix Market reader, whole streams (contract in lib/mmio.hpp).
// Source: the NIST format description,
// https://math.nist.gov/MatrixMarket/formats.html; error style after
// fast_matrix_market ("line N: reason").
// This file reads a whole stream (a path, standard input, gzip) or text in
// memory; lib/mmio_pieces.cpp reads a plain file's layout and one piece of
// its entry lines for the distributed reader (the same Parser,
// lib/mmio_parser.hpp, its lines counted from the piece's start);
// lib/mmio_write.cpp writes.
// Reading: O(bytes) work, one pass, one core; the input goes through a fixed
// chunk buffer (plain stdio or zlib), complete lines are parsed in place with
// std::from_chars, the tail of a chunk moves to the front of the next. The
// vectors are reserved from the size line, capped by what the file's size
// can hold, so a lying header cannot make us allocate terabytes.
#include "lib/mmio.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/mmio_parser.hpp"

namespace matchblas {

using namespace mmio_detail;

MmMatrix read_matrix_market(const std::string& path, const std::function<void(const MmHeader&)>& on_header) {
  try {
    InputStream in(path);
    const std::string& name = in.name();
    // A small file needs no 8 MiB buffer (the buffer only bounds how much
    // is parsed at a time; it grows for longer lines).
    const std::size_t bytes = in.file_bytes();
    std::vector<char> buf(bytes ? std::clamp<std::size_t>(bytes + 1, 4096, chunk_bytes) : chunk_bytes);
    // The first chunk tells whether the data is gzip (then the file's size
    // is a guess at a sixteenth of the text's, to bound the reservations).
    std::size_t head = 0;
    for (std::size_t got = 1; got != 0 && head < buf.size();) {
      got = in.read_noexcept(buf.data() + head, buf.size() - head);
      head += got;
    }
    Parser ps(name, in.compressed() ? in.file_bytes() * 16 : in.file_bytes(), &on_header);
    parse_stream(
        ps, buf, head, [&](char* dst, std::size_t n) { return in.read_noexcept(dst, n); },
        [&] {
          if (in.failed_for_memory()) throw std::bad_alloc();
          return in.failure();
        });
    return ps.finish();
  } catch (const std::bad_alloc&) {
    throw out_of_memory((path == "-" ? std::string("<stdin>") : path) + ": out of memory while reading the matrix");
  }
}

std::optional<EntryPair> pair_in_both_triangles(const std::vector<vertex_t>& row, const std::vector<vertex_t>& col) {
  const std::size_t n = row.size();
  bool lower = false, upper = false;
  std::size_t off_diagonal = 0;
  for (std::size_t k = 0; k < n; ++k) {
    lower |= row[k] > col[k];
    upper |= row[k] < col[k];
    off_diagonal += row[k] != col[k];
  }
  if (!lower || !upper) return std::nullopt;
  // ((min, max) << 1 | upper side, entry): sorted, each pair's lower-side
  // entries come first, each side in file order. Ids are below 2^31.
  std::vector<std::pair<std::uint64_t, std::size_t>> keys;
  keys.reserve(off_diagonal);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t r = std::uint64_t(row[k]), c = std::uint64_t(col[k]);
    if (r != c) keys.emplace_back(((std::min(r, c) << 32 | std::max(r, c)) << 1) | (r < c ? 1 : 0), k);
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t t = 1, run = 0; t < keys.size(); ++t) {
    if (keys[t].first != keys[t - 1].first) {
      if (keys[t].first >> 1 == keys[t - 1].first >> 1) {  // the upper side's first after the lower side's run
        const std::int64_t x = std::int64_t(keys[run].second), y = std::int64_t(keys[t].second);
        return EntryPair{std::min(x, y), std::max(x, y)};
      }
      run = t;
    }
  }
  return std::nullopt;
}

std::string both_triangles_reason(MmSymmetry symmetry, std::int64_t first, vertex_t first_row, vertex_t first_col,
                                  std::int64_t second, vertex_t second_row, vertex_t second_col) {
  std::string why = "entries ";
  const std::int64_t entry[2] = {first, second};
  const vertex_t row[2] = {first_row, second_row}, col[2] = {first_col, second_col};
  for (int t = 0; t < 2; ++t) {
    why += t == 0 ? "" : ") and ";
    why += std::to_string(entry[t] + 1);
    why += " (";
    why += std::to_string(row[t] + 1);
    why += ", ";
    why += std::to_string(col[t] + 1);
  }
  why += ") are one pair stored in both triangles, but a ";
  why += to_string(symmetry);
  why += " file stores one triangle (the other is implied): the pair would count twice (store one triangle, or "
         "write the file as general)";
  return why;
}

std::optional<std::string> both_triangles_error(const MmMatrix& m) {
  if (m.header.format != MmFormat::coordinate || m.header.symmetry == MmSymmetry::general) return std::nullopt;
  const std::optional<EntryPair> p = pair_in_both_triangles(m.row, m.col);
  if (!p) return std::nullopt;
  const auto x = std::size_t(p->first), y = std::size_t(p->second);
  return both_triangles_reason(m.header.symmetry, p->first, m.row[x], m.col[x], p->second, m.row[y], m.col[y]);
}

MmHeader read_matrix_market_header(const std::string& path) {
  struct header_read {
    MmHeader h;
  };
  try {
    read_matrix_market(path, [](const MmHeader& h) { throw header_read{h}; });
  } catch (const header_read& done) {
    return done.h;
  }
  // Unreachable: the reader either calls on_header or throws parse_error.
  throw parse_error(path, 0, "no size line");
}

double matrix_market_bytes(const MmHeader& h) {
  const double entries = double(h.entries);
  const double chunk = double(chunk_bytes);
  if (h.format == MmFormat::array) return chunk + sizeof(double) * (entries + double(h.rows) * double(h.cols));
  return chunk + entries * (2 * sizeof(vertex_t) + (h.field == MmField::pattern ? 0 : sizeof(double)));
}

MmMatrix read_matrix_market_text(std::string_view text, const std::string& name) {
  try {
    Parser ps(name, text.size());
    std::size_t used = 0;
    if (const void* nl = text.empty() ? nullptr : memrchr(text.data(), '\n', text.size())) {
      used = std::size_t(static_cast<const char*>(nl) - text.data()) + 1;
      ps.lines(text.data(), text.data() + used);
    }
    if (used < text.size()) {
      std::string last(text.substr(used));
      last += '\n';
      ps.lines(last.data(), last.data() + last.size());
    }
    return ps.finish();
  } catch (const std::bad_alloc&) {
    throw out_of_memory(name + ": out of memory while reading the matrix");
  }
}

}  // namespace matchblas
