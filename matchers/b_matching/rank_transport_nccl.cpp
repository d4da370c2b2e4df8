// The device transport over NCCL (rank_transport.hpp): one communicator
// over the ranks, started from rank 0's unique id, and each exchange one
// group of point-to-point calls.
// Source: NCCL's point-to-point API (ncclSend / ncclRecv inside
// ncclGroupStart / ncclGroupEnd, the pattern of NCCL's all-to-all-v).
// Cost: one communicator per process (NCCL's start-up, 0.7 s on two H200s,
// paid by the first run; later runs with the same ranks and GPUs reuse it);
// per exchange, the bytes over the GPUs' links (NVLink within a node) and
// no host copy.
#include <cuda_runtime.h>
#include <nccl.h>

#include <string>

#include "lib/error.hpp"
#include "matchers/b_matching/rank_transport.hpp"

namespace matchblas {

namespace {

void nccl_try(ncclResult_t status, const char* what) {
  if (status != ncclSuccess)
    throw error(std::string("b-suitor-gpu over ranks: ") + what + " failed (NCCL: " + ncclGetErrorString(status) + ")");
}

// The process's communicator and what it was opened for: kept until the
// process ends (destroying it in a static destructor could run after the
// CUDA runtime has shut down), aborted when a later call opens another or
// an exchange fails.
struct OpenCommunicator {
  ncclComm_t comm = nullptr;
  int rank = -1, ranks = 0, device = -1;
};
OpenCommunicator& open_communicator() {
  static OpenCommunicator open;
  return open;
}

// Whether the communicator has reported no asynchronous error.
bool healthy(ncclComm_t comm) {
  ncclResult_t async = ncclSuccess;
  return ncclCommGetAsyncError(comm, &async) == ncclSuccess && async == ncclSuccess;
}

class NcclTransport final : public DeviceTransport {
 public:
  explicit NcclTransport(ncclComm_t comm) : comm_(comm) {}

  void exchange(const void* send, const std::vector<std::size_t>& send_bytes, void* receive,
                const std::vector<std::size_t>& receive_bytes, void* stream) override {
    const auto s = static_cast<cudaStream_t>(stream);
    const char* from = static_cast<const char*>(send);
    char* to = static_cast<char*>(receive);
    nccl_try(ncclGroupStart(), "ncclGroupStart");
    ncclResult_t status = ncclSuccess;
    const char* what = "";
    std::size_t sent = 0, received = 0;
    for (std::size_t r = 0; r < send_bytes.size() && status == ncclSuccess; ++r) {
      if (send_bytes[r] > 0) status = ncclSend(from + sent, send_bytes[r], ncclUint8, int(r), comm_, s), what = "ncclSend";
      if (status == ncclSuccess && receive_bytes[r] > 0)
        status = ncclRecv(to + received, receive_bytes[r], ncclUint8, int(r), comm_, s), what = "ncclRecv";
      sent += send_bytes[r];
      received += receive_bytes[r];
    }
    const ncclResult_t ended = ncclGroupEnd();  // the group is closed even after a failed call
    nccl_try(status, what);
    nccl_try(ended, "ncclGroupEnd (the peers' connections or the transfers)");
    if (!healthy(comm_)) throw error("b-suitor-gpu over ranks: NCCL reported an asynchronous error");
  }
  void abort() noexcept override {
    OpenCommunicator& open = open_communicator();
    if (open.comm == comm_) open = OpenCommunicator{};
    ncclCommAbort(comm_);  // local: ends this rank's outstanding NCCL work without its peers
  }
  const char* name() const override { return "nccl"; }

 private:
  ncclComm_t comm_;
};

}  // namespace

std::unique_ptr<DeviceTransport> open_device_transport(int rank, int ranks,
                                                       const std::function<void(void*, std::size_t)>& broadcast,
                                                       const std::function<bool(bool)>& any, std::string& why) {
  OpenCommunicator& open = open_communicator();
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) device = -1;
  const bool same = open.comm != nullptr && open.rank == rank && open.ranks == ranks && open.device == device &&
                    healthy(open.comm);
  if (!any(!same)) return std::make_unique<NcclTransport>(open.comm);
  // A new one on every rank (the old one, where there is one, is aborted
  // once the new one is open: aborting is local, destroying could wait).
  struct Start {
    int ok = 0;
    ncclUniqueId id{};
  } start;
  if (rank == 0) start.ok = ncclGetUniqueId(&start.id) == ncclSuccess ? 1 : 0;
  broadcast(&start, sizeof start);
  if (!start.ok) {
    why = "ncclGetUniqueId failed on rank 0";
    return nullptr;
  }
  ncclComm_t comm = nullptr;
  const ncclResult_t status = ncclCommInitRank(&comm, ranks, start.id, rank);
  if (status != ncclSuccess) {
    why = std::string("ncclCommInitRank: ") + ncclGetErrorString(status);
    return nullptr;
  }
  if (open.comm != nullptr) ncclCommAbort(open.comm);
  open = OpenCommunicator{comm, rank, ranks, device};
  return std::make_unique<NcclTransport>(comm);
}

}  // namespace matchblas
