// b-suitor-gpu over MPI ranks (b_suitor_gpu_ranks), a GPU each or several
// ranks sharing one: run it under mpirun --bind-to none -np P. Each rank
// draws its part of an R-MAT or ER graph (mpi::generate_graph: no rank holds
// the whole), then the run is timed --reps times between barriers (the
// slowest rank's time, the median reported: the degrees' gather, the
// weights made float keys, the uploads, the rounds and their exchanges, the
// result's download), checked over the ranks (check_b_matching_over_ranks:
// valid, its weight and edges), and its exchange reported per round, summed
// over the ranks: messages (pairs of ranks), proposals, drops and bytes,
// and the seconds each rank spent in the exchange (least and most).
// --device-memory caps each rank's GPU bytes (rows streamed beyond it).
// --gpus: the GPUs by rank on the node, as the CLI's --gpus (default: the
// node's GPUs in turn).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "datasets/generators.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "ops/gpu/device.hpp"

using namespace matchblas;

namespace {

const char* const usage =
    "usage: bench_b_suitor_ranks [--graph rmat:SCALE|er:N] [--b K] [--reps R] [--ties K] [--seed S]\n"
    "                            [--edge-factor F] [--device-memory BYTES] [--gpus IDS] [--transport auto|host]\n"
    "  run under MPI: mpirun --bind-to none -np P bench_b_suitor_ranks ...\n"
    "  --graph  rmat:SCALE (2^SCALE vertices) or er:N (default rmat:20); --edge-factor F edges drawn per\n"
    "           vertex (default 16); --ties K weights from K values (default 0: continuous); --seed S\n"
    "  --b K    b(v) = K for every vertex (default 5); --reps R runs, the median reported (default 3)\n"
    "  --device-memory BYTES  each rank's GPU bytes (0: its share of the free memory; default 0)\n"
    "  --gpus IDS  the GPUs by rank on the node (default: the node's GPUs in turn)\n"
    "  --transport auto: GPU to GPU (NCCL) where every rank has its own GPU and the build has NCCL;\n"
    "           host: through host memory always (default auto)\n";

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv, usage)) return 0;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it comes (a boxed run may be cut short)
  if (!mpi::built() || gpu::device_count() == 0) {
    std::printf("bench_b_suitor_ranks: skipped: %s\n", !mpi::built() ? "this build has no MPI" : "no GPU");
    return 0;
  }
  std::string graph = "rmat:20", gpus, transport = "auto";
  GenOptions gen;
  int b = 5, reps = 3;
  std::size_t device_memory = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--graph") graph = v;
    else if (k == "--b") b = std::atoi(v.c_str());
    else if (k == "--reps") reps = std::max(1, std::atoi(v.c_str()));
    else if (k == "--ties") gen.ties = std::atoi(v.c_str());
    else if (k == "--seed") gen.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--edge-factor") gen.edge_factor = std::atof(v.c_str());
    else if (k == "--device-memory") device_memory = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--gpus") gpus = v;
    else if (k == "--transport") transport = v;
    else {
      std::fprintf(stderr, "bench_b_suitor_ranks: unknown option %s\n%s", k.c_str(), usage);
      return 2;
    }
  }
  if (transport != "auto" && transport != "host") {
    std::fprintf(stderr, "bench_b_suitor_ranks: --transport auto or host, not '%s'\n", transport.c_str());
    return 2;
  }
  const std::size_t colon = graph.find(':');
  const std::string kind = graph.substr(0, colon);
  if (colon == std::string::npos || (kind != "rmat" && kind != "er")) {
    std::fprintf(stderr, "bench_b_suitor_ranks: --graph rmat:SCALE or er:N, not '%s'\n", graph.c_str());
    return 2;
  }
  const long long x = std::atoll(graph.c_str() + colon + 1);
  mpi::Session session;
  const int rank = session.rank(), ranks = session.ranks();
  const auto start = std::chrono::steady_clock::now();
  const DistGraph part =
      mpi::generate_graph(kind, kind == "rmat" ? vertex_t(1) << x : vertex_t(x), gen, Precision::float64);
  const double draw_s =
      mpi::max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  GpuOptions opt;
  opt.device_memory = device_memory;
  const int local = mpi::local_rank();
  if (gpus.empty()) {
    opt.device = local % gpu::device_count();
  } else {
    const std::vector<std::string> ids = bench::string_list(gpus);
    opt.device = std::atoi(ids[std::size_t(local) % ids.size()].c_str());
  }
  const std::vector<int> bv = constant_b(part.n, b);
  if (rank == 0)
    std::printf("%s: %lld vertices, %lld edges, b = %d, %d ranks, drawn in %.3f s (slowest rank)\n", graph.c_str(),
                static_cast<long long>(part.n), static_cast<long long>(part.edges), b, ranks, draw_s);
  std::vector<double> times;
  BMatching rows;
  PartsExchange ex;
  std::vector<GpuTimes> parts;  // each run's
  for (int rep = 0; rep < reps; ++rep) {
    mpi::barrier();
    const auto t = std::chrono::steady_clock::now();
    ex = PartsExchange{};
    ex.host_staged = transport == "host";
    GpuTimes t_rank;
    rows = b_suitor_gpu_ranks(part, bv, opt, &ex, &t_rank);
    parts.push_back(t_rank);
    times.push_back(mpi::max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count()));
    if (rank == 0) std::printf("# run %d: %.4f s\n", rep + 1, times.back());
  }
  // The median run's parts, each the slowest rank's (times are the same on
  // every rank, so every rank picks the same run).
  std::vector<std::size_t> order(times.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return times[x] < times[y]; });
  {
    const GpuTimes& m = parts[order[order.size() / 2]];
    std::vector<std::pair<std::string, double>> items = m.phases;
    items.insert(items.begin() + std::min<std::ptrdiff_t>(2, std::ptrdiff_t(items.size())), {"upload", m.upload_s});
    items.push_back({"download", m.download_s});
    std::string line;
    for (const auto& [name, s] : items) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s%s %.4f", line.empty() ? "" : ", ", name.c_str(), mpi::max_over_ranks(s));
      line += buf;
    }
    if (rank == 0) std::printf("parts of the median run (s, the slowest rank's each): %s\n", line.c_str());
  }
  std::sort(times.begin(), times.end());
  const BMatchingOverRanks checked = check_b_matching_over_ranks(part, bv, rows);
  // The exchange per round over all ranks (every rank has as many rounds).
  const std::size_t rounds = ex.rounds.size();
  if (rank == 0)
    std::printf("time %.4f s (median of %d; min %.4f), %zu rounds, %lld edges, weight %.10g, %s\n",
                times[times.size() / 2], reps, times.front(), rounds, static_cast<long long>(checked.edges),
                checked.weight, checked.violation.empty() ? "valid" : checked.violation.c_str());
  long long all_bytes = 0, all_messages = 0;
  double exchange_s = 0;  // this rank's, over the last run's rounds
  for (std::size_t r = 0; r < rounds; ++r) {
    const PartsRound& mine = ex.rounds[r];
    const long long messages = mpi::sum_over_ranks(std::int64_t(mine.messages)),
                    proposals = mpi::sum_over_ranks(std::int64_t(mine.proposals)),
                    drops = mpi::sum_over_ranks(std::int64_t(mine.drops)),
                    bytes = mpi::sum_over_ranks(std::int64_t(mine.bytes)),
                    most = mpi::max_over_ranks(std::int64_t(mine.bytes));
    all_bytes += bytes;
    all_messages += messages;
    exchange_s += mine.exchange_s;
    if (rank == 0 && (r < 8 || r + 1 == rounds))
      std::printf("  round %zu: %lld messages, %lld proposals, %lld drops, %lld bytes (most from one rank %lld)\n",
                  r + 1, messages, proposals, drops, bytes, most);
  }
  const double most_exchange_s = mpi::max_over_ranks(exchange_s), least_exchange_s = -mpi::max_over_ranks(-exchange_s);
  if (rank == 0)
    std::printf("exchange (%s): %lld bytes in %lld messages over %zu rounds (all ranks); the last run's exchange "
                "took %.4f-%.4f s a rank (waits for the others included)\n",
                ex.transport.c_str(), all_bytes, all_messages, rounds, least_exchange_s, most_exchange_s);
  return checked.violation.empty() ? 0 : 1;
}
