// Peak memory of every available CPU registry entry beyond its input,
// measured, against what the entry declares (MatcherInfo::memory: bytes per
// vertex and per edge). Each measurement is a child process (fork): it
// generates the input, returns freed memory to the system (malloc_trim),
// resets the peak resident set (/proc/self/clear_refs 5), runs the entry
// once and reads VmHWM; the entry's peak is VmHWM less the resident set
// before the run. Inputs: Erdos-Renyi general graphs (matching, b-matching
// with b = 2, and as square matrices for the bipartite family) at two edge
// factors and two sizes, complete graphs (complete-uniform) for the entries
// that take only those, easy marriage instances. Prints per entry and input
// the measured and the declared bytes and their ratio (declared / measured:
// above 1 the declaration is an upper bound).
//   bench_memory [--n N] [--complete-n N] [--threads T] [--only NAME]
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "matchers/registry.hpp"

using namespace matchblas;

namespace {

double status_kib(const char* key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::atof(line.c_str() + std::strlen(key));
  return -1;
}

// The entry's extra peak bytes on the input make() returns, in a child;
// also the input's vertices and edges. -1 when the child failed.
struct Measured {
  double bytes = -1, vertices = 0, edges = 0;
};

template <class Make, class Run>
Measured in_child(Make make, Run run) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Measured m;
    try {
      auto input = make(m);
      malloc_trim(0);
      std::ofstream("/proc/self/clear_refs") << "5";
      const double before = status_kib("VmRSS:");
      run(input);
      m.bytes = (status_kib("VmHWM:") - before) * 1024;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "  failed: %s\n", e.what());
    }
    if (write(fds[1], &m, sizeof m) != ssize_t(sizeof m)) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  Measured m;
  if (read(fds[0], &m, sizeof m) != ssize_t(sizeof m)) m = {};
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return m;
}

void report(const MatcherInfo& e, const std::string& input, const Measured& m) {
  const double declared = e.memory.per_vertex * m.vertices + e.memory.per_edge * m.edges;
  std::printf("%-22s %-26s %10.0f %12.0f %10.1f %10.1f %7.2f\n", e.name.c_str(), input.c_str(), m.vertices, m.edges,
              m.bytes / 1e6, declared / 1e6, m.bytes > 0 ? declared / m.bytes : 0.0);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  vertex_t n = 1 << 17, complete_n = 2000;
  int threads = 2;
  std::string only;
  const char* usage = "usage: bench_memory [--n N] [--complete-n N] [--threads T] [--only NAME]\n";
  if (bench::help(argc, argv, usage)) return 0;
  for (int i = 1; i < argc; i += 2) {
    const std::string o = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "bench_memory: %s needs a value\n%s", o.c_str(), usage);
      return 2;
    }
    if (o == "--n") n = vertex_t(std::atol(argv[i + 1]));
    else if (o == "--complete-n") complete_n = vertex_t(std::atol(argv[i + 1]));
    else if (o == "--threads") threads = std::atoi(argv[i + 1]);
    else if (o == "--only") only = argv[i + 1];
    else {
      std::fprintf(stderr, "bench_memory: unknown option %s\n%s", o.c_str(), usage);
      return 2;
    }
  }
  std::printf("%-22s %-26s %10s %12s %10s %10s %7s\n", "entry", "input", "vertices", "edges", "peak MB",
              "declared", "ratio");
  RunOptions opt;
  opt.threads = threads;
  for (const MatcherInfo& e : matchers()) {
    if (e.device != Device::cpu || e.unavailable || (!only.empty() && e.name != only)) continue;
    // The exact references are slow: smaller inputs.
    const vertex_t size = e.name == "exact" ? n / 16 : n;
    for (const auto& [scale, factor] : std::vector<std::pair<vertex_t, double>>{{1, 4}, {1, 16}, {2, 4}}) {
      const vertex_t nv = size * scale;
      GenOptions g;
      g.edge_factor = factor;
      const std::string er = "er n=" + std::to_string(nv) + " ef=" + std::to_string(int(factor));
      switch (e.problem) {
        case Problem::matching:
          if (e.accepts(general_graphs)) {
            report(e, er, in_child([&](Measured& m) {
              Csr<double> a = erdos_renyi<double>(nv, g);
              m.vertices = a.n_rows, m.edges = double(num_edges(a));
              return a;
            }, [&](const Csr<double>& a) { (void)run_matching(e, &a, opt); }));
          } else if (factor == 4) {  // complete graphs: two sizes
            const vertex_t c = complete_n * scale;
            report(e, "complete n=" + std::to_string(c), in_child([&](Measured& m) {
              Dense<double> d = complete_graph<double>(WeightDist::uniform, c, g);
              m.vertices = c, m.edges = double(c) * (c - 1) / 2;
              return d;
            }, [&](const Dense<double>& d) { (void)run_matching(e, &d, opt); }));
          }
          break;
        case Problem::b_matching:
          report(e, er + " b=2", in_child([&](Measured& m) {
            Csr<double> a = erdos_renyi<double>(nv, g);
            m.vertices = a.n_rows, m.edges = double(num_edges(a));
            return a;
          }, [&](const Csr<double>& a) { (void)run_b_matching(e, &a, std::vector<int>(a.n_rows, 2), opt); }));
          break;
        case Problem::bipartite:
          report(e, er + " matrix", in_child([&](Measured& m) {
            Csr<double> a = erdos_renyi<double>(nv, g);
            m.vertices = 2.0 * a.n_rows, m.edges = double(a.num_entries());
            return a;
          }, [&](const Csr<double>& a) { (void)run_prepass(e, a, opt); }));
          break;
        case Problem::marriage:
          report(e, "easy n=" + std::to_string(nv) + " eps=" + std::to_string(int(factor)), in_child([&](Measured& m) {
            const MarriageInstance inst = easy_marriage(nv, factor, 1);
            m.vertices = 2.0 * nv, m.edges = double(inst.men_lists.size() + inst.women_lists.size());
            return rank_lists(inst);
          }, [&](const RankedLists& p) { (void)run_marriage(e, p, opt); }));
          break;
        case Problem::community:
          report(e, er, in_child([&](Measured& m) {
            Csr<double> a = erdos_renyi<double>(nv, g);
            m.vertices = a.n_rows, m.edges = double(num_edges(a));
            return a;
          }, [&](const Csr<double>& a) { (void)run_community(e, a, opt); }));
          break;
      }
    }
  }
  return 0;
}
