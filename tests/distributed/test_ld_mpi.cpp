// The four distributed greedy matchers (matchers/distributed/) against
// `greedy`, mate for mate, at the number of ranks mpirun gave: the random
// graphs with ties, the generated families with and without ties, the shared
// matrices (skipped with a message when absent), float weights, the test
// graphs of Thorsen and Merkey (256 x 256 grid, complete bipartite on 2,048
// vertices), repeated runs on tie-heavy graphs to shake out races, and a
// graph of 2^17 + 3 vertices, where the spread partition moves chunks of ids.
// Each variant both ways of reading other ranks' words: MPI_Get (reads=gets)
// and, all ranks being on one node here, loads from a shared window
// (reads=auto).
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "datasets/generators.hpp"
#include "lib/matching.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/registry.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

std::vector<const MatcherInfo*> variants() {
  std::vector<const MatcherInfo*> out;
  for (const MatcherInfo& m : matchers())
    if (m.device == Device::distributed) out.push_back(&m);
  return out;
}

// Runs every variant on this rank's part of g and checks the whole against
// greedy's matching: each rank its own vertices, the first difference agreed
// over the ranks; and the weight and cardinality, summed over the ranks.
template <class W>
void check_equals_greedy(const std::string& name, const Csr<W>& g, int repeats = 1,
                         std::initializer_list<Partition> partitions = {Partition::blocks, Partition::spread}) {
  const Matching ref = greedy(g, 1);
  const int ranks = mpi::world_size();
  for (const Partition partition : partitions) {
    const DistGraph part = distribute(g, mpi::world_rank(), ranks, partition);
    const std::string how = partition == Partition::spread ? ", spread" : ", blocks";
    for (const MatcherInfo* m : variants())
      for (const char* reads : {"auto", "gets"})
        for (int repeat = 0; repeat < repeats; ++repeat) {
          RunOptions o;
          o.options = parse_options(*m, {{"reads", reads}});
          const DistributedMatching r = run_distributed(*m, part, o);
          std::string bad = r.violation;
          for (vertex_t i = 0; bad.empty() && i < part.count(); ++i) {
            const vertex_t u = r.vertex(i);
            if (r.mate[i] != ref.mate[u])
              bad = "vertex " + std::to_string(u) + ": mate " + std::to_string(r.mate[i]) + ", greedy's " +
                    std::to_string(ref.mate[u]);
          }
          bad = mpi::first_failure(bad);
          CHECK_MESSAGE(bad.empty(), (m->name + ":reads=" + reads + " on " + name + how + " at " +
                                      std::to_string(ranks) + " ranks: " + bad));
          CHECK(mpi::sum_over_ranks(r.weight) == doctest::Approx(matching_weight(g, ref)).epsilon(1e-12));
          CHECK(mpi::sum_over_ranks(r.pairs) == cardinality(ref));
          if (repeat == 0 && reads[0] == 'a') {  // the whole mate array on rank 0, by id
            const std::vector<vertex_t> all = mpi::gather_mates(r, g.n_rows);
            const std::string gathered = mpi::world_rank() != 0 || all == ref.mate ? "" : "differs";
            CHECK_MESSAGE(mpi::first_failure(gathered).empty(), (m->name + " gathered on " + name + how));
          }
        }
  }
}

}  // namespace

TEST_CASE("the four distributed variants are registered, and each equals greedy on the test graphs") {
  REQUIRE(variants().size() == 4);
  check::FamilyOptions opt;
  opt.random_graphs = 80;
  check::for_each_test_graph([&](const std::string& name, const Csr<double>& g) { check_equals_greedy(name, g); },
                             opt);
}

TEST_CASE("float weights: each variant equals greedy on the same float graph") {
  GenOptions o;
  o.seed = 11;
  o.ties = 5;
  o.edge_factor = 6;
  check_equals_greedy("rmat 2048 float ties=5", rmat<float>(2048, o));
}

TEST_CASE("Thorsen and Merkey's test graphs: the 256 x 256 grid and the complete bipartite graph on 2,048 vertices") {
  for (int ties : {0, 4}) {
    GenOptions o;
    o.seed = 3;
    o.ties = ties;
    check_equals_greedy("grid 256 ties=" + std::to_string(ties), grid2d<double>(256, o));
    check_equals_greedy("bipartite 1024+1024 ties=" + std::to_string(ties), complete_bipartite<double>(1024, o));
  }
}

TEST_CASE("repeated runs on tie-heavy graphs give greedy's matching every time (races)") {
  for (int seed = 1; seed <= 2; ++seed) {
    GenOptions o;
    o.seed = std::uint64_t(seed);
    o.ties = 2;
    o.edge_factor = 8;
    check_equals_greedy("er 4000 ties=2 seed=" + std::to_string(seed), erdos_renyi<double>(4000, o), 5);
    check_equals_greedy("rmat 4096 ties=2 seed=" + std::to_string(seed), rmat<double>(4096, o), 5);
  }
}

TEST_CASE("graphs of 2^17 vertices and more: the spread partition moves chunks of ids, each variant equals greedy") {
  GenOptions o;
  o.seed = 7;
  o.ties = 3;
  o.edge_factor = 1;
  const Csr<double> g = erdos_renyi<double>((1 << 17) + 3, o);  // chunks of 2 ids, a partial one at the end
  REQUIRE(VertexNumbering::spread(g.n_rows).chunk() == 2);
  check_equals_greedy("er 2^17+3 ties=3", g, 1, {Partition::spread});
}
