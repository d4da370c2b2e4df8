// The matching calls' C++ interface (include/matchblas/matching.hpp, over
// the C one): on seeded random matrices with tied weights, duplicates,
// diagonal entries and explicit zeros, given as CSR and CSC, 0- and 1-based,
// int32 and int64 indices, float, double and pattern values, every CPU
// algorithm that can run here returns the mate array the internal path gives
// (the same MmMatrix -> graph rules -> run_matcher the CLI runs), and its
// report agrees with the mates; a Matrix Market file, a dense buffer, the
// bipartite view, b-matchings (equal to b_greedy) and marriages (equal to
// Gale-Shapley's man-optimal matching) likewise; the registry listing equals
// the registry; every bad input is its named status.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "datasets/load.hpp"
#include "lib/mmio.hpp"
#include "matchblas/matching.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "matchers/registry.hpp"
#include "matchers/run_matcher.hpp"

namespace api = matchblas::api;
using matchblas::MmMatrix;
using matchblas::vertex_t;

namespace {

// A seeded random m x n coordinate matrix: ties (weights k/4, k in 1..4),
// a few negative values, explicit zeros, duplicates and diagonal entries.
MmMatrix random_matrix(std::uint64_t seed, vertex_t m, vertex_t n, double density) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  MmMatrix a;
  a.header.rows = m;
  a.header.cols = n;
  for (vertex_t i = 0; i < m; ++i)
    for (vertex_t j = 0; j < n; ++j)
      if (u(rng) < density) {
        const int copies = u(rng) < 0.05 ? 2 : 1;
        for (int c = 0; c < copies; ++c) {
          a.row.push_back(i);
          a.col.push_back(j);
          const double r = u(rng);
          a.val.push_back(r < 0.05 ? 0.0 : (r < 0.15 ? -1.0 : 1.0) * double(1 + int(4 * u(rng))) / 4);
        }
      }
  a.header.entries = std::int64_t(a.row.size());
  return a;
}

// The matrix in compressed arrays: CSR or CSC, base 0 or 1, Index and Value
// types; entries of a row (column) in file order.
template <class Index, class Value>
struct Compressed {
  std::vector<Index> ptr, ind;
  std::vector<Value> val;
  Compressed(const MmMatrix& a, bool csr, int base) {
    const vertex_t outer = csr ? a.header.rows : a.header.cols;
    ptr.assign(std::size_t(outer) + 1, 0);
    for (std::size_t k = 0; k < a.row.size(); ++k) ++ptr[std::size_t(csr ? a.row[k] : a.col[k]) + 1];
    for (vertex_t o = 0; o < outer; ++o) ptr[o + 1] += ptr[o];
    std::vector<Index> next(ptr.begin(), ptr.end() - 1);
    ind.resize(a.row.size());
    val.resize(a.row.size());
    for (std::size_t k = 0; k < a.row.size(); ++k) {
      const Index p = next[std::size_t(csr ? a.row[k] : a.col[k])]++;
      ind[std::size_t(p)] = Index((csr ? a.col[k] : a.row[k]) + base);
      val[std::size_t(p)] = Value(a.val.empty() ? 1.0 : a.val[k]);
    }
    for (Index& p : ptr) p += Index(base);
  }
  api::SparseView<Index, Value> view(const MmMatrix& a, bool csr, int base) const {
    auto v = api::csr(a.header.rows, a.header.cols, ptr, ind, val, base);
    if (!csr) v.layout = api::Layout::csc;
    return v;
  }
};

// What the internal path (the CLI's) gives for `algo` on a.
matchblas::MatchRun internal(const MmMatrix& a, const std::string& algo, matchblas::GraphView view,
                             matchblas::Precision precision = matchblas::Precision::float64,
                             std::map<std::string, std::string> options = {}) {
  const matchblas::MatcherInfo& m = matchblas::find_matcher(algo);
  const matchblas::LoadedGraph g = matchblas::graph_in_view(a, view, precision, {}, m.kinds);
  matchblas::RunOptions opt;
  opt.options = matchblas::parse_options(m, options, precision);
  opt.threads = 1;
  return matchblas::run_matcher(m, g.ref(), g.kind, opt);
}

void require_same(const api::MatchResult& r, const matchblas::MatchRun& expected) {
  REQUIRE(r.mate.size() == expected.matching.mate.size());
  for (std::size_t u = 0; u < r.mate.size(); ++u) {
    CAPTURE(u);
    REQUIRE(r.mate[u] == expected.matching.mate[u]);
  }
  CHECK(r.report.cardinality == expected.report.cardinality);
  CHECK(r.report.weight == doctest::Approx(expected.report.weight).epsilon(1e-12));
  std::int64_t matched = 0;
  for (std::size_t u = 0; u < r.mate.size(); ++u) {
    if (r.mate[u] < 0) continue;
    ++matched;
    REQUIRE(r.mate[std::size_t(r.mate[u])] == std::int64_t(u));
  }
  CHECK(matched == 2 * r.report.cardinality);
}

// The CPU matching algorithms that run here on sparse general graphs.
std::vector<std::string> sparse_cpu_algorithms() {
  std::vector<std::string> names;
  for (const matchblas::MatcherInfo& m : matchblas::matchers())
    if (m.problem == matchblas::Problem::matching && m.device == matchblas::Device::cpu &&
        m.accepts(matchblas::general_graphs) && !matchblas::unavailable_here(m))
      names.push_back(m.name);
  return names;
}

int status_of(auto&& call) {
  try {
    call();
  } catch (const api::error& e) {
    return e.status();
  }
  return MATCHBLAS_OK;
}

}  // namespace

TEST_CASE("match: every CPU algorithm on array input equals the internal path, for every storage") {
  const std::vector<std::string> algos = sparse_cpu_algorithms();
  REQUIRE(algos.size() >= 5);
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const vertex_t n = vertex_t(5 + 7 * seed);
    const MmMatrix a = random_matrix(seed, n, n, 0.25);
    const bool csr = seed % 2 == 0;
    const int base = seed % 3 == 0 ? 1 : 0;
    CAPTURE(seed);
    CAPTURE(csr);
    CAPTURE(base);
    const Compressed<std::int32_t, double> c32(a, csr, base);
    const Compressed<std::int64_t, double> c64(a, csr, base);
    for (const std::string& algo : algos) {
      CAPTURE(algo);
      if (algo == "exact" && n > 30) continue;
      api::Settings s;
      s.threads = 1;
      const auto expected = internal(a, algo, matchblas::GraphView::automatic);
      require_same(api::match(api::sparse_graph(c32.view(a, csr, base)), algo, s), expected);
      require_same(api::match(api::sparse_graph(c64.view(a, csr, base)), algo, s), expected);
    }
  }
}

TEST_CASE("match: float values and single precision, pattern weights, the bipartite view") {
  const MmMatrix a = random_matrix(11, 20, 20, 0.3);
  const Compressed<std::int32_t, float> cf(a, true, 0);
  api::Settings s;
  s.threads = 1;
  require_same(api::match(api::sparse_graph(cf.view(a, true, 0), api::View::automatic, true), "suitor", s),
               internal(a, "suitor", matchblas::GraphView::automatic, matchblas::Precision::float32));

  MmMatrix pattern = a;
  pattern.val.clear();
  pattern.header.field = matchblas::MmField::pattern;
  const Compressed<std::int64_t, double> cp(pattern, false, 1);
  const auto pv = cp.view(pattern, false, 1);
  const api::SparseView<std::int64_t, api::Pattern> view{pv.rows, pv.cols, pv.layout, pv.base, pv.pointers, pv.indices, {}};
  require_same(api::match(api::sparse_graph(view), "greedy", s), internal(pattern, "greedy", matchblas::GraphView::automatic));

  const MmMatrix rect = random_matrix(12, 9, 15, 0.3);
  const Compressed<std::int32_t, double> cr(rect, true, 0);
  const api::MatchResult r = api::match(api::sparse_graph(cr.view(rect, true, 0)), "suitor", s);
  CHECK(r.report.graph == "bipartite");
  CHECK(r.report.bipartite_rows == 9);
  CHECK(r.report.vertices == 24);
  require_same(r, internal(rect, "suitor", matchblas::GraphView::automatic));
  for (std::size_t u = 0; u < 9; ++u) CHECK((r.mate[u] < 0 || r.mate[u] >= 9));
}

TEST_CASE("match: options by name, the report's phases, device twins") {
  const MmMatrix a = random_matrix(21, 40, 40, 0.2);
  const Compressed<std::int32_t, double> c(a, true, 0);
  api::Settings s;
  s.threads = 1;
  s.options = {{"phases", "3"}, {"start", "gpa"}};
  const api::MatchResult r = api::match(api::sparse_graph(c.view(a, true, 0)), "roma-sparse", s);
  require_same(r, internal(a, "roma-sparse", matchblas::GraphView::automatic, matchblas::Precision::float64,
                           {{"phases", "3"}, {"start", "gpa"}}));
  CHECK(r.report.phases >= 1);
  CHECK(r.report.phases <= 3);
  CHECK(r.report.algo == "roma-sparse");

  api::Settings cpu;
  cpu.device = api::Device::cpu;
  cpu.threads = 1;
  const api::MatchResult t = api::match(api::sparse_graph(c.view(a, true, 0)), "suitor-gpu", cpu);
  CHECK(t.report.algo == "suitor");
  require_same(t, internal(a, "suitor", matchblas::GraphView::automatic));
}

TEST_CASE("match: a Matrix Market file and a dense buffer") {
  const MmMatrix a = random_matrix(31, 25, 25, 0.3);
  char path[] = "/tmp/matchblas_api_XXXXXX.mtx";
  const int fd = mkstemps(path, 4);
  REQUIRE(fd >= 0);
  close(fd);
  matchblas::write_matrix_market(path, a);
  api::Settings s;
  s.threads = 1;
  require_same(api::match(api::file_graph(path), "suitor", s), internal(a, "suitor", matchblas::GraphView::automatic));
  std::remove(path);
  const int missing = status_of([&] { api::match(api::file_graph(path), "suitor"); });
  CHECK(missing == MATCHBLAS_ERR_BAD_FILE);

  const vertex_t n = 12;
  std::vector<double> dense(std::size_t(n * n));
  std::mt19937_64 rng(5);
  for (double& x : dense) x = double(1 + rng() % 5);
  MmMatrix d;
  d.header.format = matchblas::MmFormat::array;
  d.header.rows = d.header.cols = n;
  d.header.entries = n * n;
  d.val = dense;
  for (const char* algo : {"roma", "rama", "greedy"}) {
    CAPTURE(algo);
    require_same(api::match(api::dense_graph(n, std::span<const double>(dense)), algo, s),
                 internal(d, algo, matchblas::GraphView::complete));
  }
  CHECK(status_of([&] { api::match(api::dense_graph(n, std::span<const double>(dense).first(10)), "roma"); }) ==
        MATCHBLAS_ERR_BAD_DIMENSION);
}

TEST_CASE("b_match equals b-greedy; marry equals the man-optimal matching") {
  const MmMatrix a = random_matrix(41, 30, 30, 0.3);
  const Compressed<std::int32_t, double> c(a, true, 0);
  const auto g = matchblas::graph_in_view(a, matchblas::GraphView::automatic, matchblas::Precision::float64);
  const auto& csr = std::get<matchblas::Csr<double>>(g.graph);
  std::vector<std::int64_t> b(30);
  std::vector<int> bi(30);
  for (int v = 0; v < 30; ++v) bi[v] = int(b[v] = 1 + v % 3);
  const matchblas::BMatching expected = matchblas::b_greedy(csr, bi);
  for (const matchblas::MatcherInfo& m : matchblas::matchers()) {
    if (m.problem != matchblas::Problem::b_matching || matchblas::unavailable_here(m)) continue;
    CAPTURE(m.name);
    const api::BMatchResult r = api::b_match(api::sparse_graph(c.view(a, true, 0)), m.name, b);
    REQUIRE(r.offsets.size() == expected.offsets.size());
    CHECK(std::equal(r.offsets.begin(), r.offsets.end(), expected.offsets.begin()));
    CHECK(std::equal(r.partners.begin(), r.partners.end(), expected.partners.begin()));
    CHECK(r.report.weight == doctest::Approx(matchblas::b_matching_weight(csr, expected)));
    CHECK(r.report.cardinality == expected.num_edges());
  }
  const api::BMatchResult one = api::b_match(api::sparse_graph(c.view(a, true, 0)), "b-greedy", std::int64_t(1));
  const matchblas::BMatching greedy1 = matchblas::b_greedy(csr, std::vector<int>(30, 1));
  CHECK(one.report.cardinality == greedy1.num_edges());
  const std::vector<std::int64_t> short_b(7, 1), negative_b(30, -1);
  CHECK(status_of([&] { api::b_match(api::sparse_graph(c.view(a, true, 0)), "b-greedy", short_b); }) ==
        MATCHBLAS_ERR_BAD_DIMENSION);
  CHECK(status_of([&] { api::b_match(api::sparse_graph(c.view(a, true, 0)), "b-greedy", negative_b); }) ==
        MATCHBLAS_ERR_BAD_VALUE);
  CHECK(status_of([&] { api::b_match(api::sparse_graph(c.view(a, true, 0)), "suitor", std::int64_t(1)); }) ==
        MATCHBLAS_ERR_UNKNOWN_ALGORITHM);

  // Marriage: 3 men, 3 women.
  api::Preferences p{{{0, 1, 2}, {1, 0}, {0}}, {{1, 0, 2}, {0, 1}, {0}}};
  matchblas::MarriageInstance inst;
  inst.men = inst.women = 3;
  inst.men_offsets = {0, 3, 5, 6};
  inst.men_lists = {0, 1, 2, 1, 0, 0};
  inst.women_offsets = {0, 3, 5, 6};
  inst.women_lists = {1, 0, 2, 0, 1, 0};
  const matchblas::Marriage expected_m = matchblas::gale_shapley(matchblas::rank_lists(inst));
  for (const matchblas::MatcherInfo& m : matchblas::matchers()) {
    if (m.problem != matchblas::Problem::marriage || matchblas::unavailable_here(m)) continue;
    CAPTURE(m.name);
    const api::MarriageResult r = api::marry(p, m.name);
    for (int x = 0; x < 3; ++x) CHECK(r.wife[x] == expected_m.wife[x]);
    for (int y = 0; y < 3; ++y) CHECK(r.husband[y] == expected_m.husband[y]);
  }
  api::Preferences bad{{{1, 5}}, {{0}, {0}}};
  CHECK(status_of([&] { api::marry(bad, "gale-shapley"); }) == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
  api::Preferences twice{{{0, 0}}, {{0}, {0}}};
  CHECK(status_of([&] { api::marry(twice, "gale-shapley"); }) == MATCHBLAS_ERR_BAD_INPUT);
  // More entries than a list can hold (one woman): the offsets are refused before the lists are read.
  api::Preferences long_list{{{0, 0}}, {{0}}};
  CHECK(status_of([&] { api::marry(long_list, "gale-shapley"); }) == MATCHBLAS_ERR_BAD_POINTERS);
}

TEST_CASE("algorithms(): the registry, with availability and options") {
  const std::vector<api::Algorithm> list = api::algorithms();
  REQUIRE(list.size() == matchblas::matchers().size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const matchblas::MatcherInfo& m = matchblas::matchers()[i];
    CAPTURE(m.name);
    CHECK(list[i].name == m.name);
    CHECK(list[i].problem == matchblas::to_string(m.problem));
    CHECK(list[i].guarantee == m.guarantee);
    CHECK(list[i].available == !matchblas::unavailable_here(m));
    CHECK(list[i].available == list[i].unavailable.empty());
    REQUIRE(list[i].options.size() == m.options.size());
    for (std::size_t k = 0; k < m.options.size(); ++k) {
      CHECK(list[i].options[k].name == m.options[k].name);
      CHECK(list[i].options[k].default_value == m.options[k].fallback);
      CHECK(list[i].options[k].words == m.options[k].words);
    }
  }
}

TEST_CASE("match: every bad input is its named status, with a message") {
  const MmMatrix a = random_matrix(51, 10, 10, 0.3);
  Compressed<std::int32_t, double> c(a, true, 0);
  const auto graph = [&] { return api::sparse_graph(c.view(a, true, 0)); };
  CHECK(status_of([&] { api::match(graph(), "no-such-matcher"); }) == MATCHBLAS_ERR_UNKNOWN_ALGORITHM);
  CHECK(status_of([&] { api::match(graph(), "suitor", {.options = {{"phases", "3"}}}); }) == MATCHBLAS_ERR_BAD_OPTION);
  CHECK(status_of([&] { api::match(graph(), "roma-sparse", {.options = {{"phases", "many"}}}); }) ==
        MATCHBLAS_ERR_BAD_OPTION);
  api::Settings negative;
  negative.threads = -1;
  CHECK(status_of([&] { api::match(graph(), "suitor", negative); }) == MATCHBLAS_ERR_BAD_OPTION);
  CHECK(status_of([&] { api::match(graph(), "roma"); }) == MATCHBLAS_ERR_BAD_INPUT);  // complete graphs only
  CHECK(status_of([&] { api::match(api::sparse_graph(c.view(a, true, 0), api::View::complete), "suitor"); }) ==
        MATCHBLAS_ERR_BAD_INPUT);  // sparse graphs only
  CHECK(status_of([&] { api::match(api::sparse_graph(c.view(a, true, 0), api::View::complete), "greedy"); }) ==
        MATCHBLAS_OK);
  const MmMatrix rect = random_matrix(52, 4, 6, 0.5);
  Compressed<std::int32_t, double> cr(rect, true, 0);
  CHECK(status_of([&] { api::match(api::sparse_graph(cr.view(rect, true, 0), api::View::general), "suitor"); }) ==
        MATCHBLAS_ERR_BAD_DIMENSION);
  if (!c.val.empty()) {
    c.val[0] = std::nan("");
    CHECK(status_of([&] { api::match(graph(), "suitor"); }) == MATCHBLAS_ERR_BAD_VALUE);
    c.val[0] = 1;
  }
  if (!c.ind.empty()) {
    c.ind[0] = 99;
    try {
      api::match(graph(), "suitor");
      FAIL("no error");
    } catch (const api::error& e) {
      CHECK(e.status() == MATCHBLAS_ERR_INDEX_OUT_OF_RANGE);
      CHECK(std::string(e.what()).find("99") != std::string::npos);
    }
    c.ind[0] = 0;
  }
  // A GPU algorithm without a GPU (this suite's machines) is unavailable.
  const matchblas::MatcherInfo& gpu = matchblas::find_matcher("suitor-gpu");
  if (matchblas::unavailable_here(gpu))
    CHECK(status_of([&] { api::match(graph(), "suitor-gpu"); }) == MATCHBLAS_ERR_UNAVAILABLE);

  // Straight through C: NULL arguments, an unknown view, a stored enum out of range.
  matchblas_matching m{};
  matchblas_match_report r{};
  CHECK(matchblas_match(nullptr, "suitor", nullptr, &m, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(std::string(r.message).find("NULL") != std::string::npos);
  api::Graph g = graph();
  CHECK(matchblas_match(&g.c, nullptr, nullptr, &m, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(matchblas_match(&g.c, "suitor", nullptr, nullptr, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  int bad = 7;
  std::memcpy(&g.c.view, &bad, sizeof bad);
  CHECK(matchblas_match(&g.c, "suitor", nullptr, &m, &r) == MATCHBLAS_ERR_BAD_FORMAT);
  CHECK(m.mate == nullptr);
  matchblas_option twice[] = {{"phases", "2"}, {"phases", "3"}};
  matchblas_run_settings s;
  matchblas_default_run_settings(&s);
  s.options = twice;
  s.n_options = 2;
  g = graph();
  CHECK(matchblas_match(&g.c, "roma-sparse", &s, &m, &r) == MATCHBLAS_ERR_BAD_OPTION);
  CHECK(std::string(r.message).find("twice") != std::string::npos);
}
