// argmax per row, the SuiteSparse:GraphBLAS backend: the reference path
// (ops/argmax.hpp states the semantics). SuiteSparse:GraphBLAS 7.4 has no
// GxB_IndexBinaryOp, so the argmax with the smallest-index tie rule is
// composed as DESIGN.md "The ops" describes (reduce with MAX; keep the
// entries equal to their row's max; reduce their column indices with MIN):
//
//   A  = the CSR imported by copy (GxB_Matrix_import_CSR; 7.4's indices are
//        64-bit, so the 32-bit column ids are widened into a new array anyway)
//   S  = select(qualify, A)   the entries that qualify. A user-defined
//        GrB_IndexUnaryOp qualify(w, i, j, y) tests active_rows[i],
//        eligible_cols[j] and neighbour_beats(w, i, floor_weight[j],
//        floor_vertex[j]); the masks are per row and per column, which no
//        built-in op can read, so its thunk y is a user type holding one
//        pointer to them (valid during the call; 7.4 has no JIT and calls
//        the op through its function pointer). Skipped without masks (S = A).
//   m  = -inf; m max= reduce_rows(S, MAX)    the row maxima, a full vector
//   E  = diag(m) ANY.EQ S     E(i,j) = (S(i,j) == m(i)); a row scaling
//                             (SuiteSparse detects the full diagonal)
//   E1 = select(VALUEEQ, E, true)            the entries at their row's max
//   J  = apply(COLINDEX, E1)  J(i,j) = j
//   b  = reduce_rows(J, MIN)  the smallest column at the row max
//   best[i] = b(i), best_weight[i] = m(i) where b(i) exists; -1, 0 elsewhere.
// Everything after the qualify select is built-in. Measured against
// alternatives (dev, 7.6M entries, one thread): a user op "j if S(i,j) ==
// m[i]" applied then reduced with MIN took 1.3x as long as E, E1 and b
// together; a (weight, index) user type with a user monoid 1.7x (7.4 runs
// user ops through generic kernels, about 20 ns per entry).
//
// Source: seed 003 (strongest neighbour, smallest index on ties), DESIGN.md
// "The ops" and "Dependency facts". Guarantee: the same result as the plain
// backend for every input with sorted columns (tests/ops/test_argmax.cpp).
// Cost: O(rows + entries) work: import, [select], reduce, scale and select
// over all entries, then two passes over about one entry per row, on
// GraphBLAS's threads (omp_get_max_threads() of the caller, passed by the
// descriptor). On dev (2 shared cores), R-MAT scale 20-22, float: 12-18x
// the plain backend without masks (the import alone, 12 bytes per entry
// written to fresh memory, is about 5x; each built-in pass writes a new
// pattern), 8-13x with half the rows active and a floor (the generic
// qualify select dominates); see bench_argmax. Issue 3's 5x is missed. Every GrB call is checked and throws matchblas::error
// (out_of_memory for GrB_OUT_OF_MEMORY) naming the call and its GrB_Info.
// GrB_init(GrB_NONBLOCKING) runs once, on first use.
extern "C" {
#include <GraphBLAS.h>
}
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ops/argmax.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"

namespace matchblas::ops {

bool have_graphblas() noexcept { return true; }

namespace detail {
namespace {

const char* info_name(GrB_Info info) {
  static constexpr std::pair<GrB_Info, const char*> names[] = {
      {GrB_NO_VALUE, "GrB_NO_VALUE"}, {GrB_UNINITIALIZED_OBJECT, "GrB_UNINITIALIZED_OBJECT"},
      {GrB_NULL_POINTER, "GrB_NULL_POINTER"}, {GrB_INVALID_VALUE, "GrB_INVALID_VALUE"},
      {GrB_INVALID_INDEX, "GrB_INVALID_INDEX"}, {GrB_DOMAIN_MISMATCH, "GrB_DOMAIN_MISMATCH"},
      {GrB_DIMENSION_MISMATCH, "GrB_DIMENSION_MISMATCH"}, {GrB_OUTPUT_NOT_EMPTY, "GrB_OUTPUT_NOT_EMPTY"},
      {GrB_NOT_IMPLEMENTED, "GrB_NOT_IMPLEMENTED"}, {GrB_PANIC, "GrB_PANIC"},
      {GrB_OUT_OF_MEMORY, "GrB_OUT_OF_MEMORY"}, {GrB_INSUFFICIENT_SPACE, "GrB_INSUFFICIENT_SPACE"},
      {GrB_INVALID_OBJECT, "GrB_INVALID_OBJECT"}, {GrB_INDEX_OUT_OF_BOUNDS, "GrB_INDEX_OUT_OF_BOUNDS"},
      {GrB_EMPTY_OBJECT, "GrB_EMPTY_OBJECT"}};
  for (const auto& [code, name] : names)
    if (code == info) return name;
  return "an unknown GrB_Info";
}

void grb_check(GrB_Info info, const char* call, int line) {
  if (info == GrB_SUCCESS) return;
  const std::string c(call);
  const std::string msg = "ops/cpu/argmax_graphblas.cpp:" + std::to_string(line) + ": " +
                          c.substr(0, c.find('(')) + " failed: " + info_name(info);
  if (info == GrB_OUT_OF_MEMORY) throw out_of_memory(msg);
  throw error(msg);
}

// Checks one GrB call; the message names the function (the text before '(').
#define MATCHBLAS_GRB_TRY(call) grb_check((call), #call, __LINE__)

// An owned GraphBLAS object, freed on scope exit (STYLE 12: RAII).
template <class H, GrB_Info (*Free)(H*)>
class Owned {
 public:
  Owned() = default;
  ~Owned() { reset(); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  H* out() { return &h_; }
  H get() const { return h_; }
  void reset() {
    if (h_ != nullptr) Free(&h_);
    h_ = nullptr;
  }

 private:
  H h_ = nullptr;
};
using Matrix = Owned<GrB_Matrix, GrB_Matrix_free>;
using Vector = Owned<GrB_Vector, GrB_Vector_free>;
using Scalar = Owned<GrB_Scalar, GrB_Scalar_free>;
using Descriptor = Owned<GrB_Descriptor, GrB_Descriptor_free>;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// What the qualify op reads; a null pointer means "mask absent".
template <class W>
struct QualifyData {
  const std::uint8_t* active;
  const std::uint8_t* eligible;
  const W* floor_weight;
  const vertex_t* floor_vertex;
};

// z = entry (i, j) of weight x qualifies; y holds a const QualifyData<W>*.
template <class W>
void qualify(void* z, const void* x, GrB_Index i, GrB_Index j, const void* y) {
  const QualifyData<W>& d = **static_cast<const QualifyData<W>* const*>(y);
  const W w = *static_cast<const W*>(x);
  *static_cast<bool*>(z) =
      (d.active == nullptr || d.active[i] != 0) && (d.eligible == nullptr || d.eligible[j] != 0) &&
      (d.floor_weight == nullptr || neighbour_beats(w, vertex_t(i), d.floor_weight[j], d.floor_vertex[j]));
}

struct Globals {
  GrB_Type pointer = nullptr;  // one const void*, the thunk of qualify
  GrB_IndexUnaryOp qualify_fp32 = nullptr, qualify_fp64 = nullptr;
};

// GraphBLAS and the user objects, created once (thread-safe static init;
// retried on the next call if it threw).
const Globals& globals() {
  static const Globals g = [] {
    const GrB_Info init = GrB_init(GrB_NONBLOCKING);
    // GrB_INVALID_VALUE: GraphBLAS was already initialised by another part
    // of the program (GrB_init may be called once per process).
    if (init != GrB_INVALID_VALUE) MATCHBLAS_GRB_TRY(init);
    Globals r;
    MATCHBLAS_GRB_TRY(GxB_Type_new(&r.pointer, sizeof(const void*), "matchblas_pointer", nullptr));
    MATCHBLAS_GRB_TRY(GxB_IndexUnaryOp_new(&r.qualify_fp32, qualify<float>, GrB_BOOL, GrB_FP32, r.pointer,
                                           "matchblas_qualify_fp32", nullptr));
    MATCHBLAS_GRB_TRY(GxB_IndexUnaryOp_new(&r.qualify_fp64, qualify<double>, GrB_BOOL, GrB_FP64, r.pointer,
                                           "matchblas_qualify_fp64", nullptr));
    return r;
  }();
  return g;
}

// A GrB_Scalar of the pointer type holding p.
void pointer_scalar(Scalar& s, const void* p) {
  MATCHBLAS_GRB_TRY(GrB_Scalar_new(s.out(), globals().pointer));
  MATCHBLAS_GRB_TRY(GrB_Scalar_setElement_UDT(s.get(), &p));
}

// The GraphBLAS names of what depends on W.
template <class W>
struct Grb;
template <>
struct Grb<float> {
  static GrB_Type type() { return GrB_FP32; }
  static GrB_Monoid max_monoid() { return GrB_MAX_MONOID_FP32; }
  static GrB_IndexUnaryOp qualify() { return globals().qualify_fp32; }
  static GrB_BinaryOp max() { return GrB_MAX_FP32; }
  static GrB_Semiring any_eq() { return GxB_ANY_EQ_FP32; }
  static GrB_Info fill(GrB_Vector v, float x, GrB_Index n, GrB_Descriptor d) {
    return GrB_Vector_assign_FP32(v, nullptr, nullptr, x, GrB_ALL, n, d);
  }
  static GrB_Info tuples(GrB_Index* i, float* x, GrB_Index* n, GrB_Vector v) {
    return GrB_Vector_extractTuples_FP32(i, x, n, v);
  }
};
template <>
struct Grb<double> {
  static GrB_Type type() { return GrB_FP64; }
  static GrB_Monoid max_monoid() { return GrB_MAX_MONOID_FP64; }
  static GrB_IndexUnaryOp qualify() { return globals().qualify_fp64; }
  static GrB_BinaryOp max() { return GrB_MAX_FP64; }
  static GrB_Semiring any_eq() { return GxB_ANY_EQ_FP64; }
  static GrB_Info fill(GrB_Vector v, double x, GrB_Index n, GrB_Descriptor d) {
    return GrB_Vector_assign_FP64(v, nullptr, nullptr, x, GrB_ALL, n, d);
  }
  static GrB_Info tuples(GrB_Index* i, double* x, GrB_Index* n, GrB_Vector v) {
    return GrB_Vector_extractTuples_FP64(i, x, n, v);
  }
};

template <class T>
std::unique_ptr<T, FreeDeleter> allocate(std::size_t n) {
  // GraphBLAS frees what it imports with free() (GrB_init's default).
  auto* p = static_cast<T*>(std::malloc(std::max<std::size_t>(n, 1) * sizeof(T)));
  if (p == nullptr) throw out_of_memory("argmax_rows (graphblas): cannot allocate the imported matrix");
  return std::unique_ptr<T, FreeDeleter>(p);
}

// A = a, by copy, as a GraphBLAS CSR matrix of type W.
template <class W>
void import_csr(Matrix& A, const Csr<W>& a, GrB_Descriptor desc) {
  const std::size_t np = std::size_t(a.n_rows) + 1, ne = std::size_t(a.num_entries());
  auto ap = allocate<GrB_Index>(np);
  auto aj = allocate<GrB_Index>(ne);
  auto ax = allocate<W>(ne);
  GrB_Index* const p = ap.get();
  GrB_Index* const j = aj.get();
  W* const x = ax.get();
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < np; ++k) p[k] = GrB_Index(a.offsets[k]);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < ne; ++k) {
    j[k] = GrB_Index(a.cols[k]);
    x[k] = a.weights[k];
  }
  GrB_Index* pp = p;
  GrB_Index* jj = j;
  void* xx = x;
  const std::size_t ne1 = std::max<std::size_t>(ne, 1);
  MATCHBLAS_GRB_TRY(GxB_Matrix_import_CSR(A.out(), Grb<W>::type(), GrB_Index(a.n_rows), GrB_Index(a.n_cols), &pp,
                                          &jj, &xx, np * sizeof(GrB_Index), ne1 * sizeof(GrB_Index),
                                          ne1 * sizeof(W), /*iso=*/false, /*jumbled=*/false, desc));
  // GraphBLAS owns the arrays now.
  (void)ap.release();
  (void)aj.release();
  (void)ax.release();
}

}  // namespace

template <class W>
void argmax_rows_graphblas(const Csr<W>& a, const ArgmaxMasks<W>& masks, std::span<vertex_t> best,
                           std::span<W> best_weight) {
  using G = Grb<W>;
  std::fill(best.begin(), best.end(), no_vertex);
  std::fill(best_weight.begin(), best_weight.end(), W(0));
  if (a.num_entries() == 0) return;  // nothing qualifies (this also covers 0 rows or 0 columns)
  const GrB_Index nr = GrB_Index(a.n_rows), nc = GrB_Index(a.n_cols);
  globals();

  Descriptor desc;
  MATCHBLAS_GRB_TRY(GrB_Descriptor_new(desc.out()));
  MATCHBLAS_GRB_TRY(GxB_Desc_set(desc.get(), GxB_DESCRIPTOR_NTHREADS, omp_get_max_threads()));

  Matrix A, S_owned;
  import_csr(A, a, desc.get());
  GrB_Matrix S = A.get();
  if (!masks.active_rows.empty() || !masks.eligible_cols.empty() || !masks.floor_weight.empty()) {
    const QualifyData<W> data{masks.active_rows.empty() ? nullptr : masks.active_rows.data(),
                              masks.eligible_cols.empty() ? nullptr : masks.eligible_cols.data(),
                              masks.floor_weight.empty() ? nullptr : masks.floor_weight.data(),
                              masks.floor_vertex.empty() ? nullptr : masks.floor_vertex.data()};
    Scalar thunk;
    pointer_scalar(thunk, &data);
    MATCHBLAS_GRB_TRY(GrB_Matrix_new(S_owned.out(), G::type(), nr, nc));
    MATCHBLAS_GRB_TRY(GrB_Matrix_select_Scalar(S_owned.get(), nullptr, nullptr, G::qualify(), A.get(), thunk.get(),
                                               desc.get()));
    A.reset();
    S = S_owned.get();
  }

  // m = the row maxima, -inf where a row of S is empty (so diag(m) is full).
  Vector m;
  MATCHBLAS_GRB_TRY(GrB_Vector_new(m.out(), G::type(), nr));
  MATCHBLAS_GRB_TRY(G::fill(m.get(), -std::numeric_limits<W>::infinity(), nr, desc.get()));
  MATCHBLAS_GRB_TRY(GrB_Matrix_reduce_Monoid(m.get(), nullptr, G::max(), G::max_monoid(), S, desc.get()));

  // E = (S == m(i)) with the pattern of S; E1 = its true entries.
  Matrix D, E, E1;
  MATCHBLAS_GRB_TRY(GrB_Matrix_diag(D.out(), m.get(), 0));
  MATCHBLAS_GRB_TRY(GrB_Matrix_new(E.out(), GrB_BOOL, nr, nc));
  MATCHBLAS_GRB_TRY(GrB_mxm(E.get(), nullptr, nullptr, G::any_eq(), D.get(), S, desc.get()));
  D.reset();
  A.reset();
  S_owned.reset();
  MATCHBLAS_GRB_TRY(GrB_Matrix_new(E1.out(), GrB_BOOL, nr, nc));
  MATCHBLAS_GRB_TRY(GrB_Matrix_select_BOOL(E1.get(), nullptr, nullptr, GrB_VALUEEQ_BOOL, E.get(), true, desc.get()));
  E.reset();

  // J = the column indices of E1; b = the smallest per row.
  Matrix J;
  Vector b;
  MATCHBLAS_GRB_TRY(GrB_Matrix_new(J.out(), GrB_INT32, nr, nc));
  MATCHBLAS_GRB_TRY(
      GrB_Matrix_apply_IndexOp_INT32(J.get(), nullptr, nullptr, GrB_COLINDEX_INT32, E1.get(), 0, desc.get()));
  E1.reset();
  MATCHBLAS_GRB_TRY(GrB_Vector_new(b.out(), GrB_INT32, nr));
  MATCHBLAS_GRB_TRY(GrB_Matrix_reduce_Monoid(b.get(), nullptr, nullptr, GrB_MIN_MONOID_INT32, J.get(), desc.get()));
  J.reset();

  GrB_Index nb = 0, nm = nr;
  MATCHBLAS_GRB_TRY(GrB_Vector_nvals(&nb, b.get()));
  std::vector<GrB_Index> bi(nb), mi(nr);
  std::vector<std::int32_t> bx(nb);
  std::vector<W> mx(nr), row_max(nr);
  MATCHBLAS_GRB_TRY(GrB_Vector_extractTuples_INT32(bi.data(), bx.data(), &nb, b.get()));
  MATCHBLAS_GRB_TRY(G::tuples(mi.data(), mx.data(), &nm, m.get()));
  for (GrB_Index k = 0; k < nm; ++k) row_max[mi[k]] = mx[k];
  for (GrB_Index k = 0; k < nb; ++k) {
    best[bi[k]] = bx[k];
    best_weight[bi[k]] = row_max[bi[k]];
  }
}

template void argmax_rows_graphblas<float>(const Csr<float>&, const ArgmaxMasks<float>&, std::span<vertex_t>,
                                           std::span<float>);
template void argmax_rows_graphblas<double>(const Csr<double>&, const ArgmaxMasks<double>&, std::span<vertex_t>,
                                            std::span<double>);

}  // namespace detail
}  // namespace matchblas::ops
