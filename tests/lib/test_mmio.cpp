// Tests of the Matrix Market reader and writer (lib/mmio.hpp), after
// fast_matrix_market's own: bit-exact round trips over sizes x fields x
// symmetries x formats, plain and gzip; header variants; a folder of broken
// files (tests/data/mm_invalid), each with its line and reason; truncated
// gzip; chunk boundaries; the writer's refusals; and the shared SuiteSparse
// collection against its MANIFEST.tsv.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/mmio.hpp"
#include "tests/check/check.hpp"
#include "tests/check/shared_collection.hpp"

using namespace matchblas;
namespace fs = std::filesystem;

namespace {

const MmField fields[] = {MmField::real, MmField::integer, MmField::pattern};
const MmSymmetry symmetries[] = {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::skew_symmetric};
const offset_t sizes[] = {0, 1, 10, 1000, 100000};

// A value that stresses the shortest round-trip printing: ordinary, tiny,
// huge, subnormal, signed zero, integral.
double random_real(std::mt19937_64& rng) {
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0: return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                              std::uniform_int_distribution<int>(-1070, 1020)(rng));
    case 1: return std::numeric_limits<double>::denorm_min() * double(std::uniform_int_distribution<int>(1, 9)(rng));
    case 2: return -0.0;
    case 3: return double(std::uniform_int_distribution<int>(-1000, 1000)(rng));
    case 4: return std::uniform_int_distribution<int>(0, 1) (rng) ? std::numeric_limits<double>::max()
                                                                  : std::numeric_limits<double>::lowest();
    default: return std::uniform_real_distribution<double>(-1, 1)(rng);
  }
}

double random_value(std::mt19937_64& rng, MmField f) {
  if (f == MmField::integer)
    return double(std::uniform_int_distribution<long long>(-(1LL << 53), 1LL << 53)(rng));
  return random_real(rng);
}

// nnz entries of a coordinate matrix; one triangle (strict for skew) when not general.
MmMatrix random_coordinate(offset_t nnz, MmField f, MmSymmetry s, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MmMatrix m;
  const vertex_t rows = vertex_t(2 + nnz / 5);
  const vertex_t cols = s == MmSymmetry::general ? vertex_t(1 + nnz / 7) : rows;
  m.header = {MmFormat::coordinate, f, s, rows, cols, nnz};
  for (offset_t k = 0; k < nnz; ++k) {
    vertex_t r = std::uniform_int_distribution<vertex_t>(0, rows - 1)(rng);
    vertex_t c = std::uniform_int_distribution<vertex_t>(0, cols - 1)(rng);
    if (s != MmSymmetry::general && r < c) std::swap(r, c);
    if (s == MmSymmetry::skew_symmetric && r == c) r == 0 ? ++r : --c;
    m.row.push_back(r);
    m.col.push_back(c);
    if (f != MmField::pattern) m.val.push_back(random_value(rng, f));
  }
  return m;
}

// About `size` values of an array matrix, full and row-major, expanded as
// the reader expands (a_ji = a_ij, or -a_ij with a zero diagonal).
MmMatrix random_array(offset_t size, MmField f, MmSymmetry s, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MmMatrix m;
  const vertex_t n = vertex_t(std::sqrt(double(size)));
  const vertex_t rows = n;
  const vertex_t cols = s == MmSymmetry::general && n > 0 ? vertex_t(size / n) : n;
  const offset_t stored = s == MmSymmetry::general     ? offset_t(rows) * cols
                          : s == MmSymmetry::symmetric ? offset_t(n) * (n + 1) / 2
                                                       : offset_t(n) * (n - 1) / 2;
  m.header = {MmFormat::array, f, s, rows, cols, stored};
  m.val.assign(std::size_t(rows) * cols, 0.0);
  for (vertex_t j = 0; j < cols; ++j)
    for (vertex_t i = 0; i < rows; ++i) {
      if (s == MmSymmetry::general) {
        m.val[std::size_t(i) * cols + j] = random_value(rng, f);
      } else if (i > j || (i == j && s == MmSymmetry::symmetric)) {
        const double v = random_value(rng, f);
        m.val[std::size_t(i) * cols + j] = v;
        m.val[std::size_t(j) * cols + i] = s == MmSymmetry::symmetric ? v : -v;
      }
    }
  return m;
}

void require_same(const MmMatrix& a, const MmMatrix& b) {
  REQUIRE(a.header.format == b.header.format);
  REQUIRE(a.header.field == b.header.field);
  REQUIRE(a.header.symmetry == b.header.symmetry);
  REQUIRE(a.header.rows == b.header.rows);
  REQUIRE(a.header.cols == b.header.cols);
  REQUIRE(a.header.entries == b.header.entries);
  REQUIRE(a.row == b.row);
  REQUIRE(a.col == b.col);
  REQUIRE(a.val.size() == b.val.size());
  std::size_t k = 0;  // the first value whose bits differ
  while (k < a.val.size() && std::bit_cast<std::uint64_t>(a.val[k]) == std::bit_cast<std::uint64_t>(b.val[k])) ++k;
  CAPTURE(k);
  REQUIRE(k == a.val.size());
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

// Writes bytes gzip-compressed, independently of the writer under test.
void gzip_to(const fs::path& p, const std::string& bytes) {
  gzFile g = gzopen(p.string().c_str(), "wb");
  REQUIRE(g != nullptr);
  REQUIRE(gzwrite(g, bytes.data(), unsigned(bytes.size())) == int(bytes.size()));
  REQUIRE(gzclose(g) == Z_OK);
}

bool is_gzip(const fs::path& p) {
  const std::string b = slurp(p);
  return b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f && static_cast<unsigned char>(b[1]) == 0x8b;
}

// The parse_error that reading `path` (or `text`) throws.
template <class Read>
parse_error error_of(Read read) {
  try {
    read();
  } catch (const parse_error& e) {
    return e;
  }
  FAIL("no parse_error thrown");
  return parse_error("", 0, "");
}

}  // namespace

TEST_CASE("mmio: coordinate round trips, plain and gzip, bit-exact") {
  check::temp_dir dir;
  std::uint64_t seed = 1;
  for (offset_t nnz : sizes)
    for (MmField f : fields)
      for (MmSymmetry s : symmetries)
        for (bool gz : {false, true}) {
          ++seed;
          if (f == MmField::pattern && s == MmSymmetry::skew_symmetric) continue;  // the format forbids it
          CAPTURE(seed);
          CAPTURE(nnz);
          CAPTURE(to_string(f));
          CAPTURE(to_string(s));
          CAPTURE(gz);
          const MmMatrix m = random_coordinate(nnz, f, s, seed);
          const fs::path p = dir / (gz ? "m.mtx.gz" : "m.mtx");
          write_matrix_market(p.string(), m, {"written by test_mmio", "seed " + std::to_string(seed)});
          REQUIRE(is_gzip(p) == gz);
          const MmMatrix back = read_matrix_market(p.string());
          require_same(m, back);
          if (!gz) require_same(m, read_matrix_market_text(slurp(p)));
        }
}

TEST_CASE("mmio: array round trips, plain and gzip, bit-exact") {
  check::temp_dir dir;
  std::uint64_t seed = 1000;
  for (offset_t size : sizes)
    for (MmField f : {MmField::real, MmField::integer})
      for (MmSymmetry s : symmetries)
        for (bool gz : {false, true}) {
          ++seed;
          CAPTURE(seed);
          CAPTURE(size);
          CAPTURE(to_string(f));
          CAPTURE(to_string(s));
          CAPTURE(gz);
          const MmMatrix m = random_array(size, f, s, seed);
          const fs::path p = dir / (gz ? "a.mtx.gz" : "a.mtx");
          write_matrix_market(p.string(), m);
          const MmMatrix back = read_matrix_market(p.string());
          require_same(m, back);
        }
}

TEST_CASE("mmio: header variants all read the same matrix") {
  // 3 x 4, entries (1,1) = 1.5 and (3,2) = -2000, 0-based (0,0) and (2,1).
  const std::string variants[] = {
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%matrixmarket matrix coordinate real general\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%MATRIXMARKET MATRIX COORDINATE REAL GENERAL\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%MatrixMarket Matrix Coordinate Real General\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%MatrixMarket matrix coordinate real general\n% a comment\n%\n%%another\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%MatrixMarket matrix coordinate real general\n\n\n% c\n\n3 4 2\n1 1 1.5\n3 2 -2000\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n\n1 1 1.5\n% between entries\n\n3 2 -2000\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.5\n3 2 -2000\n\n% trailing\n\n",
      "%%MatrixMarket matrix coordinate real general\r\n3 4 2\r\n1 1 1.5\r\n3 2 -2000\r\n",
      "%%MatrixMarket\tmatrix  coordinate real\tgeneral  \n 3\t4   2 \n\t1 1\t1.5  \n  3  2 -2000\t\n",
      "%%MatrixMarket matrix coordinate real general\n+3 +4 +2\n+1 +1 +1.5\n3 2 -2000\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.5\n3 2 -2000",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 15e-1\n3 2 -2E3\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 0.15E+1\n3 2 -2e+03\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1.50000\n3 2 -2000.\n",
      "%%MatrixMarket matrix coordinate real general\n3 4 2\n01 001 1.5\n3 2 -.2e4\n",
  };
  for (const std::string& text : variants) {
    CAPTURE(text);
    const MmMatrix m = read_matrix_market_text(text);
    CHECK(m.header.format == MmFormat::coordinate);
    CHECK(m.header.field == MmField::real);
    CHECK(m.header.symmetry == MmSymmetry::general);
    CHECK(m.header.rows == 3);
    CHECK(m.header.cols == 4);
    CHECK(m.header.entries == 2);
    CHECK(m.row == std::vector<vertex_t>{0, 2});
    CHECK(m.col == std::vector<vertex_t>{0, 1});
    CHECK(m.val == std::vector<double>{1.5, -2000});
  }
  // NIST forbids pattern skew-symmetric (a pattern has no sign to flip).
  CHECK(error_of([] { read_matrix_market_text("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n"); })
            .reason()
            .find("pattern matrices cannot be skew-symmetric") != std::string::npos);
  // The other keywords, in any case.
  CHECK(read_matrix_market_text("%%MatrixMarket matrix coordinate PATTERN Symmetric\n2 2 1\n2 1\n").header.symmetry ==
        MmSymmetry::symmetric);
  CHECK(read_matrix_market_text("%%MatrixMarket matrix coordinate Integer SKEW-SYMMETRIC\n2 2 1\n2 1 -7\n").val ==
        std::vector<double>{-7});
  CHECK(read_matrix_market_text("%%MatrixMarket matrix ARRAY real general\n1 1\n4\n").val == std::vector<double>{4});
}

TEST_CASE("mmio: a symmetric file stores one triangle; a pair stored in both is refused, naming its entries") {
  // Either triangle alone reads (the format asks for the lower one; upper
  // ones exist in the wild and mean the same), and so do mixed triangles
  // without a pair stored twice.
  for (const char* text : {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 3\n2 1 2\n3 2 5\n",
                           "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 3\n1 2 2\n2 3 5\n",
                           "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 3\n1 2 2\n3 2 5\n",
                           "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n1 2 2\n3 1 5\n"}) {
    CAPTURE(text);
    const MmMatrix m = read_matrix_market_text(text);
    CHECK(m.row.size() == std::size_t(m.header.entries));
  }
  // (1, 2) and (2, 1) both stored: the pair would count twice.
  const std::string both = "%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n1 1 3\n2 2 3\n2 1 2\n1 2 2\n";
  const parse_error e = error_of([&] { read_matrix_market_text(both); });
  CHECK(e.reason().find("entries 3 (2, 1) and 4 (1, 2)") != std::string::npos);
  CHECK(e.reason().find("both triangles") != std::string::npos);
  // Far apart, skew-symmetric, pattern: the same.
  std::string far = "%%MatrixMarket matrix coordinate pattern symmetric\n100 100 60\n";
  for (int i = 2; i <= 60; ++i) far += std::to_string(i) + " 1\n";
  far += "1 37\n";
  CHECK(error_of([&] { read_matrix_market_text(far); }).reason().find("entries 36 (37, 1) and 60 (1, 37)") !=
        std::string::npos);
  CHECK(error_of([] {
          read_matrix_market_text("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n3 1 5\n1 3 -5\n");
        }).reason().find("skew-symmetric file stores one triangle") != std::string::npos);
  // Named: the smallest pair, by its first entry on each side.
  CHECK(error_of([] {
          read_matrix_market_text("%%MatrixMarket matrix coordinate real symmetric\n9 9 5\n9 8 1\n8 9 1\n2 1 1\n2 1 1\n1 2 1\n");
        }).reason().find("entries 3 (2, 1) and 5 (1, 2)") != std::string::npos);
  // The writer refuses what the reader refuses.
  {
    MmMatrix m = read_matrix_market_text("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 3\n2 1 2\n");
    m.row.push_back(0);
    m.col.push_back(1);
    m.val.push_back(2);
    m.header.entries = 3;
    const check::temp_dir dir;
    CHECK_THROWS_WITH_AS(write_matrix_market((dir / "w.mtx").string(), m),
                         doctest::Contains("are one pair stored in both triangles"), invalid_input);
  }
  // A duplicate on one side is the format's duplicate (summed later), not this.
  CHECK(read_matrix_market_text("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 2\n2 1 2\n").row.size() == 2);
}

TEST_CASE("mmio: array files are column-major, triangles expanded") {
  const MmMatrix g = read_matrix_market_text("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
  CHECK(g.header.entries == 6);
  CHECK(g.row.empty());
  CHECK(g.val == std::vector<double>{1, 3, 5, 2, 4, 6});
  const MmMatrix s = read_matrix_market_text("%%MatrixMarket matrix array integer symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");
  CHECK(s.header.entries == 6);
  CHECK(s.val == std::vector<double>{1, 2, 3, 2, 4, 5, 3, 5, 6});
  const MmMatrix k = read_matrix_market_text("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  CHECK(k.header.entries == 3);
  CHECK(k.val == std::vector<double>{0, -1, -2, 1, 0, -3, 2, 3, 0});
  const MmMatrix e = read_matrix_market_text("%%MatrixMarket matrix array real general\n0 0\n");
  CHECK(e.val.empty());
}

TEST_CASE("mmio: numbers at the edges") {
  const auto one = [](const std::string& field, const std::string& tok) {
    return read_matrix_market_text("%%MatrixMarket matrix coordinate " + field + " general\n1 1 1\n1 1 " + tok + "\n")
        .val.at(0);
  };
  CHECK(one("real", "4.9406564584124654e-324") == std::numeric_limits<double>::denorm_min());
  CHECK(one("real", "1.7976931348623157e308") == std::numeric_limits<double>::max());
  CHECK(std::signbit(one("real", "-0")));
  CHECK(one("real", "1e-400") == 0.0);  // underflow rounds to zero
  CHECK(std::signbit(one("real", "-1e-400")));
  // Exponents beyond long long: the exponent's sign decides.
  CHECK(one("real", "1e-99999999999999999999") == 0.0);
  CHECK(std::signbit(one("real", "-12.5e-99999999999999999999")));
  CHECK(one("real", "0.0e99999999999999999999") == 0.0);
  CHECK(error_of([&] { one("real", "1e99999999999999999999"); }).reason().find("overflow") != std::string::npos);
  CHECK(error_of([&] { one("real", "-0.5e+99999999999999999999"); }).reason().find("overflow") != std::string::npos);
  // Control and NUL bytes in a message come out escaped, on one line.
  using namespace std::string_literals;
  CHECK(error_of([&] { one("real", "1\0x"s); }).reason() == "bad number '1\\x00x'");
  CHECK(error_of([] { read_matrix_market_text("%%MatrixMarket matrix coordinate re\x01" "al general\n1 1 0\n"); })
            .reason()
            .find("unknown field 're\\x01al'") != std::string::npos);
  CHECK(one("integer", "9223372036854775807") == 9223372036854775807.0);
  CHECK(one("integer", "-42") == -42);
  CHECK(one("integer", "+42") == 42);
  for (const char* bad : {"+-1", "--1", "1..0", "0x10", "1.5e", "1,5", "1d5", "abc", "infinity!"}) {
    CAPTURE(bad);
    CHECK(error_of([&] { one("real", bad); }).reason().find("bad number") != std::string::npos);
  }
  CHECK(error_of([&] { one("real", "inf"); }).reason() == "infinite value");
  CHECK(error_of([&] { one("real", "-Infinity"); }).reason() == "infinite value");
  CHECK(error_of([&] { one("real", "NaN"); }).reason() == "NaN value");
  CHECK(error_of([&] { one("integer", "9223372036854775808"); }).reason().find("integer out of range") !=
        std::string::npos);
  CHECK(error_of([&] { one("integer", "1e3"); }).reason() == "bad integer '1e3'");
  // Indices that do not fit, and the int32 limit on the dimensions.
  CHECK(error_of([] {
          read_matrix_market_text("%%MatrixMarket matrix coordinate pattern general\n5 5 1\n99999999999999999999 1\n");
        }).reason() == "row index 99999999999999999999 out of range 1..5");
  CHECK(read_matrix_market_text("%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n"
                                "2147483647 1\n")
            .row == std::vector<vertex_t>{2147483646});
  CHECK(error_of([] { read_matrix_market_text("%%MatrixMarket matrix coordinate pattern general\n2 2147483648 0\n"); })
            .reason()
            .find("column count 2147483648") != std::string::npos);
}

TEST_CASE("mmio: every broken file fails with its line and reason") {
  struct Case {
    const char* file;
    long long line;
    const char* reason;
  };
  const Case cases[] = {
      {"empty_file.mtx", 1, "missing %%MatrixMarket banner"},
      {"missing_banner.mtx", 1, "missing %%MatrixMarket banner"},
      {"incomplete_banner.mtx", 1, "incomplete banner"},
      {"unknown_format.mtx", 1, "unknown format 'sparse'"},
      {"complex_field.mtx", 1, "complex matrices are not supported"},
      {"hermitian_symmetry.mtx", 1, "hermitian matrices are not supported"},
      {"array_pattern.mtx", 1, "array format with pattern field"},
      {"bad_size_line.mtx", 3, "bad size line '3 3'"},
      {"negative_size.mtx", 2, "bad size line"},
      {"missing_size_line.mtx", 5, "missing size line"},
      {"rows_exceed_int32.mtx", 2, "row count 3000000000 exceeds 2147483647"},
      {"symmetric_not_square.mtx", 2, "must be square, not 3 x 4"},
      {"row_index_zero.mtx", 5, "row index 0 out of range 1..5"},
      {"column_index_out_of_range.mtx", 5, "column index 7 out of range 1..5"},
      {"bad_row_index.mtx", 4, "bad row index '1.5'"},
      {"bad_number.mtx", 4, "bad number 'x1.5'"},
      {"nan_value.mtx", 5, "NaN value"},
      {"infinite_value.mtx", 3, "infinite value"},
      {"overflow_value.mtx", 4, "infinite value (overflow) '1e400'"},
      {"missing_value.mtx", 4, "missing value"},
      {"too_few_entries.mtx", 11, "expected 12 entries, file ends after 7"},
      {"too_many_entries.mtx", 6, "more entries than the 3 declared"},
      {"extra_token.mtx", 4, "extra token 'foo' after entry"},
      {"pattern_with_value.mtx", 4, "extra token '1.5' after entry"},
      {"integer_with_fraction.mtx", 4, "bad integer '2.5'"},
      {"skew_diagonal_entry.mtx", 4, "diagonal entry (2,2) in a skew-symmetric matrix"},
      {"array_too_few_values.mtx", 6, "expected 4 entries, file ends after 3"},
  };
  const fs::path folder = check::test_data() / "mm_invalid";
  check::temp_dir dir;
  std::set<std::string> listed, present;
  for (const Case& c : cases) listed.insert(c.file);
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".mtx") present.insert(e.path().filename().string());
  CHECK(listed == present);  // every broken file has its row, and every row its file
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const std::string path = (folder / c.file).string();
    const parse_error e = error_of([&] { read_matrix_market(path); });
    CAPTURE(e.what());
    CHECK(e.file() == path);
    CHECK(e.line() == c.line);
    CHECK(e.reason().find(c.reason) != std::string::npos);
    // The same from memory, and from the file gzipped.
    const parse_error t = error_of([&] { read_matrix_market_text(slurp(path), "mem"); });
    CHECK(t.line() == c.line);
    CHECK(t.reason() == e.reason());
    const std::string gz = (dir / (std::string(c.file) + ".gz")).string();
    gzip_to(gz, slurp(path));
    const parse_error z = error_of([&] { read_matrix_market(gz); });
    CHECK(z.line() == c.line);
    CHECK(z.reason() == e.reason());
  }
}

TEST_CASE("mmio: missing files, directories, gzip detection and truncation") {
  check::temp_dir dir;
  const parse_error missing = error_of([&] { read_matrix_market((dir / "nope.mtx").string()); });
  CHECK(missing.line() == 0);
  CHECK(missing.reason().find("cannot open") != std::string::npos);
  CHECK(std::string(missing.what()).find("nope.mtx") != std::string::npos);

  const MmMatrix m = random_coordinate(100000, MmField::real, MmSymmetry::general, 77);
  write_matrix_market((dir / "m.mtx.gz").string(), m);
  // gzip is recognised by its magic bytes, whatever the name.
  fs::copy_file(dir / "m.mtx.gz", dir / "renamed.mtx");
  require_same(m, read_matrix_market((dir / "renamed.mtx").string()));
  // ... and a plain file named .gz is read as plain text.
  write_matrix_market((dir / "plain.mtx").string(), m);
  fs::copy_file(dir / "plain.mtx", dir / "plain.mtx.gz");
  require_same(m, read_matrix_market((dir / "plain.mtx.gz").string()));

  const std::string bytes = slurp(dir / "m.mtx.gz");
  for (double cut : {0.5, 0.9, 0.999}) {
    CAPTURE(cut);
    spit(dir / "cut.mtx.gz", bytes.substr(0, std::size_t(double(bytes.size()) * cut)));
    const parse_error e = error_of([&] { read_matrix_market((dir / "cut.mtx.gz").string()); });
    CAPTURE(e.what());
    CHECK(e.reason().find("gzip") != std::string::npos);
    CHECK(e.line() > 3);
    CHECK(e.line() <= 100003);
  }
  // Corrupt bytes in the middle of the stream.
  std::string corrupt = bytes;
  for (std::size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i) corrupt[i] = char(i * 7);
  spit(dir / "corrupt.mtx.gz", corrupt);
  const parse_error c = error_of([&] { read_matrix_market((dir / "corrupt.mtx.gz").string()); });
  const std::string message = c.what();
  CAPTURE(message);
  CHECK(c.reason().find("gzip") != std::string::npos);
  // A directory is not a matrix.
  CHECK_THROWS_AS(read_matrix_market(dir.path().string()), parse_error);
}

TEST_CASE("mmio: lines across chunk boundaries, long lines, line numbers far in") {
  check::temp_dir dir;
  // ~30 MB: several 8 MiB chunks, lines cut at arbitrary places.
  const MmMatrix m = random_coordinate(800000, MmField::real, MmSymmetry::general, 5);
  write_matrix_market((dir / "big.mtx").string(), m);
  require_same(m, read_matrix_market((dir / "big.mtx").string()));
  std::string text = slurp(dir / "big.mtx");
  require_same(m, read_matrix_market_text(text));

  // A comment line longer than a chunk, before and among the entries.
  const std::string longline = "%" + std::string(20u << 20, 'c') + "\n";
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  std::string with_long = banner + longline + text.substr(banner.size());
  const std::size_t mid = with_long.find('\n', with_long.size() * 3 / 4) + 1;
  with_long.insert(mid, longline);
  spit(dir / "long.mtx", with_long);
  require_same(m, read_matrix_market((dir / "long.mtx").string()));

  // An error on the last line of a multi-chunk file names the exact line:
  // banner, size line, 800000 entries, then line 800003.
  spit(dir / "bad_last.mtx", text + "1 1 oops\n");
  const parse_error e = error_of([&] { read_matrix_market((dir / "bad_last.mtx").string()); });
  CHECK(e.line() == 800003);
  CHECK(e.reason() == "more entries than the 800000 declared");
  text.replace(text.rfind('\n', text.size() - 2) + 1, std::string::npos, "1 1 oops\n");
  spit(dir / "bad_value.mtx", text);
  const parse_error v = error_of([&] { read_matrix_market((dir / "bad_value.mtx").string()); });
  CHECK(v.line() == 800002);
  CHECK(v.reason() == "bad number 'oops'");
}

TEST_CASE("mmio: a lying header does not allocate what it claims") {
  const std::string lie = "%%MatrixMarket matrix coordinate real general\n10 10 1000000000000\n1 1 1\n";
  const parse_error e = error_of([&] { read_matrix_market_text(lie); });
  CHECK(e.line() == 4);
  CHECK(e.reason() == "expected 1000000000000 entries, file ends after 1");
  check::temp_dir dir;
  spit(dir / "lie.mtx", lie);
  CHECK(error_of([&] { read_matrix_market((dir / "lie.mtx").string()); }).line() == 4);
  const std::string array_lie = "%%MatrixMarket matrix array real general\n2000000000 2000000000\n1\n";
  CHECK(error_of([&] { read_matrix_market_text(array_lie); }).reason() ==
        "expected 4000000000000000000 entries, file ends after 1");
}

TEST_CASE("mmio: the writer") {
  check::temp_dir dir;
  MmMatrix m = random_coordinate(10, MmField::real, MmSymmetry::general, 9);
  const std::string p = (dir / "w.mtx").string();
  write_matrix_market(p, m, {"first comment", "two\nlines"});
  const std::string text = slurp(p);
  CHECK(text.rfind("%%MatrixMarket matrix coordinate real general\n%first comment\n%two\n%lines\n", 0) == 0);
  // Overwriting replaces the file and leaves nothing else beside it.
  write_matrix_market(p, random_coordinate(3, MmField::pattern, MmSymmetry::symmetric, 1));
  CHECK(read_matrix_market(p).header.entries == 3);
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);

  // A target that cannot be written: error naming it, no file left.
  const std::string nodir = (dir / "no" / "such" / "dir.mtx").string();
  try {
    write_matrix_market(nodir, m);
    FAIL("no error");
  } catch (const error& e) {
    CHECK(std::string(e.what()).find(nodir) != std::string::npos);
  }
  CHECK_THROWS_AS(write_matrix_market((dir / "no" / "dir.mtx.gz").string(), m), error);

  // Matrices the reader would refuse are refused before anything is written.
  auto refuses = [&](MmMatrix bad) {
    CHECK_THROWS_AS(write_matrix_market((dir / "bad.mtx").string(), bad), invalid_input);
    CHECK(!fs::exists(dir / "bad.mtx"));
  };
  MmMatrix nan = m;
  nan.val[3] = std::nan("");
  refuses(nan);
  MmMatrix inf = m;
  inf.val[0] = -HUGE_VAL;
  refuses(inf);
  MmMatrix range = m;
  range.row[2] = range.header.rows;
  refuses(range);
  MmMatrix skew = random_coordinate(10, MmField::real, MmSymmetry::skew_symmetric, 3);
  skew.col[4] = skew.row[4];
  refuses(skew);
  MmMatrix frac = random_coordinate(10, MmField::integer, MmSymmetry::general, 3);
  frac.val[1] = 0.5;
  refuses(frac);
  MmMatrix short_val = m;
  short_val.val.pop_back();
  refuses(short_val);
  MmMatrix pattern_vals = m;
  pattern_vals.header.field = MmField::pattern;
  refuses(pattern_vals);
  refuses(random_coordinate(10, MmField::pattern, MmSymmetry::skew_symmetric, 3));
  MmMatrix rect = random_coordinate(10, MmField::real, MmSymmetry::general, 3);
  rect.header.symmetry = MmSymmetry::symmetric;
  refuses(rect);
  MmMatrix array = random_array(9, MmField::real, MmSymmetry::general, 3);
  array.val.push_back(1);
  refuses(array);

  CHECK(to_string(MmFormat::array) == "array");
  CHECK(to_string(MmField::integer) == "integer");
  CHECK(to_string(MmSymmetry::skew_symmetric) == "skew-symmetric");
}

TEST_CASE("mmio: the writer to a FILE*, and to targets that are not regular files") {
  check::temp_dir dir;
  const MmMatrix m = random_coordinate(50, MmField::real, MmSymmetry::symmetric, 4);
  std::FILE* f = std::fopen((dir / "open.mtx").string().c_str(), "wb");
  REQUIRE(f != nullptr);
  write_matrix_market(f, m, {"to a FILE*"}, "open.mtx");
  std::fclose(f);
  require_same(m, read_matrix_market((dir / "open.mtx").string()));
  if (std::FILE* full = std::fopen("/dev/full", "wb")) {  // a write error names the output
    CHECK_THROWS_WITH_AS(write_matrix_market(full, m, {}, "<full>"), doctest::Contains("cannot write <full>"), error);
    std::fclose(full);
  }
  // A symbolic link is written through, and stays a link.
  spit(dir / "target.mtx", "old");
  fs::create_symlink(dir / "target.mtx", dir / "link.mtx");
  write_matrix_market((dir / "link.mtx").string(), m);
  REQUIRE(fs::is_symlink(dir / "link.mtx"));  // else do not try /dev/null (as root it would be replaced)
  require_same(m, read_matrix_market((dir / "target.mtx").string()));
  // A device stays a device; nothing is left beside the targets.
  write_matrix_market("/dev/null", m);
  CHECK(fs::is_character_file("/dev/null"));
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 3);
  // A directory is refused, naming it.
  fs::create_directory(dir / "sub");
  CHECK_THROWS_WITH_AS(write_matrix_market((dir / "sub").string(), m), doctest::Contains("sub"), error);
}

TEST_CASE("mmio: the shared SuiteSparse collection reads, counts as in MANIFEST.tsv") {
  const auto folder = check::shared_matrices();
  if (!folder) {
    MESSAGE("skipped: the shared matrices are absent (set MATCHBLAS_MATRICES)");
    return;
  }
  const std::vector<check::ManifestRow> manifest = check::shared_manifest();
  REQUIRE(!manifest.empty());
  for (const char* c : {"file", "rows", "cols", "nnz", "field", "symmetry"}) REQUIRE(manifest[0].field.count(c) == 1);
  std::set<std::string> seen;
  for (check::ManifestRow row : manifest) {
    const std::string& file = row.file;
    CAPTURE(file);
    seen.insert(file);
    const std::string path = row.path.string();
    if (row.field["field"] == "complex") {
      const parse_error e = error_of([&] { read_matrix_market(path); });
      CHECK(e.line() == 1);
      CHECK(e.reason().find("complex") != std::string::npos);
      continue;
    }
    const MmMatrix m = read_matrix_market(path);
    CHECK(m.header.rows == std::stoll(row.field["rows"]));
    CHECK(m.header.cols == std::stoll(row.field["cols"]));
    CHECK(m.header.entries == std::stoll(row.field["nnz"]));
    CHECK(to_string(m.header.field) == row.field["field"]);
    CHECK(to_string(m.header.symmetry) == row.field["symmetry"]);
    CHECK(m.row.size() == std::size_t(m.header.entries));
  }
  CHECK(seen.count("young1c.mtx") == 1);
  // Files in the folder but not in the manifest still read (or are refused
  // only for being complex).
  for (const auto& e : fs::directory_iterator(*folder)) {
    const std::string name = e.path().filename().string();
    if (seen.count(name) || name.find(".mtx") == std::string::npos) continue;
    CAPTURE(name);
    CHECK_NOTHROW(read_matrix_market(e.path().string()));
  }
}

TEST_CASE("printable: input text for a one-line message") {
  using namespace std::string_literals;
  CHECK(printable("12 x 1.0") == "12 x 1.0");
  CHECK(printable("a\0b\n\x7f\xe9"s) == "a\\x00b\\x0a\\x7f\\xe9");
  CHECK(printable("abcdef", 3) == "abc...");
  CHECK(printable("abc", 3) == "abc");
  CHECK(printable("") == "");
}
