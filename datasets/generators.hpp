// Seeded graph generators. Every graph is a pure function of (kind, size,
// options): the same arguments give the same graph on every machine and for
// every thread count (each random draw is a counter-based hash of the seed and
// the draw's index, never a shared stream).
//
// Sources: N. H. Hovland, "Maximum weighted matching on a GPU", Master's
// thesis, University of Bergen, 2020 (Hovland 2020); A. Thorsen, P. Merkey,
// "Approximating weighted matchings using the partitioned global address
// space model", Tech. Report CS-TR-10-02, Michigan Technological University,
// 2010 (Thorsen and Merkey 2010).
//
//   complete_graph   dense symmetric n x n weights, Hovland 2020 sec. 5.1:
//                    uniform [0,1]; exponential, lambda = 3.5; geometric,
//                    Euclidean distance of n random points in the unit square
//   erdos_renyi      n vertices, round(edge_factor * n) edges drawn uniformly
//                    (self-loops and duplicates removed afterwards)
//   rmat             R-MAT (Chakrabarti et al. 2004) on n = 2^scale vertices,
//                    round(edge_factor * n) edges drawn with probabilities
//                    a, b, c, d = 1-a-b-c (Graph500 defaults 0.57/0.19/0.19),
//                    self-loops and duplicates removed; vertex ids are NOT
//                    permuted
//   grid2d           side x side 4-neighbour grid, no wrap-around (Thorsen and
//                    Merkey 2010 sec. 6: 256 x 256 has 65,536 vertices and
//                    130,560 edges)
//   complete_bipartite  K_{side,side}: vertices 0..side-1 on one side,
//                    side..2*side-1 on the other (Thorsen and Merkey 2010
//                    sec. 6 use 2,048 vertices)
//   knn_graph        geometric k-nearest-neighbour graph: n points uniform in
//                    the unit square (point i = (point_x(seed, i),
//                    point_y(seed, i)), the points of the complete geometric
//                    graph of the same seed); edge {u, v} when v is among
//                    u's k nearest or u among v's (the undirected union), by
//                    squared Euclidean distance with ties to the smaller id
//                    (datasets/nearest_neighbours.hpp); k = round(edge_factor)
//                    clamped to [1, n - 1], so the default 16 gives k = 16
//
// Sparse graphs get weights uniform in (0,1], except knn_graph: its edge
// {u, v} weighs what pair {u, v} weighs in the complete geometric graph of
// the same seed, the Euclidean distance, in (0, sqrt 2] (above 1 only for
// pairs farther apart than 1, neighbours only when k is a large part of n);
// two points at the same place (a chance of about n^2 2^-107) get 2^-53,
// the finest spacing of the points, instead of 0. With ties = k > 0 every
// weight (sparse and complete alike) is instead one of the k values
// {1/k, 2/k, ..., 1}, so that many edges tie and the tie rule is exercised.
// Sparse graphs are returned as general graphs (Csr with both directions,
// sorted columns, no self-loops); duplicates keep the largest weight.
//
// Details fixed by the implementation (datasets/generators.cpp):
//   - With ties = k, uniform and exponential weights are replaced by a uniform
//     draw from the k values; geometric distances are quantised to the nearest
//     of them (distances below 1/(2k) become 1/k, above 1 become 1), for
//     complete-geometric and knn alike (CompleteWeights::geometric_weight).
//   - An edge's weight depends only on (seed, the edge's draw index): drawn
//     edge i of erdos_renyi/rmat; pair u < v of a complete graph has index
//     v(v-1)/2 + u, so a complete graph on n vertices is the leading block of
//     the one on n + 1.
//   - Sizes: n >= 0 (0 and 1 give graphs without edges; rmat accepts them as
//     well as powers of two); at most 2^32 edges drawn or generated (for
//     knn_graph: n k neighbour pairs), and at most 2^38 bytes of dense
//     weights; larger requests throw invalid_input.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/complete_weights.hpp"  // the pair weights
#include "lib/generation.hpp"       // WeightDist, GenOptions
#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/types.hpp"

namespace matchblas {

template <class W>
Dense<W> complete_graph(WeightDist dist, vertex_t n, const GenOptions& opt = {});

template <class W>
Csr<W> erdos_renyi(vertex_t n, const GenOptions& opt = {});

// n must be a power of two (throws invalid_input otherwise).
template <class W>
Csr<W> rmat(vertex_t n, const GenOptions& opt = {});

// Part `part` of `parts` of the edges erdos_renyi ("er") or rmat ("rmat")
// draws (the edge draws k in [m part / parts, m (part + 1) / parts) of the
// m = round(edge_factor n)), each with its endpoints and its weight as W
// (0 for a self-loop) exactly as the whole graph's generator draws them
// (every draw depends only on the seed and k): the graph is both directions
// of every such edge, duplicates keeping the largest weight, zeros dropped.
// For generating one part of a graph (datasets/distributed/). The same
// argument checks; *drawn (when set) = m (0 when n < 2).
struct DrawnEdge {
  vertex_t u, v;
  double w;
};
template <class W>
std::vector<DrawnEdge> draw_part(const std::string& kind, vertex_t n, const GenOptions& opt, int part, int parts,
                                 std::int64_t* drawn = nullptr);

template <class W>
Csr<W> grid2d(vertex_t side, const GenOptions& opt = {});

template <class W>
Csr<W> complete_bipartite(vertex_t side, const GenOptions& opt = {});

// n points, k = opt.edge_factor rounded and clamped to [1, n - 1]; between
// n k / 2 and n k edges. Cost: O(n k log k) expected (the grid search of
// datasets/nearest_neighbours.hpp) plus csr_from_triples on 2 n k entries.
template <class W>
Csr<W> knn_graph(vertex_t n, const GenOptions& opt = {});

// The generator kinds by name, as `matchblas gen KIND N` takes them:
// complete-uniform, complete-exponential, complete-geometric, er, rmat, grid,
// bipartite, knn. For grid and bipartite N is the side. This table is the only
// place that maps names to generators: the dispatchers below, the CLI and the
// help text all read it. A sparse kind has the sparse_* functions set, a
// complete kind the complete_* ones; the others are null.
// The vertices and (undirected) edges of a generated graph, at most, and
// the bytes the generator holds at its peak with double weights (drawn
// edges as triples, their sort and the Csr; or the dense weights).
struct GeneratedSize {
  double vertices = 0, edges = 0, peak_bytes = 0;
};

struct GeneratorKind {
  std::string name;
  bool complete;             // true: a dense complete graph
  std::string size_meaning;  // what N means, for help text
  Csr<float> (*sparse_float)(vertex_t, const GenOptions&) = nullptr;
  Csr<double> (*sparse_double)(vertex_t, const GenOptions&) = nullptr;
  Dense<float> (*complete_float)(vertex_t, const GenOptions&) = nullptr;
  Dense<double> (*complete_double)(vertex_t, const GenOptions&) = nullptr;
  // What generating a graph of size N takes, known before anything is
  // allocated (the generators' own size checks still apply).
  GeneratedSize (*size)(vertex_t, const GenOptions&) = nullptr;
  bool takes_edge_factor = false;  // whether GenOptions::edge_factor shapes it (er, rmat, knn)
};
const std::vector<GeneratorKind>& generator_kinds();

// The kind called `name`, or null.
const GeneratorKind* find_generator_kind(std::string_view name);

// The kind names joined with ", ": all of them, or only the complete (or
// only the sparse) ones.
std::string generator_kind_names();
std::string generator_kind_names(bool complete);

// Dispatch by name: generate_sparse takes er, rmat, grid, bipartite, knn;
// generate_complete takes complete-uniform, complete-exponential,
// complete-geometric. Any other name throws invalid_input listing the valid
// ones.
template <class W>
Csr<W> generate_sparse(const std::string& kind, vertex_t n, const GenOptions& opt = {});

template <class W>
Dense<W> generate_complete(const std::string& kind, vertex_t n, const GenOptions& opt = {});

}  // namespace matchblas
