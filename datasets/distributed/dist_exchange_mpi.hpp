// Private to datasets/distributed/*_mpi.cpp (the distributed graph input,
// dist_read.hpp): what its steps share. An entry on its way to a rank;
// failures agreed over the ranks (every rank throws the exception of the
// lowest rank that failed); the all-to-all exchange of entries; the
// provisional blocks of step 2; the graph rules on one block of rows and
// the final blocks of step 3 (dist_rows_mpi.cpp).
#pragma once
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/distributed/mpi_world.hpp"
#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/mmio.hpp"

namespace matchblas::mpi::dist_read_detail {

// One matrix entry or drawn edge on its way to a rank: (row, column, value).
struct Entry {
  vertex_t r, c;
  double v;
};
static_assert(sizeof(Entry) == 16);

// The OpenMP threads for this rank's local builds: where OMP_NUM_THREADS
// is set, the count it gives each rank (mpirun -x OMP_NUM_THREADS=T: the
// user split the cores), at most the rank's share of the cores it may run
// on; else the threads OpenMP would start, shared among the ranks on this
// host (several ranks' threads on the same cores, polling
// MPI besides, slowed a small read a hundredfold).
int threads_per_rank();

inline double seconds_since(std::chrono::steady_clock::time_point t) {
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

// Collective: nothing when no rank failed, else every rank throws the
// failure of the lowest rank that did.
void agree(const Failure& mine);

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

// n as an MPI count (int), or error when it does not fit.
int count_of(std::int64_t n);

// Collective: sends each item x to every rank that to(x, send) names (send(r)
// once per rank r); returns what this rank received, in the order of the
// senders' ranks and, from each, in the order sent. `items` is freed first.
template <class To>
std::vector<Entry> exchange(const std::string& name, std::vector<Entry>& items, To to) {
  const int ranks = world_size();
  if (ranks == 1) {  // every item stays, in order: nothing to copy
    std::vector<Entry> kept;
    kept.swap(items);
    return kept;
  }
  std::vector<int> send_counts(std::size_t(ranks), 0), send_displs(std::size_t(ranks) + 1, 0);
  std::vector<Entry> send;
  agreed(name, [&] {
    // Fixed slices of the items (at most 64, of 2^16 items or more: the
    // same on any number of threads), on the threads: each counts its items
    // per rank and whether they go to one rank each in rank order; then
    // each writes its items at its place in every rank's block (the blocks
    // hold the items in their order, whatever the threads).
    const std::int64_t size = std::int64_t(items.size());
    const int slices = int(std::clamp<std::int64_t>(size / 65536, 1, 64));
    const auto slice_begin = [size, slices](int t) { return size * t / slices; };
    std::vector<std::int64_t> counts(std::size_t(slices) * std::size_t(ranks), 0);
    std::vector<int> first_rank(std::size_t(slices), ranks), last_rank(std::size_t(slices), -1);
    std::vector<char> ordered(std::size_t(slices), 1);
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < slices; ++t) {
      std::int64_t* mine = counts.data() + std::size_t(t) * std::size_t(ranks);
      bool in_order = true;
      int last = -1;
      for (std::int64_t k = slice_begin(t); k < slice_begin(t + 1); ++k) {
        int sends = 0;
        to(items[std::size_t(k)], [&](int r) {
          ++mine[r];
          in_order = in_order && ++sends == 1 && r >= last;
          if (last < 0) first_rank[std::size_t(t)] = r;
          last = r;
        });
      }
      ordered[std::size_t(t)] = in_order;
      last_rank[std::size_t(t)] = last;
    }
    // Items that go to one rank each, in rank order (rows sent in row
    // order), are sent as they are: no copy.
    bool in_order = true;
    for (int t = 0, last = -1; t < slices; ++t) {
      in_order = in_order && ordered[std::size_t(t)] && (last_rank[std::size_t(t)] < 0 || first_rank[std::size_t(t)] >= last);
      if (last_rank[std::size_t(t)] >= 0) last = last_rank[std::size_t(t)];
    }
    for (int r = 0; r < ranks; ++r) {
      std::int64_t total = 0;
      for (int t = 0; t < slices; ++t) total += counts[std::size_t(t) * std::size_t(ranks) + std::size_t(r)];
      send_counts[r] = count_of(total);
      send_displs[r + 1] = count_of(std::int64_t(send_displs[r]) + send_counts[r]);
    }
    if (in_order) {
      send.swap(items);
      return;
    }
    // Each slice's place in each rank's block.
    for (int r = 0; r < ranks; ++r) {
      std::int64_t at = send_displs[r];
      for (int t = 0; t < slices; ++t) {
        std::int64_t& c = counts[std::size_t(t) * std::size_t(ranks) + std::size_t(r)];
        const std::int64_t n = c;
        c = at;
        at += n;
      }
    }
    send.resize(std::size_t(send_displs[ranks]));
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < slices; ++t) {
      std::int64_t* next = counts.data() + std::size_t(t) * std::size_t(ranks);
      for (std::int64_t k = slice_begin(t); k < slice_begin(t + 1); ++k) {
        const Entry& e = items[std::size_t(k)];
        to(e, [&](int r) { send[std::size_t(next[r]++)] = e; });
      }
    }
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
std::vector<vertex_t> provisional_blocks(const std::vector<Entry>& entries, vertex_t n);

// The block of `first` (P + 1 boundaries) that holds v.
inline int block_of(const std::vector<vertex_t>& first, vertex_t v) {
  return int(std::upper_bound(first.begin(), first.end() - 1, v) - first.begin()) - 1;
}

// Sends e to the blocks of both its endpoints (once when they are one).
inline auto to_both_ends(const std::vector<vertex_t>& first) {
  return [&first](const Entry& e, auto send) {
    const int a = block_of(first, e.r), b = block_of(first, e.c);
    send(a);
    if (b != a) send(b);
  };
}

// ---- the graph rules on one block of rows, step 3 (dist_rows_mpi.cpp) -----

// Rows lo..hi-1 of the general graph of a matrix from every off-diagonal
// entry of the file with an end in them (W = float or double).
template <class W>
Csr<double> general_rows(vertex_t lo, vertex_t hi, vertex_t n, const std::vector<Entry>& in, const MmHeader& h);

// Rows lo..hi-1 of a generated graph from every drawn edge with an end in
// them; `in` is freed once read (before the rows are sorted and written).
Csr<double> drawn_rows(vertex_t lo, vertex_t hi, vertex_t n, std::vector<Entry>& in);

// Collective: from each rank's rows lo.. of its provisional block (columns
// are ids), this rank's DistGraph under `partition`.
DistGraph balance(const std::string& name, Csr<double> rows, vertex_t lo, vertex_t n, Partition partition);

}  // namespace matchblas::mpi::dist_read_detail
