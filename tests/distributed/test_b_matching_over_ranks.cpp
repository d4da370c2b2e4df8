// check_b_matching_over_ranks (matchers/b_matching/b_matching_over_ranks_mpi.cpp):
// b_greedy's edges cut into every rank's rows pass, with the weight and
// edge count of the whole; a partner dropped on one side, a partner that is
// no neighbour, and more partners than b fail on every rank alike, naming
// the rank; either partition.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// This rank's rows of the whole b-matching m, partners by id.
BMatching rows_of(const DistGraph& part, const BMatching& m) {
  BMatching r;
  r.offsets.assign(1, 0);
  for (vertex_t i = 0; i < part.count(); ++i) {
    const vertex_t v = part.id(part.begin() + i);
    r.partners.insert(r.partners.end(), m.partners.begin() + m.offsets[v], m.partners.begin() + m.offsets[v + 1]);
    r.offsets.push_back(offset_t(r.partners.size()));
  }
  return r;
}

}  // namespace

TEST_CASE("a b-matching over ranks: b_greedy's passes with the whole's totals; each kind of fault is found") {
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  const Csr<double> g = check::random_graph(300, 0.05, 3, 17);
  for (Partition partition : {Partition::blocks, Partition::spread}) {
    const DistGraph part = distribute(g, rank, ranks, partition);
    for (int bv : {1, 3}) {
      CAPTURE(bv);
      const std::vector<int> b = constant_b(g.n_rows, bv);
      const BMatching whole = b_greedy(g, b);
      const BMatching mine = rows_of(part, whole);
      const BMatchingOverRanks ok = check_b_matching_over_ranks(part, b, mine);
      CHECK_MESSAGE(ok.violation.empty(), ok.violation);
      CHECK(ok.edges == whole.num_edges());
      CHECK(ok.weight == doctest::Approx(b_matching_weight(g, whole)).epsilon(1e-12));

      // The last rank with a matched vertex spoils its first such row.
      const int spoiler = int(mpi::max_over_ranks(std::int64_t(mine.partners.empty() ? -1 : rank)));
      REQUIRE(spoiler >= 0);
      const auto spoiled = [&](auto&& change) {
        BMatching bad = mine;
        if (rank == spoiler) change(bad);
        return check_b_matching_over_ranks(part, b, bad).violation;
      };
      const auto first_row = [](const BMatching& m) {
        vertex_t i = 0;
        while (m.offsets[i + 1] == m.offsets[i]) ++i;
        return i;
      };
      const std::string one_sided = spoiled([&](BMatching& bad) {  // a partner forgotten: the other side still lists it
        const vertex_t i = first_row(bad);
        bad.partners.erase(bad.partners.begin() + bad.offsets[i]);
        for (std::size_t k = std::size_t(i) + 1; k < bad.offsets.size(); ++k) --bad.offsets[k];
      });
      CHECK(one_sided.find("but not the other way") != std::string::npos);
      if (ranks > 1) CHECK(one_sided.rfind("rank ", 0) == 0);
      const std::string stranger = spoiled([&](BMatching& bad) {  // a partner that is no neighbour
        const vertex_t i = first_row(bad);
        const vertex_t v = part.id(part.begin() + i);
        for (vertex_t u = 0; u < g.n_rows; ++u)
          if (u != v && !std::binary_search(g.cols.begin() + g.offsets[v], g.cols.begin() + g.offsets[v + 1], u)) {
            bad.partners[bad.offsets[i]] = u;
            std::sort(bad.partners.begin() + bad.offsets[i], bad.partners.begin() + bad.offsets[i + 1]);
            break;
          }
      });
      CHECK(!stranger.empty());
      const std::vector<int> tight = constant_b(g.n_rows, 0);  // every partner one too many
      CHECK(check_b_matching_over_ranks(part, tight, mine).violation.find("partners, b = 0") != std::string::npos);
    }
  }
}
