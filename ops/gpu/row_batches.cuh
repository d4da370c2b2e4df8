// A graph's rows on the device for a matcher whose kernels read only the
// rows of the vertices they run (b-suitor-gpu's proposers): either the whole
// resident graph (one batch), or a host CSR streamed through the device in
// batches of consecutive rows, for graphs larger than device memory (as
// SuMaC's LD-GPU batches graphs larger than its GPUs' memory: S. Ferdous et
// al., SC24). Streamed, the row offsets stay resident (n + 1 words: every
// degree is known) and the entries reach the kernels one of two ways:
//   copied   a batch's entries into one of two buffers of `batch_entries`
//            entries; while the kernels read one batch, the next is copied
//            into the other buffer on a copy stream (use, prefetch, done)
//   mapped   the kernels read the host arrays in place over the bus
//            (zero-copy: mapped()), only the entries they touch: for a batch
//            where few rows are read
// Host arrays are page-locked (cudaHostRegister, in page-aligned pieces on
// several threads) so that copies run at the bus's speed and overlap the
// kernels, and so that they can be mapped; where the system refuses, copies
// are pageable and nothing is mapped.
// A copied batch's view has the graph's own row ids and offsets: its cols
// and weights pointers are shifted by the batch's first entry, so that
// cols[offsets[u]] is u's first entry for every row u of the batch (and
// nothing outside the batch may be read through it).
// Protocol on the compute stream: use(b) (the view; the compute stream
// waits for b's copy), the kernels that read it, done(b) (the buffer may be
// refilled once they finish); prefetch(c) between them starts c's copy into
// the other buffer. Cost: each use of a batch not already in a buffer
// copies its entries once (bytes_copied()); a mapped read moves what it
// reads. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <unistd.h>
#include <vector>

#include "lib/error.hpp"
#include "ops/gpu/cuda_check.hpp"
#include "ops/gpu/device_buffer.cuh"

namespace matchblas::gpu {

// Row bounds of batches of consecutive rows [first, end) of at most
// `entries` entries each (offsets: n + 1 entries; entries at least the
// longest of those rows): the batches are [starts[i], starts[i + 1]),
// starts.front() = first, back() = end.
inline std::vector<vertex_t> row_batch_starts(std::span<const offset_t> offsets, offset_t entries, vertex_t first,
                                              vertex_t end) {
  std::vector<vertex_t> starts{first};
  for (vertex_t u = first; u < end; ++u) {
    MATCHBLAS_EXPECTS(offsets[u + 1] - offsets[u] <= entries, "row_batch_starts: a row longer than a batch");
    if (offsets[u + 1] - offsets[starts.back()] > entries) starts.push_back(u);
  }
  starts.push_back(end);
  return starts;
}

// A block's cols or weights array p, whose first element is the graph's
// entry `first`, addressed by the graph's own offsets: p less `first`
// elements, as an address (never dereferenced outside the block).
template <class T>
const T* shifted(const T* p, offset_t first) {
  return reinterpret_cast<const T*>(reinterpret_cast<std::uintptr_t>(p) - std::uintptr_t(first) * sizeof(T));
}

template <class W>
class RowBatches {
 public:
  // The resident graph: one batch, no copies; its rows [first, end) only
  // when given (a rank's block of a graph over several ranks).
  explicit RowBatches(const CsrView<W>& resident) : all_(resident), starts_{0, resident.n_rows} {}
  RowBatches(const CsrView<W>& resident, vertex_t first, vertex_t end) : all_(resident), starts_{first, end} {}

  // A host CSR (offsets: n + 1 entries; cols and weights offsets[n]) streamed
  // in batches of at most batch_entries entries (>= its longest row); the
  // compute stream is the caller's session stream. Uploads the offsets.
  // Only rows [first, end) when given (a rank's block): then cols and
  // weights need hold only their entries, as addresses where cols[offsets[u]]
  // is row u's first entry (shifted()), and only those are read.
  RowBatches(std::span<const offset_t> offsets, vertex_t n_cols, const vertex_t* cols, const W* weights,
             offset_t batch_entries, cudaStream_t compute, vertex_t first = 0, vertex_t end = -1)
      : starts_(row_batch_starts(offsets, batch_entries, first, end < 0 ? vertex_t(offsets.size() - 1) : end)),
        host_offsets_(offsets),
        host_cols_(cols),
        host_weights_(weights),
        compute_(compute),
        d_offsets_(DeviceBuffer<offset_t>::from_host(offsets, compute)) {
    const vertex_t n = vertex_t(offsets.size() - 1);
    const offset_t at = offsets[std::size_t(starts_.front())], entries = offsets[std::size_t(starts_.back())] - at;
    all_ = CsrView<W>{n, n_cols, d_offsets_.data(), nullptr, nullptr, offsets.back()};
    const offset_t buffer = std::min(batch_entries, entries);
    for (Buffer& b : buffers_) {
      b.cols = DeviceBuffer<vertex_t>(std::size_t(buffer));
      b.weights = DeviceBuffer<W>(std::size_t(buffer));
      MATCHBLAS_CUDA_TRY(cudaEventCreateWithFlags(&b.filled, cudaEventDisableTiming));
      MATCHBLAS_CUDA_TRY(cudaEventCreateWithFlags(&b.freed, cudaEventDisableTiming));
    }
    MATCHBLAS_CUDA_TRY(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    pin(cols + at, std::size_t(entries) * sizeof(vertex_t));
    pin(weights + at, std::size_t(entries) * sizeof(W));
    int device = 0, host_pointers = 0;
    MATCHBLAS_CUDA_TRY(cudaGetDevice(&device));
    MATCHBLAS_CUDA_TRY(
        cudaDeviceGetAttribute(&host_pointers, cudaDevAttrCanUseHostPointerForRegisteredMem, device));
    mappable_ = pinned_ && host_pointers != 0;
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(compute_));  // the offsets before the first copy's kernels
  }
  ~RowBatches() {
    if (!copy_) return;
    cudaStreamSynchronize(copy_);
    cudaStreamDestroy(copy_);
    for (Buffer& b : buffers_) {
      cudaEventDestroy(b.filled);
      cudaEventDestroy(b.freed);
    }
    for (void* p : registered_) cudaHostUnregister(p);
  }
  RowBatches(const RowBatches&) = delete;
  RowBatches& operator=(const RowBatches&) = delete;

  bool streamed() const { return copy_ != nullptr; }
  int count() const { return int(starts_.size()) - 1; }
  vertex_t first_row(int b) const { return starts_[std::size_t(b)]; }
  vertex_t end_row(int b) const { return starts_[std::size_t(b) + 1]; }
  // Every row's offsets (and, resident, the entries: streamed, cols and
  // weights are null); for kernels that read degrees only.
  const CsrView<W>& all() const { return all_; }
  // Whether the host arrays were page-locked (copies at the bus's speed).
  bool pinned() const { return !streamed() || pinned_; }
  // Whether batch b's kernels may read its rows in place (mapped()): its
  // entries within the arrays' page-locked interiors.
  bool mappable(int b) const {
    if (!streamed() || !mappable_) return false;
    const offset_t first = host_offsets_[std::size_t(first_row(b))];
    const std::size_t k = std::size_t(entries_of(b));
    return inside_pinned(host_cols_ + first, k * sizeof(vertex_t)) &&
           inside_pinned(host_weights_ + first, k * sizeof(W));
  }
  // Whether batch b's entries are in a buffer now (its use copies nothing).
  bool in_buffer(int b) const { return !streamed() || slot_of(b) >= 0; }
  // Batch b's entries (the first row's offset to the end row's).
  offset_t entries_of(int b) const {
    return streamed() ? host_offsets_[std::size_t(end_row(b))] - host_offsets_[std::size_t(first_row(b))]
                      : all_.n_entries;
  }
  // The rows read in place from host memory, for the kernels of a batch b
  // that is mappable(b), and only its rows; no use/done around it.
  CsrView<W> mapped() const {
    MATCHBLAS_EXPECTS(streamed() && mappable_, "RowBatches::mapped: the host arrays are not mapped");
    CsrView<W> v = all_;
    v.cols = host_cols_;
    v.weights = host_weights_;
    return v;
  }
  std::size_t bytes_copied() const { return bytes_copied_; }
  long long copies() const { return copies_; }

  // Batch b's view for the work enqueued on the compute stream until done(b).
  CsrView<W> use(int b) {
    if (!streamed()) return all_;
    const int i = load(b);
    MATCHBLAS_CUDA_TRY(cudaStreamWaitEvent(compute_, buffers_[i].filled, 0));
    in_use_ = i;
    const offset_t first = host_offsets_[std::size_t(first_row(b))];
    CsrView<W> v = all_;
    v.cols = shifted(buffers_[i].cols.data(), first);
    v.weights = shifted(buffers_[i].weights.data(), first);
    return v;
  }
  // The work enqueued on the compute stream so far is the last to read b.
  void done(int b) {
    if (!streamed()) return;
    MATCHBLAS_CUDA_TRY(cudaEventRecord(buffers_[slot_of(b)].freed, compute_));
  }
  // Starts copying batch b into the buffer not in use (nothing when it is
  // in a buffer already, or resident).
  void prefetch(int b) {
    if (streamed()) load(b);
  }

 private:
  struct Buffer {
    DeviceBuffer<vertex_t> cols;
    DeviceBuffer<W> weights;
    int holds = -1;  // the batch it holds (or is being filled with)
    cudaEvent_t filled{}, freed{};
  };

  // Page-locks and maps the pages wholly inside [p, p + bytes), in pieces
  // on up to 8 threads (pinning is the kernel's work per page), never a
  // page shared with other memory: a copy that crosses a registration's edge
  // fails, so registering a neighbour's page would break its copies. The
  // partial pages at both ends stay pageable (copies cut there: copy_in;
  // batches reaching into them are not read in place). A refusal leaves
  // everything pageable and nothing mapped (pinned_ false).
  void pin(const void* p, std::size_t bytes) {
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
    interiors_.emplace_back(first, std::max(first, end));
    if (end <= first || !pinned_) return;
    const int pieces = int(std::min<std::uintptr_t>(8, (end - first) / page));
    const std::uintptr_t step = ((end - first) / page + pieces - 1) / pieces * page;
    std::vector<void*> at(std::size_t(pieces), nullptr);
    bool ok = true;
#pragma omp parallel for num_threads(pieces) reduction(&& : ok)
    for (int i = 0; i < pieces; ++i) {
      const std::uintptr_t a = first + std::uintptr_t(i) * step, z = std::min(end, a + step);
      if (a >= z) continue;
      if (cudaHostRegister(reinterpret_cast<void*>(a), z - a, cudaHostRegisterMapped) == cudaSuccess) {
        at[std::size_t(i)] = reinterpret_cast<void*>(a);
      } else {
        cudaGetLastError();  // cleared in the thread that made it
        ok = false;
      }
    }
    for (int i = 0; i < pieces; ++i)
      if (at[std::size_t(i)]) registered_.push_back(at[std::size_t(i)]);
    for (int i = 0; i <= pieces; ++i) cuts_.push_back(std::min(end, first + std::uintptr_t(i) * step));
    std::sort(cuts_.begin(), cuts_.end());
    if (!ok) {  // pageable copies instead, nothing left registered
      for (void* r : registered_) cudaHostUnregister(r);
      registered_.clear();
      cuts_.clear();
      pinned_ = false;
    }
  }

  // Whether [p, p + bytes) lies within a page-locked interior.
  bool inside_pinned(const void* p, std::size_t bytes) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    for (const auto& [first, end] : interiors_)
      if (a >= first && a + bytes <= end) return true;
    return false;
  }

  // bytes from host src to device dst on the copy stream, one copy per
  // page-locked piece or pageable end it spans (a copy may not cross a
  // registration's edge).
  void copy_in(void* dst, const void* src, std::size_t bytes) {
    auto from = reinterpret_cast<std::uintptr_t>(src);
    const std::uintptr_t end = from + bytes;
    auto to = static_cast<char*>(dst);
    auto cut = std::upper_bound(cuts_.begin(), cuts_.end(), from);
    while (from < end) {
      const std::uintptr_t stop = cut == cuts_.end() ? end : std::min(end, *cut++);
      MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(to, reinterpret_cast<const void*>(from), stop - from,
                                         cudaMemcpyHostToDevice, copy_));
      to += stop - from;
      from = stop;
    }
  }

  int slot_of(int b) const {
    for (int i = 0; i < 2; ++i)
      if (buffers_[i].holds == b) return i;
    return -1;
  }

  // The buffer holding b, its copy started into the buffer not in use once
  // the kernels that last read that buffer are done.
  int load(int b) {
    if (const int i = slot_of(b); i >= 0) return i;
    const int i = 1 - in_use_;
    Buffer& buf = buffers_[i];
    MATCHBLAS_CUDA_TRY(cudaStreamWaitEvent(copy_, buf.freed, 0));
    const offset_t first = host_offsets_[std::size_t(first_row(b))], end = host_offsets_[std::size_t(end_row(b))];
    const std::size_t k = std::size_t(end - first);
    if (k > 0) {
      copy_in(buf.cols.data(), host_cols_ + first, k * sizeof(vertex_t));
      copy_in(buf.weights.data(), host_weights_ + first, k * sizeof(W));
    }
    MATCHBLAS_CUDA_TRY(cudaEventRecord(buf.filled, copy_));
    buf.holds = b;
    bytes_copied_ += k * (sizeof(vertex_t) + sizeof(W));
    ++copies_;
    return i;
  }

  CsrView<W> all_{};
  std::vector<vertex_t> starts_;
  std::span<const offset_t> host_offsets_;
  const vertex_t* host_cols_ = nullptr;
  const W* host_weights_ = nullptr;
  cudaStream_t compute_ = nullptr, copy_ = nullptr;
  DeviceBuffer<offset_t> d_offsets_;
  Buffer buffers_[2];
  int in_use_ = 1;  // the first load goes to buffer 0
  std::vector<void*> registered_;                                   // the page-locked pieces
  std::vector<std::uintptr_t> cuts_;                                // their edges, ascending (copies are cut there)
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> interiors_;  // each array's whole pages
  bool pinned_ = true, mappable_ = false;
  std::size_t bytes_copied_ = 0;
  long long copies_ = 0;
};

}  // namespace matchblas::gpu
