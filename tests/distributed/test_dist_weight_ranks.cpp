// Weight ranks over the MPI ranks (datasets/distributed/dist_weight_ranks.hpp):
// each rank's weights get the floats lib/weight_ranks.hpp gives the whole
// graph's, bit for bit, at any rank count, on tie-heavy and continuous
// weights with both zeros, negatives and infinities, on parts sorted on
// one thread and on two, on ranks without weights too; a NaN on one rank is invalid_input on every rank.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/distributed/dist_weight_ranks.hpp"
#include "lib/error.hpp"
#include "lib/weight_ranks.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

TEST_CASE("weight ranks over the ranks equal the whole graph's, bit for bit") {
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  // The large graph's parts pass 2^16 entries at up to 4 ranks: their sorts
  // and searches run on 2 threads.
  for (const auto& [n, density, ties, threads] : {std::tuple{200, 0.05, 0, 0}, std::tuple{200, 0.05, 3, 0},
                                                  std::tuple{2600, 0.05, 0, 2}, std::tuple{2600, 0.05, 40, 2}}) {
    CAPTURE(n);
    Csr<double> g = check::random_graph(vertex_t(n), density, ties, std::uint64_t(17 + ties));
    const double specials[] = {-0.0, 0.0, -2.5, std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()};
    for (vertex_t u = 0; u < g.n_rows; ++u)
      for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
        if (u < g.cols[k] && (u + g.cols[k]) % 7 == 0) {
          const double w = specials[(u + g.cols[k]) % 5];
          g.weights[k] = w;
          for (offset_t j = g.offsets[g.cols[k]]; j < g.offsets[g.cols[k] + 1]; ++j)
            if (g.cols[j] == u) g.weights[j] = w;
        }
    const std::vector<float> whole = weight_ranks(g);
    std::map<double, std::uint32_t> of;  // -0 and +0 one key
    for (std::size_t k = 0; k < whole.size(); ++k) of[g.weights[k]] = std::bit_cast<std::uint32_t>(whole[k]);
    const DistGraph part = distribute(g, rank, ranks, Partition::blocks);
    const std::vector<float> got = mpi::weight_ranks_over_ranks(part.weights, threads);
    REQUIRE(got.size() == part.weights.size());
    std::string bad;
    for (std::size_t k = 0; bad.empty() && k < got.size(); ++k)
      if (std::bit_cast<std::uint32_t>(got[k]) != of.at(part.weights[k]))
        bad = "local entry " + std::to_string(k) + " (weight " + std::to_string(part.weights[k]) + ")";
    bad = mpi::first_failure(bad);
    CHECK_MESSAGE(bad.empty(), "ties " << ties << " at " << ranks << " ranks: " << bad);
  }
  // Ranks with no weights at all take part.
  const std::vector<double> few = rank == 0 ? std::vector<double>{3.0, 1.0, 3.0} : std::vector<double>{};
  const std::vector<float> r = mpi::weight_ranks_over_ranks(few);
  if (rank == 0) {
    REQUIRE(r.size() == 3);
    CHECK(r[0] == r[2]);
    CHECK(r[1] < r[0]);
  }
}

TEST_CASE("weight ranks over the ranks: a NaN on one rank fails every rank") {
  const std::vector<double> w = mpi::world_rank() == 0 ? std::vector<double>{1.0, std::nan("")}
                                                       : std::vector<double>{2.0};
  CHECK_THROWS_AS(mpi::weight_ranks_over_ranks(w), invalid_input);
}
