// The weights of a graph spread over the MPI ranks replaced by their ranks
// among the graph's distinct weights, as floats in the same order: what
// lib/weight_ranks.hpp computes for a whole graph, computed here from each
// rank's part alone (b-suitor-gpu over ranks keeps one packed word per
// offer with them; the greedy order is unchanged).
// How: a sample sort of the distinct weights. Each rank sorts its distinct
// weights (lib/weight_ranks.hpp's distinct_values: each entry's position
// among them comes with them), P - 1 splitters come from P samples of each, each distinct
// weight goes to its splitter's bucket rank (one MPI_Alltoallv), a bucket's
// rank numbers its distinct weights from the count of the buckets before it
// (MPI_Exscan), and the numbers go back the way the weights came.
// Collective over MPI_COMM_WORLD (without MPI: the one rank's own ranks).
// Throws invalid_input on a NaN weight and error past 2^31 - 2^24 distinct
// weights, on every rank alike. Cost: O((m / P) log m) per rank for m
// entries; two all-to-all exchanges of the distinct weights.
#pragma once
#include <vector>

namespace matchblas::mpi {

std::vector<float> weight_ranks_over_ranks(const std::vector<double>& weights, int threads = 0);

}  // namespace matchblas::mpi
