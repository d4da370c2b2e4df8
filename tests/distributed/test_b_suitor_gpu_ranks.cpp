// b-suitor-gpu over MPI ranks (matchers/b_matching/b_suitor_gpu_ranks_mpi.cpp),
// the ranks on the node's GPUs in turn (sharing them where there are fewer
// GPUs than ranks; skipped without a GPU): each rank's
// rows equal b_greedy's edge set there, for b = 1, 2, 5 and per-vertex b, on
// tie-heavy random graphs and R-MAT with hubs; the exchange it reports: no
// message at one rank, 16 bytes a message; double weights (their ranks over
// the ranks) give b_greedy's edges too; a spread partition is refused. Rows
// resident, with the messages GPU to GPU (NCCL, where the build has it and
// every rank its own GPU) and host-staged, and streamed under a
// device-memory limit; the exchange against a count on the host; too little
// memory fails every rank alike.
#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/distributed/mpi_world.hpp"
#include "datasets/generators.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "ops/gpu/device.hpp"
#include "tests/check/check.hpp"

using namespace matchblas;

namespace {

// g with its weights rounded to floats, kept as doubles (floats hold them).
Csr<double> float_weights(Csr<double> g) {
  for (double& w : g.weights) w = double(float(w));
  return g;
}

// This rank's rows of got against b_greedy's, the first difference agreed
// over the ranks.
std::string first_difference(const DistGraph& part, const BMatching& got, const BMatching& ref) {
  std::string bad;
  if (got.offsets.size() != std::size_t(part.count()) + 1) bad = "the part has the wrong number of rows";
  for (vertex_t i = 0; bad.empty() && i < part.count(); ++i) {
    const vertex_t v = part.begin() + i;
    const std::vector<vertex_t> a(got.partners.begin() + got.offsets[i], got.partners.begin() + got.offsets[i + 1]);
    const std::vector<vertex_t> want(ref.partners.begin() + ref.offsets[v], ref.partners.begin() + ref.offsets[v + 1]);
    if (a != want) bad = "vertex " + std::to_string(v) + " differs from b_greedy";
  }
  return mpi::first_failure(bad);
}

}  // namespace

TEST_CASE("b-suitor-gpu over ranks equals b_greedy on every rank's rows") {
  if (gpu::device_count() == 0) {
    MESSAGE("skipped: no GPU (" << gpu::unavailable_reason() << ")");
    return;
  }
  const int rank = mpi::world_rank(), ranks = mpi::world_size();
  GenOptions gen;
  gen.seed = 7;
  gen.ties = 3;
  gen.edge_factor = 8;
  const std::vector<std::pair<std::string, Csr<double>>> graphs = {
      {"random 300 ties", float_weights(check::random_graph(300, 0.05, 3, 11))},
      {"random 500", float_weights(check::random_graph(500, 0.02, 0, 12))},
      {"rmat 2^12 ties", float_weights(rmat<double>(1 << 12, gen))}};
  for (const auto& [name, g] : graphs) {
    const DistGraph part = distribute(g, rank, ranks, Partition::blocks);
    for (const std::vector<int>& b : {constant_b(g.n_rows, 1), constant_b(g.n_rows, 2), constant_b(g.n_rows, 5),
                                      check::random_b(g.n_rows, 3)}) {
      // Rows resident, then streamed: a limit that holds this rank's state
      // and two batches of its longest row, not all its rows.
      const BSuitorGpuMemory need =
          b_suitor_gpu_memory(std::span(g.offsets), b, part.begin(), part.begin() + part.count());
      // Each way the messages can travel: GPU to GPU where the build and
      // the GPUs allow it (else through host memory too), and host-staged.
      for (const auto& [limit, host_staged] : {std::pair{std::size_t(0), false}, std::pair{std::size_t(0), true},
                                               std::pair{need.least_streamed() + 2048, false}}) {
        CAPTURE(limit);
        CAPTURE(host_staged);
        GpuOptions opt;
        opt.device_memory = limit;
        opt.device = mpi::local_rank() % gpu::device_count();  // the node's GPUs in turn
        PartsExchange ex;
        ex.host_staged = host_staged;
        const BMatching got = b_suitor_gpu_ranks(part, b, opt, &ex);
        const std::string bad = first_difference(part, got, b_greedy(g, b));
        CHECK_MESSAGE(bad.empty(), name << " at " << ranks << " ranks (" << ex.transport << "): " << bad);
        if (host_staged || ranks == 1) CHECK(ex.transport != "nccl");
        if (rank == 0 && b[0] == 1 && name == graphs.front().first)
          MESSAGE(ranks << " ranks, " << (limit ? "streamed" : "resident") << ": the exchange " << ex.transport);
        // The exchange against a count on the host: 16 bytes a message, and
        // every matched edge between two ranks proposed from both ends.
        long long sent = 0, proposals = 0, crossing = 0;
        for (const PartsRound& r : ex.rounds) {
          CHECK(r.bytes == std::size_t(16 * (r.proposals + r.drops)));
          CHECK(r.messages <= 2LL * (ranks - 1));
          sent += r.proposals + r.drops;
          proposals += r.proposals;
        }
        for (std::size_t k = 0; k < got.partners.size(); ++k) crossing += !part.owns(got.partners[k]);
        CHECK(mpi::sum_over_ranks(std::int64_t(proposals)) >= mpi::sum_over_ranks(std::int64_t(crossing)));
        if (ranks == 1) CHECK(sent == 0);
      }
    }
  }
}

TEST_CASE("b-suitor-gpu over ranks with double weights (their ranks) equals b_greedy; a spread partition refused") {
  if (gpu::device_count() == 0) return;
  const Csr<double> g = check::random_graph(400, 0.05, 0, 5);  // uniform doubles: not floats
  const DistGraph blocks = distribute(g, mpi::world_rank(), mpi::world_size(), Partition::blocks);
  for (int b : {1, 3}) {
    const std::vector<int> bv = constant_b(g.n_rows, b);
    const std::string bad = first_difference(blocks, b_suitor_gpu_ranks(blocks, bv), b_greedy(g, bv));
    CHECK_MESSAGE(bad.empty(), "double weights, b = " << b << ": " << bad);
  }
  GpuOptions tiny;
  tiny.device_memory = 1024;  // every rank refuses, naming the bytes: no rank is left waiting
  try {
    b_suitor_gpu_ranks(blocks, constant_b(g.n_rows, 2), tiny);
    FAIL("no error for 1 KiB of device memory");
  } catch (const out_of_memory& e) {
    CHECK(std::string(e.what()).find("needs at least") != std::string::npos);
  }
  const DistGraph spread = distribute(g, mpi::world_rank(), mpi::world_size(), Partition::spread);
  CHECK_THROWS_AS(b_suitor_gpu_ranks(spread, constant_b(g.n_rows, 2)), invalid_input);  // before any collective
}
