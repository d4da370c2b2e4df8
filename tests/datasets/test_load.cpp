// Loading a matrix as a graph under a view (datasets/load.hpp): what auto
// picks, and that a complete graph written as coordinates becomes the same
// Dense graph as --view complete.
#include <doctest/doctest.h>

#include <string>

#include "datasets/load.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"

using namespace matchblas;

namespace {
MmMatrix parse(const std::string& text) { return read_matrix_market_text(text, "test.mtx"); }

std::string coordinate(const std::string& field, const std::string& symmetry, const std::string& body) {
  return "%%MatrixMarket matrix coordinate " + field + " " + symmetry + "\n" + body;
}

// Fails the current test unless auto, for an algorithm of complete graphs
// only, loads a as a complete graph whose weights are exactly --view
// complete's.
template <class W>
void require_auto_complete(const MmMatrix& a) {
  const Precision p = sizeof(W) == 4 ? Precision::float32 : Precision::float64;
  const LoadedGraph got = graph_in_view(a, GraphView::automatic, p, {}, complete_graphs);
  const LoadedGraph want = graph_in_view(a, GraphView::complete, p);
  REQUIRE(got.kind == complete_graphs);
  REQUIRE(std::holds_alternative<Dense<W>>(got.graph));
  CHECK(std::get<Dense<W>>(got.graph).n == a.header.rows);
  CHECK(std::get<Dense<W>>(got.graph).values == std::get<Dense<W>>(want.graph).values);
  CHECK(got.description.rfind("complete graph (every pair listed), ", 0) == 0);
}

// Fails the current test unless auto, even for an algorithm of complete
// graphs only, loads a as the general graph, equal to --view general's.
void require_auto_general(const MmMatrix& a) {
  const LoadedGraph got = graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs);
  const LoadedGraph want = graph_in_view(a, GraphView::general, Precision::float64);
  REQUIRE(got.kind == general_graphs);
  REQUIRE(std::holds_alternative<Csr<double>>(got.graph));
  const Csr<double>& g = std::get<Csr<double>>(got.graph);
  const Csr<double>& w = std::get<Csr<double>>(want.graph);
  CHECK(g.n_rows == w.n_rows);
  CHECK(g.offsets == w.offsets);
  CHECK(g.cols == w.cols);
  CHECK(g.weights == w.weights);
  CHECK(got.description == want.description);
  CHECK(got.description.rfind("general graph, ", 0) == 0);
}
}  // namespace

TEST_CASE("auto: a complete graph in symmetric coordinate storage is a complete graph") {
  // K4, lower triangle; one diagonal entry (ignored), negative values (|.|).
  const MmMatrix a = parse(coordinate("real", "symmetric",
                                      "4 4 7\n2 1 1\n3 1 -2\n4 1 3\n3 2 4\n4 2 -5\n4 3 6\n2 2 9\n"));
  require_auto_complete<double>(a);
  require_auto_complete<float>(a);
  const Dense<double> d = std::get<Dense<double>>(graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs).graph);
  CHECK(d(0, 1) == 1);
  CHECK(d(2, 0) == 2);
  CHECK(d(1, 3) == 5);
  CHECK(d(1, 1) == 0);
  CHECK(graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs).description ==
        "complete graph (every pair listed), 4 vertices, 6 edges");
  // Skew-symmetric storage stands for both triangles too.
  require_auto_complete<double>(parse(coordinate("real", "skew-symmetric", "3 3 3\n2 1 1\n3 1 -2\n3 2 4\n")));
  // An explicit view still wins.
  CHECK(graph_in_view(a, GraphView::general, Precision::float64).kind == general_graphs);
}

TEST_CASE("auto: a complete graph in general coordinate storage, by the graph rules") {
  // K3: (1,2) and (2,1) differ (max taken), (1,3) is a sum of duplicates,
  // (2,3) is given in one direction only, plus an ignored diagonal.
  const MmMatrix a = parse(coordinate("real", "general", "3 3 6\n1 2 -3\n2 1 2\n1 3 1\n1 3 1.5\n3 2 7\n3 3 5\n"));
  require_auto_complete<double>(a);
  require_auto_complete<float>(a);
  const Dense<double> d = std::get<Dense<double>>(graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs).graph);
  CHECK(d(0, 1) == 3);
  CHECK(d(1, 0) == 3);
  CHECK(d(0, 2) == 2.5);
  CHECK(d(1, 2) == 7);
  CHECK(d(2, 2) == 0);
}

TEST_CASE("auto: a complete pattern file gets the drawn weights of both views") {
  const MmMatrix a = parse(coordinate("pattern", "symmetric", "4 4 6\n2 1\n3 1\n4 1\n3 2\n4 2\n4 3\n"));
  require_auto_complete<double>(a);
  // The same drawn weights as the general view, pair by pair.
  const Dense<double> d = std::get<Dense<double>>(graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs).graph);
  const Csr<double> g = std::get<Csr<double>>(graph_in_view(a, GraphView::general, Precision::float64).graph);
  for (vertex_t u = 0; u < 4; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      CAPTURE(u);
      CHECK(d(u, g.cols[k]) == g.weights[k]);
      CHECK(d(u, g.cols[k]) > 0);
    }
}

TEST_CASE("auto: one missing pair, an explicit zero or a cancelling sum keeps the general graph") {
  // K4 without (4,3).
  require_auto_general(parse(coordinate("real", "symmetric", "4 4 5\n2 1 1\n3 1 2\n4 1 3\n3 2 4\n4 2 5\n")));
  // K4 with (4,3) an explicit zero: the zero drops the edge.
  require_auto_general(parse(coordinate("real", "symmetric", "4 4 6\n2 1 1\n3 1 2\n4 1 3\n3 2 4\n4 2 5\n4 3 0\n")));
  // Zeros in both directions of a general file.
  require_auto_general(parse(coordinate("real", "general", "3 3 4\n1 2 1\n1 3 2\n2 3 0\n3 2 0\n")));
  // Duplicates that cancel.
  require_auto_general(parse(coordinate("real", "general", "3 3 4\n1 2 1\n1 3 2\n2 3 4\n2 3 -4\n")));
  // A diagonal entry does not stand in for a missing pair (n(n-1) entries in all).
  require_auto_general(parse(coordinate("real", "general", "3 3 6\n1 2 1\n2 1 1\n1 3 2\n3 1 2\n2 2 1\n3 3 1\n")));
}

TEST_CASE("auto: a weight that underflows in float drops its pair there only") {
  const MmMatrix a = parse(coordinate("real", "symmetric", "3 3 3\n2 1 1e-300\n3 1 1\n3 2 1\n"));
  require_auto_complete<double>(a);
  const LoadedGraph f = graph_in_view(a, GraphView::automatic, Precision::float32, {}, complete_graphs);
  CHECK(f.kind == general_graphs);
  CHECK(std::holds_alternative<Csr<float>>(f.graph));
}

TEST_CASE("auto: n = 0 and n = 1 stay general, n = 2 with its one pair is complete") {
  require_auto_general(parse(coordinate("real", "general", "0 0 0\n")));
  require_auto_general(parse(coordinate("real", "general", "1 1 0\n")));
  require_auto_general(parse(coordinate("real", "general", "1 1 1\n1 1 4\n")));
  require_auto_general(parse(coordinate("real", "symmetric", "2 2 0\n")));
  require_auto_general(parse(coordinate("real", "symmetric", "2 2 1\n2 1 0\n")));
  const MmMatrix two = parse(coordinate("real", "symmetric", "2 2 1\n2 1 -0.5\n"));
  require_auto_complete<double>(two);
  const Dense<double> d = std::get<Dense<double>>(graph_in_view(two, GraphView::automatic, Precision::float64, {}, complete_graphs).graph);
  CHECK(d.values == std::vector<double>{0, 0.5, 0.5, 0});
  require_auto_complete<double>(parse(coordinate("pattern", "general", "2 2 1\n1 2\n")));
}

TEST_CASE("auto: a large sparse square file is looked at without an n x n matrix") {
  // 10^6 vertices: a dense matrix would need 8 TB (out_of_memory on any
  // machine); the check runs on the general graph and picks it.
  const MmMatrix a = parse(coordinate("real", "general", "1000000 1000000 2\n1 2 1\n3 4 2\n"));
  LoadedGraph g;
  CHECK_NOTHROW(g = graph_in_view(a, GraphView::automatic, Precision::float32, {}, complete_graphs));
  CHECK(g.kind == general_graphs);
  CHECK(g.description == "general graph, 1000000 vertices, 2 edges");
  CHECK_THROWS_AS(graph_in_view(a, GraphView::complete, Precision::float32), out_of_memory);
}

TEST_CASE("auto on other files is unchanged: array complete, rectangular bipartite") {
  const MmMatrix array = parse("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  const LoadedGraph c = graph_in_view(array, GraphView::automatic, Precision::float64);
  CHECK(c.kind == complete_graphs);
  CHECK(c.description == "complete graph, 2 vertices, 1 edges");
  const MmMatrix rect = parse(coordinate("real", "general", "2 3 6\n1 1 1\n1 2 1\n1 3 1\n2 1 1\n2 2 1\n2 3 1\n"));
  const LoadedGraph b = graph_in_view(rect, GraphView::automatic, Precision::float64);
  CHECK(b.kind == bipartite_graphs);
  CHECK(b.bipartite_rows == 2);
  CHECK(b.description.rfind("bipartite graph (2 rows + 3 columns), ", 0) == 0);
}

TEST_CASE("auto: a complete graph in coordinates stays general for algorithms that take general graphs") {
  const MmMatrix a = parse(coordinate("real", "symmetric", "3 3 3\n2 1 1\n3 1 2\n3 2 4\n"));
  for (const unsigned wanted : {general_graphs | bipartite_graphs, general_graphs | complete_graphs | bipartite_graphs}) {
    CAPTURE(wanted);
    const LoadedGraph got = graph_in_view(a, GraphView::automatic, Precision::float64, {}, wanted);
    CHECK(got.kind == general_graphs);
    CHECK(std::holds_alternative<Csr<double>>(got.graph));
  }
  CHECK(graph_in_view(a, GraphView::automatic, Precision::float64).kind == general_graphs);  // the default
  CHECK(graph_in_view(a, GraphView::automatic, Precision::float64, {}, complete_graphs).kind == complete_graphs);
}
