// The distributed family's registry entries (matchers/registry.hpp): the
// four MPI variants of Thorsen and Merkey's parallel greedy matching, each
// run on MPI ranks with its part of the graph (device `distributed`; the
// `match` command runs them under mpirun, apps/cmd_match_distributed.cpp).
// Without MPI in the build they are listed as unavailable, saying why.
#include "matchers/registry.hpp"

#include "matchers/distributed/ld_mpi.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/references.hpp"

namespace matchblas::registry_detail {

namespace {

using namespace references;

// A distributed variant, f(this rank's DistGraph, how remote words are
// read). Memory beyond the input, per rank and with one rank (the largest
// share), from its arrays (not fitted): the rows sorted in the greedy order
// (4 + 8 bytes per entry, 8 per vertex), the words and pointers (4 + 8 per
// vertex), and for the notify variants the queues (3 x 4 bytes per cross
// entry, none with one rank).
MatcherInfo mpi_entry(MatcherInfo m, DistributedMatching (*f)(const DistGraph&, RemoteReads)) {
  m.kinds = general_graphs | bipartite_graphs;
  m.device = Device::distributed;
  m.guarantee = "greedy";
  m.options.push_back({.name = "reads",
                       .type = OptionSpec::Type::word,
                       .fallback = "auto",
                       .words = {"auto", "gets", "loads"},
                       .lo = 0,
                       .hi = 0,
                       .help = "how other ranks' words are read: MPI_Get (gets), loads from a shared window when "
                               "every rank runs on one node (loads), or loads there and gets elsewhere (auto)"});
  m.read_options = [](const OptionValues& v, Precision) -> std::any {
    const std::string reads = v.word("reads");
    return reads == "gets" ? RemoteReads::gets : reads == "loads" ? RemoteReads::loads : RemoteReads::automatic;
  };
  m.run = DistributedRunner([f](const DistGraph& g, const RunOptions& o) { return f(g, o.options.typed<RemoteReads>()); });
  if (!mpi::built()) m.unavailable = "needs MPI (libopenmpi-dev), absent from this build";
  return m;
}

}  // namespace

void add_distributed(std::vector<MatcherInfo>& r) {
  r.push_back(mpi_entry({.name = "ld-mpi-sync-poll",
                         .summary = "locally dominant edges on MPI ranks: supersteps, polling the targets",
                         .reference = thorsen_merkey + ", sec. 5.1, Alg. 3",
                         .memory = {24, 24}},
                        ld_mpi_sync_poll));
  r.push_back(mpi_entry({.name = "ld-mpi-async-poll",
                         .summary = "locally dominant edges on MPI ranks: no barriers, polling the targets",
                         .reference = thorsen_merkey + ", sec. 5.2, Alg. 4",
                         .memory = {24, 24}},
                        ld_mpi_async_poll));
  r.push_back(mpi_entry({.name = "ld-mpi-sync-notify",
                         .summary = "locally dominant edges on MPI ranks: supersteps, notifications posted in bulk",
                         .reference = thorsen_merkey + ", sec. 5.3, Alg. 5",
                         .memory = {32, 24}},
                        ld_mpi_sync_notify));
  r.push_back(mpi_entry({.name = "ld-mpi-async-notify",
                         .summary = "locally dominant edges on MPI ranks: no barriers, notifications posted at once",
                         .reference = thorsen_merkey + ", sec. 5.4, Alg. 6",
                         .memory = {32, 24}},
                        ld_mpi_async_notify));
}

}  // namespace matchblas::registry_detail
