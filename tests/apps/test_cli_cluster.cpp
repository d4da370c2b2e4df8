// `matchblas cluster`, community detection on a Matrix Market file, run as a
// separate process: its labels equal the library's louvain on the same
// graph, --json's modularity and levels, --levels-out's hierarchy composing
// to the levels' communities, and its errors (a negative weight, a
// rectangular matrix, a bad option: one line, a non-zero status, no output
// file).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/community/louvain.hpp"
#include "ops/modularity.hpp"
#include "tests/apps/cli_text.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;
using check::run_cli;
using check::shell_quoted;

namespace {

// Two 5-cliques joined by one edge, and a pendant vertex on the second,
// weights 1..3 (symmetric file: the lower triangle).
std::string cliques_file() {
  std::ostringstream s;
  s << "%%MatrixMarket matrix coordinate integer symmetric\n11 11 22\n";
  for (int base : {0, 5})
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < i; ++j) s << base + i + 1 << ' ' << base + j + 1 << ' ' << 1 + (i + j) % 3 << '\n';
  s << "6 5 1\n11 10 2\n";
  return s.str();
}

std::vector<long> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<long> out;
  for (long x; in >> x;) out.push_back(x);
  return out;
}

}  // namespace

TEST_CASE("cluster: labels equal to the library's louvain, JSON, the hierarchy") {
  check::temp_dir dir;
  const auto file = dir / "cliques.mtx";
  std::ofstream(file) << cliques_file();
  const Csr<double> g = community_graph(read_matrix_market(file.string()));
  const Communities want = louvain(g);
  REQUIRE(want.communities == 2);
  auto r = run_cli(dir, "cluster " + shell_quoted(file) + " --algo louvain --out " + shell_quoted(dir / "labels.txt") +
                            " --levels-out " + shell_quoted(dir / "levels.txt"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("modularity") != std::string::npos);
  const std::vector<long> labels = numbers(check::slurp(dir / "labels.txt"));
  REQUIRE(labels.size() == 11);
  for (std::size_t u = 0; u < labels.size(); ++u) CHECK(labels[u] == want.label[u]);
  // The hierarchy: 'LEVEL VERTEX COMMUNITY'; composing the levels gives the
  // last level's communities (before the final refinement).
  const std::vector<long> h = numbers(check::slurp(dir / "levels.txt"));
  REQUIRE(h.size() % 3 == 0);
  std::vector<std::vector<long>> levels;
  for (std::size_t i = 0; i < h.size(); i += 3) {
    if (std::size_t(h[i]) == levels.size()) levels.emplace_back();
    REQUIRE(std::size_t(h[i]) + 1 == levels.size());
    CHECK(std::size_t(h[i + 1]) == levels.back().size());
    levels.back().push_back(h[i + 2]);
  }
  REQUIRE(levels.size() == want.hierarchy.size());
  CHECK(levels[0].size() == 11);
  r = run_cli(dir, "cluster " + shell_quoted(file) + " --algo louvain-omp --threads 2 --json --resolution 1.5");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"command\": \"cluster\"") != std::string::npos);
  CHECK(r.out.find("\"levels\": [{\"vertices\": 11") != std::string::npos);
  CHECK(r.out.find("\"resolution\": 1.5") != std::string::npos);
  for (const std::string& x : check::json_numbers(r.out)) CHECK(check::is_shortest_decimal(x));
  LouvainOptions o;
  o.resolution = 1.5;
  const Communities omp = louvain_omp(g, o);
  CHECK(r.out.find("\"communities\": " + std::to_string(omp.communities) + ", \"levels\"") != std::string::npos);
}

TEST_CASE("cluster: bad input is one line, status 1 or 2, no output file") {
  check::temp_dir dir;
  const auto neg = dir / "neg.mtx", rect = dir / "rect.mtx";
  std::ofstream(neg) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2\n3 1 -0.5\n";
  std::ofstream(rect) << "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 2 2\n";
  const auto out = dir / "labels.txt";
  auto r = run_cli(dir, "cluster " + shell_quoted(neg) + " --algo louvain --out " + shell_quoted(out));
  CHECK(r.status == 1);
  CHECK(r.err.find("entry (3, 1) is -0.5") != std::string::npos);
  CHECK(check::line_count(r.err) == 1);
  CHECK(!std::filesystem::exists(out));
  r = run_cli(dir, "cluster " + shell_quoted(rect) + " --algo louvain --out " + shell_quoted(out));
  CHECK(r.status == 1);
  CHECK(r.err.find("square") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  r = run_cli(dir, "cluster " + shell_quoted(rect) + " --algo louvain --resolution -1");
  CHECK(r.status == 2);
  r = run_cli(dir, "cluster " + shell_quoted(rect) + " --algo suitor");
  CHECK(r.status == 2);
  r = run_cli(dir, "cluster " + shell_quoted(rect) + " --algo louvian");
  CHECK(r.status == 2);
  CHECK(r.err.find("louvain") != std::string::npos);  // did you mean
}
