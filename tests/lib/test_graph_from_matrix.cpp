// The graph-from-matrix rules (lib/graph_from_matrix.hpp; docs/ARCHITECTURE.md "Graphs").
#include <doctest/doctest.h>
#include <unistd.h>

#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {
MmMatrix parse(const std::string& text) { return read_matrix_market_text(text, "test.mtx"); }

// Weight of {u, v} in g, or -1 when absent.
template <class W>
double weight(const Csr<W>& g, vertex_t u, vertex_t v) {
  for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
    if (g.cols[k] == v) return g.weights[k];
  return -1;
}
}  // namespace

TEST_CASE("general graph: abs, diagonal ignored, duplicates summed, max of both directions, zeros dropped") {
  const MmMatrix a = parse(
      "%%MatrixMarket matrix coordinate real general\n"
      "5 5 9\n"
      "1 1 5\n"      // diagonal: ignored
      "1 2 -3\n"     // a_12 = -3
      "2 1 2\n"      // a_21 = 2: w(1,2) = max(3, 2) = 3
      "2 3 1\n"
      "2 3 1.5\n"    // duplicate: a_23 = 2.5
      "3 2 0\n"      // explicit zero: w(2,3) = 2.5 still
      "4 1 0\n"      // zero and no partner: no edge
      "4 5 1\n"
      "4 5 -1\n");   // duplicates cancel: no edge
  const Csr<double> g = general_graph<double>(a);
  CHECK(g.n_rows == 5);
  CHECK(g.num_entries() == 4);
  CHECK(weight(g, 0, 1) == 3);
  CHECK(weight(g, 1, 0) == 3);
  CHECK(weight(g, 1, 2) == 2.5);
  CHECK(weight(g, 2, 1) == 2.5);
  CHECK(weight(g, 0, 0) == -1);
  CHECK(weight(g, 3, 0) == -1);
  CHECK(weight(g, 3, 4) == -1);
}

TEST_CASE("symmetric and skew-symmetric files stand for both triangles") {
  for (const char* sym : {"symmetric", "skew-symmetric"}) {
    CAPTURE(sym);
    const MmMatrix a = parse(std::string("%%MatrixMarket matrix coordinate real ") + sym +
                             "\n3 3 2\n2 1 -4\n3 2 0.5\n");
    const Csr<float> g = general_graph<float>(a);
    CHECK(g.num_entries() == 4);
    CHECK(weight(g, 0, 1) == 4);
    CHECK(weight(g, 1, 0) == 4);
    CHECK(weight(g, 2, 1) == 0.5);
  }
}

TEST_CASE("pattern files get seeded weights in (0,1], equal in both directions") {
  const MmMatrix a = parse("%%MatrixMarket matrix coordinate pattern general\n4 4 4\n1 2\n2 1\n3 4\n2 3\n");
  const Csr<double> g = general_graph<double>(a);
  CHECK(g.num_entries() == 6);
  for (vertex_t u = 0; u < 4; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      CHECK(g.weights[k] > 0);
      CHECK(g.weights[k] <= 1);
      CHECK(weight(g, g.cols[k], u) == g.weights[k]);
    }
  CHECK(general_graph<double>(a).weights == g.weights);
  GraphRules other;
  other.pattern_seed = 99;
  CHECK(general_graph<double>(a, other).weights != g.weights);
}

TEST_CASE("bipartite view of a rectangular matrix") {
  // Duplicates: a_13 = 5 - 3 = 2 (summed before |.|), a_12 = 7 - 7 = 0 (dropped), a_23 = 4 + 4 - 4.
  const MmMatrix a = parse("%%MatrixMarket matrix coordinate real general\n2 3 9\n1 1 -1\n1 3 5\n2 2 0\n2 3 4\n"
                           "1 3 -3\n2 3 4\n2 3 -4\n1 2 7\n1 2 -7\n");
  CHECK_THROWS_AS(general_graph<double>(a), shape_error);
  const Csr<double> b = bipartite_graph<double>(a);
  CHECK(b.n_rows == 2);
  CHECK(b.n_cols == 3);
  CHECK(b.num_entries() == 3);
  CHECK(weight(b, 0, 0) == 1);  // the diagonal counts in a bipartite view
  CHECK(weight(b, 0, 1) == -1);
  const Csr<double> g = bipartite_as_general(b);
  CHECK(g.n_rows == 5);
  CHECK(g.num_entries() == 6);
  CHECK(weight(g, 0, 2) == 1);
  CHECK(weight(g, 0, 4) == 2);
  CHECK(weight(g, 4, 1) == 4);
}

TEST_CASE("complete graph from an array file") {
  const MmMatrix a = parse("%%MatrixMarket matrix array real general\n3 3\n1\n-2\n3\n4\n5\n6\n7\n8\n9\n");
  // Column-major: a = [1 4 7; -2 5 8; 3 6 9].
  const Dense<double> d = complete_graph_from_matrix<double>(a);
  CHECK(d.n == 3);
  CHECK(d(0, 0) == 0);
  CHECK(d(0, 1) == 4);  // max(|4|, |-2|)
  CHECK(d(1, 0) == 4);
  CHECK(d(0, 2) == 7);
  CHECK(d(1, 2) == 8);
  CHECK(d(2, 1) == 8);
  CHECK_THROWS_AS(complete_graph_from_matrix<double>(
                      parse("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n")),
                  shape_error);
}

TEST_CASE("complete graph from a coordinate file: the general rules, missing pairs weigh 0") {
  const MmMatrix a = parse(
      "%%MatrixMarket matrix coordinate real general\n4 4 6\n1 1 9\n1 2 -3\n2 1 2\n2 3 1\n2 3 1.5\n4 1 0\n");
  const Dense<double> d = complete_graph_from_matrix<double>(a);
  const Csr<double> g = general_graph<double>(a);
  for (vertex_t u = 0; u < 4; ++u)
    for (vertex_t v = 0; v < 4; ++v) {
      CAPTURE(u);
      CAPTURE(v);
      CHECK(d(u, v) == std::max(0.0, weight(g, u, v)));
    }
  CHECK(d(0, 1) == 3);
  CHECK(d(2, 1) == 2.5);
  // Pattern files take their weights from the rules, as the general graph does.
  const MmMatrix p = parse("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
  GraphRules other;
  other.pattern_seed = 7;
  const Dense<float> dp = complete_graph_from_matrix<float>(p, other);
  const Csr<float> gp = general_graph<float>(p, other);
  CHECK(dp(0, 1) == weight(gp, 0, 1));
  CHECK(dp(2, 1) == weight(gp, 2, 1));
  CHECK(dp(0, 1) != complete_graph_from_matrix<float>(p)(0, 1));
}

TEST_CASE("huge declared dimensions fail before allocating, naming the size") {
  // Three lines that declare 2^31 - 1 rows: about 100 GB of row offsets.
  const double memory = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGE_SIZE));
  if (memory > 90e9) {
    MESSAGE("skipped: this machine has more than 90 GB, so 2^31 rows might fit");
    return;
  }
  const MmMatrix a = parse("%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 2 1\n");
  CHECK_THROWS_WITH_AS(general_graph<double>(a), doctest::Contains("2147483647 x 2147483647"), out_of_memory);
  CHECK_THROWS_AS(bipartite_graph<float>(a), out_of_memory);
  CHECK_THROWS_AS(complete_graph_from_matrix<float>(a), out_of_memory);
  const MmMatrix r = parse("%%MatrixMarket matrix coordinate real general\n1 2147483646 1\n1 2 1\n");
  const Csr<double> b = bipartite_graph<double>(r);  // one row is cheap; the columns become vertices
  CHECK_THROWS_WITH_AS(bipartite_as_general(b), doctest::Contains("2147483647 vertices"), out_of_memory);
}

TEST_CASE("a sum too large for float weights is refused") {
  const MmMatrix a = parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e300\n");
  CHECK(general_graph<double>(a).weights[0] == 1e300);
  CHECK_THROWS_WITH_AS(general_graph<float>(a), "entry (1, 2) has the weight 1e+300 (duplicates summed), which a float weight cannot hold: use double weights",
                       invalid_input);
  // A dense array's entry is no sum: its message does not say so.
  const MmMatrix d = parse("%%MatrixMarket matrix array real general\n2 2\n0\n1e300\n1\n0\n");
  const std::string no_sum = "has the weight 1e+300, which a float weight cannot hold: use double weights";
  CHECK_THROWS_WITH_AS(complete_graph_from_matrix<float>(d), doctest::Contains(no_sum.c_str()), invalid_input);
  CHECK_THROWS_WITH_AS(general_graph<float>(d), doctest::Contains(no_sum.c_str()), invalid_input);
  CHECK_THROWS_WITH_AS(bipartite_graph<float>(d), doctest::Contains(no_sum.c_str()), invalid_input);
  // A shape error is one line with both dimensions.
  CHECK_THROWS_WITH_AS(general_graph<double>(parse("%%MatrixMarket matrix coordinate real general\n3 5 0\n")),
                       "a general graph needs a square matrix, this one is 3 x 5 (use the bipartite view)",
                       shape_error);
}

TEST_CASE("every shared matrix gives a well-formed graph") {
  const auto dir = check::shared_matrices();
  if (!dir) {
    MESSAGE("skipped: the shared matrices are absent");
    return;
  }
  for (const auto& e : std::filesystem::directory_iterator(*dir)) {
    const std::string name = e.path().filename().string();
    if (name.find(".mtx") == std::string::npos || name == "young1c.mtx") continue;
    CAPTURE(name);
    const MmMatrix a = read_matrix_market(e.path().string());
    const Csr<double> g = a.header.rows == a.header.cols ? general_graph<double>(a)
                                                        : bipartite_as_general(bipartite_graph<double>(a));
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        REQUIRE(g.cols[k] != u);
        REQUIRE(g.weights[k] > 0);
        REQUIRE(weight(g, g.cols[k], u) == g.weights[k]);
        if (k > g.offsets[u]) REQUIRE(g.cols[k - 1] < g.cols[k]);
      }
  }
}

TEST_CASE("a weight that underflows to zero in float is dropped like any zero") {
  const MmMatrix a = read_matrix_market_text(
      "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e-300\n2 3 0.5\n", "tiny.mtx");
  CHECK(general_graph<double>(a).num_entries() == 4);
  const Csr<float> g = general_graph<float>(a);
  CHECK(g.num_entries() == 2);
  CHECK(g.offsets == std::vector<offset_t>{0, 0, 1, 2});
  CHECK(g.weights == std::vector<float>{0.5f, 0.5f});
}
