// The shortest augmenting path searches several at a time
// (matchers/bipartite/shortest_augmenting_parallel.cpp) against the same
// searches one at a time: on random matrices with many tied integer costs
// (square, wide, and with rows that cannot be matched), from a start with
// every row free and from MC64's start, on 2, 3 and 4 threads, the
// matching, both duals, the search count, the first row without a path and
// the result are the serial searches' bit for bit, with the failed searches
// skipped or stopping; the rounds did run (the gate lowered for the test).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "lib/omp_threads.hpp"
#include "matchers/bipartite/shortest_augmenting_detail.hpp"

using namespace matchblas;
using namespace matchblas::shortest_augmenting_detail;

namespace {

// m x n (m <= n) costs from {0..levels} (ties everywhere), `degree` random
// entries a row and (i, i); `stuck` rows spread over the matrix only in
// columns 0 and 1 (no row-perfect matching when stuck > 2: the later ones
// fail, and the searches after them must not pass their dead columns).
Csr<double> random_costs(vertex_t m, vertex_t n, int degree, int levels, vertex_t stuck, std::mt19937& rng) {
  Csr<double> c;
  c.n_rows = m;
  c.n_cols = n;
  c.offsets.push_back(0);
  std::uniform_int_distribution<vertex_t> column(0, n - 1);
  std::uniform_int_distribution<int> value(0, levels);
  for (vertex_t i = 0; i < m; ++i) {
    std::vector<vertex_t> row;
    if (stuck > 0 && i % (m / stuck) == m / stuck / 2) row = {0, 1};
    else {
      row.push_back(i);
      for (int d = 0; d < degree; ++d) row.push_back(column(rng));
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (vertex_t j : row) {
      c.cols.push_back(j);
      c.weights.push_back(value(rng));
    }
    c.offsets.push_back(offset_t(c.cols.size()));
  }
  return c;
}

// Feasible duals with no matching: v_j the column's smallest cost, u = 0.
DualMatching empty_start(const Csr<double>& c) {
  DualMatching r;
  r.u.assign(std::size_t(c.n_rows), 0.0);
  r.v.assign(std::size_t(c.n_cols), std::numeric_limits<double>::infinity());
  for (vertex_t i = 0; i < c.n_rows; ++i)
    for (offset_t k = c.offsets[i]; k < c.offsets[i + 1]; ++k)
      r.v[std::size_t(c.cols[k])] = std::min(r.v[std::size_t(c.cols[k])], c.weights[k]);
  for (double& x : r.v)
    if (x == std::numeric_limits<double>::infinity()) x = 0;
  r.mates.row_mate.assign(std::size_t(c.n_rows), -1);
  r.mates.col_mate.assign(std::size_t(c.n_cols), -1);
  return r;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Outcome {
  DualMatching r;
  vertex_t row_out = -1;
  bool perfect = false;
};

Outcome searches(const Csr<double>& c, DualMatching start, bool skip, int threads) {
  const ScopedThreads scope(threads);
  Outcome o;
  o.r = std::move(start);
  o.perfect = augment_free_rows(c, o.r, o.row_out, skip);
  return o;
}

// Restores the gate when the test ends.
struct LoweredGate {
  ParallelSearchGate saved = parallel_search_gate;
  LoweredGate() { parallel_search_gate = {2, 0, 1}; }
  ~LoweredGate() { parallel_search_gate = saved; }
};

}  // namespace

TEST_CASE("parallel searches: the serial searches' matching, duals and counts, bit for bit, on 2-4 threads") {
  std::mt19937 rng(20261201);
  struct Shape {
    vertex_t m, n;
    int degree, levels;
    vertex_t stuck;
  };
  const Shape shapes[] = {{600, 600, 3, 3, 0}, {900, 900, 6, 20, 0}, {500, 800, 4, 2, 0},
                          {700, 700, 4, 5, 6}, {400, 400, 2, 1, 3},  {1500, 1500, 5, 1000, 0},
                          {800, 800, 4, 1000, 8}, {2000, 2000, 3, 100, 40}};
  int rounds_ran = 0;
  for (const Shape& s : shapes) {
    const Csr<double> c = random_costs(s.m, s.n, s.degree, s.levels, s.stuck, rng);
    for (const bool from_mc64 : {false, true}) {
      DualMatching start = empty_start(c);
      if (from_mc64) {
        start = DualMatching{};
        initialise(c, start);  // MC64's start: the rows its greedy pass left are searched
      }
      for (const bool skip : {false, true}) {
        CAPTURE(s.m);
        CAPTURE(s.n);
        CAPTURE(s.stuck);
        CAPTURE(from_mc64);
        CAPTURE(skip);
        Outcome want;
        {
          const ParallelSearchGate saved = parallel_search_gate;
          parallel_search_gate.threads = 1 << 30;  // never
          want = searches(c, start, skip, 4);
          parallel_search_gate = saved;
        }
        const LoweredGate gate;
        for (int threads : {2, 3, 4}) {
          CAPTURE(threads);
          const Outcome got = searches(c, start, skip, threads);
          CHECK(got.perfect == want.perfect);
          CHECK(got.row_out == want.row_out);
          CHECK(got.r.searches == want.r.searches);
          CHECK(got.r.mates.row_mate == want.r.mates.row_mate);
          CHECK(got.r.mates.col_mate == want.r.mates.col_mate);
          CHECK(got.r.mates.matched == want.r.mates.matched);
          CHECK(same_bits(got.r.u, want.r.u));
          CHECK(same_bits(got.r.v, want.r.v));
          CHECK(same_bits({got.r.cost}, {want.r.cost}));
          // The rounds ran: on their own they take at least their first
          // three searches.
          const ScopedThreads scope(threads);
          DualMatching alone = start;
          vertex_t row = -1;
          std::vector<vertex_t> dead;
          const vertex_t first = parallel_searches(c, alone, row, skip, dead);
          CHECK(alone.searches >= std::min<std::int64_t>(3, want.r.searches));
          rounds_ran += first > 0;
        }
      }
    }
  }
  CHECK(rounds_ran > 0);
}

TEST_CASE("parallel searches: a search after a failed one in its round does not pass the columns it found dead") {
  // Row 0 takes column 0; row 1 (only column 0) fails, so column 0 is dead;
  // row 2 reaches column 0 at distance 0 and column 5 at 10: the serial
  // searches skip column 0 (its dual stays), so must the rounds. Rows 3-22
  // each take a column of their own.
  Csr<double> c;
  c.n_rows = 23;
  c.n_cols = 30;
  c.offsets = {0};
  const auto row = [&c](std::vector<std::pair<vertex_t, double>> entries) {
    for (const auto& [j, w] : entries) {
      c.cols.push_back(j);
      c.weights.push_back(w);
    }
    c.offsets.push_back(offset_t(c.cols.size()));
  };
  row({{0, 0.0}});
  row({{0, 0.0}});
  row({{0, 0.0}, {5, 10.0}});
  for (vertex_t i = 3; i < 23; ++i) row({{i + 6, 1.0}});
  DualMatching start;
  start.u.assign(23, 0.0);
  start.v.assign(30, 0.0);
  start.mates.row_mate.assign(23, -1);
  start.mates.col_mate.assign(30, -1);
  Outcome want;
  {
    const ParallelSearchGate saved = parallel_search_gate;
    parallel_search_gate.threads = 1 << 30;
    want = searches(c, start, /*skip=*/true, 2);
    parallel_search_gate = saved;
  }
  CHECK(want.row_out == 1);
  CHECK(want.r.v[0] == 0.0);
  const LoweredGate gate;
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    const Outcome got = searches(c, start, /*skip=*/true, threads);
    CHECK(got.row_out == want.row_out);
    CHECK(got.r.mates.row_mate == want.r.mates.row_mate);
    CHECK(same_bits(got.r.u, want.r.u));
    CHECK(same_bits(got.r.v, want.r.v));
    CHECK(got.r.searches == want.r.searches);
  }
}
