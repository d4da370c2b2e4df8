// b-suitor-gpu's first round placed in bulk (BSuitorPlacement::sorted,
// declared in matchers/b_matching/b_matching.hpp; b_suitor_gpu.cu runs it).
// Algorithm: the first round's proposals (each proposer's best
// min(b(u), K) entries, no offer held anywhere yet) are written as
// (target, key) pairs instead of going down their targets' words by atomic
// maxima; then a counting sort groups them by target (each pair's rank
// among its target's came from one atomic on the target's count as it was
// written, the groups' starts from a prefix sum), each group is sorted best
// first (CUB's segmented sort), and each target v stores its best cap(v)
// keys into its words at once, raising the kept proposers' held counts.
// Bulk placement of a round's proposals as bench/RESULTS.md proposed for
// b-Suitor on the GPU (Naim, Manne 2017; the b-Suitor of Khan et al. 2016).
// Guarantee: the state the atomic placement leaves after the first round,
// word for word: insert_sorted keeps each target's best cap(v) offers of
// all made to it, sorted, under any interleaving, and in the first round
// no offer is held before, none is displaced, and a refused proposer just
// stays owned. Cost: per proposal one atomic (the rank), one random 8-byte
// write (the scatter) and one atomic (the held count) against about 8
// random L2 requests for the atomic placement; the sort streams 16 bytes a
// proposal a pass; memory 24 bytes a proposal plus 20 a vertex plus CUB's
// scratch, through the first round only. .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "matchers/b_matching/b_suitor_gpu_offers.cuh"
#include "ops/gpu/device_buffer.cuh"
#include "ops/gpu/gpu_session.cuh"
#include "ops/gpu/launch.cuh"

namespace matchblas::gpu::b_suitor {

// How many pairs u may write in the first round: min(k, b(u), deg u) when
// u proposes there (owned), else 0; bound[n] = 0 for the exclusive scan.
__global__ void first_pair_bounds(CsrView<float> g, const int* b, const word_t* state, int k, offset_t* bound) {
  for (long long i = grid_thread(); i <= g.n_rows; i += grid_threads()) {
    offset_t x = 0;
    if (i < g.n_rows && (state[i] & owned)) x = min(offset_t(min(k, b[i])), degree(g, vertex_t(i)));
    bound[i] = x;
  }
}

// Each written pair's key to its target's group, at its rank there.
__global__ void scatter_by_target(const vertex_t* target, const unsigned* rank, const word_t* key, long long pairs,
                                  const offset_t* group, word_t* out) {
  for (long long i = grid_thread(); i < pairs; i += grid_threads())
    if (const vertex_t v = target[i]; v != no_vertex) out[group[v] + rank[i]] = key[i];
}

// Each target keeps the best cap(v) keys of its sorted group in its words
// (slots best first, the cap(v)-th in the floor word; room stays where
// fewer came), and each kept proposer's held count rises by one.
__global__ void keep_best(Offers<float> o, const offset_t* group, const word_t* sorted) {
  for (long long i = grid_thread(); i < o.g.n_rows; i += grid_threads()) {
    const vertex_t v = vertex_t(i);
    const offset_t first = group[v];
    const offset_t cap = max(min(offset_t(o.b[v]), degree(o.g, v)), offset_t(0));
    const offset_t kept = min(group[v + 1] - first, cap);
    for (offset_t j = 0; j < kept; ++j) {
      const word_t k = sorted[first + j];
      if (j + 1 < cap) o.slots[o.start[v] + j] = k;
      else o.floor[v] = k;
      atomic(o.state + o.keys.proposer(k)).fetch_add(one_held, cuda::memory_order_relaxed);
    }
  }
}

// The buffers of one sorted first round, allocated at once before the
// round runs (out_of_memory if they do not fit, before anything is
// written: the run fails there, as asked for), freed with it.
class SortedFirstRound {
 public:
  // k: the first round's list size (first_lists); o after init_vertices.
  SortedFirstRound(const Offers<float>& o, const int* b, int k, unsigned grid, cudaStream_t s)
      : n_(o.g.n_rows), at_(std::size_t(n_) + 1, s), group_(std::size_t(n_) + 1, s), count_(std::size_t(n_) + 1, s) {
    first_pair_bounds<<<grid, 256, 0, s>>>(o.g, b, o.state, k, group_.data());  // group_ as scratch
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    with_temp(s, [&](void* temp, std::size_t& bytes) { return scan(temp, bytes, group_.data(), at_.data(), s); });
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&pairs_, at_.data() + n_, sizeof pairs_, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    const std::size_t p = std::size_t(std::max<offset_t>(pairs_, 1));
    target_ = DeviceBuffer<vertex_t>(p, s);
    rank_ = DeviceBuffer<unsigned>(p, s);
    key_ = DeviceBuffer<word_t>(p, s);
    grouped_ = DeviceBuffer<word_t>(p, s);
    std::size_t scan_bytes = 0, sort_bytes = 0;
    MATCHBLAS_CUDA_TRY(scan(nullptr, scan_bytes, count_.data(), group_.data(), s));
    MATCHBLAS_CUDA_TRY(cub::DeviceSegmentedSort::SortKeysDescending(nullptr, sort_bytes, grouped_.data(), key_.data(),
                                                                    pairs_, n_, group_.data(), group_.data() + 1, s));
    temp_ = DeviceBuffer<std::uint8_t>(std::max<std::size_t>({scan_bytes, sort_bytes, 1}), s);
    static_assert(no_vertex == -1);
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(target_.data(), 0xff, p * sizeof(vertex_t), s));  // places not written
    MATCHBLAS_CUDA_TRY(cudaMemsetAsync(count_.data(), 0, count_.size() * sizeof(unsigned), s));
  }

  FirstRoundPairs pairs() { return {at_.data(), target_.data(), rank_.data(), key_.data(), count_.data()}; }

  // After the round's proposal kernels: the groups' starts, the scatter,
  // each group sorted (into key_, free by then), and the keeping.
  void place(const Offers<float>& o, unsigned grid, cudaStream_t s) {
    std::size_t bytes = temp_.size();
    MATCHBLAS_CUDA_TRY(scan(temp_.data(), bytes, count_.data(), group_.data(), s));
    offset_t grouped = 0;  // pairs written: every place, since each proposer lists min(k, b(u), deg u)
    MATCHBLAS_CUDA_TRY(cudaMemcpyAsync(&grouped, group_.data() + n_, sizeof grouped, cudaMemcpyDeviceToHost, s));
    MATCHBLAS_CUDA_TRY(cudaStreamSynchronize(s));
    MATCHBLAS_EXPECTS(grouped <= pairs_, "b-suitor-gpu: the sorted first round wrote more pairs than it sized");
    if (pairs_ > 0) {
      scatter_by_target<<<grid_for(pairs_, 256, 1 << 16), 256, 0, s>>>(target_.data(), rank_.data(), key_.data(),
                                                                         pairs_, group_.data(), grouped_.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
    if (grouped > 0) {
      std::size_t need = 0;
      MATCHBLAS_CUDA_TRY(cub::DeviceSegmentedSort::SortKeysDescending(nullptr, need, grouped_.data(), key_.data(),
                                                                      grouped, n_, group_.data(), group_.data() + 1, s));
      if (need > temp_.size()) temp_ = DeviceBuffer<std::uint8_t>(need, s);
      bytes = temp_.size();
      MATCHBLAS_CUDA_TRY(cub::DeviceSegmentedSort::SortKeysDescending(temp_.data(), bytes, grouped_.data(), key_.data(),
                                                                      grouped, n_, group_.data(), group_.data() + 1, s));
      keep_best<<<grid, 256, 0, s>>>(o, group_.data(), key_.data());
      MATCHBLAS_CUDA_CHECK_LAUNCH();
    }
  }

 private:
  // The exclusive prefix sum of n + 1 counts in offset_t (a count may be
  // 32-bit, the sum not).
  template <class T>
  cudaError_t scan(void* temp, std::size_t& bytes, const T* in, offset_t* out, cudaStream_t s) const {
    return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cuda::std::plus<offset_t>{}, offset_t{0}, n_ + 1LL, s);
  }

  vertex_t n_;
  offset_t pairs_ = 0;
  DeviceBuffer<offset_t> at_, group_;
  DeviceBuffer<unsigned> count_;
  DeviceBuffer<vertex_t> target_;
  DeviceBuffer<unsigned> rank_;
  DeviceBuffer<word_t> key_, grouped_;
  DeviceBuffer<std::uint8_t> temp_;
};

}  // namespace matchblas::gpu::b_suitor
