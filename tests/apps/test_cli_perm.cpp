// `matchblas perm`, the diagonal pre-pass on a Matrix Market file, run as a
// separate process: its files against the library's own pre-pass (same
// permutation, same scalings, the scaled matrix within MC64's bounds), its
// report, and its errors (usage before the input is read, no output left).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>
#include <tuple>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/registry.hpp"
#include "ops/gpu/device.hpp"
#include "tests/apps/cli_text.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;
using check::run_cli;
using check::shell_quoted;

namespace {

void write_csr(const std::filesystem::path& p, const Csr<double>& a, bool pattern = false) {
  MmMatrix m;
  m.header.rows = a.n_rows;
  m.header.cols = a.n_cols;
  m.header.entries = a.num_entries();
  if (pattern) m.header.field = MmField::pattern;
  for (vertex_t i = 0; i < a.n_rows; ++i)
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      m.row.push_back(i);
      m.col.push_back(a.cols[k]);
      if (!pattern) m.val.push_back(a.weights[k]);
    }
  write_matrix_market(p.string(), m);
}

std::vector<long> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<long> out;
  for (long x; in >> x;) out.push_back(x);
  return out;
}

// "r I VALUE" / "c J VALUE" lines of --scales-out.
void read_scales(const std::string& text, std::vector<double>& r, std::vector<double>& c) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '%') continue;
    std::istringstream l(line);
    char side;
    std::size_t index;
    std::string value;
    REQUIRE((l >> side >> index >> value));
    CHECK_MESSAGE(check::is_shortest_decimal(value), value);  // reads back exactly, without %.17g's tail
    auto& v = side == 'r' ? r : c;
    REQUIRE(index == v.size() + 1);
    v.push_back(std::stod(value));
  }
}

// A square matrix with ties, explicit zeros and values of both signs spread
// over many orders of magnitude, nonsingular (a random permutation's entries
// are added).
Csr<double> hard_square(vertex_t n, std::uint64_t seed) {
  Csr<double> a = check::random_matrix(n, n, 0.05, 3, seed);
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  MmMatrix m;
  m.header.rows = m.header.cols = n;
  for (vertex_t i = 0; i < n; ++i) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
      m.row.push_back(i);
      m.col.push_back(a.cols[k]);
      const double scale = std::pow(10.0, double(rng() % 13) - 6);
      m.val.push_back(k % 7 == 0 ? 0.0 : (rng() % 2 ? -1 : 1) * a.weights[k] * scale);
    }
    if (std::find(m.col.end() - (a.offsets[i + 1] - a.offsets[i]), m.col.end(), p[i]) == m.col.end()) {
      m.row.push_back(i);
      m.col.push_back(p[i]);
      m.val.push_back(0.5);
    }
  }
  m.header.entries = m.val.size();
  return matrix_as_given(m);
}

}  // namespace

TEST_CASE("perm: the files equal the library's pre-pass, the scaled matrix is within MC64's bounds") {
  check::temp_dir dir;
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const Csr<double> a = hard_square(60 + vertex_t(seed) * 17, seed);
    const auto file = dir / "a.mtx";
    write_csr(file, a);
    for (int job : {1, 2, 3, 4, 5}) {
      CAPTURE(job);
      const auto perm = dir / "perm.txt", scales = dir / "scales.txt", scaled = dir / "b.mtx";
      std::string args = "perm " + shell_quoted(file) + " --job " + std::to_string(job) + " --out " + shell_quoted(perm) +
                         " --scaled-out " + shell_quoted(scaled) + " --json";
      if (job == 5) args += " --scales-out " + shell_quoted(scales);
      const auto r = run_cli(dir, args);
      INFO(r.err);
      REQUIRE(r.status == 0);
      const PrepassResult want = prepass(a, {.job = job});
      CHECK(r.out.find("\"job\": " + std::to_string(job)) != std::string::npos);
      CHECK(r.out.find("\"cardinality\": " + std::to_string(want.mates.matched)) != std::string::npos);
      CHECK(r.out.find("\"structurally_singular\": false") != std::string::npos);
      // PERM: perm[i] + 1 per row, a permutation putting the matching on the diagonal.
      const std::vector<long> p = numbers(check::slurp(perm));
      REQUIRE(p.size() == std::size_t(a.n_rows));
      for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(p[i] == want.perm[i] + 1);
      std::vector<long> sorted = p;
      std::sort(sorted.begin(), sorted.end());
      for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(sorted[i] == i + 1);
      // B = A Q (scaled for job 5): the matched entries on its diagonal.
      const Csr<double> b = matrix_as_given(read_matrix_market(scaled.string()));
      REQUIRE(b.n_rows == a.n_rows);
      REQUIRE(b.num_entries() == a.num_entries());
      std::vector<double> rs, cs;
      if (job == 5) {
        read_scales(check::slurp(scales), rs, cs);
        REQUIRE(rs.size() == std::size_t(a.n_rows));
        REQUIRE(cs.size() == std::size_t(a.n_cols));
        for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(rs[i] == want.row_log_scale[i]);  // the shortest form reads back exactly
      }
      for (vertex_t i = 0; i < a.n_rows; ++i)
        for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k) {
          const vertex_t j = a.cols[k];
          const vertex_t jb = vertex_t(std::find(p.begin(), p.end(), j + 1) - p.begin());  // column of B
          const auto row = b.row_cols(i);
          const auto at = std::lower_bound(row.begin(), row.end(), jb);
          REQUIRE(at != row.end());
          REQUIRE(*at == jb);
          const double got = b.weights[b.offsets[i] + (at - row.begin())];
          const double expected = job == 5 && a.weights[k] != 0 ? a.weights[k] * std::exp(rs[i] + cs[j]) : a.weights[k];
          CHECK(got == doctest::Approx(expected).epsilon(1e-12));
          if (job == 5) {
            CHECK(std::fabs(got) <= 1 + 1e-12);
            if (jb == i) CHECK(std::fabs(got) == doctest::Approx(1).epsilon(1e-12));
          }
        }
    }
  }
}

TEST_CASE("perm: automatic job, rectangular and singular matrices, job 0, standard input") {
  check::temp_dir dir;
  // A pattern: job 1; with values: job 5.
  const Csr<double> a = hard_square(40, 9);
  write_csr(dir / "pattern.mtx", a, true);
  write_csr(dir / "a.mtx", a);
  auto r = run_cli(dir, "perm " + shell_quoted(dir / "pattern.mtx") + " --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"job\": 1") != std::string::npos);
  CHECK(r.out.find("\"algo\": \"cardinality\"") != std::string::npos);
  r = run_cli(dir, "perm - --json < " + shell_quoted(dir / "a.mtx"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"job\": 5") != std::string::npos);
  CHECK(r.out.find("\"file\": \"-\"") != std::string::npos);
  // gzip from standard input.
  r = run_cli(dir, "perm - --job 4 --out " + shell_quoted(dir / "p4.txt") + " < " + shell_quoted(dir / "a.mtx.gz"),
              "gzip -c " + shell_quoted(dir / "a.mtx") + " > " + shell_quoted(dir / "a.mtx.gz"));
  REQUIRE(r.status == 0);
  const PrepassResult want4 = prepass(a, {.job = 4});
  std::vector<long> p = numbers(check::slurp(dir / "p4.txt"));
  REQUIRE(p.size() == std::size_t(a.n_rows));
  for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(p[i] == want4.perm[i] + 1);
  // A registry entry by name with its own options and threads.
  r = run_cli(dir, "perm " + shell_quoted(dir / "a.mtx") + " --algo awpm --max-rounds 2 --threads 2 --json --out " +
                       shell_quoted(dir / "pa.txt"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"algo\": \"awpm\"") != std::string::npos);
  {
    const MatcherInfo& awpm = find_matcher("awpm", Problem::bipartite);
    RunOptions run;
    run.options = parse_options(awpm, {{"max-rounds", "2"}});
    const PrepassResult want = run_prepass(awpm, a, run);
    p = numbers(check::slurp(dir / "pa.txt"));
    REQUIRE(p.size() == std::size_t(a.n_rows));
    for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(p[i] == want.perm[i] + 1);
  }
  // Job 0: the identity.
  r = run_cli(dir, "perm " + shell_quoted(dir / "a.mtx") + " --job 0 --out " + shell_quoted(dir / "p0.txt"));
  REQUIRE(r.status == 0);
  p = numbers(check::slurp(dir / "p0.txt"));
  for (vertex_t i = 0; i < a.n_rows; ++i) CHECK(p[i] == i + 1);

  // Rectangular: the column matched to each row, or 0; scalings for both sides.
  const Csr<double> rect = check::random_matrix(30, 45, 0.1, 2, 4);
  write_csr(dir / "rect.mtx", rect);
  r = run_cli(dir, "perm " + shell_quoted(dir / "rect.mtx") + " --out " + shell_quoted(dir / "pr.txt") +
                       " --scales-out " + shell_quoted(dir / "sr.txt"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const PrepassResult want5 = prepass(rect, {.job = 5});
  p = numbers(check::slurp(dir / "pr.txt"));
  REQUIRE(p.size() == 30);
  for (vertex_t i = 0; i < 30; ++i) CHECK(p[i] == want5.mates.row_mate[i] + 1);
  std::vector<double> rs, cs;
  read_scales(check::slurp(dir / "sr.txt"), rs, cs);
  CHECK(rs.size() == 30);
  CHECK(cs.size() == 45);

  // A symmetric file (one triangle) with --symmetric: one scaling for both sides.
  {
    MmMatrix sym;
    sym.header.rows = sym.header.cols = 30;
    sym.header.symmetry = MmSymmetry::symmetric;
    std::mt19937_64 rng(6);
    for (vertex_t i = 0; i < 30; ++i)
      for (vertex_t j = 0; j <= i; ++j)
        if (i == j || rng() % 5 == 0) sym.row.push_back(i), sym.col.push_back(j), sym.val.push_back(double(rng() % 9) - 4.5);
    sym.header.entries = sym.val.size();
    write_matrix_market((dir / "sym.mtx").string(), sym);
    r = run_cli(dir, "perm " + shell_quoted(dir / "sym.mtx") + " --symmetric --scales-out " + shell_quoted(dir / "ss.txt"));
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::vector<double> sr, sc;
    read_scales(check::slurp(dir / "ss.txt"), sr, sc);
    CHECK(sr == sc);
    CHECK(sr == prepass(matrix_as_given(sym), {.job = 5, .symmetric = true}).row_log_scale);
  }

  // Structurally singular: a warning, status 0, the structural rank matched.
  Csr<double> s = check::random_matrix(20, 20, 0.2, 0, 5);
  for (vertex_t i = 0; i < 20; ++i)  // columns 0 and 1 emptied: rank <= 18
    for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k)
      if (s.cols[k] < 2) s.weights[k] = 0;
  MmMatrix sm;
  sm.header.rows = sm.header.cols = 20;
  for (vertex_t i = 0; i < 20; ++i)
    for (offset_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k)
      if (s.cols[k] >= 2) sm.row.push_back(i), sm.col.push_back(s.cols[k]), sm.val.push_back(s.weights[k]);
  sm.header.entries = sm.val.size();
  write_matrix_market((dir / "singular.mtx").string(), sm);
  const Csr<double> singular = matrix_as_given(sm);
  r = run_cli(dir, "perm " + shell_quoted(dir / "singular.mtx") + " --json --out " + shell_quoted(dir / "ps.txt"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"structurally_singular\": true") != std::string::npos);
  CHECK(r.err.find("structurally singular") != std::string::npos);
  const PrepassResult ws = prepass(singular, {.job = 5});
  CHECK(ws.mates.matched <= 18);
  CHECK(r.out.find("\"cardinality\": " + std::to_string(ws.mates.matched)) != std::string::npos);
  p = numbers(check::slurp(dir / "ps.txt"));
  std::sort(p.begin(), p.end());
  for (vertex_t i = 0; i < 20; ++i) CHECK(p[i] == i + 1);  // unmatched rows take the unmatched columns
}

TEST_CASE("perm --job 4 / 5 --device gpu: max-sum-gpu / max-product-gpu, the CPU job's objective, or one clear error") {
  check::temp_dir dir;
  const Csr<double> a = hard_square(60, 9);
  write_csr(dir / "a.mtx", a);
  for (int job : {4, 5}) {
    CAPTURE(job);
    const std::string name = job == 4 ? "max-sum-gpu" : "max-product-gpu";
    const auto r = run_cli(dir, "perm " + shell_quoted(dir / "a.mtx") + " --job " + std::to_string(job) +
                                    " --device gpu --json --out " + shell_quoted(dir / "p.txt"));
    INFO(r.err);
    if (gpu::device_count() == 0) {
      CHECK(r.status == 1);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.find("'" + name + "' is unavailable: needs") != std::string::npos);  // CUDA, or a GPU
      CHECK(!std::filesystem::exists(dir / "p.txt"));
      continue;
    }
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"algo\": \"" + name + "\"") != std::string::npos);
    CHECK(r.out.find("\"device\": \"gpu\"") != std::string::npos);
    const std::size_t at = r.out.find("\"objective\": ");
    REQUIRE(at != std::string::npos);
    const double cpu = prepass(a, {.job = job}).objective;
    if (std::isfinite(cpu)) {
      const double objective = std::strtod(r.out.c_str() + at + 13, nullptr);
      CHECK(std::fabs(objective - cpu) <= 1e-9 * std::max(1.0, std::fabs(cpu)));
    } else {
      CHECK(r.out.compare(at + 13, 4, "null") == 0);  // an explicit zero had to be matched
    }
    std::filesystem::remove(dir / "p.txt");
  }
}

TEST_CASE("perm: errors are one line, checked before the input where they can be, and leave no file") {
  check::temp_dir dir;
  write_csr(dir / "a.mtx", hard_square(20, 3));
  write_csr(dir / "rect.mtx", check::random_matrix(5, 8, 0.5, 0, 3));
  const std::string a = shell_quoted(dir / "a.mtx"), out = " --out " + shell_quoted(dir / "p.txt");
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      {"perm " + a + " --job 6" + out, 2, "--job must be 1..5 (MC64's jobs) or 0 (none: the identity permutation), got 6"},
      {"perm " + a + " --job -1" + out, 2, "--job must be 1..5"},
      {"perm " + a + " --job five" + out, 2, "--job must be an integer, got 'five'"},
      {"perm " + a + " --job 4 --algo max-sum" + out, 2, "--job or --algo, not both"},
      {"perm " + a + " --algo greedy" + out, 2, "greedy"},
      {"perm " + a + " --job 4 --symmetric" + out, 2,
       "--symmetric is for max-product and max-product-gpu, not 'max-sum'"},
      {"perm " + a + " --max-rounds 3" + out, 2, "--max-rounds is for awpm and awpm-gpu, not 'max-product'"},
      {"perm " + a + " --job 0 --symmetric" + out, 2, "not job 0"},
      {"perm " + a + " --algo bottleneck --device gpu" + out, 2, "has no gpu version"},
      {"perm " + a + " --algo awpm --max-rounds -1" + out, 2, "--max-rounds"},
      {"perm " + a + " --job 1 --scales-out " + shell_quoted(dir / "s.txt") + out, 2, "--scales-out needs job 5"},
      {"perm " + shell_quoted(dir / "missing.mtx") + out, 1, "missing.mtx"},
      {"perm" + out, 2, "perm needs a FILE"},
      {"perm " + a + " --out " + a, 1, "it is the input file"},
      {"perm " + a + " --job 5 --symmetric" + out, 1, "symmetric"},  // |A| is not symmetric
      {"perm " + a + " --algo max-prodcut" + out, 2, "did you mean 'max-product'?"},  // the closest name
      {"perm " + shell_quoted(dir / "rect.mtx") + " --scaled-out " + shell_quoted(dir / "b.mtx") + out, 1,
       "only a square matrix"},
  };
  for (const auto& [args, status, message] : cases) {
    CAPTURE(args);
    const auto r = run_cli(dir, args);
    CHECK(r.status == status);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(r.out.empty());
    CHECK(!std::filesystem::exists(dir / "p.txt"));
    CHECK(!std::filesystem::exists(dir / "s.txt"));
    CHECK(!std::filesystem::exists(dir / "b.mtx"));
  }
}

TEST_CASE("perm --job: 1..5 are MC64's jobs, 0 the identity; the error, perm --help and the README say so alike") {
  check::temp_dir dir;
  write_csr(dir / "a.mtx", hard_square(8, 5));
  const std::string job0 = "0 (none: the identity permutation)";
  const auto r = run_cli(dir, "perm " + shell_quoted(dir / "a.mtx") + " --job 9");
  CHECK(r.status == 2);
  CHECK(r.err.find("--job must be 1..5 (MC64's jobs) or " + job0 + ", got 9") != std::string::npos);
  const std::string help = run_cli(dir, "perm --help").out;
  CHECK(help.find("MC64's job 1-5, or " + job0) != std::string::npos);
  CHECK(help.find("0 none: the identity permutation") != std::string::npos);
  const std::string readme = check::slurp(check::source_root() / "README.md");
  CHECK(readme.find("MC64's jobs 1-5, or " + job0) != std::string::npos);
  // Job 0 as documented: no matching, the identity.
  const auto zero = run_cli(dir, "perm " + shell_quoted(dir / "a.mtx") + " --job 0 --json");
  REQUIRE(zero.status == 0);
  CHECK(zero.out.find("\"job\": 0, ") != std::string::npos);
  CHECK(zero.out.find("\"cardinality\": 0, ") != std::string::npos);
}
