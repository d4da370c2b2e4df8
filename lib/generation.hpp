// What a generated graph is drawn from: the weight distributions of
// complete graphs (N. H. Hovland, "Maximum weighted matching on a GPU",
// Master's thesis, University of Bergen, 2020, sec. 5.1) and the generators'
// options. Below both datasets/ (the host generators) and matchers/
// (DeviceDense draws the same complete graphs on the GPU);
// datasets/generators.hpp says what each option means.
#pragma once
#include <cstdint>

namespace matchblas {

enum class WeightDist { uniform, exponential, geometric };

struct GenOptions {
  std::uint64_t seed = 1;
  double edge_factor = 16;  // erdos_renyi and rmat: edges drawn per vertex;
                            // knn_graph: k, the neighbours of each point
  int ties = 0;             // 0: continuous weights; k > 0: k distinct values
  double rmat_a = 0.57, rmat_b = 0.19, rmat_c = 0.19;
};

}  // namespace matchblas
