// libFuzzer target: the stable marriage instance reader (read_marriage),
// through lib/input_stream (plain or gzip). A read instance must pass
// check_instance; anything but a matchblas::error is a finding.
#include <cstdint>

#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MemFile f(data, size);
  try {
    const auto inst = matchblas::read_marriage(f.path);
    matchblas::check_instance(inst);
  } catch (const matchblas::error&) {
  }
  return 0;
}
