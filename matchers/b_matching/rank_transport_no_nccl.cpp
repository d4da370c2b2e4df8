// The device transport in a build without NCCL (rank_transport.hpp): none,
// so b-suitor-gpu over ranks stages its exchange through host memory.
#include "matchers/b_matching/rank_transport.hpp"

namespace matchblas {

std::unique_ptr<DeviceTransport> open_device_transport(int, int, const std::function<void(void*, std::size_t)>&,
                                                       const std::function<bool(bool)>&, std::string& why) {
  why = "this build has no NCCL (configure with MATCHBLAS_NCCL where nccl.h and libnccl are installed)";
  return nullptr;
}

}  // namespace matchblas
