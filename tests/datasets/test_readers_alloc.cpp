// The line-based readers (marriage instances, b-value files; plain and
// gzip) under allocation failure: for every k, failing the k-th allocation
// ends in out_of_memory naming the file, leaks nothing, and a later read
// works (issue 17, STYLE 18).
#include <doctest/doctest.h>

#include <fstream>

#include "datasets/b_values.hpp"
#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "tests/check/check.hpp"
#include "tests/check/failing_allocator.hpp"

using namespace matchblas;
namespace alloc = matchblas::check::allocator;

using alloc::fail_every_allocation;

TEST_CASE("read_marriage and read_b_values fail cleanly at every allocation") {
  check::temp_dir dir;
  const MarriageInstance inst = easy_marriage(40, 0.5, 7);
  const std::string plain = (dir / "m.txt").string(), packed = (dir / "m.txt.gz").string();
  write_marriage(plain, inst);
  REQUIRE(std::system(("gzip -c '" + plain + "' >'" + packed + "'").c_str()) == 0);
  for (const std::string& path : {plain, packed}) {
    CAPTURE(path);
    bool same = false;
    CHECK(fail_every_allocation([&] { same = read_marriage(path).men_lists == inst.men_lists; }, path) > 0);
    CHECK(same);
  }
  const std::string b = (dir / "b.txt").string();
  {
    std::ofstream out(b);
    for (int v = 0; v < 60; ++v) out << v % 5 << '\n';
  }
  std::size_t size = 0;
  CHECK(fail_every_allocation([&] { size = read_b_values(b, 60).size(); }, b) > 0);
  CHECK(size == 60);
}

TEST_CASE("read_marriage: a header's counts far beyond the file cost no memory before the lists are read") {
  // 2^31 - 1 women claimed, three short lines given: the reader must find
  // the missing list, not ask for memory the header implies (a reader that
  // sized a table by the header failed here with out_of_memory, or, under a
  // fuzzer's allocation limit, crashed).
  check::temp_dir dir;
  const std::string path = (dir / "short.txt").string();
  std::ofstream(path) << "stable-marriage 4 2131291345\n1\n0\n1\n";
  ::setenv("MATCHBLAS_MEMORY_AVAILABLE", "1M", 1);
  std::string what;
  try {
    (void)read_marriage(path);
  } catch (const error& e) {
    what = e.what();
  }
  ::unsetenv("MATCHBLAS_MEMORY_AVAILABLE");
  CAPTURE(what);
  CHECK(what.find(path + ":4: missing the list of man 3") != std::string::npos);
}
