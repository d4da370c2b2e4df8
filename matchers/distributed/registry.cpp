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

MatcherInfo mpi_entry(std::string name, std::string summary,
                      DistributedMatching (*f)(const DistGraph&, RemoteReads)) {
  MatcherInfo m;
  m.name = std::move(name);
  m.kinds = general_graphs | bipartite_graphs;
  m.device = Device::distributed;
  m.guarantee = "greedy";
  m.summary = std::move(summary);
  m.options.push_back({.name = "reads",
                       .type = OptionSpec::Type::word,
                       .fallback = "auto",
                       .words = {"auto", "gets", "loads"},
                       .lo = 0,
                       .hi = 0,
                       .help = "how other ranks' words are read: MPI_Get (gets), loads from a shared window when "
                               "every rank runs on one node (loads), or loads there and gets elsewhere (auto)"});
  m.run = DistributedRunner([f](const DistGraph& g, const RunOptions& o) {
    const std::string reads = o.options.specs() ? o.options.word("reads") : "auto";
    return f(g, reads == "gets" ? RemoteReads::gets : reads == "loads" ? RemoteReads::loads : RemoteReads::automatic);
  });
  if (!mpi::built()) m.unavailable = "needs MPI (libopenmpi-dev), absent from this build";
  return m;
}

}  // namespace

void add_distributed(std::vector<MatcherInfo>& r) {
  r.push_back(mpi_entry("ld-mpi-sync-poll", "locally dominant edges on MPI ranks: supersteps, polling the targets",
                        ld_mpi_sync_poll));
  r.push_back(mpi_entry("ld-mpi-async-poll", "locally dominant edges on MPI ranks: no barriers, polling the targets",
                        ld_mpi_async_poll));
  r.push_back(mpi_entry("ld-mpi-sync-notify",
                        "locally dominant edges on MPI ranks: supersteps, notifications posted in bulk",
                        ld_mpi_sync_notify));
  r.push_back(mpi_entry("ld-mpi-async-notify",
                        "locally dominant edges on MPI ranks: no barriers, notifications posted at once",
                        ld_mpi_async_notify));
  // Memory beyond the input, per rank and with one rank (the largest share):
  // the rows sorted in the greedy order (4 + 8 bytes per entry, 8 per
  // vertex), the words and pointers (4 + 8 per vertex), the notify queues
  // (3 x 4 bytes per cross entry, none with one rank). Not measured yet.
  set_memory(r, {{"ld-mpi-sync-poll", 24, 24},
                 {"ld-mpi-async-poll", 24, 24},
                 {"ld-mpi-sync-notify", 32, 24},
                 {"ld-mpi-async-notify", 32, 24}});
  using namespace references;
  cite(r, {{"ld-mpi-sync-poll", thorsen_merkey + ", sec. 5.1, Alg. 3"},
           {"ld-mpi-async-poll", thorsen_merkey + ", sec. 5.2, Alg. 4"},
           {"ld-mpi-sync-notify", thorsen_merkey + ", sec. 5.3, Alg. 5"},
           {"ld-mpi-async-notify", thorsen_merkey + ", sec. 5.4, Alg. 6"}});
}

}  // namespace matchblas::registry_detail
