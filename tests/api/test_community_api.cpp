// Community detection through the C interface (include/matchblas/community.h)
// and its C++ wrapper (matching.hpp's api::cluster): from CSR, coordinate and
// Matrix Market input the labels of the internal entry on community_graph,
// the report's modularity, edges and levels, the hierarchy level by level;
// options by name; statuses and messages for a negative weight (naming the
// entry), a rectangular matrix, an unknown or a matching algorithm, a bad
// option, NULL arguments and, in a build without CUDA, louvain-gpu; results
// left empty after a failure.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchblas/matching.hpp"
#include "matchers/community/louvain.hpp"
#include "matchers/registry.hpp"
#include "ops/modularity.hpp"
#include "tests/check/check.hpp"

namespace api = matchblas::api;
using namespace matchblas;

namespace {

// A random symmetric matrix in CSR with a planted partition (blocks of 8,
// dense inside, sparse across) and some diagonal entries.
struct Planted {
  std::int64_t n = 64;
  std::vector<std::int64_t> ptr, idx;
  std::vector<double> val;
  Planted() {
    std::mt19937 rng(41);
    std::vector<std::vector<std::pair<std::int64_t, double>>> rows(static_cast<std::size_t>(n));
    for (std::int64_t u = 0; u < n; ++u)
      for (std::int64_t v = u; v < n; ++v) {
        const bool same = u / 8 == v / 8;
        if (u == v ? rng() % 4 == 0 : rng() % 100 < (same ? 70u : 3u)) {
          const double w = 1 + double(rng() % 5);
          rows[std::size_t(u)].emplace_back(v, w);
          if (v != u) rows[std::size_t(v)].emplace_back(u, w);
        }
      }
    ptr.push_back(0);
    for (auto& r : rows) {
      std::sort(r.begin(), r.end());
      for (auto [v, w] : r) {
        idx.push_back(v);
        val.push_back(w);
      }
      ptr.push_back(std::int64_t(idx.size()));
    }
  }
  MmMatrix matrix() const {
    MmMatrix m;
    m.header.rows = m.header.cols = vertex_t(n);
    for (std::int64_t u = 0; u < n; ++u)
      for (std::int64_t k = ptr[std::size_t(u)]; k < ptr[std::size_t(u) + 1]; ++k) {
        m.row.push_back(vertex_t(u));
        m.col.push_back(vertex_t(idx[std::size_t(k)]));
        m.val.push_back(val[std::size_t(k)]);
      }
    m.header.entries = offset_t(m.row.size());
    return m;
  }
};

matchblas_graph c_graph(const Planted& p) {
  matchblas_graph g{};
  g.source = MATCHBLAS_GRAPH_SPARSE;
  g.sparse = api::detail::to_c(api::csr(p.n, p.n, p.ptr, p.idx, p.val));
  return g;
}

}  // namespace

TEST_CASE("cluster (C): CSR, coordinate and file input give the internal entry's labels and report") {
  const Planted p;
  const Csr<double> graph = community_graph(p.matrix());
  for (const char* algo : {"louvain", "louvain-omp"}) {
    CAPTURE(algo);
    LouvainOptions o;
    o.resolution = 1.5;
    const Communities want = algo == std::string("louvain") ? louvain(graph, o) : louvain_omp(graph, o);
    const matchblas_graph g = c_graph(p);
    const matchblas_option resolution{"resolution", "1.5"};
    matchblas_run_settings s;
    matchblas_default_run_settings(&s);
    s.options = &resolution;
    s.n_options = 1;
    matchblas_communities c;
    matchblas_cluster_report r;
    REQUIRE(matchblas_cluster(&g, algo, &s, &c, &r) == MATCHBLAS_OK);
    CHECK(std::string(r.message) == "ok");
    CHECK(std::string(r.algo) == algo);
    REQUIRE(c.vertices == p.n);
    CHECK(std::vector<std::int64_t>(c.label, c.label + c.vertices) ==
          std::vector<std::int64_t>(want.label.begin(), want.label.end()));
    CHECK(c.communities == want.communities);
    CHECK(r.resolution == 1.5);
    CHECK(r.modularity == doctest::Approx(ops::modularity(graph, want.label, 1.5)).epsilon(1e-12));
    CHECK(r.vertices == p.n);
    std::int64_t loops = 0;
    for (std::int64_t u = 0; u < p.n; ++u)
      for (std::int64_t k = p.ptr[std::size_t(u)]; k < p.ptr[std::size_t(u) + 1]; ++k) loops += p.idx[std::size_t(k)] == u;
    CHECK(r.edges == (std::int64_t(p.idx.size()) - loops) / 2);
    REQUIRE(c.levels == std::int64_t(want.hierarchy.size()));
    CHECK(r.levels == c.levels);
    for (std::int64_t l = 0; l < c.levels; ++l) {
      const std::vector<vertex_t>& h = want.hierarchy[std::size_t(l)];
      REQUIRE(c.level_offsets[l + 1] - c.level_offsets[l] == std::int64_t(h.size()));
      CHECK(std::vector<std::int64_t>(c.hierarchy + c.level_offsets[l], c.hierarchy + c.level_offsets[l + 1]) ==
            std::vector<std::int64_t>(h.begin(), h.end()));
    }
    const std::vector<std::int64_t> labels(c.label, c.label + c.vertices);
    matchblas_communities_free(&c);
    CHECK(c.label == nullptr);

    // The same graph as coordinate arrays (entries as stored) and as a file.
    std::vector<std::int64_t> row;
    for (std::int64_t u = 0; u < p.n; ++u)
      for (std::int64_t k = p.ptr[std::size_t(u)]; k < p.ptr[std::size_t(u) + 1]; ++k) row.push_back(u);
    matchblas_coordinate_graph coo{};
    coo.rows = coo.cols = p.n;
    coo.entries = std::int64_t(row.size());
    coo.index_type = MATCHBLAS_INT64;
    coo.value_type = MATCHBLAS_DOUBLE;
    coo.row_indices = row.data();
    coo.col_indices = p.idx.data();
    coo.values = p.val.data();
    REQUIRE(matchblas_cluster_coordinate(&coo, algo, &s, &c, &r) == MATCHBLAS_OK);
    CHECK(std::vector<std::int64_t>(c.label, c.label + c.vertices) == labels);
    matchblas_communities_free(&c);
    const check::temp_dir dir;
    const std::string path = (dir / "planted.mtx").string();
    write_matrix_market(path, p.matrix());
    matchblas_graph file{};
    file.source = MATCHBLAS_GRAPH_FILE;
    file.path = path.c_str();
    REQUIRE(matchblas_cluster(&file, algo, &s, &c, &r) == MATCHBLAS_OK);
    CHECK(std::vector<std::int64_t>(c.label, c.label + c.vertices) == labels);
    matchblas_communities_free(&c);
    // The C++ wrapper.
    const api::CommunityResult cpp =
        api::cluster(api::file_graph(path), algo, {.options = {{"resolution", "1.5"}}});
    CHECK(cpp.label == labels);
    CHECK(cpp.modularity == r.modularity);
    CHECK(cpp.hierarchy.size() == want.hierarchy.size());
  }
}

TEST_CASE("cluster (C): bad input, names and options give their status, a message and an empty result") {
  const Planted p;
  matchblas_graph g = c_graph(p);
  matchblas_communities c;
  matchblas_cluster_report r;
  const auto status = [&](const matchblas_graph* graph, const char* algo, const matchblas_run_settings* s) {
    const int st = matchblas_cluster(graph, algo, s, &c, &r);
    if (st != MATCHBLAS_OK) {
      CHECK(c.label == nullptr);
      CHECK(c.hierarchy == nullptr);
      CHECK(c.level_offsets == nullptr);
    }
    CHECK(r.status == st);
    return st;
  };
  std::vector<double> negative = p.val;
  negative[3] = -2;
  g.sparse.values = negative.data();
  CHECK(status(&g, "louvain", nullptr) == MATCHBLAS_ERR_BAD_INPUT);
  CHECK(std::string(r.message).find("negative") != std::string::npos);
  g = c_graph(p);
  g.sparse.cols = p.n - 1;  // rectangular: the last column's entries fall outside
  CHECK(status(&g, "louvain", nullptr) < 0);
  g = c_graph(p);
  CHECK(status(&g, "no-such-algorithm", nullptr) == MATCHBLAS_ERR_UNKNOWN_ALGORITHM);
  CHECK(status(&g, "suitor", nullptr) == MATCHBLAS_ERR_UNKNOWN_ALGORITHM);
  CHECK(status(nullptr, "louvain", nullptr) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(matchblas_cluster(&g, "louvain", nullptr, nullptr, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  matchblas_run_settings s;
  matchblas_default_run_settings(&s);
  const matchblas_option zero{"resolution", "0"};
  s.options = &zero;
  s.n_options = 1;
  CHECK(status(&g, "louvain", &s) == MATCHBLAS_ERR_BAD_OPTION);
  const matchblas_option coloring{"coloring", "off"};
  s.options = &coloring;
  CHECK(status(&g, "louvain", &s) == MATCHBLAS_ERR_BAD_OPTION);  // louvain has no colouring
  CHECK(status(&g, "louvain-omp", &s) == MATCHBLAS_OK);
  matchblas_communities_free(&c);
  if (find_matcher("louvain-gpu", Problem::community).unavailable) {
    CHECK(status(&g, "louvain-gpu", nullptr) == MATCHBLAS_ERR_UNAVAILABLE);
    CHECK(std::string(r.message).find("louvain-gpu") != std::string::npos);
  }
  CHECK_THROWS_AS(api::cluster(api::sparse_graph(api::csr(p.n, p.n, p.ptr, p.idx, negative)), "louvain"), api::error);
}
