// A matching as a mate array: mate[u] is u's partner, or -1 when u is free.
// Plus its weight and cardinality on a graph, and validation against a graph.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/types.hpp"

namespace matchblas {

struct Matching {
  std::vector<vertex_t> mate;

  Matching() = default;
  explicit Matching(vertex_t n) : mate(static_cast<std::size_t>(n), no_vertex) {}
  vertex_t size() const noexcept { return static_cast<vertex_t>(mate.size()); }
  bool is_free(vertex_t u) const { return mate[u] == no_vertex; }
  void match(vertex_t u, vertex_t v) { mate[u] = v; mate[v] = u; }
  bool operator==(const Matching&) const = default;
};

// Number of matched pairs.
offset_t cardinality(const Matching& m);

// Sum of the weights of the matched pairs, accumulated in double.
// Throws invalid_input when a matched pair is not an edge of g.
template <class W>
double matching_weight(const Csr<W>& g, const Matching& m);
template <class W>
double matching_weight(const Dense<W>& g, const Matching& m);

// Empty when m is a valid matching of g: one entry per vertex, every mate in
// range, mate symmetric (mate[mate[u]] == u), no self-match, and every pair an
// edge of g. Otherwise one line naming the first violation and its vertex.
// Cost O(n + entries) for Csr (a binary search per matched vertex).
template <class W>
std::string matching_violation(const Csr<W>& g, const Matching& m);
template <class W>
std::string matching_violation(const Dense<W>& g, const Matching& m);

// True when no edge of g has both endpoints free.
template <class W>
bool is_maximal(const Csr<W>& g, const Matching& m);

}  // namespace matchblas
