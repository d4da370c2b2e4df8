// Parallel maximum-cardinality bipartite matching: a one-sided Karp-Sipser
// start by atomic claims, then parallel Pothen-Fan phases with fairness and
// lookahead (see max_cardinality_omp.hpp for source, guarantee and cost).
//
// Concurrency of the phases (the start's is told at KarpSipserStart). Inside
// a phase only two arrays are shared between threads: visited (a column's
// phase stamp) and col_mate. Every other array is
// indexed by rows, and a row is touched in a phase by one thread only: a
// free row by the loop iteration that takes it as a root; a matched row i
// only through its mate column j, after claiming j. (A root becomes matched,
// and i's mate changes, only through columns its own thread has claimed, so
// no other search can reach them through their new columns either.)
//   Claims. visited[j] holds the last phase whose search visited j; a search
// claims j by exchange(phase): the first exchange of the phase reads an
// older stamp, every later one reads `phase`, so exactly one search claims
// j per phase (the modification order of visited[j] decides; relaxed order
// suffices, the claim publishes nothing). The paths found in a phase are
// therefore vertex-disjoint: each augments alone, without locks.
//   col_mate. Within a phase col_mate[j] is written only by the search that
// claimed j (when it augments), so after a claim it still holds its value
// from the start of the phase (made visible by the barrier that ends the
// previous phase) and is read without surprise. The lookahead peeks at
// col_mate[j] before claiming, to claim only free columns; the peek may race
// with the claimer's store, so both are atomic (relaxed). It is a filter: if
// the peek saw -1 and the claim succeeds, no one else wrote j in this
// phase, so j is free indeed. A column once matched stays matched, so a peek
// that sees a row is right for the rest of the run.
//   Termination and maximality. Every phase with an augmentation adds at
// least one matched pair. In a phase without one, every search ran to exhaustion, so
// the claimed columns hold all that alternating paths reach from the free
// rows (each claimed column's mate was searched in full) and none is free:
// no augmenting path exists (Berge). The lookahead cursor of a row only
// advances: the columns it passed are matched, or claimed in that phase by a
// search that matched them (a claimed free column always ends a path).
//   Checked with ThreadSanitizer (clang 14, libomp with Archer) on random
// 3000-6000-row matrices at 2 and 4 threads: no report (one plain peek
// put in for the atomic one is reported).
#include "matchers/bipartite/max_cardinality_omp.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas {
namespace {

vertex_t peek(vertex_t& x) { return std::atomic_ref<vertex_t>(x).load(std::memory_order_relaxed); }
void publish(vertex_t& x, vertex_t v) { std::atomic_ref<vertex_t>(x).store(v, std::memory_order_relaxed); }

// True for exactly one caller per phase and column (see Claims above).
bool claim(vertex_t& stamp, vertex_t phase) {
  std::atomic_ref<vertex_t> s(stamp);
  return s.load(std::memory_order_relaxed) != phase && s.exchange(phase, std::memory_order_relaxed) != phase;
}

// Free rows per dynamic chunk of a phase: searches vary a lot in length.
// H100 host CPU, 2 threads, 1M-row stencil2d/stencil3d/circuit/heavy
// (datasets/solver_matrices.hpp): chunks of 1, 4 and 16 within noise of
// each other, 64 slower on circuit (1.8 s against 1.0-1.5 s); kept 16.
constexpr int phase_chunk = 16;

// Rows or columns per dynamic chunk of the start (each takes a few entries).
// Where a loop has one chunk only one thread could work, so those run
// without a parallel region (as do phases with one chunk of roots).
constexpr vertex_t start_chunk = 1024;

// The state of the phases: mates, per-row cursors, per-column stamps.
template <class W>
struct Phases {
  const Csr<W>& a;
  BipartiteMates& r;
  std::vector<vertex_t> visited;   // per column: last phase that claimed it
  std::vector<offset_t> lookahead;  // per row: next entry the lookahead tries
  std::vector<offset_t> left;       // per row: entries its DFS has still to scan

  Phases(const Csr<W>& a_, BipartiteMates& r_)
      : a(a_), r(r_), visited(std::size_t(a_.n_cols), -1), lookahead(a_.offsets.begin(), a_.offsets.end() - 1),
        left(std::size_t(a_.n_rows)) {}

  // A DFS with lookahead from the free row `root`, scanning rows forwards or
  // backwards (fairness); augments and returns true when it finds a path.
  // `path` is the caller's (thread's) stack of rows.
  bool search(vertex_t root, vertex_t phase, bool forwards, std::vector<vertex_t>& path) {
    path.assign(1, root);
    left[root] = a.degree(root);
    vertex_t found = -1;
    while (!path.empty() && found < 0) {
      const vertex_t i = path.back();
      // Lookahead: a free column adjacent to i ends the path at once.
      for (const offset_t end = a.offsets[i + 1]; lookahead[i] < end && found < 0; ++lookahead[i]) {
        const vertex_t j = a.cols[lookahead[i]];
        if (peek(r.col_mate[j]) < 0 && claim(visited[j], phase)) found = j;
      }
      if (found >= 0) break;
      bool descended = false;
      while (left[i] > 0 && !descended) {
        const offset_t k = forwards ? a.offsets[i + 1] - left[i] : a.offsets[i] + left[i] - 1;
        --left[i];
        const vertex_t j = a.cols[k];
        if (!claim(visited[j], phase)) continue;
        const vertex_t i2 = peek(r.col_mate[j]);  // stable now: j is ours
        if (i2 < 0) {
          found = j;  // a free column ends a path wherever it is met
          break;
        }
        left[i2] = a.degree(i2);
        path.push_back(i2);
        descended = true;
      }
      if (found < 0 && !descended) path.pop_back();
    }
    if (found < 0) return false;
    // Augment: each row on the path takes the next column, the last one `found`.
    for (vertex_t j = found, t = vertex_t(path.size()); t-- > 0;) {
      const vertex_t i = path[std::size_t(t)];
      const vertex_t old = r.row_mate[i];
      r.row_mate[i] = j;
      publish(r.col_mate[j], i);
      j = old;
    }
    return true;
  }
};

// The start: a one-sided Karp-Sipser matching by atomic claims. A column
// with one entry left whose row is unmatched can only ever be matched to
// that row, so it takes it at once (the degree-one rule, applied to columns:
// rows would need the transpose); the other rows take their first free
// column, and each match may leave columns with one row, which cascade.
//   tally[j] counts the entries of column j whose row is unmatched (high
// half) and XORs their rows (low half): at count one the low half names the
// row. A matched row subtracts its entries by compare-exchange of the whole
// word, so count and XOR always agree.
//   A pair (i, j) is claimed row first, then column (compare-exchange from
// -1 on row_mate[i], then on col_mate[j]); a thread that wins the row and
// loses the column puts the row back. Only the row's winner writes it again,
// so the mates agree when the start ends. Every access to the mates and the
// tallies is atomic (relaxed: each compare-exchange decides its race alone,
// and the barrier at the end of the start publishes the result).
template <class W>
class KarpSipserStart {
 public:
  KarpSipserStart(const Csr<W>& a, BipartiteMates& r) : a_(a), r_(r), tally_(std::size_t(a.n_cols), 0) {}

  vertex_t run() {
    const bool parallel = std::max(a_.n_rows, a_.n_cols) > start_chunk;
#pragma omp parallel for schedule(static) if (parallel)
    for (vertex_t i = 0; i < a_.n_rows; ++i)
      for (offset_t k = a_.offsets[i]; k < a_.offsets[i + 1]; ++k) {
        std::atomic_ref<std::uint64_t> t(tally_[a_.cols[k]]);
        t.fetch_add(std::uint64_t(1) << 32, std::memory_order_relaxed);
        t.fetch_xor(std::uint64_t(i), std::memory_order_relaxed);
      }
    vertex_t matched = 0;
    AllocationGuard guard;  // a list that cannot grow: rethrown after the region
#pragma omp parallel reduction(+ : matched) if (parallel)
    {
      std::vector<vertex_t> ones;  // columns that fell to one row
#pragma omp for schedule(dynamic, start_chunk)
      for (vertex_t j = 0; j < a_.n_cols; ++j)
        guard.run([&] {
          if (count(j) == 1) {
            ones.push_back(j);
            matched += cascade(ones);
          }
        });
#pragma omp for schedule(dynamic, start_chunk)
      for (vertex_t i = 0; i < a_.n_rows; ++i)
        guard.run([&] {
          while (peek(r_.row_mate[i]) < 0) {  // a lost race for a column: choose again
            vertex_t j = -1;
            for (offset_t k = a_.offsets[i]; k < a_.offsets[i + 1] && j < 0; ++k)
              if (peek(r_.col_mate[a_.cols[k]]) < 0) j = a_.cols[k];
            if (j < 0) break;
            if (pair(i, j, ones)) matched += 1 + cascade(ones);
          }
        });
    }
    guard.rethrow();
    return matched;
  }

 private:
  std::uint64_t count(vertex_t j) {
    return std::atomic_ref<std::uint64_t>(tally_[j]).load(std::memory_order_relaxed) >> 32;
  }

  // Matches i and j if both are free; then i's columns lose an entry, and
  // those left with one go to `ones`.
  bool pair(vertex_t i, vertex_t j, std::vector<vertex_t>& ones) {
    vertex_t free_row = -1, free_col = -1;
    if (!std::atomic_ref<vertex_t>(r_.row_mate[i]).compare_exchange_strong(free_row, j, std::memory_order_relaxed))
      return false;
    if (!std::atomic_ref<vertex_t>(r_.col_mate[j]).compare_exchange_strong(free_col, i, std::memory_order_relaxed)) {
      publish(r_.row_mate[i], -1);
      return false;
    }
    for (offset_t k = a_.offsets[i]; k < a_.offsets[i + 1]; ++k) {
      const vertex_t c = a_.cols[k];
      if (peek(r_.col_mate[c]) >= 0) continue;  // matched: its tally no longer counts
      std::atomic_ref<std::uint64_t> t(tally_[c]);
      std::uint64_t old = t.load(std::memory_order_relaxed), now;
      do now = (old - (std::uint64_t(1) << 32)) ^ std::uint64_t(i);
      while (!t.compare_exchange_weak(old, now, std::memory_order_relaxed));
      if (now >> 32 == 1) ones.push_back(c);
    }
    return true;
  }

  // Gives each column of `ones` still down to one unmatched row that row;
  // returns how many it matched.
  vertex_t cascade(std::vector<vertex_t>& ones) {
    vertex_t matched = 0;
    while (!ones.empty()) {
      const vertex_t j = ones.back();
      ones.pop_back();
      const std::uint64_t t = std::atomic_ref<std::uint64_t>(tally_[j]).load(std::memory_order_relaxed);
      if (t >> 32 == 1 && pair(vertex_t(t & 0xffffffffu), j, ones)) ++matched;
    }
    return matched;
  }

  const Csr<W>& a_;
  BipartiteMates& r_;
  std::vector<std::uint64_t> tally_;
};

// check_bipartite_csr's test in parallel; its message when it fails.
template <class W>
void check_csr(const Csr<W>& a) {
  bool ok = a.n_rows >= 0 && a.n_cols >= 0 && a.offsets.size() == std::size_t(a.n_rows) + 1 && a.offsets[0] == 0 &&
            std::size_t(a.offsets.back()) == a.cols.size();
  if (ok) {
#pragma omp parallel for schedule(static) reduction(&& : ok) if (a.n_rows > start_chunk)
    for (vertex_t i = 0; i < a.n_rows; ++i) {
      ok = ok && a.offsets[i] <= a.offsets[i + 1];
      for (offset_t k = a.offsets[i]; ok && k < a.offsets[i + 1]; ++k) ok = a.cols[k] >= 0 && a.cols[k] < a.n_cols;
    }
  }
  if (!ok) check_bipartite_csr(a);  // throws, naming the fault
}

}  // namespace

template <class W>
BipartiteMates max_cardinality_omp(const Csr<W>& a, int threads, MaxCardinalityOmpStats* stats) {
  const ScopedThreads scope(threads);
  check_csr(a);
  BipartiteMates r;
  r.row_mate.assign(std::size_t(a.n_rows), -1);
  r.col_mate.assign(std::size_t(a.n_cols), -1);
  r.matched = KarpSipserStart<W>(a, r).run();
  MaxCardinalityOmpStats s{.start_matched = r.matched};

  std::vector<vertex_t> free_rows;  // the roots of the next phase
  for (vertex_t i = 0; i < a.n_rows; ++i)
    if (r.row_mate[i] < 0 && a.degree(i) > 0) free_rows.push_back(i);
  Phases<W> p(a, r);
  while (!free_rows.empty()) {
    const vertex_t phase = s.phases++;
    const bool forwards = phase % 2 == 0;
    vertex_t augmented = 0;
    const auto roots = std::ptrdiff_t(free_rows.size());
    AllocationGuard guard;  // a path that cannot grow: rethrown after the region
#pragma omp parallel reduction(+ : augmented) if (roots > phase_chunk)
    {
      std::vector<vertex_t> path;
#pragma omp for schedule(dynamic, phase_chunk)
      for (std::ptrdiff_t t = 0; t < roots; ++t)
        guard.run([&] {
          if (p.search(free_rows[std::size_t(t)], phase, forwards, path)) {
            free_rows[std::size_t(t)] = -1;  // matched: no root next phase
            ++augmented;
          }
        });
    }
    guard.rethrow();
    if (augmented == 0) break;
    r.matched += augmented;
    std::erase(free_rows, vertex_t(-1));
  }
  if (stats) *stats = s;
  return r;
}

template BipartiteMates max_cardinality_omp(const Csr<float>&, int, MaxCardinalityOmpStats*);
template BipartiteMates max_cardinality_omp(const Csr<double>&, int, MaxCardinalityOmpStats*);

}  // namespace matchblas
