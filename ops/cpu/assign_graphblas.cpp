// Masked assign, the SuiteSparse:GraphBLAS backend of ops/assign.hpp:
// w<mask> = u (or = value) by GrB_Vector_assign over GrB_ALL, the mask
// valued (an entry counts when nonzero), no accumulator, no GrB_REPLACE.
// out, mask and values are copied into full GraphBLAS vectors
// (GxB_Vector_import_Full) and out is copied back: host arrays cannot be
// lent to GraphBLAS, which may free or reallocate what it holds.
// Guarantee: exactly ops/assign.hpp's loops (tests/ops/test_assign.cpp).
// Cost: O(n) copies in and out plus GraphBLAS's O(n) assign; entry types
// uint8, int32, int64, float, double.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "lib/error.hpp"
#include "ops/assign.hpp"
#include "ops/cpu/graphblas.hpp"

namespace matchblas::ops::detail {

namespace {

template <class T>
GrB_Type grb_type() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return GrB_UINT8;
  else if constexpr (std::is_same_v<T, std::int32_t>) return GrB_INT32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return GrB_INT64;
  else if constexpr (std::is_same_v<T, float>) return GrB_FP32;
  else return GrB_FP64;
}

// A full vector holding a copy of x.
template <class T>
grb::Vector full_copy(std::span<const T> x, const grb::Context& ctx) {
  void* p = grb::memory::allocate(std::max<std::size_t>(x.size(), 1) * sizeof(T));
  if (p == nullptr) throw out_of_memory("assign (graphblas): cannot allocate a vector");
  if (!x.empty()) std::memcpy(p, x.data(), x.size() * sizeof(T));
  grb::Vector v;
  const GrB_Info info = GxB_Vector_import_Full(v.out(), grb_type<T>(), GrB_Index(x.size()), &p,
                                               std::max<std::size_t>(x.size(), 1) * sizeof(T), false, ctx.plain());
  if (info != GrB_SUCCESS) grb::memory::release(p);  // still ours
  MATCHBLAS_GRB_TRY(info);
  return v;
}

template <class T>
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector mask, T value, GrB_Index n, GrB_Descriptor d) {
  if constexpr (std::is_same_v<T, std::uint8_t>) return GrB_Vector_assign_UINT8(w, mask, nullptr, value, GrB_ALL, n, d);
  else if constexpr (std::is_same_v<T, std::int32_t>) return GrB_Vector_assign_INT32(w, mask, nullptr, value, GrB_ALL, n, d);
  else if constexpr (std::is_same_v<T, std::int64_t>) return GrB_Vector_assign_INT64(w, mask, nullptr, value, GrB_ALL, n, d);
  else if constexpr (std::is_same_v<T, float>) return GrB_Vector_assign_FP32(w, mask, nullptr, value, GrB_ALL, n, d);
  else return GrB_Vector_assign_FP64(w, mask, nullptr, value, GrB_ALL, n, d);
}

// w<mask> = source, then out = w.
template <class T, class Source>
void assign_through_graphblas(std::span<T> out, std::span<const std::uint8_t> mask, const Source& source) {
  const std::size_t n = out.size();
  if (n == 0) return;
  const grb::Context ctx;
  grb::Vector w = full_copy<T>(std::span<const T>(out), ctx), m;
  if (!mask.empty()) m = full_copy<std::uint8_t>(mask, ctx);
  if constexpr (std::is_same_v<Source, T>) {
    MATCHBLAS_GRB_TRY(assign_scalar<T>(w.get(), m.get(), source, GrB_Index(n), ctx.plain()));
  } else {
    const grb::Vector u = full_copy<T>(source, ctx);
    MATCHBLAS_GRB_TRY(GrB_Vector_assign(w.get(), m.get(), nullptr, u.get(), GrB_ALL, GrB_Index(n), ctx.plain()));
  }
  GrB_Type type = nullptr;
  GrB_Index size = 0, bytes = 0;
  void* x = nullptr;
  bool iso = false;
  GrB_Vector raw = w.get();
  MATCHBLAS_GRB_TRY(GxB_Vector_export_Full(&raw, &type, &size, &x, &bytes, &iso, ctx.plain()));
  *w.out() = nullptr;  // exported: freed by GraphBLAS
  const T* const values = static_cast<const T*>(x);
  if (iso) std::fill(out.begin(), out.end(), values[0]);
  else std::memcpy(out.data(), values, n * sizeof(T));
  grb::memory::release(x);
}

}  // namespace

template <class T>
void assign_graphblas(std::span<T> out, std::span<const std::uint8_t> mask, std::span<const T> values) {
  assign_through_graphblas(out, mask, values);
}
template <class T>
void assign_graphblas(std::span<T> out, std::span<const std::uint8_t> mask, T value) {
  assign_through_graphblas(out, mask, value);
}

#define MATCHBLAS_ASSIGN_GRAPHBLAS(T)                                                                     \
  template void assign_graphblas<T>(std::span<T>, std::span<const std::uint8_t>, std::span<const T>); \
  template void assign_graphblas<T>(std::span<T>, std::span<const std::uint8_t>, T);
MATCHBLAS_ASSIGN_GRAPHBLAS(std::uint8_t)
MATCHBLAS_ASSIGN_GRAPHBLAS(std::int32_t)
MATCHBLAS_ASSIGN_GRAPHBLAS(std::int64_t)
MATCHBLAS_ASSIGN_GRAPHBLAS(float)
MATCHBLAS_ASSIGN_GRAPHBLAS(double)
#undef MATCHBLAS_ASSIGN_GRAPHBLAS

}  // namespace matchblas::ops::detail
