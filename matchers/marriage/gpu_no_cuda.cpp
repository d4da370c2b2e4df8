// mcvitie-wilson-gpu in a build without CUDA: it throws, saying why.
#include "matchers/marriage/stable_marriage.hpp"

namespace matchblas {

Marriage mcvitie_wilson_gpu(const RankedLists&, int, GpuTimes*) { throw_no_cuda("mcvitie-wilson-gpu"); }
Marriage mcvitie_wilson_gpu(const IdenticalPreferences&, int, GpuTimes*) { throw_no_cuda("mcvitie-wilson-gpu"); }
Marriage mcvitie_wilson_gpu(const RankedLists&, const GpuOptions&, GpuTimes*) { throw_no_cuda("mcvitie-wilson-gpu"); }
Marriage mcvitie_wilson_gpu(const IdenticalPreferences&, const GpuOptions&, GpuTimes*) {
  throw_no_cuda("mcvitie-wilson-gpu");
}

}  // namespace matchblas
