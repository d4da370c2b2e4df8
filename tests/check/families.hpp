// The graphs every matcher of the 1/2-approximate family is checked on
// (issue 3 "Correctness"): random small graphs with heavy ties, the generated
// families (with and without ties), and every real matrix of the shared
// collection (general view for square, bipartite view for rectangular
// matrices; skipped with a message when absent).
#pragma once
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "datasets/generators.hpp"
#include "lib/matching.hpp"
#include "ops/argmax.hpp"
#include "tests/check/check.hpp"

namespace matchblas::check {

// The generated families the checks use (er 3000, rmat 4096, grid 60,
// bipartite 40), each built from generator options (seed, ties, edge factor).
struct GeneratedFamily {
  std::string name;
  Csr<double> (*make)(const GenOptions&);
};
const std::vector<GeneratedFamily>& generated_families();

struct FamilyOptions {
  int random_graphs = 300;   // how many random small graphs (n <= 40)
  bool generated = true;     // er, rmat, grid, bipartite, with and without ties
  bool real = true;          // the shared matrices
};

// Calls f(name, graph) for each test graph; `name` says how to rebuild it
// (kind, size, seed), for failure messages.
void for_each_test_graph(const std::function<void(const std::string&, const Csr<double>&)>& f,
                         const FamilyOptions& opt = {});

// The b-matchers' sweep: every test graph (opt's), each with b = 1, 2 and
// 5 everywhere and a per-vertex b (check::random_b seeded by the graph's
// name), each with double and then float weights: f(graph, b), the graph a
// Csr<double> or a Csr<float> (a generic lambda), name and b's index (1, 2,
// 5, per-vertex) captured for failure messages.
template <class F>
void for_each_b_matching_case(F f, const FamilyOptions& opt) {
  for_each_test_graph(
      [&](const std::string& name, const Csr<double>& g) {
        CAPTURE(name);
        const Csr<float> single = with_weights<float>(g);
        std::vector<std::vector<int>> bs;
        for (int b : {1, 2, 5}) bs.push_back(std::vector<int>(std::size_t(g.n_rows), b));
        bs.push_back(random_b(g.n_rows, std::hash<std::string>{}(name)));
        for (std::size_t i = 0; i < bs.size(); ++i) {
          CAPTURE(i);  // b = 1, 2, 5, per-vertex 0..4
          f(g, bs[i]);
          f(single, bs[i]);
        }
      },
      opt);
}

// Fails the current test unless m is valid on g and equal, mate for mate, to
// greedy's matching (reporting the first differing vertex).
void require_equals_greedy(const Csr<double>& g, const Matching& m, const Matching& greedy_matching);

// The whole check for a matcher of the greedy family: match(g, threads) equals
// greedy on every test graph and on a graph of negative weights, at 1 thread
// (and at 2 and 8 when `parallel`); when `parallel`, also `repeats` times at 2
// and 8 threads on tie-heavy R-MAT and Erdos-Renyi graphs with float and
// double weights (races show up as flakiness).
using GreedyFamilyMatcher = std::function<Matching(const Csr<double>&, int threads)>;
using GreedyFamilyMatcherF = std::function<Matching(const Csr<float>&, int threads)>;
void require_greedy_family(const GreedyFamilyMatcher& match, const GreedyFamilyMatcherF& match_float, bool parallel,
                           int repeats = 10, const FamilyOptions& opt = {});

// For the matchers written with the ops, f(g, threads, backend): the whole
// check above with the plain backend, and the random and generated graphs
// with the graphblas backend (skipped with a message without GraphBLAS).
template <class F>
void require_greedy_family_on_both_backends(F f) {
  require_greedy_family([&](const Csr<double>& g, int t) { return f(g, t, ops::Backend::plain); },
                        [&](const Csr<float>& g, int t) { return f(g, t, ops::Backend::plain); },
                        /*parallel=*/true);
  if (!ops::have_graphblas()) {
    MESSAGE("graphblas backend skipped: this build has no SuiteSparse:GraphBLAS");
    return;
  }
  FamilyOptions small;
  small.random_graphs = 120;
  small.real = false;
  require_greedy_family([&](const Csr<double>& g, int t) { return f(g, t, ops::Backend::graphblas); },
                        [&](const Csr<float>& g, int t) { return f(g, t, ops::Backend::graphblas); },
                        /*parallel=*/false, 0, small);
}

}  // namespace matchblas::check
