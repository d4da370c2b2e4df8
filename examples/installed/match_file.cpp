// match_file FILE [ALGO]: a maximum-weight matching heuristic on the graph
// of a Matrix Market file (default ALGO suitor), through the installed C++
// interface; prints the report and checks that the mates are symmetric.
#include <cstdio>
#include <string>

#include <matchblas/matchblas.hpp>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: match_file FILE [ALGO]\n");
    return 2;
  }
  namespace mb = matchblas::api;
  try {
    const mb::MatchResult r = mb::match(mb::file_graph(argv[1]), argc > 2 ? argv[2] : "suitor");
    for (std::size_t u = 0; u < r.mate.size(); ++u)
      if (r.mate[u] >= 0 && r.mate[static_cast<std::size_t>(r.mate[u])] != static_cast<std::int64_t>(u)) {
        std::fprintf(stderr, "mates are not symmetric at %zu\n", u);
        return 1;
      }
    std::printf("matchblas %s: %s on a %s graph of %lld vertices and %lld edges: weight %.10g, cardinality %lld, %.6f s\n",
                matchblas_version(), r.report.algo.c_str(), r.report.graph.c_str(),
                static_cast<long long>(r.report.vertices), static_cast<long long>(r.report.edges), r.report.weight,
                static_cast<long long>(r.report.cardinality), r.report.seconds);
    return 0;
  } catch (const mb::error& e) {
    std::fprintf(stderr, "match_file: %s\n", e.what());
    return 1;
  }
}
