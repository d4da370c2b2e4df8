// graph_in_memory: a graph built in memory (a 200 x 200 grid with tied
// weights, CSR arrays) matched by suitor-gpu when this machine can run it,
// else by its CPU twin (the registry says which and why); both return the
// greedy matching, which this checks mate for mate.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <matchblas/matchblas.hpp>

int main() {
  namespace mb = matchblas::api;
  const int side = 200, n = side * side;
  std::vector<std::int64_t> ptr{0};
  std::vector<std::int64_t> col;
  std::vector<double> w;
  for (int u = 0; u < n; ++u) {
    const int r = u / side, c = u % side;
    for (int v : {u - side, u - 1, u + 1, u + side}) {
      if (v < 0 || v >= n || (v == u - 1 && c == 0) || (v == u + 1 && c == side - 1)) continue;
      col.push_back(v);
      w.push_back(double(1 + (r + c + (u < v ? u : v)) % 7));  // symmetric, many ties
    }
    ptr.push_back(static_cast<std::int64_t>(col.size()));
  }
  const mb::Graph g = mb::sparse_graph(mb::csr(n, n, ptr, col, w));

  std::string algo = "suitor-gpu";
  for (const mb::Algorithm& a : mb::algorithms())
    if (a.name == "suitor-gpu" && !a.available) {
      std::printf("suitor-gpu cannot run here (%s): running its CPU twin %s\n", a.unavailable.c_str(), a.twin.c_str());
      algo = a.twin;
    }
  try {
    const mb::MatchResult r = mb::match(g, algo);
    const mb::MatchResult greedy = mb::match(g, "greedy");
    if (r.mate != greedy.mate) {
      std::fprintf(stderr, "%s differs from greedy\n", algo.c_str());
      return 1;
    }
    std::printf("%s: weight %.10g, cardinality %lld, %.6f s (equal to greedy)\n", r.report.algo.c_str(),
                r.report.weight, static_cast<long long>(r.report.cardinality), r.report.seconds);
    return 0;
  } catch (const mb::error& e) {
    std::fprintf(stderr, "graph_in_memory: %s\n", e.what());
    return 1;
  }
}
