// Which implementation of an op runs (STYLE 7: each op's dispatcher is the
// one place that decides).
//   plain      C++/OpenMP, the fast CPU path
//   graphblas  SuiteSparse:GraphBLAS, the reference path. On a Csr (or host
//              arrays) the op imports its input per call and exports the
//              result; on a resident GraphBlasGraph (ops/graphblas_graph.hpp)
//              it imports nothing. error in a build without GraphBLAS.
//   gpu        CUDA, through the host entries of ops/gpu_ops.hpp (copies in
//              and out per call); error without a CUDA build or a GPU
//   automatic  plain (on a GraphBlasGraph: graphblas)
// Every backend of an op gives the same result for every input (the
// graphblas backend takes at most one entry per matrix position, and gives
// a weight of -0 back as +0).
#pragma once
#include <string>

#include "lib/error.hpp"

namespace matchblas::ops {

enum class Backend { automatic, plain, graphblas, gpu };

// True when this build has the graphblas backend.
bool have_graphblas() noexcept;

namespace detail {
inline const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "automatic";
    case Backend::plain: return "plain";
    case Backend::graphblas: return "graphblas";
    default: return "gpu";
  }
}
// The ops on a GraphBlasGraph run on the graphblas backend only.
inline void expect_graphblas_backend(Backend backend, const char* op) {
  if (backend != Backend::graphblas && backend != Backend::automatic)
    throw invalid_input(std::string(op) + ": a GraphBlasGraph runs on the graphblas backend, not " +
                        backend_name(backend));
}
}  // namespace detail

}  // namespace matchblas::ops
