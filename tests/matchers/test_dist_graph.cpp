// DistGraph (datasets/distributed/dist_graph.hpp), without MPI: the blocks
// cover the vertices in order and are balanced by degree + the mean degree
// (entries and vertices together); the spread numbering is a bijection
// that evens R-MAT's entries over equal blocks; owner() agrees with the
// blocks, and the parts of all ranks together are the graph under either
// partition, each row in the greedy order of one vertex (by ids), with its
// ghosts and cross entries.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/greedy_order.hpp"
#include "datasets/distributed/dist_graph.hpp"

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

TEST_CASE("VertexNumbering::spread: a bijection of 0..n-1 with its inverse") {
  for (vertex_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1000, 1023, 1024, 1025, 4097, 65535, 65536, 100003}) {
    CAPTURE(n);
    const VertexNumbering p = VertexNumbering::spread(n);
    CHECK(p.identity() == (n <= 2));
    std::vector<char> hit(std::size_t(n), 0);
    vertex_t moved = 0;
    for (vertex_t v = 0; v < n; ++v) {
      const vertex_t l = p.label(v);
      REQUIRE(l >= 0);
      REQUIRE(l < n);
      CHECK_FALSE(hit[std::size_t(l)]);
      hit[std::size_t(l)] = 1;
      REQUIRE(p.id(l) == v);
      moved += l != v;
    }
    if (n >= 8) CHECK(moved >= n / 2);  // it does renumber
  }
  CHECK(VertexNumbering::spread(1000) == VertexNumbering::spread(1000));  // a pure function of n
  // Large graphs move chunks of consecutive ids (C = 16 at 2^20, 64 from 2^22),
  // each kept in order; the partial last chunk stays.
  for (const auto& [n, c] : {std::pair{(1 << 20) + 5, 16}, std::pair{(1 << 22) + 37, 64}}) {
    CAPTURE(n);
    const VertexNumbering q = VertexNumbering::spread(n);
    REQUIRE(q.chunk() == c);
    std::vector<char> hit(std::size_t(n), 0);
    vertex_t moved = 0;
    for (vertex_t v = 0; v < n; ++v) {
      const vertex_t l = q.label(v);
      REQUIRE((l >= 0 && l < n && !hit[std::size_t(l)]));
      hit[std::size_t(l)] = 1;
      REQUIRE(q.id(l) == v);
      if (v % c != 0) REQUIRE(l == q.label(v - 1) + 1);  // a chunk stays together
      moved += l != v;
    }
    CHECK(moved >= n / 2);
    for (vertex_t v = n - n % c; v < n; ++v) CHECK(q.label(v) == v);
  }
  // Near the largest n (labels over 2^30 and their products in 64 bits).
  const vertex_t big = 2147483647;
  const VertexNumbering p = VertexNumbering::spread(big);
  for (vertex_t v : {0, 1, 2, 1 << 30, big - 2, big - 1}) {
    CAPTURE(v);
    const vertex_t l = p.label(v);
    CHECK(l >= 0);
    CHECK(l < big);
    CHECK(p.id(l) == v);
  }
}

TEST_CASE("equal_blocks and the spread partition: R-MAT's entries even over the ranks") {
  CHECK(equal_blocks(10, 3) == std::vector<vertex_t>{0, 3, 6, 10});
  CHECK(equal_blocks(2, 4) == std::vector<vertex_t>{0, 0, 1, 1, 2});
  CHECK_THROWS_AS(equal_blocks(5, 0), invalid_input);
  GenOptions o;
  o.seed = 3;
  const Csr<double> g = rmat<double>(1 << 14, o);  // hubs at the low ids
  const int ranks = 16;
  const double mean = double(g.num_entries()) / ranks;
  double spread_max = 0, blocks_max = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    blocks_max = std::max(blocks_max, double(distribute(g, rank, ranks, Partition::blocks).cols.size()));
    const DistGraph d = distribute(g, rank, ranks, Partition::spread);
    CHECK(d.count() == (g.n_rows / ranks));
    spread_max = std::max(spread_max, double(d.cols.size()));
  }
  // Blocks of ids give the rank with R-MAT's hubs 1.88x the mean entries
  // (balanced with the vertices), the spread one 1.16x (a sample of 1024
  // heavy-tailed degrees); the share falls with the block size.
  CHECK(spread_max <= 1.25 * mean);
  CHECK(blocks_max >= 1.5 * mean);
}

TEST_CASE("distribute: the parts of all ranks are the graph, rows in the greedy order, ghosts and owners right") {
  GenOptions o;
  o.seed = 9;
  o.ties = 2;
  o.edge_factor = 6;
  const Csr<double> g = erdos_renyi<double>(500, o);
  for (const Partition partition : {Partition::blocks, Partition::spread})
    for (int ranks : {1, 2, 3, 4, 600}) {  // ghosts: 1-4 ranks through a bitmap, 600 by a sort (n > 32 m_r)
      CAPTURE(int(partition));
      CAPTURE(ranks);
      offset_t entries = 0;
      std::vector<int> owned(std::size_t(g.n_rows), 0);
      for (int rank = 0; rank < ranks; ++rank) {
        const DistGraph d = distribute(g, rank, ranks, partition);
        CHECK(d.partition == partition);
        CHECK(d.numbering.identity() == (d.partition == Partition::blocks));
        CHECK(d.n == g.n_rows);
        CHECK(d.edges == num_edges(g));
        std::set<vertex_t> ghosts;
        offset_t cross = 0;
        for (vertex_t i = 0; i < d.count(); ++i) {
          const vertex_t label = d.begin() + i, u = d.id(label);
          ++owned[std::size_t(u)];
          CHECK(d.owner(label) == rank);
          REQUIRE(d.offsets[i + 1] - d.offsets[i] == g.degree(u));
          for (offset_t k = d.offsets[i]; k < d.offsets[i + 1]; ++k) {
            const vertex_t l = d.cols[k], v = d.id(l);
            const auto row = g.row_cols(u);
            const auto at = std::lower_bound(row.begin(), row.end(), v);
            REQUIRE(at != row.end());
            CHECK(*at == v);
            CHECK(d.weights[k] == g.row_weights(u)[at - row.begin()]);
            if (k > d.offsets[i]) CHECK(neighbour_beats(d.weights[k - 1], d.id(d.cols[k - 1]), d.weights[k], v));
            CHECK(d.owner(l) >= 0);
            CHECK(d.owner(l) < ranks);
            CHECK((d.owner(l) == rank) == d.owns(l));
            if (!d.owns(l)) {
              ghosts.insert(l);
              ++cross;
            }
          }
        }
        CHECK(std::vector<vertex_t>(ghosts.begin(), ghosts.end()) == d.ghosts);
        CHECK(cross == d.cross_entries);
        entries += d.offsets.back();
      }
      CHECK(entries == g.num_entries());
      CHECK(std::all_of(owned.begin(), owned.end(), [](int c) { return c == 1; }));
    }
  const Csr<float> f = erdos_renyi<float>(100, o);
  const DistGraph d = distribute(f, 1, 2);
  CHECK(d.count() > 0);
  CHECK_THROWS_AS(distribute(g, 2, 2), invalid_input);
}

TEST_CASE("distribute_rows, copying the rows or taking them, gives distribute's part") {
  GenOptions o;
  o.seed = 4;
  o.ties = 3;
  o.edge_factor = 5;
  const Csr<double> g = erdos_renyi<double>(400, o);  // rows by column: most need the greedy sort
  const auto same = [](const DistGraph& a, const DistGraph& b) {
    return a.first == b.first && a.offsets == b.offsets && a.cols == b.cols && a.weights == b.weights &&
           a.ghosts == b.ghosts && a.cross_entries == b.cross_entries && a.n == b.n && a.edges == b.edges;
  };
  for (const Partition partition : {Partition::blocks, Partition::spread})
    for (int ranks : {1, 3}) {
      CAPTURE(int(partition));
      CAPTURE(ranks);
      for (int rank = 0; rank < ranks; ++rank) {
        const DistGraph want = distribute(g, rank, ranks, partition);
        // The rows of this rank's labels (ids in columns), as a reader would build them.
        Csr<double> rows;
        rows.n_rows = want.count();
        rows.n_cols = g.n_cols;
        rows.offsets.assign(std::size_t(rows.n_rows) + 1, 0);
        for (vertex_t i = 0; i < rows.n_rows; ++i) {
          const vertex_t u = want.id(want.begin() + i);
          rows.cols.insert(rows.cols.end(), g.row_cols(u).begin(), g.row_cols(u).end());
          rows.weights.insert(rows.weights.end(), g.row_weights(u).begin(), g.row_weights(u).end());
          rows.offsets[std::size_t(i) + 1] = offset_t(rows.cols.size());
        }
        CHECK(same(distribute_rows(rows, g.n_rows, num_edges(g), want.first, rank, partition), want));
        CHECK(same(distribute_rows(std::move(rows), g.n_rows, num_edges(g), want.first, rank, partition), want));
      }
    }
  Csr<double> extra = g;  // a column past the last offset
  extra.cols.push_back(0);
  extra.weights.push_back(1.0);
  CHECK_THROWS_AS(distribute_rows(std::move(extra), g.n_rows, num_edges(g), {0, g.n_rows}, 0, Partition::blocks),
                  invalid_input);
  Csr<double> bad = g;  // one rank's whole graph with a column out of range
  bad.cols[7] = g.n_rows;
  CHECK_THROWS_AS(distribute_rows(std::move(bad), g.n_rows, num_edges(g), {0, g.n_rows}, 0, Partition::blocks),
                  invalid_input);
}
