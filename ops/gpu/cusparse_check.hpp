// MATCHBLAS_CUSPARSE_TRY(call): throws cuda_error (out_of_memory for
// CUSPARSE_STATUS_ALLOC_FAILED) naming the call, file, line and cuSPARSE
// status when call fails; the cuSPARSE twin of cuda_check.hpp.
// SparseHandle: an owned cuSPARSE handle (RAII). For .cu files only.
#pragma once
#include <cusparse.h>

#include <string>

#include "lib/error.hpp"

namespace matchblas::gpu {

namespace detail {

[[noreturn]] inline void throw_cusparse(cusparseStatus_t status, const char* what, const char* file, int line) {
  std::string msg = std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cusparseGetErrorName(status) + " (" + cusparseGetErrorString(status) + ")";
  if (status == CUSPARSE_STATUS_ALLOC_FAILED) throw out_of_memory("GPU " + msg);
  throw cuda_error(msg);
}

}  // namespace detail

}  // namespace matchblas::gpu

#define MATCHBLAS_CUSPARSE_TRY(call)                                                       \
  do {                                                                                     \
    cusparseStatus_t matchblas_status_ = (call);                                           \
    if (matchblas_status_ != CUSPARSE_STATUS_SUCCESS)                                      \
      ::matchblas::gpu::detail::throw_cusparse(matchblas_status_, #call, __FILE__, __LINE__); \
  } while (0)

namespace matchblas::gpu {

class SparseHandle {
 public:
  SparseHandle() { MATCHBLAS_CUSPARSE_TRY(cusparseCreate(&handle_)); }
  ~SparseHandle() {
    if (handle_) cusparseDestroy(handle_);
  }
  SparseHandle(const SparseHandle&) = delete;
  SparseHandle& operator=(const SparseHandle&) = delete;
  cusparseHandle_t get() const noexcept { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

}  // namespace matchblas::gpu
