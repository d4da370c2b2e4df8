// The distributed graph input: each rank reads its own piece of a Matrix
// Market file, or draws its own share of a generated graph, and the ranks
// exchange what they found so that each ends with exactly the DistGraph
// that distribute() gives it from the whole graph (dist_graph.hpp); no rank
// ever holds the whole graph.
// How (collective over MPI_COMM_WORLD):
//   1. File: every rank reads the header; rank r parses the entry lines that
//      start in the r-th of P equal byte ranges (lib/mmio.hpp,
//      read_matrix_market_piece). Line numbers and entry counts are summed
//      over the ranks before it (MPI_Exscan), so a bad file gives the very
//      error, with the very line, that read_matrix_market gives, on every
//      rank. Generator: rank r draws its share of the edge draws
//      (datasets/generators.hpp, draw_part).
//   2. Each entry goes to the owners of both endpoints in a provisional
//      partition into P equal blocks of vertices (MPI_Alltoallv), which
//      apply the graph rules to their rows (lib/graph_from_matrix.hpp:
//      duplicates summed, w(u,v) = max(|a_uv|, |a_vu|), zeros and the
//      diagonal dropped, pattern weights drawn; for generated graphs the
//      larger weight of a duplicate), sums in the same order as the
//      single-process build, so every weight is the same double.
//   3. The final blocks: for the blocks partition the balanced boundaries
//      (balanced_blocks) from a prefix sum of the rows' degrees
//      (MPI_Exscan) and one MPI_Allreduce (MIN) of P - 1 candidates; for
//      the spread partition equal blocks of labels (dist_graph.hpp). Each
//      row is sent to its final owner (MPI_Alltoallv; for the blocks
//      partition the rows a rank built and also owns stay in place when
//      they are at least 3/8 of its entries), in the greedy order
//      (a drawn row is ordered where it is built; a file's row by its final
//      owner, distribute_rows), and its columns become labels there.
// The local builds bucket the received entries by row (a counting pass,
// lib/csr_build.hpp csr_from_entries) and sort each row alone.
// Memory per rank: its piece of the file (one 8 MiB chunk at a time), its
// entries (16 bytes each, twice while exchanged), its rows: O((n + m) / P +
// ghosts) when the entries spread evenly over the provisional blocks (a
// graph whose edges crowd a few vertex ids loads those ranks more).
// Cost: O(bytes / P) parsing, O(m / P log) sorting, three all-to-all
// exchanges and a few scalar collectives. The local builds use OpenMP with
// the threads OpenMP would start divided by the ranks on the host.
// Every failure (a bad file, a rank that cannot open it, too little memory)
// is agreed over the ranks: each rank throws the same exception, that of
// the lowest rank that failed (for a bad file: the first error in the file).
#pragma once
#include <functional>
#include <string>

#include "datasets/load.hpp"
#include "lib/generation.hpp"
#include "lib/mmio.hpp"
#include "datasets/distributed/dist_graph.hpp"

namespace matchblas::mpi {

// Seconds of the steps above, the slowest rank's.
struct ReadTimes {
  double parse_s = 0;   // step 1 (reading and parsing, or drawing)
  double build_s = 0;   // steps 2 and 3
  // build_s in parts, which add up to it (read in pieces or drawn; 0 when
  // rank 0 reads): the entries (a file's piece made entries, the
  // provisional blocks, the entries' exchange), the local rows' build, the
  // final blocks and the rows' exchange (each the slowest rank's).
  double exchange_s = 0, rows_s = 0, balance_s = 0;
};

// Whether read_graph takes the file: a plain coordinate file (not gzip, not
// a pipe) whose general graph is asked for (view general, or auto on a
// square file). Others are read whole by one rank (scatter_graph).
inline bool reads_in_pieces(const MmLayout& layout, GraphView view) {
  const MmHeader& h = layout.header;
  return layout.splittable && h.format == MmFormat::coordinate &&
         (view == GraphView::general || (view == GraphView::automatic && h.rows == h.cols));
}

// Collective: this rank's part of the general graph of the file (every rank
// passes the same layout, from read_matrix_market_layout on each rank).
// Throws shape_error for a rectangular file, as general_graph does.
DistGraph read_graph(const MmLayout& layout, Precision precision, const GraphRules& rules = {},
                     ReadTimes* times = nullptr, Partition partition = Partition::blocks);

// What load_graph gives: this rank's part, and on rank 0 (only) the graph's
// description and kind as graph_in_view names them.
struct LoadedPart {
  DistGraph part;
  std::string description;
  GraphKind kind = general_graphs;
  bool in_pieces = false;  // read by every rank (read_graph), else by rank 0 alone
  ReadTimes times;
};

// Collective: the part of the graph of `path` (a file, or "-": standard
// input, which only rank 0 has) that the distributed matchers run on: in
// pieces when reads_in_pieces, else rank 0 reads it whole
// (read_matrix_market, graph_in_view under `view`; a sparse graph only)
// and sends each rank its rows (scatter_graph). Every failure is thrown on
// every rank alike. on_header: the caller's check of the header (its memory
// check, which refuses by throwing) before rank 0 reads a whole file.
LoadedPart load_graph(const std::string& path, GraphView view, Precision precision,
                      const std::function<void(const MmHeader&)>& on_header = {},
                      Partition partition = Partition::blocks);

// Collective: this rank's part of the generated graph `kind` ("er" or
// "rmat"), identical to distribute(generate_sparse<W>(kind, n, opt), ...).
DistGraph generate_graph(const std::string& kind, vertex_t n, const GenOptions& opt, Precision precision,
                         ReadTimes* times = nullptr, Partition partition = Partition::blocks);

}  // namespace matchblas::mpi
