// Maximum-cardinality matching of a bipartite graph given as an m-by-n Csr,
// in parallel (OpenMP): the threaded twin of max_cardinality.hpp (MC64 job 1).
//   Algorithm: a parallel one-sided Karp-Sipser start (a column left with one
//   unmatched row takes it; other rows take their first free column; pairs
//   claimed by compare-exchange), then phases of parallel Pothen-Fan with
//   fairness and lookahead: the free rows are shared out dynamically, each
//   thread runs the depth-first search with one-step lookahead from its
//   rows, and a column is visited by one search per phase (claimed by an
//   atomic exchange of its phase stamp), so the paths of a phase are
//   vertex-disjoint and augment without locks; phases until none augments.
//   Source: A. Azad, M. Halappanavar, S. Rajamanickam, E. G. Boman, A. Khan,
//   A. Pothen, "Multithreaded algorithms for maximum matching in bipartite
//   graphs", IPDPS 2012 (PPF+, and a parallel Karp-Sipser start); Pothen and
//   Fan, ACM TOMS 16(4), 1990; fairness: Duff, Kaya and Ucar, ACM TOMS
//   38(2), 2011; R. M. Karp and M. Sipser, FOCS 1981.
//   Guarantee: cardinality (a maximum matching; for a structurally singular
//   matrix a maximum partial matching, its size the structural rank).
//   Not deterministic: which maximum matching depends on the interleaving.
//   Cost: the start O(m + n + nnz) work; each phase O(m + nnz) work and
//   depth its longest search, at most min(m, n) + 1 phases (each but the
//   last augments), so O(nnz * min(m, n)) work in the worst case; O(m + n)
//   memory besides a path stack per thread.
#pragma once
#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct MaxCardinalityOmpStats {
  vertex_t start_matched = 0;  // rows matched by the Karp-Sipser start
  vertex_t phases = 0;         // Pothen-Fan phases run (the last augments nothing, unless no row is left free)
};

// Weights are ignored (only the pattern counts). threads <= 0: the current
// OpenMP setting. Throws invalid_input when the Csr is malformed, as
// check_bipartite_csr. `stats`, when given, receives the counts above.
template <class W>
BipartiteMates max_cardinality_omp(const Csr<W>& a, int threads = 0, MaxCardinalityOmpStats* stats = nullptr);

}  // namespace matchblas
