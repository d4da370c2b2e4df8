// The distributed greedy matchers (ld-mpi-*) under mpirun, against the
// shared-memory peers in the same run. With --input pieces (the default)
// each rank reads its piece of a file or draws its share of an er/rmat graph
// (datasets/distributed/dist_read.hpp; grid and bipartite graphs, gzip files
// still come from rank 0); with --input root rank 0 generates (or reads)
// each graph and sends every rank its part (mpi::scatter_graph). The input
// line gives the time of that step (slowest rank), each rank's CPU time in
// it, and each rank's memory right after it: DistGraph::bytes and the peak
// resident set (getrusage). Each variant then runs --reps times between
// barriers, its time the slowest rank's, the median reported, with its
// rounds (the most of a rank) and its one-sided operations, bytes and
// notifications per rank (mean and most), each on a '#' progress line as
// soon as it is timed. Then rank 0 alone builds the whole graph, greedy's
// reference matching (--check greedy, the default: the gathered mates are
// compared with it) and times the peers (greedy on 1 thread; suitor-cas and
// ld-rounds on --threads, by default as many as ranks) while the other ranks
// wait in a non-blocking barrier, polling every millisecond; ratios are the
// variant's time over the peer's. The variants come first because rank 0's
// part is the long one on large graphs (greedy on R-MAT 2^24: about a
// minute): a run cut short by a time box keeps the variants' lines. Run it
// with mpirun's --bind-to none, so that rank 0's threads are not held to one
// core. --ceiling first measures what the ranks' memory allows together:
// every rank at once streams a 256 MiB array (sequential reads) and makes
// 2^25 independent random 4-byte reads in another (the access of a vertex's
// word or row start); the aggregate over the ranks against one rank's is
// the most a memory-bound sweep can gain from the ranks.
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "lib/mmio.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/registry.hpp"

using namespace matchblas;

namespace {

const char* const usage =
    "usage: bench_distributed [--graphs LIST] [--ties K] [--seed S] [--edge-factor F] [--reps R]\n"
    "                         [--algos LIST] [--peers LIST] [--threads T] [--input pieces|root]\n"
    "                         [--check greedy|none] [--partition blocks|spread] [--ceiling yes]\n"
    "Run it under mpirun: mpirun --bind-to none -np P bench_distributed ...\n"
    "  --graphs   comma-separated: grid:SIDE, bipartite:SIDE (K_SIDE,SIDE), rmat:SCALE, er:N, or a\n"
    "             Matrix Market file (general view) (default grid:256,bipartite:1024,rmat:18)\n"
    "  --ties K   weights from K values (0: continuous; default 0); --seed S (default 1);\n"
    "  --edge-factor F  rmat and er edges drawn per vertex (default 16)\n"
    "  --reps R   runs of each algorithm, the median reported (default 5)\n"
    "  --algos    the distributed entries, each with its options as NAME:OPT=VALUE (e.g.\n"
    "             ld-mpi-async-poll:reads=gets; default all four ld-mpi-*; 'none' for none)\n"
    "  --input    pieces: each rank reads or draws its own part (default); root: rank 0 reads or\n"
    "             generates the whole graph and sends the parts\n"
    "  --peers    shared-memory entries timed on rank 0 (default greedy,suitor-cas,ld-rounds; greedy on 1\n"
    "             thread, the others on --threads T, default the number of ranks; 'none' for none)\n"
    "  --check    greedy: rank 0 builds the whole graph and compares every variant's mates with\n"
    "             greedy's (default); none: no whole graph unless --peers asks for one (each variant\n"
    "             still checks its own matched pairs and that no vertex is left unresolved)\n"
    "  --partition  blocks: consecutive ids balanced by entries and vertices (default); spread: the\n"
    "             vertices renumbered pseudo-randomly, equal blocks (datasets/distributed/dist_graph.hpp)\n"
    "  --ceiling yes  first, every rank at once: sequential and random reads of its own memory\n"
    "             (GB/s and reads/s, per rank and summed; its 512 MiB per rank then count in the peak RSS)\n"
    "Lines starting with '#' report each step as it ends (rank 0): the variants first, then rank 0's\n"
    "whole graph, greedy's reference and the peers; the table lines follow.\n"
    "Prints one line per graph and algorithm: time, rounds, one-sided operations, bytes and\n"
    "notifications per rank (mean/max), whether the mates equal greedy's, ratios to the peers, and\n"
    "(more than one rank) the seconds each rank spent reading others' words and waiting (mean/max);\n"
    "and the input step (read or drawn, parts exchanged, rows sorted), which the times leave out, with\n"
    "each rank's CPU seconds in it, DistGraph bytes and peak resident set after it (mean/max over the ranks).\n";

// The memory ceiling of the ranks together (--ceiling): every rank at once
// reads a 256 MiB array in order (GB/s) and makes 2^25 random 4-byte reads
// of another, their indices from a counter hash, independent of each other
// (reads/s); rank 0 prints the mean per rank and the sum.
void memory_ceiling(int rank, int ranks) {
  const std::size_t words = std::size_t(32) << 20;  // 256 MiB of uint64
  std::vector<std::uint64_t> a(words, 1);
  std::vector<std::uint32_t> b(words * 2, 1);  // 256 MiB of uint32
  std::uint64_t sink = 0;
  double seq_best = 1e30, rnd_best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    mpi::barrier();
    auto t = std::chrono::steady_clock::now();
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < words; ++i) sum += a[i];
    seq_best = std::min(seq_best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    mpi::barrier();
    t = std::chrono::steady_clock::now();
    const std::uint64_t mask = b.size() - 1;
    for (std::uint64_t i = 0; i < (std::uint64_t(1) << 25); ++i) {
      std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
      x ^= x >> 29;
      sum += b[std::size_t(x & mask)];
    }
    rnd_best = std::min(rnd_best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    sink += sum;
  }
  const double seq = double(words * sizeof(std::uint64_t)) / seq_best / 1e9, rnd = double(1 << 25) / rnd_best / 1e6;
  const double seq_sum = mpi::sum_over_ranks(seq), rnd_sum = mpi::sum_over_ranks(rnd);
  if (rank == 0)
    std::printf("%-22s %5d %-20s sequential reads %.2f GB/s per rank (sum %.1f); random 4-byte reads %.1f M/s per "
                "rank (sum %.1f)%s\n",
                "memory ceiling", ranks, "every rank at once", seq_sum / ranks, seq_sum, rnd_sum / ranks, rnd_sum,
                sink == 1 ? " " : "");
  std::fflush(stdout);
}

// Rank 0's copy of a graph named by spec; empty on the other ranks.
Csr<double> make_graph(const std::string& spec, const GenOptions& o, int rank) {
  if (rank != 0) return {};
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  if (colon != std::string::npos && (kind == "grid" || kind == "bipartite" || kind == "rmat" || kind == "er")) {
    const long x = std::atol(spec.c_str() + colon + 1);
    if (kind == "grid") return grid2d<double>(vertex_t(x), o);
    if (kind == "bipartite") return complete_bipartite<double>(vertex_t(x), o);
    if (kind == "rmat") return rmat<double>(vertex_t(1) << x, o);
    return erdos_renyi<double>(vertex_t(x), o);
  }
  const LoadedGraph g = graph_in_view(read_matrix_market(spec), GraphView::general, Precision::float64);
  return std::get<Csr<double>>(g.graph);
}

// One variant's numbers, kept until the peers and the reference are done.
struct VariantRun {
  const MatcherInfo* m = nullptr;
  std::string label;  // the name as given, with its options
  double time = 0, ops = 0, bytes = 0, notes = 0;
  std::int64_t rounds = 0, ops_max = 0, bytes_max = 0;
  double read_s = 0, read_max = 0, wait_s = 0, wait_max = 0;  // per rank: reads of others' words, waits
  std::string violation;
  std::vector<vertex_t> mates;  // rank 0, with --check greedy
};

// A progress line from rank 0, at once (a run cut short keeps it).
void progress(int rank, const std::string& what) {
  if (rank != 0) return;
  std::printf("# %s\n", what.c_str());
  std::fflush(stdout);
}

// Peak resident set of this process so far, bytes.
double peak_rss() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) * 1024;
}

// CPU seconds (user + system) of this process so far.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// This rank's part of the graph named by spec, each rank reading or drawing
// its own (pieces) where dist_read.hpp can, else sent by rank 0.
// `times`: the read or draw and the exchanges apart (pieces only).
DistGraph load_part(const std::string& spec, const GenOptions& o, bool pieces, Partition partition, int rank,
                    mpi::ReadTimes& times) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  if (pieces && colon != std::string::npos && (kind == "rmat" || kind == "er")) {
    const long x = std::atol(spec.c_str() + colon + 1);
    return mpi::generate_graph(kind, kind == "rmat" ? vertex_t(1) << x : vertex_t(x), o, Precision::float64, &times,
                               partition);
  }
  if (pieces && (colon == std::string::npos || (kind != "grid" && kind != "bipartite"))) {
    mpi::LoadedPart in = mpi::load_graph(spec, GraphView::general, Precision::float64, {}, partition);
    times = in.times;
    return std::move(in.part);
  }
  const Csr<double> whole = make_graph(spec, o, rank);
  return mpi::scatter_graph(rank == 0 ? &whole : nullptr, partition);
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv, usage)) return 0;
  if (!mpi::built()) {
    std::printf("bench_distributed: skipped: this build has no MPI\n");
    return 0;
  }
  std::string graphs = "grid:256,bipartite:1024,rmat:18", algos, peers = "greedy,suitor-cas,ld-rounds";
  GenOptions gen;
  int reps = 5, threads = 0;
  bool pieces = true, check = true, ceiling = false;
  Partition partition = Partition::blocks;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--graphs") graphs = v;
    else if (k == "--ties") gen.ties = std::atoi(v.c_str());
    else if (k == "--seed") gen.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--edge-factor") gen.edge_factor = std::atof(v.c_str());
    else if (k == "--reps") reps = std::atoi(v.c_str());
    else if (k == "--algos") algos = v;
    else if (k == "--input" && (v == "pieces" || v == "root")) pieces = v == "pieces";
    else if (k == "--peers") peers = v == "none" ? "" : v;
    else if (k == "--check" && (v == "greedy" || v == "none")) check = v == "greedy";
    else if (k == "--threads") threads = std::atoi(v.c_str());
    else if (k == "--ceiling" && (v == "yes" || v == "no")) ceiling = v == "yes";
    else if (k == "--partition" && parse_partition(v)) partition = *parse_partition(v);
    else {
      std::fprintf(stderr, "bench_distributed: unknown option %s\n%s", k.c_str(), usage);
      return 2;
    }
  }
  mpi::Session session;
  const int rank = session.rank(), ranks = session.ranks();
  if (threads <= 0) threads = ranks;
  struct Variant {
    const MatcherInfo* m;
    std::string label;
    RunOptions options;
  };
  std::vector<Variant> variants;
  try {
    if (algos.empty()) {
      for (const MatcherInfo& m : matchers())
        if (m.device == Device::distributed) variants.push_back({&m, m.name, RunOptions{}});
    } else if (algos != "none") {
      for (const std::string& spec : bench::string_list(algos)) {
        const NamedWithOptions named = split_named_options(spec);
        const MatcherInfo& m = find_matcher(named.name);
        if (m.device != Device::distributed) throw invalid_input(named.name + " is not a distributed algorithm");
        RunOptions o;
        o.options = parse_options(m, named.given);
        variants.push_back({&m, spec, std::move(o)});
      }
    }
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "bench_distributed: --algos: %s\n", e.what());
    return 2;
  }
  if (rank == 0)
    std::printf("%-22s %5s %-20s %10s %7s %21s %21s %17s %5s %s\n", "graph", "ranks", "algorithm", "time_s", "rounds",
                "ops/rank mean/max", "bytes/rank mean/max", "notif/rank", "equal", "ratios");
  if (ceiling) memory_ceiling(rank, ranks);
  for (const std::string& spec : bench::string_list(graphs)) {
    mpi::barrier();
    const auto setup_start = std::chrono::steady_clock::now();
    mpi::ReadTimes times;
    const double cpu_start = cpu_seconds();
    const DistGraph part = load_part(spec, gen, pieces, partition, rank, times);
    const double cpu = cpu_seconds() - cpu_start;
    const double cpu_mean = mpi::sum_over_ranks(cpu) / ranks, cpu_max = mpi::max_over_ranks(cpu);
    const double setup_s = mpi::max_over_ranks(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count());
    const double part_bytes = double(part.bytes()), rss = peak_rss();
    const double bytes_mean = mpi::sum_over_ranks(part_bytes) / ranks, bytes_max = mpi::max_over_ranks(part_bytes);
    const double rss_mean = mpi::sum_over_ranks(rss) / ranks, rss_max = mpi::max_over_ranks(rss);
    const std::int64_t rows_max = mpi::max_over_ranks(std::int64_t(part.count())),
                       entries_max = mpi::max_over_ranks(std::int64_t(part.cols.size())),
                       cross_max = mpi::max_over_ranks(std::int64_t(part.cross_entries)),
                       ghosts_max = mpi::max_over_ranks(std::int64_t(part.ghosts.size()));
    if (rank == 0)
      std::printf("%-22s %5d %-20s %10.6f   (%s; CPU s/rank mean/max %.2f/%.2f; DistGraph MiB/rank mean/max "
                  "%.1f/%.1f, peak RSS MiB/rank mean/max %.1f/%.1f; %lld vertices, %lld edges; the most of a rank: "
                  "%lld vertices, %lld entries, %lld cross entries, %lld ghosts; partition %s)\n",
                  spec.c_str(), ranks, pieces ? "input: pieces" : "input: root", setup_s,
                  (pieces ? "each rank reads or draws its part: " + std::to_string(times.parse_s) + " s, exchanges " +
                                std::to_string(times.build_s) + " s (entries " + std::to_string(times.exchange_s) +
                                ", rows built " + std::to_string(times.rows_s) + ", rows to final owners " +
                                std::to_string(times.balance_s) + ")"
                          : std::string("rank 0 reads or generates, sends the parts")).c_str(),
                  cpu_mean, cpu_max,
                  bytes_mean / 1048576, bytes_max / 1048576, rss_mean / 1048576, rss_max / 1048576,
                  static_cast<long long>(part.n), static_cast<long long>(part.edges), static_cast<long long>(rows_max),
                  static_cast<long long>(entries_max), static_cast<long long>(cross_max),
                  static_cast<long long>(ghosts_max), partition_name(part.partition));
    std::fflush(stdout);
    if (variants.empty() && peers.empty()) continue;
    // The variants first, each reported on a progress line as soon as it
    // is timed: rank 0's whole graph, greedy's reference and the peers take
    // longer than the variants on large graphs (R-MAT 2^24: a minute per
    // greedy), and a boxed run cut short there used to show nothing of them.
    std::vector<VariantRun> runs;
    for (const Variant& variant : variants) {
      const MatcherInfo* m = variant.m;
      VariantRun v;
      v.m = m;
      v.label = variant.label;
      DistributedMatching r;
      std::vector<double> times;
      for (int rep = 0; rep < std::max(reps, 1); ++rep) {
        mpi::barrier();
        const auto start = std::chrono::steady_clock::now();
        r = run_distributed(*m, part, variant.options);
        times.push_back(
            mpi::max_over_ranks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
      }
      std::sort(times.begin(), times.end());
      v.time = times[times.size() / 2];
      if (check) v.mates = mpi::gather_mates(r, part.n);
      v.violation = mpi::first_failure(r.violation);
      v.rounds = mpi::max_over_ranks(r.stats.rounds);
      v.ops = double(mpi::sum_over_ranks(r.stats.remote_ops)) / ranks;
      v.ops_max = mpi::max_over_ranks(r.stats.remote_ops);
      v.bytes = double(mpi::sum_over_ranks(r.stats.remote_bytes)) / ranks;
      v.bytes_max = mpi::max_over_ranks(r.stats.remote_bytes);
      v.notes = double(mpi::sum_over_ranks(r.stats.notifications)) / ranks;
      v.read_s = mpi::sum_over_ranks(r.stats.read_seconds) / ranks;
      v.read_max = mpi::max_over_ranks(r.stats.read_seconds);
      v.wait_s = mpi::sum_over_ranks(r.stats.wait_seconds) / ranks;
      v.wait_max = mpi::max_over_ranks(r.stats.wait_seconds);
      progress(rank, spec + " " + v.label + ": " + std::to_string(v.time) + " s (slowest rank, median of " +
                         std::to_string(times.size()) + "), " + std::to_string(v.rounds) + " rounds" +
                         (v.violation.empty() ? "" : ", " + v.violation));
      runs.push_back(std::move(v));
    }
    // Rank 0 alone: the whole graph, greedy's mates, the peers; the other
    // ranks wait without spinning.
    Matching ref;
    std::vector<std::pair<std::string, double>> peer_times;
    if (rank == 0 && (check || !peers.empty())) {
      auto step = std::chrono::steady_clock::now();
      const auto lap = [&] {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - step).count();
        step = std::chrono::steady_clock::now();
        return std::to_string(s) + " s";
      };
      const Csr<double> whole = make_graph(spec, gen, rank);
      progress(rank, spec + ": rank 0 holds the whole graph (" + lap() + ")");
      if (check) {
        ref = greedy(whole, 1);
        progress(rank, spec + ": greedy's reference matching (" + lap() + ")");
      }
      for (const std::string& name : bench::string_list(peers)) {
        const MatcherInfo& m = find_matcher(name);
        RunOptions o;
        o.threads = m.threaded ? threads : 1;
        omp_set_num_threads(o.threads);
        run_matching(m, &whole, o);  // warm-up
        peer_times.emplace_back(name, bench::median_seconds(reps, [&] { run_matching(m, &whole, o); }));
        progress(rank, spec + " " + name + ": " + std::to_string(peer_times.back().second) + " s (rank 0; " + lap() +
                           " with its warm-up)");
      }
    }
    mpi::idle_barrier();
    if (rank == 0) {
      for (const VariantRun& v : runs) {
        const char* equal = !check ? "-" : v.violation.empty() && v.mates == ref.mate ? "yes" : "NO";
        std::string ratios;
        for (const auto& [name, pt] : peer_times) {
          char buf[128];
          std::snprintf(buf, sizeof buf, "%s/%s %.2f ", v.label.c_str() + 7, name.c_str(), v.time / pt);
          ratios += buf;
        }
        char opsbuf[48], bytesbuf[48];
        std::snprintf(opsbuf, sizeof opsbuf, "%.0f/%lld", v.ops, static_cast<long long>(v.ops_max));
        std::snprintf(bytesbuf, sizeof bytesbuf, "%.0f/%lld", v.bytes, static_cast<long long>(v.bytes_max));
        std::printf("%-22s %5d %-20s %10.6f %7lld %21s %21s %17.0f %5s %s\n", spec.c_str(), ranks, v.label.c_str(),
                    v.time, static_cast<long long>(v.rounds), opsbuf, bytesbuf, v.notes, equal, ratios.c_str());
        if (ranks > 1)
          std::printf("  (last run, s/rank mean/max: reading others' words %.3f/%.3f, waiting %.3f/%.3f)\n", v.read_s,
                      v.read_max, v.wait_s, v.wait_max);
        if (!v.violation.empty()) std::printf("  %s\n", v.violation.c_str());
      }
      for (const auto& [name, pt] : peer_times)
        std::printf("%-22s %5s %-20s %10.6f   (rank 0, %d thread%s)\n", spec.c_str(), "-", name.c_str(), pt,
                    find_matcher(name).threaded ? threads : 1, find_matcher(name).threaded && threads > 1 ? "s" : "");
    }
    std::fflush(stdout);
  }
  return 0;
}
