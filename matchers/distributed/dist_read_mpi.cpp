// The distributed graph input (dist_read.hpp): pieces of a file or shares
// of a generator's draws, exchanged with MPI_Alltoallv.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>

#include "datasets/generators.hpp"
#include "lib/counter_rng.hpp"
#include "lib/csr_build.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/memory_budget.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/distributed/dist_read.hpp"
#include "matchers/distributed/mpi_session.hpp"

namespace matchblas::mpi {

namespace {

// One matrix entry or drawn edge on its way to a rank: (row, column, value).
struct Entry {
  vertex_t r, c;
  double v;
};
static_assert(sizeof(Entry) == 16);

// The OpenMP threads for this rank's local builds: the threads OpenMP would
// start, shared among the ranks on this host (several ranks' threads on the
// same cores, polling MPI besides, slowed a small read a hundredfold).
int threads_per_rank() {
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int local = 1;
  MPI_Comm_size(host, &local);
  MPI_Comm_free(&host);
  return std::max(1, omp_get_max_threads() / std::max(local, 1));
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// ---- failures agreed over the ranks ----------------------------------------

// A matchblas exception as data, to be thrown again on every rank.
struct Failure {
  enum Kind : int { none, parse, invalid, shape, memory, other } kind = none;
  long long line = 0;
  std::string file, reason, what;

  [[noreturn]] void raise() const {
    switch (kind) {
      case parse: throw parse_error(file, line, reason);
      case invalid: throw invalid_input(what);
      case shape: throw shape_error(what);
      case memory: throw out_of_memory(what);
      default: throw error(what);
    }
  }
};

void bcast_string(std::string& s, int root) {
  int length = int(s.size());
  MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD);
  s.resize(std::size_t(length));
  MPI_Bcast(s.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
}

// Collective: nothing when no rank failed, else every rank throws the
// failure of the lowest rank that did.
void agree(const Failure& mine) {
  const int rank = world_rank(), ranks = world_size();
  const int me = mine.kind == Failure::none ? ranks : rank;
  int first = ranks;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == ranks) return;
  Failure f = rank == first ? mine : Failure{};
  int head[2] = {int(f.kind), 0};
  long long line = f.line;
  MPI_Bcast(head, 2, MPI_INT, first, MPI_COMM_WORLD);
  MPI_Bcast(&line, 1, MPI_LONG_LONG, first, MPI_COMM_WORLD);
  bcast_string(f.file, first);
  bcast_string(f.reason, first);
  bcast_string(f.what, first);
  f.kind = Failure::Kind(head[0]);
  f.line = line;
  f.raise();
}

// Runs step() on this rank; what it threw, as a Failure (none: nothing).
template <class F>
Failure failure_of(const std::string& name, F step) {
  try {
    step();
  } catch (const parse_error& e) {
    return {Failure::parse, e.line(), e.file(), e.reason(), e.what()};
  } catch (const shape_error& e) {
    return {Failure::shape, 0, "", "", e.what()};
  } catch (const invalid_input& e) {
    return {Failure::invalid, 0, "", "", e.what()};
  } catch (const out_of_memory& e) {
    return {Failure::memory, 0, "", "", e.what()};
  } catch (const std::bad_alloc&) {
    return {Failure::memory, 0, "", "", name + ": out of memory while reading its part of the graph"};
  } catch (const std::exception& e) {
    return {Failure::other, 0, "", "", e.what()};
  }
  return {};
}

// Collective: runs step() (local work, no collective inside) on every rank;
// when it throws on any rank, every rank throws the lowest failing rank's
// exception (of the same type). Returns step's result.
template <class F>
auto agreed(const std::string& name, F step) -> decltype(step()) {
  using R = decltype(step());
  if constexpr (std::is_void_v<R>) {
    agree(failure_of(name, step));
  } else {
    R result{};
    agree(failure_of(name, [&] { result = step(); }));
    return result;
  }
}

// ---- exchanges -------------------------------------------------------------

int count_of(std::int64_t n) {
  if (n > std::numeric_limits<int>::max())
    throw error("a rank sends or receives more than 2^31 - 1 entries in one exchange (MPI's int counts): use "
                "more ranks, unless one vertex holds that many entries, which a block cannot split");
  return int(n);
}

// Collective: sends each item x to every rank that to(x, send) names (send(r)
// once per rank r); returns what this rank received, in the order of the
// senders' ranks and, from each, in the order sent. `items` is freed first.
template <class To>
std::vector<Entry> exchange(const std::string& name, std::vector<Entry>& items, To to) {
  const int ranks = world_size();
  std::vector<int> send_counts(std::size_t(ranks), 0), send_displs(std::size_t(ranks) + 1, 0);
  std::vector<Entry> send;
  agreed(name, [&] {
    std::vector<std::int64_t> counts(std::size_t(ranks), 0);
    // Items that go to one rank each, in rank order (rows sent in row
    // order), are sent as they are: no copy.
    bool in_order = true;
    int last = 0;
    for (const Entry& e : items) {
      int sends = 0;
      to(e, [&](int r) {
        ++counts[std::size_t(r)];
        in_order = in_order && ++sends == 1 && r >= last;
        last = r;
      });
    }
    for (int r = 0; r < ranks; ++r) {
      send_counts[r] = count_of(counts[r]);
      send_displs[r + 1] = count_of(std::int64_t(send_displs[r]) + send_counts[r]);
    }
    if (in_order) {
      send.swap(items);
      return;
    }
    send.resize(std::size_t(send_displs[ranks]));
    std::vector<int> next(send_displs.begin(), send_displs.end() - 1);
    for (const Entry& e : items) to(e, [&](int r) { send[std::size_t(next[r]++)] = e; });
    std::vector<Entry>().swap(items);
  });
  std::vector<int> recv_counts(std::size_t(ranks), 0), recv_displs(std::size_t(ranks) + 1, 0);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<Entry> recv;
  agreed(name, [&] {
    for (int r = 0; r < ranks; ++r) recv_displs[r + 1] = count_of(std::int64_t(recv_displs[r]) + recv_counts[r]);
    recv.resize(std::size_t(recv_displs[ranks]));
  });
  MPI_Datatype type;
  MPI_Type_contiguous(int(sizeof(Entry)), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), type, recv.data(), recv_counts.data(),
                recv_displs.data(), type, MPI_COMM_WORLD);
  MPI_Type_free(&type);
  return recv;
}

// Collective: the provisional partition of step 2, P consecutive blocks of
// 0..n-1 balanced by the work they get: each block's entry ends (an entry
// goes to the blocks of both its ends) plus its vertices, counted in B equal
// buckets of vertex ids summed over the ranks (O(B) = O(P) per rank), the
// boundaries on bucket edges. Equal blocks of vertices would leave graphs
// whose edges crowd the low ids (R-MAT unpermuted) mostly on rank 0.
std::vector<vertex_t> provisional_blocks(const std::vector<Entry>& entries, vertex_t n) {
  const int ranks = world_size();
  std::vector<vertex_t> first(std::size_t(ranks) + 1, n);
  first[0] = 0;
  if (n == 0 || ranks == 1) return first;
  const std::int64_t buckets = std::min<std::int64_t>(n, std::int64_t(1024) * ranks);
  const auto bucket = [&](vertex_t v) { return std::size_t(std::int64_t(v) * buckets / n); };
  const auto lower_edge = [&](std::int64_t b) { return vertex_t((b * n + buckets - 1) / buckets); };
  std::vector<std::int64_t> count(std::size_t(buckets), 0), sum(std::size_t(buckets), 0);
  for (const Entry& e : entries) {
    ++count[bucket(e.r)];
    ++count[bucket(e.c)];
  }
  for (std::int64_t b = 0; b < buckets; ++b) count[b] += world_rank() == 0 ? lower_edge(b + 1) - lower_edge(b) : 0;
  MPI_Allreduce(count.data(), sum.data(), int(buckets), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  std::int64_t total = 0;
  for (const std::int64_t c : sum) total += c;
  std::int64_t below = 0;  // work in the buckets before b
  int r = 1;
  for (std::int64_t b = 0; b < buckets && r < ranks; ++b) {
    while (r < ranks && double(below) >= double(total) * r / ranks) first[r++] = lower_edge(b);
    below += sum[b];
  }
  return first;
}

int block_of(const std::vector<vertex_t>& first, vertex_t v) {
  return int(std::upper_bound(first.begin(), first.end() - 1, v) - first.begin()) - 1;
}

// Sends e to the blocks of both its endpoints (once when they are one).
auto to_both_ends(const std::vector<vertex_t>& first) {
  return [&first](const Entry& e, auto send) {
    const int a = block_of(first, e.r), b = block_of(first, e.c);
    send(a);
    if (b != a) send(b);
  };
}

// ---- the graph rules on one block of rows ----------------------------------

// Rows lo..hi-1 of the general graph of a matrix (graph_from_matrix.hpp,
// general_graph) from every off-diagonal entry of the file with an end in
// them: the entries of key (a, b) summed as csr_from_triples sums them (in
// ascending order of value, whatever order they came in), then w(u, v) =
// max(|s_uv|, |s_vu|), zeros dropped, the weights cast to W and checked as
// general_graph checks them (the first bad entry in row order).
template <class W>
Csr<double> general_rows(vertex_t lo, vertex_t hi, vertex_t n, const std::vector<Entry>& in, const MmHeader& h) {
  const bool transpose = h.symmetry != MmSymmetry::general;
  const double sign = h.symmetry == MmSymmetry::skew_symmetric ? -1.0 : 1.0;
  const vertex_t count = hi - lo;
  // s_uv for u in the block; s_vu (as row u, column v), which a symmetric
  // file makes equal to s_uv (the same values summed in the same order).
  // Each bucketed straight from the received entries.
  const auto sums = [&](bool of_rows) {
    return csr_from_entries<double>(
        count, n, std::int64_t(in.size()),
        [&](std::int64_t k, auto emit) {
          const auto key = [&](vertex_t a, vertex_t b, double x) {
            if (!of_rows) std::swap(a, b);
            if (a >= lo && a < hi) emit(a - lo, b, x);
          };
          const Entry& e = in[std::size_t(k)];
          key(e.r, e.c, e.v);
          if (transpose) key(e.c, e.r, sign * e.v);
        },
        Duplicates::sum, /*drop_zeros=*/false);
  };
  const Csr<double> row_sums = sums(true);
  const Csr<double> col_sums = h.symmetry == MmSymmetry::symmetric ? Csr<double>{} : sums(false);
  // w(u, v) = max(|s_uv|, |s_vu|), zero dropped: both lists are sorted by
  // column, so one merge per row (the value csr_from_triples' max gives).
  Csr<double> g;
  g.n_rows = count;
  g.n_cols = n;
  g.offsets.assign(std::size_t(count) + 1, 0);
  g.cols.reserve(row_sums.cols.size() + col_sums.cols.size());
  g.weights.reserve(g.cols.capacity());
  const bool both = col_sums.n_rows > 0;
  for (vertex_t u = 0; u < count; ++u) {
    offset_t i = row_sums.offsets[u], j = both ? col_sums.offsets[u] : 0;
    const offset_t i_end = row_sums.offsets[u + 1], j_end = both ? col_sums.offsets[u + 1] : 0;
    while (i < i_end || j < j_end) {
      vertex_t c;
      double w;
      if (j == j_end || (i < i_end && row_sums.cols[i] < col_sums.cols[j])) {
        c = row_sums.cols[i];
        w = std::fabs(row_sums.weights[i++]);
      } else if (i == i_end || col_sums.cols[j] < row_sums.cols[i]) {
        c = col_sums.cols[j];
        w = std::fabs(col_sums.weights[j++]);
      } else {
        c = row_sums.cols[i];
        w = std::max(std::fabs(row_sums.weights[i++]), std::fabs(col_sums.weights[j++]));
      }
      if (w == 0) continue;
      g.cols.push_back(c);
      g.weights.push_back(w);
    }
    g.offsets[std::size_t(u) + 1] = offset_t(g.cols.size());
  }
  // To W, checked; a weight that underflows to zero in W is dropped.
  offset_t out = 0;
  for (vertex_t u = 0; u < count; ++u) {
    const offset_t first = g.offsets[u], last = g.offsets[u + 1];
    g.offsets[u] = out;
    for (offset_t k = first; k < last; ++k) {
      const W w = checked_weight<W>(g.weights[k], lo + u, g.cols[k]);
      if (w == W(0)) continue;
      g.cols[out] = g.cols[k];
      g.weights[out++] = double(w);
    }
  }
  g.offsets[count] = out;
  g.cols.resize(std::size_t(out));
  g.weights.resize(std::size_t(out));
  return g;
}

// Rows lo..hi-1 of a generated graph from every drawn edge with an end in
// them (weights already W values): both directions, a duplicate keeping the
// larger weight, self-loops (weight 0) dropped; each row bucketed straight
// from the received edges and left in the greedy order, so that its final
// owner only copies it (distribute_rows sorts only rows out of order).
Csr<double> drawn_rows(vertex_t lo, vertex_t hi, vertex_t n, const std::vector<Entry>& in) {
  return csr_from_entries<double>(
      hi - lo, n, std::int64_t(in.size()),
      [&](std::int64_t k, auto emit) {
        const Entry& e = in[std::size_t(k)];
        if (e.r >= lo && e.r < hi) emit(e.r - lo, e.c, e.v);
        if (e.c >= lo && e.c < hi) emit(e.c - lo, e.r, e.v);
      },
      Duplicates::max, /*drop_zeros=*/true, RowOrder::greedy);
}

// ---- step 3: the final blocks and the rows sent there ---------------------

DistGraph rows_received(std::vector<Entry> in, std::vector<vertex_t> first, vertex_t n, offset_t edges, int rank,
                        Partition partition);

// Collective: the boundaries of the blocks partition (balanced_blocks) from
// each rank's rows lo.. of its provisional block: boundary r is the first u
// with offsets[u] + w u >= total r / P over the whole offsets; each rank
// offers the first u of its block that qualifies (f(u) = offsets[u] + w u
// grows with u), n if none, and the smallest offer wins.
std::vector<vertex_t> balanced_boundaries(const Csr<double>& rows, vertex_t lo, vertex_t n, std::int64_t entries) {
  const int ranks = world_size();
  const std::int64_t mine = rows.offsets.back();
  std::int64_t before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (world_rank() == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
  const double w = block_vertex_weight(entries, n);
  const double total = double(entries) + w * double(n);
  std::vector<vertex_t> offer(std::size_t(std::max(ranks - 1, 1)), n), first(std::size_t(ranks) + 1, n);
  const vertex_t count = rows.n_rows;
  const auto f = [&](vertex_t u) { return double(before + rows.offsets[u]) + w * double(lo + u); };
  for (int r = 1; r < ranks; ++r) {
    const double target = total * r / ranks;
    vertex_t a = 0, b = count;
    while (a < b) {
      const vertex_t mid = a + (b - a) / 2;
      if (f(mid) >= target) b = mid;
      else a = mid + 1;
    }
    if (a < count) offer[r - 1] = lo + a;
  }
  if (ranks > 1)
    MPI_Allreduce(offer.data(), first.data() + 1, ranks - 1, MPI_INT32_T, MPI_MIN, MPI_COMM_WORLD);
  first[0] = 0;
  first[ranks] = n;
  return first;
}

// Collective: from each rank's rows lo.. of its provisional block (columns
// are ids), this rank's DistGraph under `partition`.
DistGraph balance(const std::string& name, Csr<double> rows, vertex_t lo, vertex_t n, Partition partition) {
  const int rank = world_rank(), ranks = world_size();
  const std::int64_t mine = rows.offsets.back();
  std::int64_t entries = 0;
  MPI_Allreduce(&mine, &entries, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const bool spread = partition == Partition::spread;
  std::vector<vertex_t> first = spread ? equal_blocks(n, ranks) : balanced_boundaries(rows, lo, n, entries);
  const VertexNumbering numbering = spread ? VertexNumbering::spread(n) : VertexNumbering{};
  // Each row to its owner: (label, column, weight) in row order.
  std::vector<Entry> out = agreed(name, [&] {
    std::vector<Entry> o;
    o.reserve(std::size_t(mine));
    for (vertex_t u = 0; u < rows.n_rows; ++u) {
      const vertex_t label = numbering.label(lo + u);
      for (offset_t k = rows.offsets[u]; k < rows.offsets[u + 1]; ++k) o.push_back({label, rows.cols[k], rows.weights[k]});
    }
    rows = {};
    return o;
  });
  std::vector<Entry> in =
      exchange(name, out, [&first](const Entry& e, auto send) { send(block_of(first, e.r)); });
  return agreed(name,
                [&] { return rows_received(std::move(in), std::move(first), n, entries / 2, rank, partition); });
}

// This rank's DistGraph from its rows as received (Entry::r the row's
// label): each row's entries arrive together and in order (one sender per
// row), the rows in any order; bucketed by row, stably.
DistGraph rows_received(std::vector<Entry> in, std::vector<vertex_t> first, vertex_t n, offset_t edges, int rank,
                        Partition partition) {
  Csr<double> part;
  const vertex_t base = first[rank];
  part.n_rows = first[rank + 1] - base;
  part.n_cols = n;
  part.offsets.assign(std::size_t(part.n_rows) + 1, 0);
  part.cols.resize(in.size());
  part.weights.resize(in.size());
  for (const Entry& e : in) ++part.offsets[std::size_t(e.r - base) + 1];
  for (vertex_t u = 0; u < part.n_rows; ++u) part.offsets[u + 1] += part.offsets[u];
  std::vector<offset_t> next(part.offsets.begin(), part.offsets.end() - 1);
  for (const Entry& e : in) {
    const offset_t k = next[std::size_t(e.r - base)]++;
    part.cols[k] = e.c;
    part.weights[k] = e.v;
  }
  in = {};
  return distribute_rows(part, n, edges, std::move(first), rank, partition);
}

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
    const std::size_t w = precision == Precision::single ? sizeof(float) : sizeof(double);
    require_memory(graph_build_bytes(h, GraphBuild::general, w) / ranks + double(std::size_t(8) << 20),
                   "rank " + std::to_string(rank) + "'s part (1/" + std::to_string(ranks) +
                       ") of the general graph of a " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                       " matrix with " + std::to_string(h.entries) + " entries");
  });
  auto start = std::chrono::steady_clock::now();
  MmPiece piece = read_piece(layout);
  if (times) times->parse_s = max_over_ranks(seconds_since(start));
  start = std::chrono::steady_clock::now();
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
  const vertex_t lo = blocks[rank], hi = blocks[rank + 1];
  Csr<double> rows = agreed(layout.name, [&] {
    return precision == Precision::single ? general_rows<float>(lo, hi, n, in, h) : general_rows<double>(lo, hi, n, in, h);
  });
  in = {};
  DistGraph d = balance(layout.name, std::move(rows), lo, n, partition);
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
    whole = graph_from_file(read_matrix_market(path, on_header), view, precision, {}, general_graphs | bipartite_graphs);
    if (whole.graph.index() >= 2) throw invalid_input("the distributed matchers take sparse graphs, not complete ones");
  });
  out.description = whole.description;
  out.kind = whole.kind;
  out.times.parse_s = max_over_ranks(seconds_since(start));
  const auto sent = std::chrono::steady_clock::now();
  if (precision == Precision::single) {
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
    const std::vector<DrawnEdge> drawn = precision == Precision::single
                                             ? draw_part<float>(kind, n, opt, rank, ranks)
                                             : draw_part<double>(kind, n, opt, rank, ranks);
    std::vector<Entry> out;
    out.reserve(drawn.size());
    for (const DrawnEdge& e : drawn)
      if (e.u != e.v) out.push_back({e.u, e.v, e.w});
    return out;
  });
  if (times) times->parse_s = max_over_ranks(seconds_since(start));
  start = std::chrono::steady_clock::now();
  const std::vector<vertex_t> blocks = provisional_blocks(entries, n);
  std::vector<Entry> in = exchange(kind, entries, to_both_ends(blocks));
  Csr<double> rows = agreed(kind, [&] { return drawn_rows(blocks[rank], blocks[rank + 1], n, in); });
  in = {};
  DistGraph d = balance(kind, std::move(rows), blocks[rank], n, partition);
  if (times) times->build_s = max_over_ranks(seconds_since(start));
  return d;
}

}  // namespace matchblas::mpi
