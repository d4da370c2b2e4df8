// Private to b_suitor_gpu.cu: messages between MPI ranks GPU to GPU, for
// ranks that each have a GPU of their own (NCCL refuses two ranks on one
// device; b_suitor_gpu_ranks_mpi.cpp agrees whether every rank has one).
// Built with NCCL (MATCHBLAS_NCCL): rank_transport_nccl.cpp, a communicator
// over the ranks and one group of ncclSend / ncclRecv per exchange; without
// it, rank_transport_no_nccl.cpp opens nothing and the exchange stays
// host-staged.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace matchblas {

class DeviceTransport {
 public:
  virtual ~DeviceTransport() = default;
  // On `stream` (a cudaStream_t): sends send_bytes[r] bytes from
  // send + send_at[r] to each rank r and receives receive_bytes[r] bytes
  // from each rank r at receive + receive_at[r] (device pointers of this
  // rank's GPU; the *_at are the byte counts' exclusive prefix sums). Later
  // work on the stream sees what arrived. Collective; throws error when the
  // transport fails.
  virtual void exchange(const void* send, const std::vector<std::size_t>& send_bytes, void* receive,
                        const std::vector<std::size_t>& receive_bytes, void* stream) = 0;
  // After a failed exchange on any rank (agreed), called on every rank:
  // ends this rank's outstanding transfers (which would wait for a peer
  // forever) and drops what was kept for later calls. Local.
  virtual void abort() noexcept = 0;
  virtual const char* name() const = 0;
};

// A transport over `ranks` ranks (this one `rank`, its GPU current), or
// nullptr where there is none: a build without NCCL, or NCCL failing to
// start (why, in `why`). broadcast(bytes, size) sends rank 0's bytes to
// every rank; any(mine) is whether any rank's `mine` is true. What it opens
// is kept for the process and reused by later calls with the same ranks and
// GPUs (every rank agreeing). Collective.
std::unique_ptr<DeviceTransport> open_device_transport(int rank, int ranks,
                                                       const std::function<void(void*, std::size_t)>& broadcast,
                                                       const std::function<bool(bool)>& any, std::string& why);

}  // namespace matchblas
