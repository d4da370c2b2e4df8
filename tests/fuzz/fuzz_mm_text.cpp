// libFuzzer target: the Matrix Market parser on bytes in memory
// (read_matrix_market_text). Every input must end in a matrix or a
// matchblas::error (parse_error, out_of_memory); anything else is a finding.
#include <cstdint>
#include <string_view>

#include "lib/error.hpp"
#include "lib/mmio.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto m = matchblas::read_matrix_market_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    if (m.header.format == matchblas::MmFormat::coordinate && m.row.size() != m.col.size()) __builtin_trap();
  } catch (const matchblas::error&) {
  }
  return 0;
}
