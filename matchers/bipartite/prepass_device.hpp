// Jobs 1, 4 and 5 of the pre-pass on a matrix in a caller's GPU memory,
// without copying it to the host (matchblas_prepass_device's path;
// prepass_device_gpu.cu): the arrays checked and made into the
// row-oriented matrix of |a_ij| (in job 5's symmetric mode each
// off-diagonal entry also mirrored, by a transpose and a merge), then job 1's maximum matching
// (cardinality-gpu's greedy start and phases; any shape), or (jobs 4-5, a
// square matrix) the costs and max-sum-gpu's three steps
// (gpu::min_cost_on_device: greedy start and maximum matching, auction,
// repair with canonical duals), and the results written, all on the device;
// only scalars cross to the host.
//
// Where it cannot finish on the device it declines before writing any
// output and says why, and the caller runs the path through host copies,
// which also names any fault in the arrays: pointers not from the base or
// decreasing, an index out of range, a value not finite, an entry given
// twice, more than 2^31 - 1 entries to reorder, a structurally singular
// matrix, device memory that ran out, a repair that stopped short,
// canonical duals that rounding made infeasible, or (job 5) an explicit
// zero in the optimum. Arrays whose allocations are shorter than the
// pointers say (where the driver can tell) are refused before any entry
// is read.
//
// Guarantee: exact, as cardinality-gpu and max-sum-gpu. The objective equals
// the host path's up to rounding (the logs are the device's, the sums in
// another order); job 5's scalings are the canonical duals of the matching,
// as on the host; a square matrix's permutation is the matching with its
// unmatched rows taking the free columns in order, as prepass_result makes
// it.
// Cost: the matcher's with the matrix on the device, plus O(nnz) passes for
// the checks, the costs and the results, and one transpose (a CSC matrix)
// or two (rows not in increasing column order) by cuSPARSE. Device memory:
// 20 bytes an entry for the matrix of |a_ij| and its costs (more during a
// transpose), plus max-sum-gpu's working arrays.
// Plain header.
#pragma once
#include <cstdint>
#include <string>

#include "matchers/bipartite/shortest_augmenting.hpp"

namespace matchblas {

// A caller's sparse matrix in GPU memory, as matchblas_sparse describes it.
struct DeviceSparseArrays {
  enum class Values { real64, real32, complex128, complex64, pattern };
  std::int64_t rows = 0, cols = 0;
  bool csc = false;      // column-oriented (else row-oriented)
  int base = 0;          // 0 or 1
  bool index64 = false;  // pointers and indices are int64 (else int32)
  Values values = Values::real64;
  const void* pointers = nullptr;
  const void* indices = nullptr;
  const void* data = nullptr;  // the values; null for a pattern
};

// Where the results go (null: not asked for): host arrays when on_host, else
// device memory on the call's GPU. The scalings only for job 5.
struct PrepassDeviceOutputs {
  std::int64_t* perm = nullptr;
  std::int64_t* row_mate = nullptr;
  std::int64_t* col_mate = nullptr;
  double* row_log_scale = nullptr;
  double* col_log_scale = nullptr;
  bool on_host = false;
};

struct PrepassOnDevice {
  std::string declined;  // empty: done and the outputs written; else why the caller must take the host path
  std::int64_t matched = 0;
  double objective = 0;        // job 1: matched; 4: sum |a_i,p(i)|; 5: sum log |a_i,p(i)|
  double min_matched_abs = 0;  // the smallest matched |a_ij|
  bool near_overflow = false;  // job 5: a scaling at or above log(DBL_MAX) / 2 in magnitude
  AuctionGpuReport report;     // max-sum-gpu's steps
  double arrays_s = 0, costs_s = 0, results_s = 0;  // the device's own steps around them
  double matching_s = 0;  // the matching itself (job 1's; jobs 4-5: the report's device_s + repair_s)
};

// a: a matrix with rows and columns whose description the caller checked
// (dimensions within 32-bit ids, layout, base, types), square for jobs 4-5;
// its arrays on GPU `device` (invalid_input naming the array otherwise);
// the outputs, unless out.on_host, device memory there (the caller
// checks). job: 1, 4 or 5; `symmetric`: job 5's symmetric mode (moduli_csr's
// mirror: each off-diagonal entry stands for both triangles; the one
// scaling (u + v) / 2 in both outputs). The work goes on `stream` (a
// cudaStream_t; null: one of its own). Throws cuda_error from the device,
// error in a build without CUDA; device memory running out declines.
PrepassOnDevice prepass_on_device(const DeviceSparseArrays& a, int job, bool symmetric, int device, void* stream,
                                  const PrepassDeviceOutputs& out);

}  // namespace matchblas
