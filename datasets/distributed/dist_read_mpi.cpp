// The distributed graph input (dist_read.hpp): step 1 (this rank's piece
// of a file, its errors agreed, or its share of a generator's draws) and
// the public calls, read_graph, load_graph and generate_graph; the
// exchanges and failures are dist_exchange_mpi.cpp, the graph rules on a
// block and the final blocks dist_rows_mpi.cpp.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <new>

#include "datasets/distributed/dist_exchange_mpi.hpp"
#include "datasets/distributed/dist_read.hpp"
#include "datasets/distributed/mpi_world.hpp"
#include "datasets/generators.hpp"
#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/memory_budget.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas::mpi {

using namespace dist_read_detail;

namespace {

// The parts of build_s (ReadTimes): lap(field) stores the slowest rank's
// seconds since the previous lap (collective; nothing without `times`).
class StepTimer {
 public:
  explicit StepTimer(ReadTimes* times) : times_(times) {}
  void lap(double ReadTimes::*field) {
    if (!times_) return;
    times_->*field = max_over_ranks(seconds_since(start_));
    start_ = std::chrono::steady_clock::now();
  }

 private:
  ReadTimes* times_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// ---- step 1 for a file: the pieces and their errors ------------------------

// Collective: this rank's piece, its entries checked against the pieces
// before it; a bad file throws the first error of the file on every rank.
MmPiece read_piece(const MmLayout& layout) {
  const int rank = world_rank(), ranks = world_size();
  const MmHeader& h = layout.header;
  MmPiece piece = agreed(layout.name, [&] { return read_matrix_market_piece(layout, rank, ranks, h.entries); });
  const std::int64_t mine[2] = {piece.lines, std::int64_t(piece.entries.row.size())};
  std::int64_t before[2] = {0, 0}, all[2] = {0, 0};
  MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) before[0] = before[1] = 0;
  MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  // More entries than declared: read again with this piece's share of the
  // count, so that the error falls where read_matrix_market puts it (an
  // earlier piece already over the count has the first error).
  const std::int64_t declared = h.entries;
  Failure failure = failure_of(layout.name, [&] {
    if (before[1] <= declared &&
        (before[1] + mine[1] > declared || (!piece.error.empty() && before[1] + mine[1] == declared)))
      piece = read_matrix_market_piece(layout, rank, ranks, declared - before[1]);
  });
  if (failure.kind == Failure::none && !piece.error.empty())
    failure = {Failure::parse, piece.error_line > 0 ? layout.header_lines + before[0] + piece.error_line : 0,
               layout.name, piece.error, ""};
  agree(failure);
  if (all[1] < declared)
    throw parse_error(layout.name, layout.header_lines + all[0] + 1,
                      "expected " + std::to_string(declared) + " entries, file ends after " + std::to_string(all[1]));
  return piece;
}

// Collective: a symmetric or skew-symmetric file storing a pair in both
// triangles is refused on every rank with read_matrix_market's message
// (mmio.hpp, pair_in_both_triangles): when the ranks' entries lie on both
// sides, each off-diagonal entry goes, keyed by its pair, to the rank of
// the pair's smaller end (equal blocks of ids); each rank finds its
// smallest pair stored on both sides, with its first entry on each side,
// and the smallest over the ranks is named. One flag reduction when every
// entry lies on one side.
void refuse_pairs_in_both_triangles(const MmLayout& layout, const MmPiece& piece) {
  const int ranks = world_size();
  const MmMatrix& m = piece.entries;
  int sides[2] = {0, 0};  // lower, upper
  for (std::size_t k = 0; k < m.row.size() && !(sides[0] && sides[1]); ++k) {
    sides[0] |= m.row[k] > m.col[k];
    sides[1] |= m.row[k] < m.col[k];
  }
  MPI_Allreduce(MPI_IN_PLACE, sides, 2, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (!sides[0] || !sides[1]) return;
  const std::int64_t mine = std::int64_t(m.row.size());
  std::int64_t before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank() == 0) before = 0;
  const std::int64_t n = layout.header.rows;
  // (min, max, 2 x entry + upper side): entry numbers below 2^52 are exact in a double.
  std::vector<Entry> keyed = agreed(layout.name, [&] {
    std::vector<Entry> out;
    for (std::size_t k = 0; k < m.row.size(); ++k)
      if (m.row[k] != m.col[k])
        out.push_back({std::min(m.row[k], m.col[k]), std::max(m.row[k], m.col[k]),
                       double(2 * (before + std::int64_t(k)) + (m.row[k] < m.col[k] ? 1 : 0))});
    return out;
  });
  std::vector<Entry> in =
      exchange(layout.name, keyed, [&](const Entry& e, auto send) { send(int(std::int64_t(e.r) * ranks / n)); });
  std::sort(in.begin(), in.end(), [](const Entry& x, const Entry& y) {
    return x.r != y.r ? x.r < y.r : x.c != y.c ? x.c < y.c : x.v < y.v;
  });
  // This rank's smallest pair on both sides: its key, then its first entry
  // on each side (lower, upper).
  constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  std::int64_t first[2] = {none, none};
  for (std::size_t t = 0, end = 0; t < in.size() && best == std::numeric_limits<std::uint64_t>::max(); t = end) {
    std::int64_t side_first[2] = {none, none};
    for (end = t; end < in.size() && in[end].r == in[t].r && in[end].c == in[t].c; ++end) {
      const std::int64_t x = std::int64_t(in[end].v);
      side_first[x & 1] = std::min(side_first[x & 1], x >> 1);
    }
    if (side_first[0] == none || side_first[1] == none) continue;
    best = std::uint64_t(in[t].r) << 32 | std::uint64_t(in[t].c);
    first[0] = side_first[0];
    first[1] = side_first[1];
  }
  std::uint64_t smallest = 0;
  MPI_Allreduce(&best, &smallest, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  if (smallest == std::numeric_limits<std::uint64_t>::max()) return;
  if (best != smallest) first[0] = first[1] = none;
  MPI_Allreduce(MPI_IN_PLACE, first, 2, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  // The lower-side entry is (hi, lo), the upper-side one (lo, hi); named in file order.
  const vertex_t lo = vertex_t(smallest >> 32), hi = vertex_t(smallest & 0xffffffffu);
  const bool lower_first = first[0] < first[1];
  throw parse_error(layout.name, 0,
                    both_triangles_reason(layout.header.symmetry, std::min(first[0], first[1]), lower_first ? hi : lo,
                                          lower_first ? lo : hi, std::max(first[0], first[1]), lower_first ? lo : hi,
                                          lower_first ? hi : lo));
}

}  // namespace

DistGraph read_graph(const MmLayout& layout, Precision precision, const GraphRules& rules, ReadTimes* times,
                     Partition partition) {
  MATCHBLAS_EXPECTS(layout.splittable && layout.header.format == MmFormat::coordinate,
                    "read_graph: a plain coordinate file (reads_in_pieces)");
  const int rank = world_rank(), ranks = world_size();
  const MmHeader& h = layout.header;
  const ScopedThreads threads(threads_per_rank());
  // This rank's share of what the single-process build would hold, before
  // anything is read (MATCHBLAS_MEMORY_AVAILABLE may differ by rank).
  agreed(layout.name, [&] {
    const std::size_t w = precision == Precision::float32 ? sizeof(float) : sizeof(double);
    require_memory(graph_build_bytes(h, GraphBuild::general, w) / ranks + double(std::size_t(8) << 20),
                   "rank " + std::to_string(rank) + "'s part (1/" + std::to_string(ranks) +
                       ") of the general graph of a " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                       " matrix with " + std::to_string(h.entries) + " entries");
  });
  auto start = std::chrono::steady_clock::now();
  MmPiece piece = read_piece(layout);
  if (h.symmetry != MmSymmetry::general) refuse_pairs_in_both_triangles(layout, piece);
  if (times) times->parse_s = max_over_ranks(seconds_since(start));
  start = std::chrono::steady_clock::now();
  StepTimer step(times);
  if (h.rows != h.cols)
    throw shape_error("a general graph needs a square matrix, this one is " + std::to_string(h.rows) + " x " +
                      std::to_string(h.cols) + " (use the bipartite view)");
  const vertex_t n = h.rows;
  std::vector<Entry> entries = agreed(layout.name, [&] {
    std::vector<Entry> out;
    const MmMatrix& m = piece.entries;
    const bool pattern = h.field == MmField::pattern;
    out.reserve(m.row.size());
    for (std::size_t k = 0; k < m.row.size(); ++k) {
      const vertex_t r = m.row[k], c = m.col[k];
      if (r == c) continue;  // the diagonal is no edge
      out.push_back({r, c, pattern ? rng::uniform_open_closed(rules.pattern_seed, std::min(r, c), std::max(r, c))
                                   : m.val[k]});
    }
    return out;
  });
  piece = {};
  const std::vector<vertex_t> blocks = provisional_blocks(entries, n);
  std::vector<Entry> in = exchange(layout.name, entries, to_both_ends(blocks));
  step.lap(&ReadTimes::exchange_s);
  const vertex_t lo = blocks[rank], hi = blocks[rank + 1];
  Csr<double> rows = agreed(layout.name, [&] {
    return precision == Precision::float32 ? general_rows<float>(lo, hi, n, in, h) : general_rows<double>(lo, hi, n, in, h);
  });
  in = {};
  step.lap(&ReadTimes::rows_s);
  DistGraph d = balance(layout.name, std::move(rows), lo, n, partition);
  step.lap(&ReadTimes::balance_s);
  if (times) times->build_s = max_over_ranks(seconds_since(start));
  return d;
}

// Collective: whether every rank would read in pieces and sees the same
// header and file size. Each rank looks at the file on its own, so a path
// that exists on rank 0's node only (node-local /tmp, another working
// directory) or copies that differ would otherwise send the ranks down
// different paths (collectives that do not match: a hang); then rank 0
// reads its copy whole, as for standard input.
namespace {
bool same_on_every_rank(const MmLayout& layout, bool pieces) {
  const MmHeader& h = layout.header;
  const std::int64_t mine[6] = {pieces ? 1 : 0,  std::int64_t(h.rows),   std::int64_t(h.cols),
                                std::int64_t(h.entries), std::int64_t(layout.file_bytes),
                                std::int64_t(int(h.field) * 16 + int(h.symmetry))};
  std::int64_t low[6], high[6];
  MPI_Allreduce(mine, low, 6, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, high, 6, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return std::equal(low, low + 6, high) && low[0] == 1;
}
}  // namespace

LoadedPart load_graph(const std::string& path, GraphView view, Precision precision,
                      const std::function<void(const MmHeader&)>& on_header, Partition partition) {
  const std::string name = path == "-" ? "<stdin>" : path;
  const ScopedThreads threads(threads_per_rank());  // the local builds' threads: the rank's share of the cores
  const auto start = std::chrono::steady_clock::now();
  MmLayout layout;
  if (path != "-") layout = agreed(name, [&] { return read_matrix_market_layout(path); });
  LoadedPart out;
  if (same_on_every_rank(layout, reads_in_pieces(layout, view))) {
    out.in_pieces = true;
    out.part = read_graph(layout, precision, {}, &out.times, partition);
    out.description = "general graph, " + std::to_string(out.part.n) + " vertices, " +
                      std::to_string(out.part.edges) + " edges";
    return out;
  }
  // Rank 0 reads the whole file; the others wait for their rows.
  LoadedGraph whole;
  agreed(name, [&] {
    if (world_rank() != 0) return;
    whole = graph_in_view(read_matrix_market(path, on_header), view, precision, {}, general_graphs | bipartite_graphs);
    if (whole.graph.index() >= 2) throw invalid_input("the distributed matchers take sparse graphs, not complete ones");
  });
  out.description = whole.description;
  out.kind = whole.kind;
  out.times.parse_s = max_over_ranks(seconds_since(start));
  const auto sent = std::chrono::steady_clock::now();
  if (precision == Precision::float32) {
    const Csr<float>* g = world_rank() == 0 ? &std::get<Csr<float>>(whole.graph) : nullptr;
    out.part = scatter_graph(g, partition);
  } else {
    const Csr<double>* g = world_rank() == 0 ? &std::get<Csr<double>>(whole.graph) : nullptr;
    out.part = scatter_graph(g, partition);
  }
  out.times.build_s = max_over_ranks(seconds_since(sent));
  return out;
}

DistGraph generate_graph(const std::string& kind, vertex_t n, const GenOptions& opt, Precision precision,
                         ReadTimes* times, Partition partition) {
  const int rank = world_rank(), ranks = world_size();
  const ScopedThreads threads(threads_per_rank());
  auto start = std::chrono::steady_clock::now();
  std::vector<Entry> entries = agreed(kind, [&] {
    const std::vector<DrawnEdge> drawn = precision == Precision::float32
                                             ? draw_part<float>(kind, n, opt, rank, ranks)
                                             : draw_part<double>(kind, n, opt, rank, ranks);
    // Self-loops (weight 0) stay: drawn_rows drops them with the zeros.
    std::vector<Entry> out(drawn.size());
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < drawn.size(); ++k) out[k] = {drawn[k].u, drawn[k].v, drawn[k].w};
    return out;
  });
  if (times) times->parse_s = max_over_ranks(seconds_since(start));
  start = std::chrono::steady_clock::now();
  StepTimer step(times);
  const std::vector<vertex_t> blocks = provisional_blocks(entries, n);
  std::vector<Entry> in = exchange(kind, entries, to_both_ends(blocks));
  step.lap(&ReadTimes::exchange_s);
  Csr<double> rows = agreed(kind, [&] { return drawn_rows(blocks[rank], blocks[rank + 1], n, in); });
  in = {};
  step.lap(&ReadTimes::rows_s);
  DistGraph d = balance(kind, std::move(rows), blocks[rank], n, partition);
  step.lap(&ReadTimes::balance_s);
  if (times) times->build_s = max_over_ranks(seconds_since(start));
  return d;
}

}  // namespace matchblas::mpi
