// Interruption (include/matchblas/interrupt.h, lib/interrupt.hpp): a set
// flag stops the matching calls, the b-matching, the marriage and the
// pre-pass with MATCHBLAS_ERR_INTERRUPTED and no result; a flag set from
// another thread while a phased algorithm runs stops it at a phase
// boundary; the flag is per thread; a clear flag changes nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "lib/interrupt.hpp"
#include "matchblas/interrupt.h"
#include "matchblas/matching.h"
#include "matchblas/ops.h"
#include "matchblas/prepass.h"

namespace {

// A random symmetric n x n CSR pattern of about `degree` entries a row, no
// duplicates.
struct Graph {
  std::vector<std::int64_t> ptr{0}, ind;
  std::int64_t n;
  Graph(std::int64_t n_, int degree, std::uint64_t seed) : n(n_) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<std::int64_t>> adj(static_cast<std::size_t>(n_));
    for (std::int64_t u = 0; u < n_; ++u)
      for (int k = 0; k < degree / 2; ++k) {
        const auto v = std::int64_t(rng() % std::uint64_t(n_));
        if (v == u) continue;
        adj[std::size_t(u)].push_back(v);
        adj[std::size_t(v)].push_back(u);
      }
    for (auto& row : adj) {
      std::sort(row.begin(), row.end());  // no duplicates: the pre-pass refuses them
      row.erase(std::unique(row.begin(), row.end()), row.end());
      ind.insert(ind.end(), row.begin(), row.end());
      ptr.push_back(std::int64_t(ind.size()));
    }
  }
  matchblas_sparse sparse() const { return {n, n, MATCHBLAS_CSR, 0, MATCHBLAS_INT64, MATCHBLAS_PATTERN, ptr.data(), ind.data(), nullptr}; }
  matchblas_graph graph() const {
    matchblas_graph g{};
    g.source = MATCHBLAS_GRAPH_SPARSE;
    g.sparse = sparse();
    return g;
  }
};

}  // namespace

TEST_CASE("a set flag interrupts every call; a clear one changes nothing") {
  const Graph g(200, 6, 1);
  const matchblas_graph graph = g.graph();
  int flag = 0;
  matchblas_set_interrupt_flag(&flag);
  matchblas_matching m{};
  matchblas_match_report r{};
  REQUIRE(matchblas_match(&graph, "suitor", nullptr, &m, &r) == MATCHBLAS_OK);
  matchblas_matching_free(&m);
  flag = 1;
  CHECK(matchblas_match(&graph, "suitor", nullptr, &m, &r) == MATCHBLAS_ERR_INTERRUPTED);
  CHECK(m.mate == nullptr);
  CHECK(std::string(r.message) == "interrupted");
  CHECK(std::string(matchblas_status_string(MATCHBLAS_ERR_INTERRUPTED)) == "interrupted");
  matchblas_b_matching b{};
  const std::int64_t one = 1;
  CHECK(matchblas_b_match(&graph, "b-suitor", &one, 1, nullptr, &b, &r) == MATCHBLAS_ERR_INTERRUPTED);
  const std::int64_t offsets[] = {0, 1}, lists[] = {0};
  const matchblas_preferences p{1, 1, offsets, lists, offsets, lists, nullptr};
  matchblas_marriage w{};
  CHECK(matchblas_marry(&p, "gale-shapley", nullptr, &w, &r) == MATCHBLAS_ERR_INTERRUPTED);
  // The pre-pass polls inside its algorithms: job 1 in its phases, job 5 between its searches.
  const matchblas_sparse a = g.sparse();
  matchblas_inform info{};
  for (int job : {1, 5}) {
    matchblas_prepass_options opt;
    matchblas_prepass_default_options(&opt);
    opt.job = job;
    CHECK(matchblas_prepass(&a, &opt, nullptr, nullptr, nullptr, nullptr, nullptr, &info) == MATCHBLAS_ERR_INTERRUPTED);
  }
  // Every call polls it when it starts, small ones too.
  {
    const std::int64_t ptr[] = {0, 1, 2}, ind[] = {1, 0};
    const double val[] = {2.0, 3.0}, zero[] = {0.0, 0.0};
    const matchblas_sparse small{2, 2, MATCHBLAS_CSR, 0, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, ptr, ind, val};
    std::int64_t perm[2] = {-5, -5};
    CHECK(matchblas_prepass(&small, nullptr, perm, nullptr, nullptr, nullptr, nullptr, &info) == MATCHBLAS_ERR_INTERRUPTED);
    CHECK(perm[0] == -5);
    double out[2] = {-5, -5};
    CHECK(matchblas_apply_scaling(&small, zero, zero, out, &info) == MATCHBLAS_ERR_INTERRUPTED);
    CHECK(out[0] == -5);
    matchblas_ops_matrix* ops = nullptr;
    matchblas_ops_status os{};
    CHECK(matchblas_ops_matrix_create(&small, &ops, &os) == MATCHBLAS_ERR_INTERRUPTED);
    CHECK(ops == nullptr);
  }
  // The flag is this thread's: another thread's calls run.
  int other = MATCHBLAS_ERR_INTERNAL;
  std::thread([&] {
    matchblas_matching mm{};
    other = matchblas_match(&graph, "suitor", nullptr, &mm, nullptr);
    matchblas_matching_free(&mm);
  }).join();
  CHECK(other == MATCHBLAS_OK);
  flag = 0;
  CHECK(matchblas_match(&graph, "suitor", nullptr, &m, &r) == MATCHBLAS_OK);
  matchblas_matching_free(&m);
  matchblas_set_interrupt_flag(nullptr);
  CHECK(matchblas::interrupt_flag() == nullptr);
}

TEST_CASE("a flag set from another thread stops a long call between its steps") {
  // The pre-pass's job 5 on a random 30000 x 30000 matrix of 8 entries a
  // row runs for seconds (about 3 s on the 2-core development machine); the
  // flag set after 50 ms must stop it with MATCHBLAS_ERR_INTERRUPTED.
  const std::int64_t n = 30000;
  std::mt19937_64 rng(3);
  std::vector<std::int64_t> ptr{0}, ind;
  std::vector<double> val;
  for (std::int64_t j = 0; j < n; ++j) {
    const auto first = ind.size();
    while (ind.size() < first + 8) {  // 8 distinct rows: the pre-pass refuses duplicates
      const auto i = std::int64_t(rng() % std::uint64_t(n));
      if (std::find(ind.begin() + std::ptrdiff_t(first), ind.end(), i) != ind.end()) continue;
      ind.push_back(i);
      val.push_back(double(rng() % 1000 + 1) / 1000);
    }
    ptr.push_back(std::int64_t(ind.size()));
  }
  const matchblas_sparse a{n, n, MATCHBLAS_CSC, 0, MATCHBLAS_INT64, MATCHBLAS_DOUBLE, ptr.data(), ind.data(), val.data()};
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = 5;
  int flag = 0;
  std::atomic<bool> started{false};
  int status = MATCHBLAS_OK;
  matchblas_inform info{};
  std::thread worker([&] {
    matchblas_set_interrupt_flag(&flag);
    started = true;
    status = matchblas_prepass(&a, &opt, nullptr, nullptr, nullptr, nullptr, nullptr, &info);
    matchblas_set_interrupt_flag(nullptr);
  });
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto set = std::chrono::steady_clock::now();
  __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
  worker.join();
  const double after = std::chrono::duration<double>(std::chrono::steady_clock::now() - set).count();
  CHECK(status == MATCHBLAS_ERR_INTERRUPTED);
  CHECK(after < 1.0);  // one search, not the rest of the run
}

TEST_CASE("ScopedInterruptFlag restores the previous flag") {
  int a = 0, b = 1;
  matchblas::set_interrupt_flag(&a);
  {
    const matchblas::ScopedInterruptFlag scope(&b);
    CHECK_THROWS_AS(matchblas::check_interrupt(), matchblas::interrupted);
  }
  CHECK(matchblas::interrupt_flag() == &a);
  CHECK_NOTHROW(matchblas::check_interrupt());
  matchblas::set_interrupt_flag(nullptr);
  CHECK_NOTHROW(matchblas::check_interrupt());
}
