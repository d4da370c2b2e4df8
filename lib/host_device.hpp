// MATCHBLAS_HD marks a function callable from host and device code: the
// CUDA qualifiers under nvcc, nothing elsewhere. For the few pure functions
// both sides share (counter-based draws, a complete graph's pair weights).
#pragma once

#ifdef __CUDACC__
#define MATCHBLAS_HD __host__ __device__
#else
#define MATCHBLAS_HD
#endif
