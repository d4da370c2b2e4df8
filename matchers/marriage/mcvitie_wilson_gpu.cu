// McVitie-Wilson on the GPU, a thread per man (matchers/marriage/
// stable_marriage.hpp; the CPU twins are in matchers/marriage/stable_marriage.cpp).
// Source: Manne et al. 2016 sec. 4 (parallel McVitie-Wilson: each thread
// follows the chain of men its proposals reject; compare-and-swap on
// suitor(woman)).
//
// A woman's suitor is one 64-bit word (her rank of him << 32 | him), smaller
// is better, empty = all ones; a proposal is one atomicMin: it won when the
// old word was larger, and the old word names the man it displaced, whom the
// same thread takes on. A man is held by one thread at a time (only the one
// winner of an atomicMin learns of a displaced man); his cursor next[m] is
// written (and fenced) before each proposal, so the thread that displaces him
// later resumes where he stopped. Guarantee: the man-optimal stable matching, as the
// CPU versions, whatever the schedule. Cost: O(proposals), a chain followed
// by one thread. Host side: the upload, the kernels and the download on one
// gpu::StreamSession's stream (the caller's or its own), the scratch
// stream-ordered on it.
#include <cuda_runtime.h>

#include <limits>
#include <vector>

#include "lib/error.hpp"
#include "ops/gpu/device_graph.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "ops/gpu/gpu_session.cuh"

namespace matchblas {

namespace {

using word_t = unsigned long long;
constexpr word_t empty_word = std::numeric_limits<word_t>::max();

struct ListView {
  const offset_t* offsets;
  const vertex_t* woman;
  const std::int32_t* her_rank;
  __device__ offset_t length(vertex_t m) const { return offsets[m + 1] - offsets[m]; }
  __device__ vertex_t at(vertex_t m, offset_t k) const { return woman[offsets[m] + k]; }
  __device__ std::int32_t rank(vertex_t m, offset_t k) const { return her_rank[offsets[m] + k]; }
};

struct SharedView {
  const vertex_t* women_order;
  const std::int32_t* man_rank;
  offset_t women;
  __device__ offset_t length(vertex_t) const { return women; }
  __device__ vertex_t at(vertex_t, offset_t k) const { return women_order[k]; }
  __device__ std::int32_t rank(vertex_t m, offset_t) const { return man_rank[m]; }
};

template <class View>
__global__ void propose(View prefs, vertex_t men, offset_t* next, word_t* held) {
  for (long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; first < men;
       first += static_cast<long long>(gridDim.x) * blockDim.x) {
    vertex_t m = vertex_t(first);
    while (m != no_vertex) {
      vertex_t displaced = no_vertex;
      for (offset_t k = __ldcg(next + m); k < prefs.length(m); ++k) {
        const vertex_t w = prefs.at(m, k);
        const word_t mine = (word_t(std::uint32_t(prefs.rank(m, k))) << 32) | word_t(std::uint32_t(m));
        if (mine > __ldcg(held + w)) continue;  // she holds a better suitor: skip
        // The cursor first, made visible before the proposal: whoever
        // displaces m later reads it after its own atomicMin.
        __stcg(next + m, k + 1);
        __threadfence();
        const word_t old = atomicMin(held + w, mine);
        if (old > mine) {
          displaced = old == empty_word ? no_vertex : vertex_t(std::uint32_t(old));
          __threadfence();  // before reading the displaced man's cursor
          break;
        }
      }
      m = displaced;  // a rejected man, or none (placed without rejection, or single)
    }
  }
}

__global__ void husbands_from_words(vertex_t women, const word_t* held, vertex_t* husband) {
  for (long long w = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; w < women;
       w += static_cast<long long>(gridDim.x) * blockDim.x)
    husband[w] = held[w] == empty_word ? no_vertex : vertex_t(std::uint32_t(held[w]));
}

// The proposals and the husbands on the session's stream; waits for it.
template <class View>
Marriage run(const gpu::StreamSession& session, const View& view, vertex_t men, vertex_t women, GpuTimes* times) {
  constexpr int block = 256;
  const cudaStream_t st = session.stream();
  gpu::Event start, matched, done;
  gpu::DeviceBuffer<offset_t> next{static_cast<std::size_t>(men), st};
  gpu::DeviceBuffer<word_t> held{static_cast<std::size_t>(women), st};
  gpu::DeviceBuffer<vertex_t> husband{static_cast<std::size_t>(women), st};
  const int sms = session.sms();
  start.record(st);
  if (men > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(next.data(), 0, next.size() * sizeof(offset_t), st));
  if (women > 0) MATCHBLAS_CUDA_TRY(cudaMemsetAsync(held.data(), 0xff, held.size() * sizeof(word_t), st));
  if (men > 0) {
    propose<<<gpu::grid_for(men, block, 1LL << 30), block, 0, st>>>(view, men, next.data(), held.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  if (women > 0) {
    husbands_from_words<<<gpu::grid_for(women, block, 32LL * sms), block, 0, st>>>(women, held.data(),
                                                                                   husband.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
  }
  matched.record(st);
  Marriage r;
  r.husband.resize(static_cast<std::size_t>(women));
  husband.to_host(std::span(r.husband), st);
  done.record(st);
  session.synchronize();
  r.wife.assign(static_cast<std::size_t>(men), no_vertex);
  for (vertex_t w = 0; w < women; ++w)
    if (r.husband[w] != no_vertex) r.wife[r.husband[w]] = w;
  if (times) {
    times->match_s = matched.since(start);
    times->download_s = done.since(matched);
  }
  return r;
}

}  // namespace

Marriage mcvitie_wilson_gpu(const RankedLists& p, const GpuOptions& opt, GpuTimes* times) {
  MATCHBLAS_EXPECTS(p.offsets.size() == static_cast<std::size_t>(p.men) + 1 && p.woman.size() == p.her_rank.size() &&
                        p.offsets.front() == 0 && p.offsets.back() == offset_t(p.woman.size()),
                    "mcvitie_wilson_gpu: inconsistent ranked lists");
  for (vertex_t w : p.woman)
    MATCHBLAS_EXPECTS(w >= 0 && w < p.women, "mcvitie_wilson_gpu: a woman id out of range in the ranked lists");
  gpu::use_device("mcvitie-wilson-gpu", opt.device);
  const gpu::StreamSession session(opt.device, opt.stream);
  const cudaStream_t st = session.stream();
  gpu::Event up0, up1;
  up0.record(st);
  const auto offsets = gpu::DeviceBuffer<offset_t>::from_host(p.offsets, st);
  const auto woman = gpu::DeviceBuffer<vertex_t>::from_host(p.woman, st);
  const auto rank = gpu::DeviceBuffer<std::int32_t>::from_host(p.her_rank, st);
  up1.record(st);
  Marriage r = run(session, ListView{offsets.data(), woman.data(), rank.data()}, p.men, p.women, times);
  if (times) times->upload_s = up1.since(up0);
  return r;
}

Marriage mcvitie_wilson_gpu(const IdenticalPreferences& p, const GpuOptions& opt, GpuTimes* times) {
  check_identical(p);
  gpu::use_device("mcvitie-wilson-gpu", opt.device);
  const gpu::StreamSession session(opt.device, opt.stream);
  const cudaStream_t st = session.stream();
  gpu::Event up0, up1;
  up0.record(st);
  const auto order = gpu::DeviceBuffer<vertex_t>::from_host(p.women_order, st);
  const auto rank = gpu::DeviceBuffer<std::int32_t>::from_host(p.man_rank, st);
  up1.record(st);
  Marriage r = run(session, SharedView{order.data(), rank.data(), offset_t(p.women_order.size())},
                   vertex_t(p.man_rank.size()), vertex_t(p.women_order.size()), times);
  if (times) times->upload_s = up1.since(up0);
  return r;
}

Marriage mcvitie_wilson_gpu(const RankedLists& p, int device, GpuTimes* times) {
  return mcvitie_wilson_gpu(p, GpuOptions{.device = device}, times);
}

Marriage mcvitie_wilson_gpu(const IdenticalPreferences& p, int device, GpuTimes* times) {
  return mcvitie_wilson_gpu(p, GpuOptions{.device = device}, times);
}

}  // namespace matchblas
