// The GPU b-matchers, b-suitor-gpu (matchers/b_matching/b_suitor_gpu.cu) and
// b-ld-gpu (matchers/b_matching/b_ld_gpu.cu), each: a valid
// b-matching equal to b_greedy's edge set, edge for edge, with float and
// double weights, on every test graph (random tie-heavy graphs, the
// generated families, the real matrices) for constant b (1, 2, 3, 5, and
// 1000, above every degree) and per-vertex b with zeros; repeated 10 times
// on tie-heavy R-MAT (rows of every group size, hubs included) and
// Erdos-Renyi graphs, where races would show as flakiness; with b = 1
// greedy's matching (b-suitor-gpu: suitor-gpu runs then), and b = 1 but
// for one vertex (b-suitor-gpu's rounds, nearly every vertex keeping its
// one offer in its floor word); on a graph of over 2^20 entries with hubs
// of over 1024 entries; negative weights and rows of -inf only; complete
// graphs with b above every degree (64 and 65 partners); hubs that every
// vertex proposes to at once, with caps 1 to 40 and three weights (the
// lock-free sorted insertion under its heaviest contention); the
// DeviceGraph overload and GpuTimes; bad b, shapes and GPU ids refused with
// invalid_input. b-suitor-gpu runs with each first-round placement (atomic,
// the default, and sorted), and the sorted one asked for where it cannot
// run is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/general/suitor.hpp"
#include "tests/check/check.hpp"
#include "tests/check/families.hpp"

using namespace matchblas;

namespace {

// The first vertex whose partners differ, for the failure message.
std::string first_difference(const BMatching& got, const BMatching& want) {
  if (got.n() != want.n()) return "orders differ";
  for (vertex_t v = 0; v < got.n(); ++v) {
    const std::vector<vertex_t> a(got.partners.begin() + got.offsets[v], got.partners.begin() + got.offsets[v + 1]);
    const std::vector<vertex_t> b(want.partners.begin() + want.offsets[v], want.partners.begin() + want.offsets[v + 1]);
    if (a != b) {
      std::string out = "vertex ";  // appended piece by piece (GCC 12 warns, wrongly, on " " + std::string&&)
      out += std::to_string(v);
      out += ": got";
      for (vertex_t x : a) {
        out += ' ';
        out += std::to_string(x);
      }
      out += ", b_greedy";
      for (vertex_t x : b) {
        out += ' ';
        out += std::to_string(x);
      }
      return out;
    }
  }
  return "";
}

// The GPU b-matchers under test, by index: 0 b-suitor-gpu (its default,
// atomic first round), 1 b-ld-gpu, 2 b-suitor-gpu with the sorted first
// round where it runs (float weights, no device-memory limit; else atomic).
constexpr int algorithms = 3;
const char* const algorithm_names[algorithms] = {"b-suitor-gpu", "b-ld-gpu", "b-suitor-gpu --placement sorted"};
template <class W>
BSuitorGpuOptions suitor_options(int algorithm, const GpuOptions& opt) {
  const bool sorted = algorithm == 2 && std::is_same_v<W, float> && opt.device_memory == 0;
  return BSuitorGpuOptions(opt, sorted ? BSuitorPlacement::sorted : BSuitorPlacement::atomic);
}
template <class W>
BMatching run_gpu(int algorithm, const Csr<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                  GpuTimes* times = nullptr) {
  return algorithm == 1 ? b_ld_gpu(g, b, opt, times) : b_suitor_gpu(g, b, suitor_options<W>(algorithm, opt), times);
}
template <class W>
BMatching run_gpu(int algorithm, const DeviceGraph<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                  GpuTimes* times = nullptr) {
  return algorithm == 1 ? b_ld_gpu(g, b, opt, times) : b_suitor_gpu(g, b, suitor_options<W>(algorithm, opt), times);
}

// Each GPU b-matcher on (g, b) `repeats` times: each a valid b-matching
// equal to ref.
template <class W>
void require_b_greedy(const Csr<W>& g, const std::vector<int>& b, const BMatching& ref, int repeats = 1) {
  for (int a = 0; a < algorithms; ++a)
    for (int r = 0; r < repeats; ++r) {
      CAPTURE(algorithm_names[a]);
      CAPTURE(r);
      const BMatching got = run_gpu(a, g, b);
      INFO(b_matching_violation(g, b, got));
      REQUIRE(b_matching_violation(g, b, got).empty());
      INFO(first_difference(got, ref));
      REQUIRE(got == ref);
    }
}

template <class W>
void require_b_greedy(const Csr<W>& g, const std::vector<int>& b, int repeats = 1) {
  require_b_greedy(g, b, b_greedy(g, b), repeats);
}

// b = 1 everywhere but vertex 0 (b = 2): not plain matching, so the
// b-Suitor rounds run, nearly every vertex keeping one offer in its floor word.
std::vector<int> nearly_ones(vertex_t n) {
  std::vector<int> b(static_cast<std::size_t>(n), 1);
  if (n > 0) b[0] = 2;
  return b;
}

}  // namespace

TEST_CASE("b-suitor-gpu and b-ld-gpu equal b_greedy on every test graph, constant and per-vertex b, double and float") {
  check::FamilyOptions opt;
  opt.random_graphs = 200;
  check::for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        const Csr<float> f = check::with_weights<float>(g);
        for (int b : {1, 2, 3, 5, 1000}) {
          CAPTURE(b);
          require_b_greedy(g, constant_b(g.n_rows, b));
          require_b_greedy(f, constant_b(f.n_rows, b));
        }
        const std::vector<int> b = check::random_b(g.n_rows, std::hash<std::string>{}(name));
        require_b_greedy(g, b);
        require_b_greedy(f, b);
      },
      opt);
}

TEST_CASE("b-suitor-gpu and b-ld-gpu equal b_greedy 10 times in a row on tie-heavy R-MAT and Erdos-Renyi graphs") {
  for (int ties : {2, 5}) {
    GenOptions gen;
    gen.seed = 61 + ties;
    gen.ties = ties;
    gen.edge_factor = 8;
    const Csr<double> r = rmat<double>(1 << 14, gen);
    const Csr<double> e = erdos_renyi<double>(10000, gen);
    // R-MAT has rows of every group size: <= 32 (4 lanes), <= 1024 (a warp)
    // and hubs (a block).
    REQUIRE(check::max_degree(r) > 1024);
    for (const Csr<double>* g : {&r, &e}) {
      const Csr<float> f = check::with_weights<float>(*g);
      std::vector<std::vector<int>> bs;
      for (int b : {1, 2, 3, 5}) bs.push_back(constant_b(g->n_rows, b));
      bs.push_back(check::random_b(g->n_rows, 7 + ties));
      bs.push_back(nearly_ones(g->n_rows));
      for (std::size_t i = 0; i < bs.size(); ++i) {
        CAPTURE(ties);
        CAPTURE(g == &r ? "rmat 2^14" : "er 10000");
        CAPTURE(i);  // b = 1, 2, 3, 5, then per-vertex 0..4, then nearly_ones
        require_b_greedy(*g, bs[i], 10);
        require_b_greedy(f, bs[i], 10);
      }
    }
  }
}

TEST_CASE("b-suitor-gpu on a graph of over 2^20 entries with hubs equals b_greedy, repeated, and so does b-ld-gpu") {
  GenOptions gen;
  gen.seed = 17;
  gen.ties = 3;
  gen.edge_factor = 10;
  const Csr<double> g = rmat<double>(1 << 16, gen);
  REQUIRE(g.num_entries() >= (offset_t(1) << 20));
  REQUIRE(check::max_degree(g) > 1024);
  const Csr<float> f = check::with_weights<float>(g);
  std::vector<std::vector<int>> bs;
  for (int b : {1, 2, 5}) bs.push_back(constant_b(g.n_rows, b));
  bs.push_back(check::random_b(g.n_rows, 23));
  bs.push_back(nearly_ones(g.n_rows));
  for (std::size_t i = 0; i < bs.size(); ++i) {
    CAPTURE(i);  // b = 1, 2, 5, per-vertex 0..4, nearly_ones
    require_b_greedy(g, bs[i], 3);
    require_b_greedy(f, bs[i], 3);
  }
  GpuTimes t;
  b_suitor_gpu(f, bs[1], {}, &t);
  REQUIRE(t.phases.size() == 4);
  CHECK(t.phases[1].first == "first round");
  b_suitor_gpu(f, bs[1], BSuitorGpuOptions({}, BSuitorPlacement::sorted), &t);
  CHECK(t.phases[1].first.rfind("first round (sorted placement ", 0) == 0);
}

TEST_CASE("b-suitor-gpu on double weights that are all floats exactly runs on float keys, with b_greedy's edges") {
  GenOptions gen;
  gen.seed = 31;
  gen.ties = 0;
  gen.edge_factor = 8;
  Csr<double> g = rmat<double>(1 << 14, gen);
  REQUIRE(check::max_degree(g) > 1024);
  const auto float_keys = [](const GpuTimes& t) {
    return std::any_of(t.phases.begin(), t.phases.end(),
                       [](const auto& p) { return p.first.find("as float keys") != std::string::npos; });
  };
  // Random weights in (0, 1) are not floats: keys that search the row.
  for (const double w : g.weights) REQUIRE(double(float(w)) != w);
  const std::vector<int> b3 = constant_b(g.n_rows, 3), bv = check::random_b(g.n_rows, 9);
  GpuTimes t;
  REQUIRE(b_suitor_gpu(g, b3, {}, &t) == b_greedy(g, b3));
  CHECK(!float_keys(t));
  // Integer weights 0..7 (many ties), then one weight just above 2^24
  // (a double, not a float): float keys only for the first.
  for (double& w : g.weights) w = std::floor(w * 8);
  for (const std::vector<int>* b : {&b3, &bv}) {
    REQUIRE(b_suitor_gpu(g, *b, {}, &t) == b_greedy(g, *b));
    CHECK(float_keys(t));
    CHECK(t.phases.size() == 5);
  }
  const DeviceGraph<double> dg(g, 0);
  REQUIRE(b_suitor_gpu(dg, b3, {}, &t) == b_greedy(g, b3));
  CHECK(float_keys(t));
  GpuOptions limited;
  limited.device_memory = std::size_t(1) << 30;  // under a limit: no float copy
  REQUIRE(b_suitor_gpu(g, b3, limited, &t) == b_greedy(g, b3));
  CHECK(!float_keys(t));
  REQUIRE(g.offsets[1] > 0);
  const vertex_t u = g.cols[0], first = 0;  // the entry (0, u) and its mirror (u, 0)
  REQUIRE(u != first);
  g.weights[0] = 16777217.0;
  for (offset_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
    if (g.cols[i] == first) g.weights[i] = 16777217.0;
  REQUIRE(b_suitor_gpu(g, b3, {}, &t) == b_greedy(g, b3));
  CHECK(!float_keys(t));
}

TEST_CASE("b-suitor-gpu's sorted first round: the atomic one's edges on ties, hubs, caps 0 to 70; refused where it cannot run") {
  GenOptions gen;
  gen.seed = 29;
  gen.ties = 2;
  gen.edge_factor = 12;
  const Csr<double> d = rmat<double>(1 << 15, gen);
  const Csr<float> f = check::with_weights<float>(d);
  REQUIRE(check::max_degree(f) > 1024);  // hubs that thousands propose to in the first round
  std::vector<std::vector<int>> bs;
  for (int b : {2, 3, 5, 8, 9, 70}) bs.push_back(constant_b(f.n_rows, b));  // lists of 2, 4, 8; b above K
  bs.push_back(check::random_b(f.n_rows, 5));                               // caps 0..4
  bs.push_back(nearly_ones(f.n_rows));
  for (std::size_t i = 0; i < bs.size(); ++i) {
    CAPTURE(i);
    const BMatching ref = b_greedy(f, bs[i]);
    for (BSuitorPlacement p : {BSuitorPlacement::sorted, BSuitorPlacement::atomic}) {
      CAPTURE(to_string(p));
      GpuTimes t;
      const BMatching got = b_suitor_gpu(f, bs[i], BSuitorGpuOptions({}, p), &t);
      INFO(first_difference(got, ref));
      REQUIRE(got == ref);
      CHECK((t.phases[1].first.find("sorted placement") != std::string::npos) == (p == BSuitorPlacement::sorted));
    }
  }
  // Where it cannot run, asked for by name: invalid_input saying why.
  const std::vector<int> b2 = constant_b(f.n_rows, 2);
  CHECK_THROWS_WITH_AS(b_suitor_gpu(d, b2, BSuitorGpuOptions({}, BSuitorPlacement::sorted)),
                       doctest::Contains("float weights"), invalid_input);
  BSuitorGpuOptions limited({}, BSuitorPlacement::sorted);
  limited.device_memory = std::size_t(1) << 30;
  CHECK_THROWS_WITH_AS(b_suitor_gpu(f, b2, limited), doctest::Contains("no device-memory limit"), invalid_input);
  limited.first_round = BSuitorPlacement::atomic;
  CHECK(b_suitor_gpu(f, b2, limited) == b_greedy(f, b2));
  CHECK(parse_b_suitor_placement(to_string(BSuitorPlacement::sorted)) == BSuitorPlacement::sorted);
  CHECK_THROWS_AS(parse_b_suitor_placement("auto"), invalid_input);
}

TEST_CASE("b-suitor-gpu on a graph whose arrays are uploaded through the staged copy (over 64 MiB) equals b_greedy") {
  // Weights of 8 bytes on over 2^23 + 2^22 entries: the columns and the
  // weights cross the bus in 32 MiB page-locked chunks, the last one
  // partial (copy_to_device); a chunk lost, repeated or misplaced changes
  // the b-matching.
  GenOptions gen;
  gen.seed = 43;
  gen.ties = 0;
  gen.edge_factor = 10;
  const Csr<double> g = rmat<double>(1 << 20, gen);
  REQUIRE(g.num_entries() * offset_t(sizeof(double)) > (offset_t(96) << 20));
  REQUIRE(g.num_entries() % ((offset_t(32) << 20) / offset_t(sizeof(double))) != 0);
  const std::vector<int> b = constant_b(g.n_rows, 2);
  const BMatching ref = b_greedy(g, b), got = b_suitor_gpu(g, b);
  INFO(first_difference(got, ref));
  REQUIRE(got == ref);
}

TEST_CASE("b-suitor-gpu and b-ld-gpu with negative weights and rows of -inf only, on over 2^20 entries") {
  GenOptions gen;
  gen.seed = 29;
  gen.ties = 4;
  gen.edge_factor = 10;
  Csr<double> g = rmat<double>(1 << 16, gen);
  REQUIRE(g.num_entries() >= (offset_t(1) << 20));
  // Weights shifted below 0; every entry of a vertex divisible by 97 is
  // -inf (symmetric), so those rows have no finite entry (b-suitor-gpu's
  // first round proposes to -inf entries like any other).
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      g.weights[k] = u % 97 == 0 || g.cols[k] % 97 == 0 ? -std::numeric_limits<double>::infinity() : g.weights[k] - 0.5;
  const Csr<float> f = check::with_weights<float>(g);
  for (const std::vector<int>& b :
       {constant_b(g.n_rows, 1), constant_b(g.n_rows, 3), check::random_b(g.n_rows, 31)}) {
    require_b_greedy(g, b, 2);
    require_b_greedy(f, b, 2);
  }
}

TEST_CASE("b-suitor-gpu and b-ld-gpu on complete graphs with b above every degree: 64 and 65 partners a vertex") {
  // Every edge is in the b-matching; a vertex of K_65 has 64 partners
  // (sorted in its thread), of K_66 65 (the segmented sort).
  for (vertex_t n : {65, 66}) {
    CAPTURE(n);
    const Csr<double> g = check::random_graph(n, 1.0, 3, std::uint64_t(n));
    REQUIRE(g.num_entries() == offset_t(n) * (n - 1));
    const BMatching ref = b_greedy(g, constant_b(n, 1000));
    REQUIRE(ref.num_edges() == offset_t(n) * (n - 1) / 2);
    require_b_greedy(g, constant_b(n, 1000), ref, 3);
    require_b_greedy(check::with_weights<float>(g), constant_b(n, 1000), 3);
  }
}

TEST_CASE("b-suitor-gpu and b-ld-gpu with hubs that every vertex proposes to at once, caps 1 to 40, three weights") {
  // Eight hubs adjacent to every other vertex plus a sparse random layer;
  // weights from {1, 2, 3} so that most offers tie on weight and are
  // ordered by id. Each hub receives tens of thousands of offers in the
  // same round (b-suitor-gpu's first round, where no floor is read, and
  // the rounds after it), where its words are raced on from every SM.
  const vertex_t n = 70000, hubs = 8;
  std::mt19937_64 rng(41);
  Triples<double> t;
  auto edge = [&](vertex_t u, vertex_t v) {
    const double w = double(1 + rng() % 3);
    t.push_back(u, v, w);
    t.push_back(v, u, w);
  };
  for (vertex_t h = 0; h < hubs; ++h)
    for (vertex_t v = h + 1; v < n; ++v) edge(h, v);
  for (vertex_t u = hubs; u < n; ++u)
    for (int k = 0; k < 3; ++k)
      if (const vertex_t v = vertex_t(hubs + rng() % (n - hubs)); v != u) edge(u, v);
  const Csr<double> g = csr_from_triples<double>(n, n, t, Duplicates::max, false);
  for (int hub_b : {1, 2, 7, 40}) {
    CAPTURE(hub_b);
    std::vector<int> b = check::random_b(n, std::uint64_t(hub_b));
    for (vertex_t h = 0; h < hubs; ++h) b[std::size_t(h)] = hub_b;
    require_b_greedy(g, b, 3);
    require_b_greedy(check::with_weights<float>(g), b, 3);
  }
}

TEST_CASE("b-suitor-gpu and b-ld-gpu with b = 1 give greedy's matching") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    CAPTURE(seed);
    const Csr<double> g = check::random_graph(vertex_t(seed % 40), 0.3, int(seed % 4), seed);
    const Matching greedy_m = greedy(g, 1);
    for (const BMatching& m : {b_suitor_gpu(g, constant_b(g.n_rows, 1)),
                               b_suitor_gpu(check::with_weights<float>(g), constant_b(g.n_rows, 1)),
                               b_ld_gpu(g, constant_b(g.n_rows, 1)),
                               b_ld_gpu(check::with_weights<float>(g), constant_b(g.n_rows, 1))}) {
      REQUIRE(m.n() == g.n_rows);
      for (vertex_t v = 0; v < g.n_rows; ++v) {
        CAPTURE(v);
        const offset_t count = m.offsets[v + 1] - m.offsets[v];
        REQUIRE(count == (greedy_m.mate[v] == no_vertex ? 0 : 1));
        if (count == 1) CHECK(m.partners[m.offsets[v]] == greedy_m.mate[v]);
      }
    }
  }
  GenOptions gen;
  gen.seed = 3;
  gen.ties = 3;
  const Csr<float> r = rmat<float>(1 << 12, gen);
  const Matching greedy_m = greedy(r, 1);
  for (int a = 0; a < algorithms; ++a) {
    CAPTURE(algorithm_names[a]);
    const BMatching m = run_gpu(a, r, constant_b(r.n_rows, 1));
    for (vertex_t v = 0; v < r.n_rows; ++v)
      REQUIRE((m.offsets[v + 1] == m.offsets[v] ? no_vertex : m.partners[m.offsets[v]]) == greedy_m.mate[v]);
  }
}

// Device-memory limits that stream g's rows (b-suitor-gpu's estimate): the
// least (two buffers of the longest row), and buffers of about 1/3, 1/4 and
// 1/7 of the entries; those below the resident run's need (a graph of about
// two longest rows has none).
template <class W>
std::vector<std::size_t> streaming_limits(const Csr<W>& g, const std::vector<int>& b) {
  const BSuitorGpuMemory m = b_suitor_gpu_memory(g, b);
  std::vector<std::size_t> out;
  for (offset_t parts : {0, 3, 4, 7}) {
    const offset_t batch = parts == 0 ? m.longest_row : std::max(m.longest_row, (g.num_entries() + parts - 1) / parts);
    const std::size_t limit = m.state + m.offsets + 2 * std::size_t(batch) * m.streamed_entry;
    if (limit < m.resident()) out.push_back(limit);
  }
  return out;
}

// The batches read in place in a streamed run (from its phase name
// "...; B batches, C copies, X GB, N read in place)").
long long read_in_place(const GpuTimes& t) {
  const std::string& name = t.phases.at(2).first;
  const std::size_t at = name.find(" read in place");
  if (at == std::string::npos) return -1;
  const std::size_t from = name.rfind(' ', at - 1) + 1;
  return std::stoll(name.substr(from, at - from));
}

// Batches read in place by require_streamed_b_greedy's runs.
long long in_place_total = 0;

// b-suitor-gpu on (g, b) with each streaming limit equals ref, with the
// batches named in its GpuTimes.
template <class W>
void require_streamed_b_greedy(const Csr<W>& g, const std::vector<int>& b, const BMatching& ref, int repeats = 1) {
  for (const std::size_t limit : streaming_limits(g, b))
    for (int r = 0; r < repeats; ++r) {
      CAPTURE(limit);
      GpuOptions opt;
      opt.device_memory = limit;
      GpuTimes t;
      const BMatching got = b_suitor_gpu(g, b, opt, &t);
      INFO(first_difference(got, ref));
      REQUIRE(got == ref);
      REQUIRE(t.phases.size() == 4);
      CHECK(t.phases[1].first.find("batches") != std::string::npos);
      REQUIRE(read_in_place(t) >= 0);
      in_place_total += read_in_place(t);
    }
}

TEST_CASE("b-suitor-gpu and suitor-gpu on rows streamed under a device-memory limit equal b_greedy and greedy") {
  SUBCASE("every test graph, b = 1, 2, 5 and per-vertex, double and float") {
    check::FamilyOptions opt;
    opt.random_graphs = 60;
    check::for_each_b_matching_case(
        [](const auto& g, const std::vector<int>& b) {
          if (g.num_entries() > 0) require_streamed_b_greedy(g, b, b_greedy(g, b));
        },
        opt);
  }
  SUBCASE("tie-heavy R-MAT with hubs over 1024 entries and Erdos-Renyi, repeated, batches copied and read in place") {
    in_place_total = 0;
    GenOptions gen;
    gen.seed = 71;
    gen.ties = 3;
    gen.edge_factor = 8;
    const Csr<double> r = rmat<double>(1 << 14, gen);
    const Csr<double> e = erdos_renyi<double>(10000, gen);
    REQUIRE(check::max_degree(r) > 1024);
    for (const Csr<double>* g : {&r, &e}) {
      CAPTURE(g == &r ? "rmat 2^14" : "er 10000");
      const Csr<float> f = check::with_weights<float>(*g);
      REQUIRE(streaming_limits(f, constant_b(g->n_rows, 5)).size() == 4);
      for (const std::vector<int>& b : {constant_b(g->n_rows, 1), constant_b(g->n_rows, 5),
                                        check::random_b(g->n_rows, 5), nearly_ones(g->n_rows)}) {
        require_streamed_b_greedy(*g, b, b_greedy(*g, b), 3);
        require_streamed_b_greedy(f, b, b_greedy(f, b), 3);
      }
    }
    CHECK(in_place_total > 0);  // later rounds read few rows: in place (page-locked, mapped host arrays)
  }
  SUBCASE("suitor-gpu streams through b-suitor-gpu with b = 1: greedy's matching") {
    GenOptions gen;
    gen.seed = 5;
    gen.ties = 4;
    const Csr<double> g = rmat<double>(1 << 13, gen);
    const Csr<float> f = check::with_weights<float>(g);
    const std::vector<std::size_t> limits = streaming_limits(g, constant_b(g.n_rows, 1));
    REQUIRE(limits.size() == 4);
    for (const std::size_t limit : limits) {  // (f needs less: not every limit streams it)
      CAPTURE(limit);
      SuitorGpuOptions opt;
      opt.device_memory = limit;
      GpuTimes t;
      CHECK(suitor_gpu(g, opt, &t).mate == greedy(g).mate);
      CHECK(t.phases.at(1).first.find("batches") != std::string::npos);
      CHECK(suitor_gpu(f, opt).mate == greedy(f).mate);
    }
  }
  SUBCASE("too little memory for two batches of the longest row: out_of_memory naming the bytes needed") {
    GenOptions gen;
    gen.seed = 9;
    const Csr<double> g = rmat<double>(1 << 12, gen);
    const std::vector<int> b = constant_b(g.n_rows, 2);
    GpuOptions opt;
    opt.device_memory = b_suitor_gpu_memory(g, b).least_streamed() - 1;
    const std::string needed = "at least " + std::to_string(opt.device_memory + 1) + " bytes needed";
    CHECK_THROWS_WITH_AS(b_suitor_gpu(g, b, opt), doctest::Contains(needed.c_str()), out_of_memory);
  }
}

TEST_CASE("b-suitor-gpu and b-ld-gpu on a DeviceGraph, with GpuTimes") {
  GenOptions gen;
  gen.seed = 9;
  gen.ties = 4;
  const Csr<float> g = rmat<float>(1 << 12, gen);
  const std::vector<int> b = check::random_b(g.n_rows, 5);
  const BMatching ref = b_greedy(g, b);
  const DeviceGraph<float> dg(g, 0);
  for (int repeat = 0; repeat < 3; ++repeat) {
    GpuTimes t;
    REQUIRE(b_suitor_gpu(dg, b, {}, &t) == ref);
    CHECK(t.upload_s >= dg.upload_seconds());
    CHECK(t.match_s > 0);
    CHECK(t.download_s > 0);
    REQUIRE(t.phases.size() == 4);
    CHECK(t.phases[1].first == "first round");
    CHECK(t.phases[2].first.find("other rounds") == 0);
    double parts = 0;
    for (const auto& [name, seconds] : t.phases) {
      CHECK(seconds >= 0);
      parts += seconds;
    }
    CHECK(parts <= t.match_s * 1.01);
  }
  for (int repeat = 0; repeat < 3; ++repeat) {
    GpuTimes t;
    REQUIRE(b_ld_gpu(dg, b, {}, &t) == ref);
    CHECK(t.upload_s >= dg.upload_seconds());
    CHECK(t.match_s > 0);
    CHECK(t.download_s > 0);
    REQUIRE(t.phases.size() == 3);
    CHECK(t.phases[0].first == "init");
    CHECK(t.phases[1].first.find("rounds (") == 0);
    CHECK(t.phases[2].first == "extract");
    double parts = 0;
    for (const auto& [name, seconds] : t.phases) {
      CHECK(seconds >= 0);
      parts += seconds;
    }
    CHECK(parts <= t.match_s * 1.01);
  }
  GpuOptions other;
  other.device = 1;  // not the graph's GPU (or no such GPU)
  for (int a = 0; a < algorithms; ++a) {
    CAPTURE(algorithm_names[a]);
    CHECK_THROWS_AS(run_gpu(a, dg, constant_b(g.n_rows + 1, 1)), invalid_input);
    CHECK_THROWS_AS(run_gpu(a, dg, b, other), invalid_input);
  }
}

TEST_CASE("b-suitor-gpu and b-ld-gpu refuse a bad b, shape or GPU id, and handle b = 0, n = 0 and graphs without edges") {
  const Csr<double> g = check::random_graph(10, 0.5, 0, 4);
  for (int a = 0; a < algorithms; ++a) {
    CAPTURE(algorithm_names[a]);
    CHECK_THROWS_AS(run_gpu(a, g, constant_b(9, 1)), invalid_input);
    std::vector<int> b = constant_b(10, 1);
    b[3] = -1;
    CHECK_THROWS_WITH_AS(run_gpu(a, g, b), doctest::Contains("b(3) = -1"), invalid_input);
    Csr<double> rect = g;
    rect.n_cols += 1;
    CHECK_THROWS_AS(run_gpu(a, rect, constant_b(10, 1)), invalid_input);
    GpuOptions o;
    o.device = 4096;
    CHECK_THROWS_WITH_AS(run_gpu(a, g, constant_b(10, 1), o), doctest::Contains("no GPU with id 4096"),
                         invalid_input);
    const BMatching none = run_gpu(a, g, constant_b(10, 0));
    CHECK(none.n() == 10);
    CHECK(none.num_edges() == 0);
    for (vertex_t n : {0, 1, 5}) {
      CAPTURE(n);
      const Csr<double> empty = check::random_graph(n, 0.0, 0, 1);
      for (int k : {0, 1, 3}) {
        const BMatching m = run_gpu(a, empty, constant_b(n, k));
        CHECK(m.n() == n);
        CHECK(m.num_edges() == 0);
      }
    }
  }
}
