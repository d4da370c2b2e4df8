// The greedy distance-1 colouring the Louvain entries on the CPU decide by
// (louvain_omp: a round's classes; the final moves' checked moves).
#pragma once
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"

namespace matchblas::community {

// The greedy distance-1 colouring in vertex order (loops aside): each
// vertex takes the smallest colour none of its lower neighbours has. colour
// per vertex, and each colour's class in vertex order. A vertex's colour
// depends only on its lower neighbours', so from rounds_from_threads
// OpenMP threads on (`threads`, 0: all) the vertices are first coloured in
// rounds, each in the round after its last lower neighbour, while a round
// has thousands of them; one pass in order colours the rest (and every
// vertex on fewer threads). The same colouring at any thread count, for a
// symmetric g (community::check_input's requirement).
// O(n + entries) work. (The H200 host's cores, bench/RESULTS.md: the
// rounds cost about 4x one pass's work, so they pay from 8 threads; ER 2^22
// 0.74 s on one thread, 0.27 s on 16; R-MAT 2^22, whose hubs keep its rounds
// small, 0.55 s either way, where rounds to the end took 1.1-1.3 s.
// Jones-Plassmann rounds by random priorities rescanned the hubs' rows once
// a round: level 0 of R-MAT 2^18 took 7.5 s with them, 1.8 s with one pass.)
inline constexpr int rounds_from_threads = 8;
struct Colouring {
  std::vector<vertex_t> colour;
  std::vector<std::vector<vertex_t>> classes;
};
Colouring greedy_colouring(const Csr<double>& g, int threads);

}  // namespace matchblas::community
