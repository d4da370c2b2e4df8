// This thread's interrupt flag; see interrupt.hpp.
#include "lib/interrupt.hpp"

namespace matchblas {

namespace {
thread_local const int* current_flag = nullptr;
}  // namespace

const int* interrupt_flag() noexcept { return current_flag; }

void set_interrupt_flag(const int* flag) noexcept { current_flag = flag; }

void check_interrupt() {
  if (current_flag && __atomic_load_n(current_flag, __ATOMIC_RELAXED) != 0) throw interrupted();
}

}  // namespace matchblas
