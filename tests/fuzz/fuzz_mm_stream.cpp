// libFuzzer target: the Matrix Market reader on a file (read_matrix_market
// through lib/input_stream): plain or gzip bytes, recognised from the data;
// the gzip seeds under corpus/mm_gz drive the decompressing path.
#include <cstdint>

#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MemFile f(data, size);
  try {
    (void)matchblas::read_matrix_market(f.path);
  } catch (const matchblas::error&) {
  }
  return 0;
}
