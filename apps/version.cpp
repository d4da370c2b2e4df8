// matchblas --version: the version (CMake's project VERSION), the git
// revision the build was configured at, and the build's options (the
// definitions come from CMakeLists.txt, on this file only).
#include <cstdio>

#include "apps/commands.hpp"

#ifndef MATCHBLAS_VERSION
#define MATCHBLAS_VERSION "unknown"
#endif
#ifndef MATCHBLAS_GIT_REVISION
#define MATCHBLAS_GIT_REVISION "unknown"
#endif
#ifndef MATCHBLAS_CUDA_ARCHITECTURES
#define MATCHBLAS_CUDA_ARCHITECTURES ""
#endif
#ifndef MATCHBLAS_BUILD_TYPE
#define MATCHBLAS_BUILD_TYPE "unknown"
#endif

namespace matchblas::cli {

void print_version(std::FILE* out) {
  constexpr bool cuda =
#ifdef MATCHBLAS_HAVE_CUDA
      true;
#else
      false;
#endif
  constexpr bool graphblas =
#ifdef MATCHBLAS_HAVE_GRAPHBLAS
      true;
#else
      false;
#endif
  constexpr bool lemon =
#ifdef MATCHBLAS_HAVE_LEMON
      true;
#else
      false;
#endif
  constexpr bool superlu =
#ifdef MATCHBLAS_BUILD_SUPERLU
      true;
#else
      false;
#endif
  std::fprintf(out, "matchblas %s (git %s, %s build)\n", MATCHBLAS_VERSION, MATCHBLAS_GIT_REVISION,
               MATCHBLAS_BUILD_TYPE);
  if (cuda) std::fprintf(out, "CUDA: yes, architectures %s\n", MATCHBLAS_CUDA_ARCHITECTURES);
  else std::fprintf(out, "CUDA: no (the GPU algorithms are unavailable)\n");
  std::fprintf(out, "SuiteSparse:GraphBLAS: %s\n", graphblas ? "yes" : "no (the ops' GraphBLAS backend is absent)");
  std::fprintf(out, "LEMON: %s\n", lemon ? "yes" : "no (exact and --gto are unavailable)");
  std::fprintf(out, "SuperLU: %s\n", superlu ? "yes (examples and pre-pass references)" : "no");
}

}  // namespace matchblas::cli
