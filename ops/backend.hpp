// Which implementation of an op runs (STYLE 7: each op's dispatcher is the
// one place that decides).
//   plain      C++/OpenMP, the fast CPU path
//   graphblas  SuiteSparse:GraphBLAS, the reference path; argmax_rows only:
//              the other ops throw invalid_input when asked for it
//   gpu        CUDA, through the host entries of ops/gpu_ops.hpp (copies in
//              and out per call); error without a CUDA build or a GPU
//   automatic  plain
// Every backend of an op gives the same result for every input.
#pragma once
#include <string>

#include "lib/error.hpp"

namespace matchblas::ops {

enum class Backend { automatic, plain, graphblas, gpu };

namespace detail {
inline void expect_not_graphblas(Backend backend, const char* op) {
  if (backend == Backend::graphblas)
    throw invalid_input(std::string(op) + " has no graphblas backend (use plain, gpu or automatic)");
}
}  // namespace detail

}  // namespace matchblas::ops
