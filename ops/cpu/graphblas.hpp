// What the graphblas backend's files share (internal to ops/cpu: the only
// header that includes GraphBLAS.h; ops/graphblas_graph.hpp is its opaque
// face): checked calls, owned GraphBLAS objects, the memory pool and the
// host scratch in it, the per-call thread count, the keys that turn the row
// argmax into one built-in MAX reduction, and the body of GraphBlasGraph.
//
// Keys (SuiteSparse:GraphBLAS 7.4 has no GxB_IndexBinaryOp, and user
// operators run through its generic kernels, 3-7x slower than built-in
// ones: bench/RESULTS.md). An entry (u, v, w) is stored as the UINT64
//   key = code(w) << 32 | (2^32 - 1 - v)        (the row view: v is the column)
// where code is a 32-bit code strictly increasing in w; the codes up to
// last_unpicked() are NaN and -inf, which no argmax picks (NaN lowest). The
// largest key of a row is then its entry of largest weight, ties to the
// smallest column: the tie rule of lib/greedy_order.hpp. The column view
// keeps u instead of v (2^32 - 1 - u): comparing it with a per-column floor
// key code(fw) << 32 | (2^32 - 1 - fv) is neighbour_beats(w, u, fw, fv).
//   float   code = the IEEE bits mapped to an unsigned order (-0 as +0;
//           NaN 0, -inf 0x007FFFFF, every other value above)
//   double  the float code when every weight is a float; else NaN 0, -inf
//           1, and 2 + the index of w among the sorted distinct weights
//           (sorted once per matrix; at most 2^31 - 2 distinct weights)
// Every weight reads back exactly, but -0 (as +0) and NaN (a NaN).
#pragma once
extern "C" {
#include <GraphBLAS.h>
}
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "ops/graphblas_graph.hpp"

namespace matchblas::ops::grb {

// Throws matchblas::error (out_of_memory for GrB_OUT_OF_MEMORY) naming the
// call, its file and line, and the GrB_Info.
void check(GrB_Info info, const char* call, const char* file, int line);
#define MATCHBLAS_GRB_TRY(call) ::matchblas::ops::grb::check((call), #call, __FILE__, __LINE__)

// An owned GraphBLAS object, freed on scope exit (STYLE 12: RAII).
template <class H, GrB_Info (*Free)(H*)>
class Owned {
 public:
  Owned() = default;
  ~Owned() { reset(); }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = o.h_;
      o.h_ = nullptr;
    }
    return *this;
  }
  H* out() { return &h_; }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  void reset() {
    if (h_ != nullptr) Free(&h_);
    h_ = nullptr;
  }

 private:
  H h_ = nullptr;
};
using Matrix = Owned<GrB_Matrix, GrB_Matrix_free>;
using Vector = Owned<GrB_Vector, GrB_Vector_free>;
using Descriptor = Owned<GrB_Descriptor, GrB_Descriptor_free>;
using Scalar = Owned<GrB_Scalar, GrB_Scalar_free>;

// The memory GraphBLAS works in (ops/cpu/memory_graphblas.cpp): freed
// blocks of 1 MiB and more are kept for reuse while a GraphBlasGraph is
// alive.
namespace memory {
GrB_Info install();              // GxB_init with the pool's functions
void* allocate(std::size_t n);   // for an array handed to GraphBLAS
void release(void* p);           // for an array GraphBLAS hands back
void graph_made();               // a GraphBlasGraph body was made
void graph_gone();               // ... destroyed: the last one empties the pool
std::size_t kept_bytes();        // what the pool holds now
}  // namespace memory

// n values of T in the pool's memory, uninitialised: the backend's host
// scratch (index lists, per-column keys), which then reuses pooled blocks
// rather than faulting fresh pages in on every call. `take` hands the
// memory to GraphBLAS.
template <class T>
class Buffer {
 public:
  explicit Buffer(std::size_t n = 0)
      : p_(static_cast<T*>(memory::allocate(std::max<std::size_t>(n, 1) * sizeof(T)))), n_(n) {
    if (p_ == nullptr) throw std::bad_alloc();
  }
  ~Buffer() { memory::release(p_); }
  Buffer(Buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  void shrink(std::size_t n) { n_ = std::min(n, n_); }  // keeps the first n values
  T* take() { return std::exchange(p_, nullptr); }

 private:
  T* p_;
  std::size_t n_;
};

// One op call's settings: GraphBLAS initialised on first use (GxB_init,
// GrB_NONBLOCKING, with the pool's memory functions; once per process), and GraphBLAS's thread count set to omp_get_max_threads() of the
// caller (what ScopedThreads and RunOptions::threads set), both in the
// descriptors (GxB_DESCRIPTOR_NTHREADS) and globally (GxB_NTHREADS, for the
// calls that take no descriptor).
class Context {
 public:
  Context();
  GrB_Descriptor plain() const { return desc_[0].get(); }
  // transpose: the first input is transposed (GrB_INP0); structural: the
  // mask counts by its pattern.
  GrB_Descriptor desc(bool transpose, bool structural = false) const {
    return desc_[(transpose ? 1 : 0) + (structural ? 2 : 0)].get();
  }
  int threads() const { return threads_; }

 private:
  int threads_;
  Descriptor desc_[4];
};

// ---- keys ----------------------------------------------------------------

inline constexpr std::uint64_t low_bits = 0xFFFFFFFFull;

constexpr std::uint64_t make_key(std::uint32_t code, vertex_t id) noexcept {
  return std::uint64_t(code) << 32 | (low_bits - std::uint32_t(id));
}
constexpr std::uint32_t key_code(std::uint64_t key) noexcept { return std::uint32_t(key >> 32); }
constexpr vertex_t key_id(std::uint64_t key) noexcept { return vertex_t(low_bits - (key & low_bits)); }

// The order code of a float: 0 for NaN, else the bits as an unsigned
// number in the order of the values (-0 as +0): -inf is float_code_of_minus_inf,
// every other value above it.
inline std::uint32_t float_code(float w) noexcept {
  if (std::isnan(w)) return 0;
  const std::uint32_t b = std::bit_cast<std::uint32_t>(w + 0.0f);  // -0 + 0 = +0
  return (b & 0x80000000u) != 0 ? ~b : (b | 0x80000000u);
}
inline constexpr std::uint32_t float_code_of_minus_inf = 0x007FFFFFu;
inline float float_of_code(std::uint32_t c) noexcept {
  return std::bit_cast<float>((c & 0x80000000u) != 0 ? (c & 0x7FFFFFFFu) : ~c);  // 0: a NaN
}

// The codes of one matrix's weights (shared by the matrices derived from it).
template <class W>
class WeightCodes {
 public:
  // The codes of these weights (double: the sorted distinct weights unless
  // they are all floats; invalid_input beyond 2^31 - 2 distinct weights).
  static std::shared_ptr<const WeightCodes> of(const std::vector<W>& weights);
  // w must be a weight the codes were made from (or NaN, or -inf).
  std::uint32_t code(W w) const noexcept;
  // The largest code no argmax picks (-inf's; NaN's is 0).
  std::uint32_t last_unpicked() const noexcept { return sorted_.empty() ? float_code_of_minus_inf : 1; }
  W weight(std::uint32_t code) const noexcept;
  // The floor key of neighbour_beats(w, u, fw, fv): an entry's column-view
  // key is above it exactly when u beats the floor. fw may be any value.
  std::uint64_t floor_key(W fw, vertex_t fv) const noexcept;

 private:
  std::vector<W> sorted_;  // double only: ascending distinct weights; empty: float codes
};

// ---- GraphBlasGraph's body -------------------------------------------------

// A key matrix as an operand: m, or its transpose when `transposed` (the
// ops pass GrB_INP0 = GrB_TRAN; GraphBLAS decides how to evaluate it).
// Shared: a matrix and its transpose hold the same GraphBLAS matrices.
struct View {
  std::shared_ptr<const Matrix> m;
  bool transposed = false;
  GrB_Matrix get() const { return m ? m->get() : nullptr; }
  explicit operator bool() const { return m != nullptr; }
  View flipped() const { return {m, !transposed}; }
};
View own(Matrix m);  // an untransposed view of m

// A logical n_rows x n_cols matrix held as the GraphBLAS matrix of its rows
// `row_ids` and columns `col_ids` (ascending original ids; empty: all, in
// order), in local numbering. Immutable once made (the column view is made
// on first use, under a lock), so const use from several threads is safe.
template <class W>
struct GraphImpl {
  GraphImpl() { memory::graph_made(); }
  ~GraphImpl() {
    rows_view = {};
    cols_view_ = {};
    memory::graph_gone();
  }
  GraphImpl(const GraphImpl&) = delete;
  GraphImpl& operator=(const GraphImpl&) = delete;

  View rows_view;                  // local rows x local cols, UINT64 keys with the original column
  std::vector<vertex_t> row_ids;   // local row -> original row; empty: identity
  std::vector<vertex_t> col_ids;   // local column -> original column; empty: identity
  std::shared_ptr<const WeightCodes<W>> codes;
  GrB_Index local_rows = 0, local_cols = 0, entries = 0;

  vertex_t row_id(GrB_Index r) const { return row_ids.empty() ? vertex_t(r) : row_ids[r]; }
  vertex_t col_id(GrB_Index c) const { return col_ids.empty() ? vertex_t(c) : col_ids[c]; }
  // The column view (the same entries, keys with the original row), made on
  // first use from the row view: its code bits (a bind-2nd BAND) plus
  // 2^32 - 1 - row (a row scaling). A transposed row view always has it
  // (transpose sets it).
  View cols_view(const Context& ctx) const;
  View cols_view_if_made() const;  // empty until made
  void set_cols_view(View v) const;

 private:
  mutable std::mutex cols_mutex_;
  mutable View cols_view_;
};

// A new matrix of `type`, rows x cols.
Matrix new_matrix(GrB_Type type, GrB_Index rows, GrB_Index cols);
// The number of entries of m (after its pending work).
GrB_Index nvals(GrB_Matrix m);
// A full UINT64 vector of x's values; it takes x's memory.
Vector full_vector(Buffer<std::uint64_t>&& x, const Context& ctx);

}  // namespace matchblas::ops::grb

namespace matchblas::ops {
template <class W>
struct GraphBlasGraph<W>::Impl : grb::GraphImpl<W> {};
}  // namespace matchblas::ops
