// One rank's part of a general graph distributed over P ranks: a 1D
// partition of the vertices into P consecutive blocks, this rank's rows
// with their columns, and its ghosts (neighbours owned by other ranks).
// Two partitions (Partition):
//   blocks: blocks of the vertex ids balanced by entries and vertices
//     together (each vertex counts its degree plus the mean degree);
//   spread: the vertices renumbered by a fixed pseudo-random bijection
//     (vertex_numbering.hpp) and cut into P equal blocks of the new labels,
//     so each rank holds n / P vertices and, for any order of the ids, about
//     m / P entries, at the price of more cross entries ((P - 1) / P of
//     them, against few for a graph whose ids follow its structure).
// Inside a DistGraph every vertex (first, cols, ghosts, begin()) is a label;
// numbering.id(label) is the vertex's id in the graph (the identity for
// blocks). The matchers work on labels alone; what they return names ids.
// Source: the partitioned graph of A. Thorsen, P. Merkey, Approximating
// weighted matchings using the partitioned global address space model,
// Tech. Report CS-TR-10-02, Michigan Technological University, 2010, sec. 4-5
// ("myV": the vertices with affinity to a process).
// Each row is sorted in the greedy order of one vertex (lib/greedy_order.hpp:
// heavier first, then the smaller id; the ids, not the labels), so that a
// vertex's best unmatched neighbour is the first entry of its row not known
// to be matched.
// Cost: O(n) for the blocks (a binary search per boundary), O(m_r log d)
// for this rank's rows (O(m_r) for rows that come in the greedy order), the
// ghosts O(m_r + n / 64) through a bit per vertex when n <= 32 m_r, else
// O(c log c) for c cross entries; memory O(n / P + m_r + ghosts) beyond the
// whole graph it is built from (which the caller may free afterwards).
// No MPI here: the partition is a pure function of (graph, rank, ranks).
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "datasets/distributed/vertex_numbering.hpp"

namespace matchblas {

// blocks, the default, keeps the locality of graphs whose ids follow their
// structure (a mesh's neighbours on the same rank); spread evens the shares
// of graphs whose ids do not (bench/RESULTS.md measures both).
enum class Partition { blocks, spread };

// A partition's name ("blocks", "spread"), and the partition of a name
// (nullopt for any other), for the command line and the reports.
inline const char* partition_name(Partition p) { return p == Partition::spread ? "spread" : "blocks"; }
inline std::optional<Partition> parse_partition(std::string_view name) {
  if (name == "blocks") return Partition::blocks;
  if (name == "spread") return Partition::spread;
  return std::nullopt;
}

struct DistGraph {
  int rank = 0, ranks = 1;
  Partition partition = Partition::blocks;
  VertexNumbering numbering;     // labels <-> ids (the identity for blocks)
  vertex_t n = 0;                // vertices of the whole graph
  offset_t edges = 0;            // undirected edges of the whole graph
  std::vector<vertex_t> first;   // ranks + 1 boundaries: rank r owns labels [first[r], first[r + 1])
  std::vector<offset_t> offsets; // this rank's rows, local index i = label - begin()
  std::vector<vertex_t> cols;    // labels, each row in the greedy order of the ids
  std::vector<double> weights;
  std::vector<vertex_t> ghosts;  // distinct neighbours other ranks own, ascending labels
  offset_t cross_entries = 0;    // entries of this rank's rows whose column another rank owns

  vertex_t begin() const { return first[rank]; }
  vertex_t count() const { return first[rank + 1] - first[rank]; }
  bool owns(vertex_t v) const { return v >= first[rank] && v < first[rank + 1]; }
  int owner(vertex_t v) const;  // the rank whose block holds label v (0 <= v < n)
  vertex_t id(vertex_t label) const { return numbering.id(label); }
  std::size_t bytes() const;
};

// The weight of a vertex in the blocks besides its degree: the mean degree
// (entries / n, at least 1). Then a block's share of the weight is the mean
// of its shares of the entries and of the vertices, so no block holds more
// than about 2/P of either. The matchers' work per rank follows its
// vertices (each active vertex is visited every round or sweep; few walk
// far along their rows), its memory follows its entries; a graph whose
// hubs sit together (R-MAT's low ids) gave one rank 4x the mean vertices
// when blocks were balanced by degree + 1 (bench/RESULTS.md).
double block_vertex_weight(offset_t entries, vertex_t n);

// The P + 1 block boundaries of a graph with these row offsets: block r ends
// at the first vertex u with offsets[u] + w u >= (r + 1) (m + w n) / P, w =
// block_vertex_weight(m, n), so that each block holds about 1/P of the
// degrees plus w per vertex. Empty blocks are allowed (P > n).
std::vector<vertex_t> balanced_blocks(const std::vector<offset_t>& offsets, int ranks);

// The P + 1 boundaries of the spread partition: P equal blocks of labels
// (block r starts at r n / P).
std::vector<vertex_t> equal_blocks(vertex_t n, int ranks);

// Rank `rank`'s part of g (a general graph: both directions of every edge).
template <class W>
DistGraph distribute(const Csr<W>& g, int rank, int ranks, Partition partition = Partition::blocks);

// The same from this rank's rows alone: row i of `rows` is the vertex of
// label first[rank] + i of a general graph on n vertices with `edges` edges
// (columns are ids), e.g. as received from the rank that read the graph
// (mpi::scatter_graph) or built from every rank's piece (dist_read.hpp);
// `partition` says which numbering `first` is in.
template <class W>
DistGraph distribute_rows(const Csr<W>& rows, vertex_t n, offset_t edges, std::vector<vertex_t> first, int rank,
                          Partition partition);

// The same, taking the rows' arrays as the part's own (no copy: a rank that
// keeps every row it built, as one rank does).
DistGraph distribute_rows(Csr<double>&& rows, vertex_t n, offset_t edges, std::vector<vertex_t> first, int rank,
                          Partition partition);

}  // namespace matchblas
