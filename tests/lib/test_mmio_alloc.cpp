// The Matrix Market reader under allocation failure: every failure becomes
// out_of_memory, nothing leaks, and the next read works (STYLE 18).
#include <doctest/doctest.h>

#include <fstream>

#include "lib/error.hpp"
#include "lib/mmio.hpp"
#include "tests/check/check.hpp"
#include "tests/check/failing_allocator.hpp"

using namespace matchblas;
namespace alloc = matchblas::check::allocator;

TEST_CASE("read_matrix_market fails cleanly at every allocation") {
  check::temp_dir dir;
  MmMatrix m;
  m.header = {MmFormat::coordinate, MmField::real, MmSymmetry::general, 50, 40, 300};
  for (int k = 0; k < 300; ++k) {
    m.row.push_back(k % 50);
    m.col.push_back((k * 7) % 40);
    m.val.push_back(0.5 + k);
  }
  for (const char* name : {"a.mtx", "a.mtx.gz"}) {
    CAPTURE(name);
    const std::string path = (dir / name).string();
    write_matrix_market(path, m);
    const MmMatrix expected = read_matrix_market(path);
    bool same = false;
    const int failures =
        alloc::fail_every_allocation([&] { same = read_matrix_market(path).val == expected.val; }, "", 10000);
    CHECK(same);
    CHECK(failures > 0);  // the reader does allocate; the loop did test something
  }
}
