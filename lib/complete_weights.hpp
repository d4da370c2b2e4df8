// The weight of pair a < b of a generated complete graph (datasets/
// generators.hpp, complete_graph), as one pure function of (seed, a, b) that
// host and device code share: the CPU generator (datasets/generators.cpp)
// and the GPU one (ops/gpu/device_dense.cu) draw the same weights;
// the knn generator orders by squared_distance and weighs by geometric_weight.
// Source: N. H. Hovland, "Maximum weighted matching on a GPU", Master's
// thesis, University of Bergen, 2020, sec. 5.1 (uniform [0,1]; exponential,
// lambda = 3.5; geometric: distances of random points in the unit square).
// Cost: a few 64-bit mixes per weight (lib/counter_rng.hpp).
#pragma once
#include <cmath>
#include <cstdint>

#include "lib/counter_rng.hpp"
#include "lib/generation.hpp"
#include "lib/host_device.hpp"
#include "lib/types.hpp"

namespace matchblas {

namespace gen_detail {

// Stream ids: one per kind of draw, so that no two uses share draws.
enum : std::uint64_t { s_weight = 1, s_er = 2, s_rmat = 3, s_point_x = 4, s_point_y = 5 };

inline constexpr double exponential_lambda = 3.5;  // Hovland 2020 sec. 5.1

// A weight from {1/k, ..., 1}, uniformly.
MATCHBLAS_HD inline double tie_value(const rng::Stream& s, std::uint64_t i, int k) {
  return static_cast<double>(s.below(i, static_cast<std::uint64_t>(k)) + 1) / k;
}

}  // namespace gen_detail

// The pair weights of a complete graph. Geometric graphs need the points:
// x[i], y[i] = the point_x / point_y streams' uniform01(i) (point_x, point_y
// below), held by the caller; other kinds ignore them.
struct CompleteWeights {
  WeightDist dist;
  int ties;  // 0: continuous; k > 0: k distinct values (generators.hpp)
  rng::Stream ws;
  const double* x = nullptr;
  const double* y = nullptr;

  MATCHBLAS_HD CompleteWeights(WeightDist d, int k, std::uint64_t seed, const double* px = nullptr,
                               const double* py = nullptr)
      : dist(d), ties(k), ws(seed, gen_detail::s_weight), x(px), y(py) {}

  MATCHBLAS_HD static double point_x(std::uint64_t seed, std::uint64_t i) {
    return rng::Stream(seed, gen_detail::s_point_x).uniform01(i);
  }
  MATCHBLAS_HD static double point_y(std::uint64_t seed, std::uint64_t i) {
    return rng::Stream(seed, gen_detail::s_point_y).uniform01(i);
  }

  // The weight of pair a < b.
  MATCHBLAS_HD double operator()(vertex_t a, vertex_t b) const {
    const std::uint64_t i = static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(b - 1) / 2 + a;
    switch (dist) {
      case WeightDist::uniform:
        return ties > 0 ? gen_detail::tie_value(ws, i, ties) : ws.uniform_closed(i);
      case WeightDist::exponential:
        return ties > 0 ? gen_detail::tie_value(ws, i, ties) : ws.exponential(i, gen_detail::exponential_lambda);
      case WeightDist::geometric:
        return geometric_weight(squared_distance(x[b] - x[a], y[b] - y[a]), ties);
    }
    return 0;
  }

  // dx^2 + dy^2, each product rounded to double before the sum, on the
  // host and the device alike (so both give the same distances).
  MATCHBLAS_HD static double squared_distance(double dx, double dy) {
#ifdef __CUDA_ARCH__
    // Rounded as the host rounds (nvcc would fuse into an FMA).
    return __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
#else
    // Rounded apart on the host too (a compiler that contracts by
    // default, or -march with FMA, would fuse them): volatile products.
    const volatile double xx = dx * dx, yy = dy * dy;
    return xx + yy;
#endif
  }

  // The geometric weight of two points at squared distance d2: the
  // distance sqrt(d2), or with ties = k > 0 the nearest of {1/k, ..., 1}
  // (below 1/(2k) gives 1/k, above 1 gives 1).
  MATCHBLAS_HD static double geometric_weight(double d2, int ties) {
    const double r = sqrt(d2);
    if (ties == 0) return r;
    const double j = fmin(fmax(round(r * ties), 1.0), static_cast<double>(ties));
    return j / ties;
  }
};

}  // namespace matchblas
