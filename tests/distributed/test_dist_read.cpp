// The distributed graph input (datasets/distributed/dist_read.hpp): each
// rank's part read from its piece of a file, or drawn from its share of a
// generator, equals distribute() of the whole graph, field for field, at
// the number of ranks mpirun gave; and a bad file gives, on every rank, the
// exception (type and text: file and line) that the single-process reader
// and graph rules give.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <typeinfo>

#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;
namespace fs = std::filesystem;

namespace {

// "" when a and b are the same part, else the first field that differs.
std::string difference(const DistGraph& a, const DistGraph& b) {
  if (a.n != b.n || a.edges != b.edges) return "n or edges";
  if (a.partition != b.partition || !(a.numbering == b.numbering)) return "partition";
  if (a.first != b.first) return "block boundaries";
  if (a.offsets != b.offsets) return "row offsets";
  if (a.cols != b.cols) return "columns";
  if (a.weights != b.weights) return "weights";
  if (a.ghosts != b.ghosts || a.cross_entries != b.cross_entries) return "ghosts";
  return "";
}

// Checks on every rank, the first failure agreed (every rank passes or fails alike).
void agreed_check(const std::string& what, const std::string& bad) {
  const std::string why = mpi::first_failure(bad);
  CHECK_MESSAGE(why.empty(), (what + ": " + why));
}

// The part of the general graph of path that the single-process path gives
// this rank.
template <class W>
DistGraph expected_part(const std::string& path, Partition partition) {
  return distribute(general_graph<W>(read_matrix_market(path)), mpi::world_rank(), mpi::world_size(), partition);
}

// Both partitions.
void check_file(const std::string& path, const std::string& what) {
  const MmLayout layout = read_matrix_market_layout(path);
  REQUIRE(mpi::reads_in_pieces(layout, GraphView::general));
  for (const Partition p : {Partition::blocks, Partition::spread}) {
    const std::string how = what + (p == Partition::blocks ? ", blocks" : p == Partition::spread ? ", spread" : "");
    const DistGraph d = mpi::read_graph(layout, Precision::float64, {}, nullptr, p);
    agreed_check(how + " (double)", difference(d, expected_part<double>(path, p)));
    const DistGraph f = mpi::read_graph(layout, Precision::float32, {}, nullptr, p);
    agreed_check(how + " (float)", difference(f, expected_part<float>(path, p)));
  }
}

// What the single-process path throws for path: the exception's type name
// and text ("" when it reads).
std::string serial_failure(const std::string& path) {
  try {
    (void)general_graph<float>(read_matrix_market(path));
  } catch (const std::exception& e) {
    return std::string(typeid(e).name()) + " " + e.what();
  }
  return "";
}

// A directory every rank sees, made by rank 0 (its name from rank 0's pid),
// removed at the end.
class SharedDir {
 public:
  SharedDir() {
    const std::int64_t pid = mpi::sum_over_ranks(std::int64_t(mpi::world_rank() == 0 ? ::getpid() : 0));
    path_ = fs::temp_directory_path() / ("matchblas_dist_read_" + std::to_string(pid));
    if (mpi::world_rank() == 0) fs::create_directories(path_);
    mpi::barrier();
  }
  ~SharedDir() {
    mpi::barrier();
    if (mpi::world_rank() == 0) fs::remove_all(path_);
  }
  // Rank 0 writes the file; every rank gets its path.
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    if (mpi::world_rank() == 0) std::ofstream(p, std::ios::binary) << text;
    mpi::barrier();
    return p.string();
  }

 private:
  fs::path path_;
};

// Entry lines of a symmetric file on n vertices: `count` of them, with
// duplicates, self-loops, explicit zeros and some comments and blank lines.
// (lower: each entry in the lower triangle, as a symmetric file stores them.)
std::string entry_lines(int n, int count, std::uint64_t seed, bool values = true, bool lower = false) {
  std::ostringstream s;
  std::uint64_t x = seed;
  const auto next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; };
  for (int k = 0; k < count; ++k) {
    if (next() % 17 == 0) s << (next() % 2 ? "% a comment\n" : "\n");
    int r = int(next() % n) + 1, c = int(next() % n) + 1;
    if (lower && r < c) std::swap(r, c);
    s << r << ' ' << c;
    if (values) s << ' ' << (next() % 9 == 0 ? 0.0 : double(int(next() % 2001) - 1000) / 64);
    s << '\n';
  }
  return s.str();
}

}  // namespace

TEST_CASE("each rank reads its piece of the shared matrices as distribute gives it") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("skipped: the shared matrices are absent");
    return;
  }
  int read = 0;
  for (const auto& entry : fs::directory_iterator(*dir)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".mtx" || path.find("_result") != std::string::npos) continue;
    MmLayout layout;
    try {
      layout = read_matrix_market_layout(path);
    } catch (const parse_error& e) {  // the complex matrix
      if (mpi::world_rank() == 0) MESSAGE("skipped (refused by the reader too): ", e.what());
      continue;
    }
    if (!mpi::reads_in_pieces(layout, GraphView::automatic)) continue;  // rectangular or array: read whole
    check_file(path, entry.path().filename().string());
    ++read;
  }
  CHECK(read > 10);
}

TEST_CASE("hand-made files: duplicates, zeros, self-loops, pattern, skew, comments, few vertices") {
  const SharedDir dir;
  const std::string lines = entry_lines(40, 600, 7);
  check_file(dir.write("sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n% header comment\n\n40 40 600\n" +
                                      entry_lines(40, 600, 7, true, true)),
             "symmetric");
  check_file(dir.write("gen.mtx", "%%MatrixMarket matrix coordinate real general\n40 40 600\n" + lines), "general");
  std::string skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n40 40 300\n";
  for (int k = 0; k < 300; ++k) skew += std::to_string(k % 39 + 2) + " " + std::to_string(k * 7 % (k % 39 + 1) + 1) + " " + std::to_string(k % 5 - 2) + "\n";
  check_file(dir.write("skew.mtx", skew), "skew-symmetric");
  check_file(dir.write("pat.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n50 50 500\n" +
                                      entry_lines(50, 500, 11, false, true)),
             "pattern");
  check_file(dir.write("int.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 4\n1 2 5\n2 1 -7\n3 3 1\n2 3 0"),
             "integer, no final newline");
  check_file(dir.write("cancel.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 2 5\n1 2 -5\n2 3 1.5\n3 2 -2.5\n"),
             "cancelling duplicates");
  check_file(dir.write("empty.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n"), "no entries");
  check_file(dir.write("zero.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n"), "no vertices");
  check_file(dir.write("two.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 3\n"), "two vertices");
  check_file(dir.write("underflow.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e-300\n2 3 1\n"),
             "a weight that is zero as a float");
}

TEST_CASE("a bad file fails on every rank with the single-process error, its file and line") {
  const SharedDir dir;
  const std::string head = "%%MatrixMarket matrix coordinate real general\n% comment\n60 60 400\n";
  const std::string body = entry_lines(60, 400, 3);
  // The body's lines, to put a bad one at a chosen place.
  std::vector<std::string> rows;
  {
    std::istringstream in(body);
    for (std::string l; std::getline(in, l);) rows.push_back(l + "\n");
  }
  const auto with = [&](std::size_t at, const std::string& line) {
    std::string s = head;
    for (std::size_t i = 0; i < rows.size(); ++i) s += (i == at ? line : "") + rows[i];
    return s;
  };
  const auto declared = [&](int entries, const std::string& rest) {
    return "%%MatrixMarket matrix coordinate real general\n% comment\n60 60 " + std::to_string(entries) + "\n" + rest;
  };
  const std::vector<std::pair<std::string, std::string>> files = {
      {"bad_token_early.mtx", with(3, "1 x 2\n")},
      {"bad_token_middle.mtx", with(rows.size() / 2, "1 2 3 4\n")},
      {"bad_token_late.mtx", with(rows.size() - 2, "1 2 nan\n")},
      {"out_of_range.mtx", with(rows.size() / 3, "61 2 1\n")},
      {"two_bad.mtx", with(rows.size() / 4, "0 1 1\n").substr(0) + "9 9 inf\n"},
      {"too_many_at_end.mtx", declared(390, body)},
      {"too_many_middle.mtx", declared(150, body)},
      {"too_many_then_bad.mtx", declared(150, body + "bad\n")},
      {"too_many_on_bad_line.mtx", declared(400, body + "1 2 zz\n")},
      {"too_few.mtx", declared(410, body)},
      {"too_few_no_newline.mtx", declared(2, "1 2 3\n% last")},
      {"skew_diagonal.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n"},
      // A pair stored in both triangles, its entries in the first and the last piece.
      {"both_triangles.mtx", "%%MatrixMarket matrix coordinate real symmetric\n60 60 402\n2 1 4\n" +
                                 entry_lines(60, 400, 3, true, true) + "1 2 5\n"},
      {"both_triangles_skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n3 1 5\n1 3 -5\n"},
      {"float_overflow.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 3e38\n1 2 3e38\n2 3 1\n"},
      {"double_overflow.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n3 2 1e308\n3 2 1e308\n"},
      {"rectangular.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 2 1\n"},
      {"bad_banner.mtx", "%%MatrixMarket matrix coordinate real generel\n3 3 1\n1 2 1\n"},
      {"no_size_line.mtx", "%%MatrixMarket matrix coordinate real general\n% only a comment\n"},
  };
  for (const auto& [name, text] : files) {
    const std::string path = dir.write(name, text);
    const std::string expected = serial_failure(path);
    std::string got;
    try {
      const MmLayout layout = read_matrix_market_layout(path);
      (void)mpi::read_graph(layout, Precision::float32);
    } catch (const std::exception& e) {
      got = std::string(typeid(e).name()) + " " + e.what();
    }
    // double_overflow fails only as a double weight (inf): the float read above does too.
    CHECK_MESSAGE(!expected.empty(), name);
    agreed_check(name, got == expected ? "" : "got '" + got + "', expected '" + expected + "'");
  }
}

TEST_CASE("a gzip file, an empty file and standard input are not read in pieces") {
  const SharedDir dir;
  CHECK_FALSE(read_matrix_market_layout(dir.write("empty", "")).splittable);
  CHECK_FALSE(read_matrix_market_layout("-").splittable);
  CHECK_FALSE(read_matrix_market_layout(dir.write("x", "") + "_missing").splittable);
  const std::string gz = dir.write("g.mtx.gz", "");
  if (mpi::world_rank() == 0) write_matrix_market(gz, read_matrix_market_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n"));
  mpi::barrier();
  CHECK_FALSE(read_matrix_market_layout(gz).splittable);
  const std::string rect = dir.write("rect.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 2 1\n");
  CHECK_FALSE(mpi::reads_in_pieces(read_matrix_market_layout(rect), GraphView::automatic));
  CHECK(mpi::reads_in_pieces(read_matrix_market_layout(rect), GraphView::general));
  const std::string array = dir.write("a.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  CHECK_FALSE(mpi::reads_in_pieces(read_matrix_market_layout(array), GraphView::general));
}

TEST_CASE("a file that only rank 0 sees, or that differs between ranks, is read whole by rank 0") {
  const SharedDir dir;
  // Every line of entry_lines that is not a comment or blank is an entry.
  std::istringstream in(entry_lines(6, 20, 3));
  std::string line, entries;
  int stored = 0;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '%') entries += line + "\n", ++stored;
  const std::string whole = "%%MatrixMarket matrix coordinate real symmetric\n6 6 " + std::to_string(stored) + "\n" + entries;
  const std::string shared = dir.write("only0.mtx", whole);
  const fs::path cwd = fs::current_path();
  const fs::path mine = fs::path(dir.write("x", "")).parent_path() / ("rank" + std::to_string(mpi::world_rank()));
  fs::create_directories(mine);
  fs::current_path(mine);
  // Only rank 0's folder has the file: the others see no such file.
  if (mpi::world_rank() == 0) fs::copy_file(shared, mine / "g.mtx");
  mpi::barrier();
  const mpi::LoadedPart only0 = mpi::load_graph("g.mtx", GraphView::general, Precision::float64);
  agreed_check("a file only rank 0 sees",
               difference(only0.part, expected_part<double>(shared, Partition::blocks)));
  agreed_check("read whole by rank 0", mpi::world_size() > 1 && only0.in_pieces ? "read in pieces" : "");
  // Every rank has its own copy, and rank 1's header differs: rank 0's copy counts.
  mpi::barrier();
  std::ofstream(mine / "h.mtx", std::ios::binary)
      << (mpi::world_rank() == 1 ? "%%MatrixMarket matrix coordinate real symmetric\n7 7 0\n" : whole);
  mpi::barrier();
  const mpi::LoadedPart copies = mpi::load_graph("h.mtx", GraphView::general, Precision::float64);
  agreed_check("copies that differ", difference(copies.part, expected_part<double>(shared, Partition::blocks)));
  agreed_check("copies that differ, read whole", mpi::world_size() > 1 && copies.in_pieces ? "read in pieces" : "");
  fs::current_path(cwd);
}

TEST_CASE("each rank draws its share of er and rmat as distribute gives it") {
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  for (const Partition p : {Partition::blocks, Partition::spread})
    for (const int ties : {0, 3}) {
      GenOptions o;
      o.seed = 9;
      o.ties = ties;
      o.edge_factor = 6;
      const std::string t = " ties " + std::to_string(ties) + " partition " + std::to_string(int(p));
      agreed_check("rmat" + t, difference(mpi::generate_graph("rmat", 4096, o, Precision::float64, nullptr, p),
                                          distribute(rmat<double>(4096, o), rank, ranks, p)));
      agreed_check("er" + t, difference(mpi::generate_graph("er", 3001, o, Precision::float64, nullptr, p),
                                        distribute(erdos_renyi<double>(3001, o), rank, ranks, p)));
      agreed_check("rmat float" + t, difference(mpi::generate_graph("rmat", 1024, o, Precision::float32, nullptr, p),
                                                distribute(rmat<float>(1024, o), rank, ranks, p)));
    }
  {
    GenOptions big;  // 2^18 vertices: the spread partition moves chunks of 4 ids
    big.seed = 2;
    big.edge_factor = 1;
    REQUIRE(VertexNumbering::spread(1 << 18).chunk() == 4);
    for (const Partition p : {Partition::blocks, Partition::spread})
      agreed_check("rmat 2^18 partition " + std::to_string(int(p)),
                   difference(mpi::generate_graph("rmat", 1 << 18, big, Precision::float64, nullptr, p),
                              distribute(rmat<double>(1 << 18, big), rank, ranks, p)));
  }
  GenOptions o;
  agreed_check("er on 1 vertex", difference(mpi::generate_graph("er", 1, o, Precision::float64),
                                            distribute(erdos_renyi<double>(1, o), rank, ranks)));
  agreed_check("rmat on 2 vertices", difference(mpi::generate_graph("rmat", 2, o, Precision::float64),
                                                distribute(rmat<double>(2, o), rank, ranks)));
  std::string got;
  try {
    (void)mpi::generate_graph("rmat", 1000, o, Precision::float64);
  } catch (const invalid_input& e) {
    got = e.what();
  }
  agreed_check("rmat on 1000 vertices", got.find("power-of-two") != std::string::npos ? "" : "got '" + got + "'");
}
