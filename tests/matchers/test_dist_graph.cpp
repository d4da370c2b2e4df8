// DistGraph (matchers/distributed/dist_graph.hpp), without MPI: the blocks
// cover the vertices in order and are balanced by degree + the mean degree
// (entries and vertices together), owner() agrees
// with them, and the parts of all ranks together are the graph, each row in
// the greedy order of one vertex, with its ghosts and cross entries.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "datasets/generators.hpp"
#include "lib/greedy_order.hpp"
#include "matchers/distributed/dist_graph.hpp"

using namespace matchblas;

TEST_CASE("balanced_blocks: ordered, covering, each block within one vertex of its share") {
  GenOptions o;
  o.seed = 5;
  o.ties = 3;
  const Csr<double> g = rmat<double>(1024, o);  // skewed degrees
  const double w = block_vertex_weight(g.num_entries(), g.n_rows);
  CHECK(w == doctest::Approx(double(g.num_entries()) / g.n_rows));
  const double total = double(g.num_entries()) + w * g.n_rows;
  double heaviest = 0;
  for (vertex_t u = 0; u < g.n_rows; ++u) heaviest = std::max(heaviest, double(g.degree(u)) + w);
  for (int ranks : {1, 2, 3, 4, 7, 16, 2000}) {
    CAPTURE(ranks);
    const std::vector<vertex_t> first = balanced_blocks(g.offsets, ranks);
    REQUIRE(first.size() == std::size_t(ranks) + 1);
    CHECK(first.front() == 0);
    CHECK(first.back() == g.n_rows);
    CHECK(std::is_sorted(first.begin(), first.end()));
    for (int r = 0; r < ranks; ++r) {
      const double entries = double(g.offsets[first[r + 1]] - g.offsets[first[r]]),
                   vertices = double(first[r + 1] - first[r]);
      CHECK(entries + w * vertices <= total / ranks + heaviest + 1);
      // Neither the entries nor the vertices above twice their share.
      CHECK(entries <= 2 * double(g.num_entries()) / ranks + heaviest + 1);
      CHECK(vertices <= 2 * double(g.n_rows) / ranks + 1 + heaviest / w);
    }
  }
  CHECK(balanced_blocks(std::vector<offset_t>{0}, 3) == std::vector<vertex_t>{0, 0, 0, 0});
  CHECK_THROWS_AS(balanced_blocks(g.offsets, 0), invalid_input);
}

TEST_CASE("distribute: the parts of all ranks are the graph, rows in the greedy order, ghosts and owners right") {
  GenOptions o;
  o.seed = 9;
  o.ties = 2;
  o.edge_factor = 6;
  const Csr<double> g = erdos_renyi<double>(500, o);
  for (int ranks : {1, 2, 3, 4, 600}) {  // ghosts: 1-4 ranks through a bitmap, 600 by a sort (n > 32 m_r)
    CAPTURE(ranks);
    offset_t entries = 0;
    for (int rank = 0; rank < ranks; ++rank) {
      const DistGraph d = distribute(g, rank, ranks);
      CHECK(d.n == g.n_rows);
      CHECK(d.edges == num_edges(g));
      std::set<vertex_t> ghosts;
      offset_t cross = 0;
      for (vertex_t i = 0; i < d.count(); ++i) {
        const vertex_t u = d.begin() + i;
        CHECK(d.owner(u) == rank);
        REQUIRE(d.offsets[i + 1] - d.offsets[i] == g.degree(u));
        for (offset_t k = d.offsets[i]; k < d.offsets[i + 1]; ++k) {
          const vertex_t v = d.cols[k];
          const auto row = g.row_cols(u);
          const auto at = std::lower_bound(row.begin(), row.end(), v);
          REQUIRE(at != row.end());
          CHECK(*at == v);
          CHECK(d.weights[k] == g.row_weights(u)[at - row.begin()]);
          if (k > d.offsets[i]) CHECK(neighbour_beats(d.weights[k - 1], d.cols[k - 1], d.weights[k], v));
          CHECK(d.owner(v) >= 0);
          CHECK(d.owner(v) < ranks);
          CHECK((d.owner(v) == rank) == d.owns(v));
          if (!d.owns(v)) {
            ghosts.insert(v);
            ++cross;
          }
        }
      }
      CHECK(std::vector<vertex_t>(ghosts.begin(), ghosts.end()) == d.ghosts);
      CHECK(cross == d.cross_entries);
      entries += d.offsets.back();
    }
    CHECK(entries == g.num_entries());
  }
  const Csr<float> f = erdos_renyi<float>(100, o);
  const DistGraph d = distribute(f, 1, 2);
  CHECK(d.count() > 0);
  CHECK_THROWS_AS(distribute(g, 2, 2), invalid_input);
}
