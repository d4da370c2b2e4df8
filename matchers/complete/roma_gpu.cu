// roma-gpu: ROMA on a complete graph on the GPU at the memory's pace
// (matchers/complete/roma.hpp states the contract): per phase a cluster
// kernel (roma_gpu_cluster.cuh) or a stream kernel (roma_gpu_stream.cuh),
// chosen by roma_gpu_policy.hpp; flips by atomicFlip (atomic_flip.cuh).
// Source: Hovland 2020 sec. 3.5 (Alg. 4-5) and sec. 4.1 (Alg. 7-9), rebuilt
// around the bytes a phase must move.
// Guarantee: a perfect matching after every phase, weight never lower; each
// flip gains more than min_gain (with bf16 storage: in the rounded weights).
// Cost: per pair scanned its two rows, 8 n bytes (float; 4 n for bf16), so
// 4 n^2 bytes a phase of every pair; the times are in bench/RESULTS.md.
// The kernels, their choice and why races cost no validity: docs/algorithms/roma_gpu.md.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/error.hpp"
#include "ops/gpu/device_dense_impl.cuh"
#include "ops/gpu/device_dense.hpp"
#include "matchers/complete/roma.hpp"
#include "matchers/complete/roma_gpu_policy.hpp"
#include "ops/gpu/gpu_session.cuh"
#include "matchers/complete/roma_gpu_cluster.cuh"
#include "matchers/complete/atomic_flip.cuh"
#include "matchers/complete/roma_gpu_launch.cuh"
#include "matchers/complete/roma_gpu_pair_scan.cuh"
#include "matchers/complete/roma_gpu_stream.cuh"

namespace matchblas {

namespace {

using namespace roma_gpu_detail;

// cw[x] = (w[x, M[x]], M[x]); the pair counter reset.
template <class W, class S>
__global__ void start_phase(const S* w, vertex_t n, const vertex_t* mate, WeightMate<W>* cw, unsigned* counter) {
  const long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (x == 0) *counter = 0;
  if (x < n) cw[x] = {widen<W>(w[x * n + mate[x]]), mate[x]};
}

// The bf16 copy of a float matrix (round to nearest).
__global__ void to_bf16(const float* w, long long count, __nv_bfloat16* out) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = __float2bfloat16_rn(w[i]);
}

// The phases from the start matching `mate` (padded order), the kernels
// reading the weights w stored as S (g's own, or a bf16 copy of them); the
// report's weights are g's. Everything on the session's stream.
template <class W, class S>
RomaRun run_fast(const gpu::StreamSession& session, const DeviceDense<W>& g, const S* w, std::vector<vertex_t> mate,
                 const RomaOptions& opt, const RomaGpuOptions& gopt) {
  const cudaStream_t st = session.stream();
  const vertex_t n = g.padded_n();
  // The cluster phase's launch (not made when every phase streams).
  cudaLaunchAttribute cluster_dim[1];
  cluster_dim[0].id = cudaLaunchAttributeClusterDimension;
  cudaLaunchConfig_t config{};
  config.attrs = cluster_dim;
  config.numAttrs = 1;
  config.blockDim = dim3(cluster_block);
  Shape shape{0, 0, 0};
  // Thread-block clusters (sm_90 and newer): without them the cluster phase
  // is never run (roma_gpu_policy::without_clusters).
  int has_clusters = 0;
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&has_clusters, cudaDevAttrClusterLaunch, g.device()));
  if (!has_clusters && gopt.kernel == RomaGpuKernel::cluster)
    throw invalid_input("roma-gpu: --kernel cluster needs thread-block clusters (sm_90 or newer); this GPU has none "
                        "(--kernel auto, stream or queued)");
  if (has_clusters && (gopt.kernel == RomaGpuKernel::automatic || gopt.kernel == RomaGpuKernel::cluster)) {
    cudaFuncAttributes attr{};
    MATCHBLAS_CUDA_TRY(cudaFuncGetAttributes(&attr, roma_cluster_phase<W, S>));
    // The launch for shape s (one cluster), and how many such clusters fit.
    auto active_clusters = [&](const Shape& s) {
      MATCHBLAS_CUDA_TRY(cudaFuncSetAttribute(roma_cluster_phase<W, S>,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(s.smem)));
      if (s.cluster > 8)
        MATCHBLAS_CUDA_TRY(
            cudaFuncSetAttribute(roma_cluster_phase<W, S>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      cluster_dim[0].val.clusterDim = {unsigned(s.cluster), 1, 1};
      config.dynamicSmemBytes = s.smem;
      config.gridDim = dim3(unsigned(s.cluster));
      int clusters = 0;
      MATCHBLAS_CUDA_TRY(cudaOccupancyMaxActiveClusters(&clusters, roma_cluster_phase<W, S>, &config));
      return clusters;
    };
    shape = choose_shape<W, S>(n, gopt, g.device(), attr.sharedSizeBytes, active_clusters);
    const int clusters = active_clusters(shape);
    if (clusters < 1)
      throw error("roma-gpu: no cluster of " + std::to_string(shape.cluster) + " blocks with " +
                  std::to_string(shape.smem) + " bytes of shared memory each fits this GPU");
    // At most one pair in eight in flight at once: pairs scanned together see
    // each other's flips only through the re-check, and on small graphs
    // (n = 1000-2048, all 264 clusters busy) that cost 1-4% of the weight
    // after 8 phases on the H100.
    config.gridDim = dim3(unsigned(std::min(clusters, std::max(1, n / 16)) * shape.cluster));
  }
  config.stream = st;  // the launch's (set after the occupancy queries above, which read the config as before)
  // The stream phase's launch: 16-byte row loads where every row starts on a
  // 16-byte boundary (else one column a load: float rows of n = 4 k + 2
  // could take 8-byte loads, not done); one block an SM, as many pairs in flight (at most one
  // in eight, as above).
  constexpr int per_load = 16 / sizeof(S);
  const bool aligned = n % per_load == 0 && reinterpret_cast<std::uintptr_t>(w) % 16 == 0;
  const auto stream_kernel = aligned ? roma_stream_phase<W, S, per_load, false> : roma_stream_phase<W, S, 1, false>;
  const auto queued_kernel = aligned ? roma_stream_phase<W, S, per_load, true> : roma_stream_phase<W, S, 1, true>;
  int per_sm = 0, queued_per_sm = 0, l2_bytes = 0;
  MATCHBLAS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_kernel, stream_block, 0));
  MATCHBLAS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&queued_per_sm, queued_kernel, stream_block, 0));
  per_sm = std::min(per_sm, queued_per_sm);  // one grid for both (one block an SM either way)
  const int sms = session.sms();
  MATCHBLAS_CUDA_TRY(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, g.device()));
  const int stream_grid = std::max(1, std::min(per_sm * sms, n / 16));
  const bool rows_fit_l2 = roma_gpu_policy::rows_fit_l2(stream_grid, n, sizeof(S), l2_bytes);

  // The phases' scratch, stream-ordered on st (freed there, after the
  // session's last wait in roma_phases).
  gpu::DeviceBuffer<WeightMate<W>> cw{std::size_t(n), st};
  gpu::DeviceBuffer<unsigned> counter{1, st};
  gpu::DeviceBuffer<W> top{std::size_t(n), st};  // row maxima, NaN until a phase reads the row
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(top.data(), 0xff, top.size() * sizeof(W), st));
  gpu::DeviceBuffer<int> changed{std::size_t(n), st};
  MATCHBLAS_CUDA_TRY(cudaMemsetAsync(changed.data(), 0xff, changed.size() * sizeof(int), st));  // all -1
  gpu::DeviceBuffer<vertex_t> pairs{std::size_t(n) / 2, st};
  gpu::DeviceBuffer<unsigned> listed{1, st};
  const thrust::counting_iterator<vertex_t> vertices(0);
  const bool every_pair = scan_to_run(opt.scan, opt.start, n) == RomaScan::all;
  auto select = [&](void* temp, std::size_t& bytes, int phase, const vertex_t* m) {
    return cub::DeviceSelect::If(temp, bytes, vertices, pairs.data(), listed.data(), n,
                                 ToScan{m, changed.data(), phase, every_pair}, st);
  };
  std::size_t temp_bytes = 0;
  MATCHBLAS_CUDA_TRY(select(nullptr, temp_bytes, 0, nullptr));
  gpu::DeviceBuffer<unsigned char> temp{std::max<std::size_t>(temp_bytes, 1), st};
  return roma_phases(session, g, std::move(mate), opt, /*counts_scans=*/true,
                     [&](int p, const PhaseState& s) -> PhaseKernel {
    start_phase<W, S><<<(n + 255) / 256, 256, 0, st>>>(w, n, s.mate, cw.data(), counter.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    MATCHBLAS_CUDA_TRY(select(temp.data(), temp_bytes, p, s.mate));
    const Worklist list{pairs.data(), listed.data(), s.scanned};
    const ChangeStamps stamps{changed.data(), p};
    const BoundStats<W> stats{s.past_bound, s.pairs, top.data()};
    const RomaGpuKernel kernel = roma_gpu_policy::without_clusters(
        roma_gpu_policy::choose_kernel(gopt.kernel, p, s.previous_past_bound, s.previous_pairs, n, rows_fit_l2,
                                       std::is_same_v<S, W>),
        has_clusters != 0, std::is_same_v<S, W>);
    if (kernel != RomaGpuKernel::cluster) {
      const auto phase_kernel = kernel == RomaGpuKernel::queued ? queued_kernel : stream_kernel;
      phase_kernel<<<stream_grid, stream_block, 0, st>>>(w, n, s.mate, cw.data(), s.locks, counter.data(), s.flips,
                                                         s.fallback_flips, W(opt.min_gain), list, stamps, stats);
      MATCHBLAS_CUDA_CHECK_LAUNCH();
      return {kernel == RomaGpuKernel::queued ? "queued" : "stream", 0};
    }
    MATCHBLAS_CUDA_TRY(cudaLaunchKernelEx(&config, roma_cluster_phase<W, S>, w, n, s.mate, cw.data(), s.locks,
                                          counter.data(), s.flips, s.fallback_flips, W(opt.min_gain), shape.slice,
                                          list, stamps, stats));
    return {"cluster", shape.cluster};
  });
}

template <class W>
RomaRun run_fast(const gpu::StreamSession& session, const DeviceDense<W>& g, std::vector<vertex_t> mate,
                 const RomaOptions& opt, const RomaGpuOptions& gopt) {
  const vertex_t n = g.padded_n();
  if (n < 4 || opt.phases == 0)
    return roma_phases(session, g, std::move(mate), opt, true, [](int, const PhaseState&) {});
  if (!gopt.bf16) return run_fast<W, W>(session, g, g.impl().w.data(), std::move(mate), opt, gopt);
  if constexpr (std::is_same_v<W, float>) {  // (check_roma_gpu_options refused bf16 for double)
    const long long count = static_cast<long long>(n) * n;
    gpu::DeviceBuffer<__nv_bfloat16> half{std::size_t(count)};  // out_of_memory when it does not fit
    to_bf16<<<1024, 256, 0, session.stream()>>>(g.impl().w.data(), count, half.data());
    MATCHBLAS_CUDA_CHECK_LAUNCH();
    return run_fast<W, __nv_bfloat16>(session, g, half.data(), std::move(mate), opt, gopt);
  }
  return {};
}

// The run on g, resident on its own GPU, on `stream` (null: the session's own).
template <class W>
RomaRun run_on_device(const DeviceDense<W>& g, const Dense<W>* host, const RomaOptions& opt,
                      const RomaGpuOptions& gopt, cudaStream_t stream) {
  const gpu::StreamSession session(g.device(), stream);
  return run_from_start<W>(session, g, host, opt, [&](std::vector<vertex_t> start) {
    return run_fast(session, g, std::move(start), opt, gopt);
  });
}

}  // namespace

template <class W>
RomaRun roma_gpu(const DeviceDense<W>& g, const RomaOptions& opt, const RomaGpuOptions& gopt) {
  check_roma_options(opt);
  check_roma_gpu_options<W>(gopt);
  return run_on_device<W>(g, nullptr, opt, gopt, gopt.stream);
}

template <class W>
RomaRun roma_gpu(const Dense<W>& g, const RomaOptions& opt, const RomaGpuOptions& gopt) {
  check_roma_options(opt);
  check_roma_gpu_options<W>(gopt);
  const DeviceDense<W> d = DeviceDense<W>::upload(g, gopt.device, gopt.stream);
  return run_on_device<W>(d, &g, opt, gopt, gopt.stream);
}

template RomaRun roma_gpu(const DeviceDense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const DeviceDense<double>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<float>&, const RomaOptions&, const RomaGpuOptions&);
template RomaRun roma_gpu(const Dense<double>&, const RomaOptions&, const RomaGpuOptions&);

}  // namespace matchblas
