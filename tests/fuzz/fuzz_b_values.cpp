// libFuzzer target: the b-value file reader (read_b_values) for a graph of
// n vertices, n taken from the first input byte; through lib/input_stream.
#include <cstdint>

#include "datasets/b_values.hpp"
#include "lib/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int n = data[0];
  const MemFile f(data + 1, size - 1);
  try {
    const auto b = matchblas::read_b_values(f.path, n);
    if (b.size() != std::size_t(n)) __builtin_trap();
    for (int v : b)
      if (v < 0) __builtin_trap();
  } catch (const matchblas::error&) {
  }
  return 0;
}
