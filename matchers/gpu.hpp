// The GPU matchers' API. The 1/2-approximate ones (issue 4) each return
// exactly greedy's matching (DESIGN.md "The greedy order"), mate for mate,
// whatever the launch parameters and the interleaving of threads:
//
//   suitor_gpu     warp-based GPU-Suitor, seed 001 Paper I sec. 4 Alg. 4,
//                  with its four variants (NoSync, SyncLB, SyncNoLB, Hybrid);
//                  matchers/suitor_gpu.cu
//   ld_gpu         thread-per-vertex Locally-Dominant, the GPU-LD baseline of
//                  Paper I (Alg. 1 in synchronous kernels); matchers/ld_gpu.cu
//   handshake_gpu  seed 003's pipeline on the device ops: strongest neighbour,
//                  update matches, keep-edges flags, prefix sum, compaction;
//                  matchers/handshake_gpu.cu
//
// Also here: DeviceDense, roma_gpu and roma_gpu_thesis (issue 5;
// matchers/dense_gpu.cu, roma_gpu.cu, roma_gpu_thesis.cu), mcvitie_wilson_gpu
// (issue 6; matchers/marriage_gpu.cu) and b_suitor_gpu (issue 6;
// matchers/b_suitor_gpu.cu), described at their declarations.
// Plain header: callable from host code in every build. Without CUDA, or
// without a GPU, each throws matchblas::error saying why.
// Preconditions: g is a general graph (square Csr, both directions stored
// with equal weights, no self-loops, columns sorted), weights not NaN.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datasets/generators.hpp"
#include "lib/csr.hpp"
#include "lib/dense.hpp"
#include "lib/matching.hpp"
#include "matchers/b_matching.hpp"
#include "matchers/auction.hpp"
#include "matchers/roma.hpp"
#include "matchers/stable_marriage.hpp"

namespace matchblas {

// Paper I sec. 4, "Synchronization and Load Balancing".
enum class SuitorGpuVariant {
  no_sync,     // warps never wait for each other (the default, Paper I's best)
  sync_lb,     // block-synchronised rounds; load balanced over the warps of a
               // block during the first lb_rounds rounds
  sync_no_lb,  // block-synchronised rounds, no load balancing
  hybrid,      // load balanced for the first lb_rounds rounds, then NoSync
};

// How suitor-gpu's adaptive mode searches rows of up to 128 entries for a
// vertex's next proposal (matchers/suitor_gpu_search.cuh); same matching.
enum class SuitorGpuSearch {
  automatic,  // champions when no row has more than 128 entries, else walk
  champions,  // each lane's best entry first, one offer word per lane at a time
              // (walk instead when the launch shape leaves no shared memory
              // for the refusals it keeps: 8 more bytes per queue slot)
  walk,       // Paper I: each lane walks its entries, reading words as it goes
};

struct GpuOptions {
  int device = 0;             // CUDA device id
  int threads = 0;            // handshake_gpu: about this many threads per kernel (seed 003 -threads); 0: enough
                              // for one per element. ld_gpu likewise. The result never depends on it.
  int threads_per_block = 128;  // suitor_gpu (Paper I: 128, 192 or 256)
  int vertices_per_warp = 8;    // suitor_gpu (Paper I: 8 was best)
  SuitorGpuVariant variant = SuitorGpuVariant::no_sync;
  int lb_rounds = 4;            // sync_lb / hybrid: rounds with load balancing
  // suitor_gpu: true (default) adds three departures from Paper I's warp
  // per vertex, same result: a bulk first round (every vertex proposes to
  // its heaviest neighbour, found by a streaming row argmax), rows longer
  // than hub_degree left after it are matched by a block each (a warp would
  // take degree / 32 dependent steps), and the warps scan rows of <= 32
  // entries with groups of 4 lanes and rows of <= 128 with groups of 8
  // (searched as `search` says).
  // false: Paper I as written (matchers/suitor_gpu.cu).
  bool adaptive = true;
  int hub_degree = 1024;
  SuitorGpuSearch search = SuitorGpuSearch::automatic;
  // ... but only on graphs of at least this many stored entries: below, the
  // adaptive mode's extra launches and host synchronisations cost more than
  // they save (bcsstk16, 285k entries: 0.17 ms adaptive, 0.08 ms Paper I,
  // on the H100). The crossover was not measured more finely.
  long long adaptive_min_entries = 1LL << 20;
};

// Where the time went, measured with CUDA events on the device's stream.
struct GpuTimes {
  double upload_s = 0;    // the graph to the device
  double match_s = 0;     // the kernels, graph resident, result on the device
  double download_s = 0;  // the mate array back
  // The parts of match_s where a matcher reports them (suitor_gpu adaptive:
  // "argmax", "propose+list", "hubs", "warps"), in order.
  std::vector<std::pair<std::string, double>> phases;
};

// A graph uploaded once to GPU `device`, for running several matchers or
// settings on it without copying it again (benchmarks, sweeps). Checks that
// g is square and a consistent CSR (invalid_input), that the GPU exists
// (invalid_input) and that there is one (error). Move-only.
template <class W>
class DeviceGraph {
 public:
  explicit DeviceGraph(const Csr<W>& g, int device = 0);
  ~DeviceGraph();
  DeviceGraph(DeviceGraph&&) noexcept;
  DeviceGraph& operator=(DeviceGraph&&) noexcept;
  int device() const noexcept;
  vertex_t n() const noexcept;
  double upload_seconds() const noexcept;

  struct Impl;  // matchers/gpu_session.cuh
  const Impl& impl() const noexcept { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// On a host graph: upload (GpuTimes::upload_s), match, download. On a
// DeviceGraph: opt.device must be the graph's device (invalid_input
// otherwise) and upload_s is 0.
template <class W>
Matching suitor_gpu(const Csr<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching suitor_gpu(const DeviceGraph<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);

template <class W>
Matching ld_gpu(const Csr<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching ld_gpu(const DeviceGraph<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);

template <class W>
Matching handshake_gpu(const Csr<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);
template <class W>
Matching handshake_gpu(const DeviceGraph<W>& g, const GpuOptions& opt = {}, GpuTimes* times = nullptr);

// A complete graph's weights resident on GPU `device` (issue 5): n x n,
// row-major, an odd order padded with one zero-weight vertex (as the ROMA
// matchers match it). upload() copies a host Dense; generate() draws the
// weights on the GPU, the same as complete_graph(dist, n, opt) of
// datasets/generators.hpp (datasets/complete_weights.hpp is the one pair
// weight function both use; the device's log1p may differ from the host's in
// a double's last bit), so that n = 131072 (64 GiB of float) never exists on
// the host. Move-only.
template <class W>
class DeviceDense {
 public:
  static DeviceDense upload(const Dense<W>& g, int device = 0);
  static DeviceDense generate(WeightDist dist, vertex_t n, const GenOptions& opt = {}, int device = 0);
  ~DeviceDense();
  DeviceDense(DeviceDense&&) noexcept;
  DeviceDense& operator=(DeviceDense&&) noexcept;
  int device() const noexcept;
  vertex_t n() const noexcept;         // the graph's order
  vertex_t padded_n() const noexcept;  // n, or n + 1 when n is odd
  double seconds() const noexcept;     // the upload or the generation (CUDA events)
  Dense<W> to_host() const;            // the n x n weights, without the padding

  struct Impl;  // matchers/device_dense.cuh
  const Impl& impl() const noexcept { return *impl_; }

 private:
  explicit DeviceDense(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Bertsekas's auction with epsilon-scaling on the GPU (matchers/
// auction_gpu.cu says how): the same problem, options and guarantee as
// dense_auction and assignment_matching (matchers/auction.hpp), asynchronous
// (warps bid with an atomicMax on the object's (price, owner) word and go on
// with the owner they displace; prices are floats in units of the largest
// weight, so the bound is n x (epsilon + a float's rounding of a price), and
// opt.final_epsilon must be >= 1e-5, invalid_input otherwise). dense_auction_gpu is on the
// graph's order n; assignment_matching_gpu on the padded order (as roma-gpu
// matches), the matching read off on the host from sigma and the n weights
// w(u, sigma(u)). Not the CPU's permutation (the bids race). Throws
// invalid_input naming a weight that is not finite.
// With stats, each phase's epsilon, kernel seconds, bids (lost ones: another
// bid came first), row scans, persons left unassigned, and its tail: when the
// unassigned count fell to 2^k (and to 0), seconds since the phase's first bid.
struct AuctionGpuPhase {
  double epsilon = 0;
  double seconds = 0;
  std::int64_t bids = 0, lost_bids = 0, scans = 0;
  vertex_t unassigned = 0;
  std::vector<std::pair<vertex_t, double>> tail;
};
struct AuctionGpuStats {
  double seconds = 0;  // the whole auction, wall clock (the phases are synchronised for the counts)
  std::vector<AuctionGpuPhase> phases;
};
template <class W>
std::vector<vertex_t> dense_auction_gpu(const DeviceDense<W>& g, const AuctionOptions& opt = {},
                                        AuctionGpuStats* stats = nullptr);
template <class W>
std::vector<vertex_t> assignment_matching_gpu(const DeviceDense<W>& g, const AuctionOptions& opt = {},
                                              AuctionGpuStats* stats = nullptr);

// ROMA on a complete graph on the GPU, our fastest version (matchers/
// roma_gpu.cu says how). Each phase runs one of two kernels: the cluster
// phase (a thread-block cluster holds the two rows of one matched pair in
// its distributed shared memory, so every gather of the scan lands on chip)
// or the stream phase (a block streams the two rows from memory and gathers
// only for the edges past a gain bound from the rows' maxima; each such edge
// at once, or queued: 32 at a time, one a lane). Both read
// each row once a phase, take pairs from a worklist with a persistent grid,
// keep the weights of the current matching edges in a vector in step with
// the flips, and re-check a flip's gain with exact weights under the locks.
// RomaGpuKernel::automatic takes the cluster phase for phase 0 and after a
// phase whose scans gathered much when the stream phase's rows in flight
// would not fit L2, the stream phase otherwise: queued, except from phase
// 2 on after a phase whose scans passed the bound on most columns, and
// with bf16 storage. Same options, start matchings and report as the
// CPU roma (matchers/roma.hpp; RomaScan::changed keeps a worklist of the
// changed pairs); RomaPhase::seconds is the phase's kernels (the refresh of
// the weight vector, the worklist's select, the row maxima when first
// needed, and the phase kernel). The greedy start reads a DeviceDense back
// to the host (n^2 weights of host memory); the assignment start is
// assignment_matching_gpu, on the device. Guarantee: a perfect matching
// after every phase, weight never lower (with bf16 storage the flips are
// decided on the rounded weights, so the float weight may dip); not the
// CPU's matching (the flips race), close to it in weight.
enum class RomaGpuKernel { automatic, cluster, stream, queued };  // queued: the stream phase, gathers queued
RomaGpuKernel parse_roma_gpu_kernel(std::string_view name);       // auto, cluster, stream, queued
std::string to_string(RomaGpuKernel k);
struct RomaGpuOptions {
  int device = 0;         // for the Dense overload (a DeviceDense knows its own)
  RomaGpuKernel kernel = RomaGpuKernel::automatic;  // the phase kernel; cluster, stream or queued: every phase
  int cluster = 0;        // the cluster phase's blocks per pair: 1-16; 0: automatic (matchers/roma_gpu_launch.cuh)
  int blocks_per_sm = 2;  // 1 or 2: the cluster phase's shared memory is split for this many blocks per SM
  bool bf16 = false;      // float graphs only (invalid_input for double): the kernels read a bf16 copy of
                          // the weights (half the bytes; the copy takes n^2 x 2 bytes more) and compute in
                          // float; the report's weights are the float ones, so the cost in quality shows
};
template <class W>
RomaRun roma_gpu(const DeviceDense<W>& g, const RomaOptions& opt = {}, const RomaGpuOptions& gopt = {});
template <class W>
RomaRun roma_gpu(const Dense<W>& g, const RomaOptions& opt = {}, const RomaGpuOptions& gopt = {});

// ROMA on the GPU, faithful to seed 000 (issue 5), the baseline
// (matchers/roma_gpu_thesis.cu):
//   version 1  Alg. 6: a thread per vertex u < M[u], the whole Alg. 5 scan
//   version 2  Alg. 8: a 1024-thread block per vertex u < M[u], a strided
//              scan and a CUB block max-reduction of (gain, a, b)
// both with atomicFlip (Alg. 7: lock min(u, x), then max(u, x), re-check the
// mates, flip, threadfence, unlock; we re-check both ends of each edge,
// matchers/roma_gpu_common.cuh) and the host loop of Alg. 9 (a flip counter; stops
// after a phase without flips or after opt.phases). Same options, start
// matchings and report as the CPU roma (matchers/roma.hpp), but RomaScan::
// changed is refused (invalid_input: they scan every pair, Alg. 3);
// RomaPhase::seconds is the phase kernel alone (CUDA events). Guarantee: a
// perfect matching after every phase (Lemma 4.1.1 and the locks), weight
// never lower (a flip's gain depends only on the four vertices it re-checks);
// not the CPU's matching (the flips race), but close to it in weight
// (tests/gpu/test_roma_gpu.cpp).
template <class W>
RomaRun roma_gpu_thesis(const Dense<W>& g, int version, const RomaOptions& opt = {}, int device = 0);
template <class W>
RomaRun roma_gpu_thesis(const DeviceDense<W>& g, int version, const RomaOptions& opt = {});

// McVitie-Wilson on the GPU, a thread per man following the chain of men it
// rejects, atomicMin on a woman's suitor word (seed 001 Paper IV sec. 4);
// the same man-optimal stable matching as the CPU versions. GpuTimes:
// upload, match (kernels), download. matchers/marriage_gpu.cu.
Marriage mcvitie_wilson_gpu(const RankedLists& p, int device = 0, GpuTimes* times = nullptr);
Marriage mcvitie_wilson_gpu(const IdenticalPreferences& p, int device = 0, GpuTimes* times = nullptr);

// b-Suitor on the GPU (matchers/b_suitor_gpu.cu): each vertex keeps its
// b(v) best offers under a per-vertex lock, a tile of lanes (a block for
// rows longer than 1024) scans a proposer's row; exactly b_greedy's edge set
// (matchers/b_matching.hpp) for any b and any interleaving, and with b = 1
// greedy's matching. Same preconditions and errors as b_suitor_seq
// (invalid_input for a bad b); of opt only `device` is used. GpuTimes:
// upload (the graph's, plus b's), match (allocations, kernels and one host
// synchronisation per round, the result left on the device; phases "init",
// "propose (R rounds)", "extract"), download (the BMatching). On a
// DeviceGraph, opt.device must be the graph's device.
template <class W>
BMatching b_suitor_gpu(const Csr<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                       GpuTimes* times = nullptr);
template <class W>
BMatching b_suitor_gpu(const DeviceGraph<W>& g, const std::vector<int>& b, const GpuOptions& opt = {},
                       GpuTimes* times = nullptr);

// "nosync", "synclb", "syncnolb", "hybrid"; parse throws invalid_input
// listing them.
SuitorGpuVariant parse_suitor_gpu_variant(std::string_view name);
std::string to_string(SuitorGpuVariant v);
SuitorGpuSearch parse_suitor_gpu_search(std::string_view name);  // auto, champions, walk
std::string to_string(SuitorGpuSearch s);

// Throws invalid_input naming the bad field (threads_per_block a multiple of
// 32 in [32, 1024]; vertices_per_warp in [1, 1024]; threads >= 0;
// lb_rounds >= 0; device >= 0; hub_degree >= 32; adaptive_min_entries >= 0).
void check_gpu_options(const GpuOptions& opt);

}  // namespace matchblas
