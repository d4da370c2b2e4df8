// The line-based readers (marriage instances, b-value files; plain and
// gzip) under allocation failure: for every k, failing the k-th allocation
// ends in out_of_memory naming the file, leaks nothing, and a later read
// works (issue 17, STYLE 18).
#include <doctest/doctest.h>

#include <fstream>
#include <functional>

#include "datasets/b_values.hpp"
#include "datasets/marriage.hpp"
#include "lib/error.hpp"
#include "tests/check/check.hpp"
#include "tests/check/failing_allocator.hpp"

using namespace matchblas;
namespace alloc = matchblas::check::allocator;

namespace {
// Runs read() with the k-th allocation failing for k = 0, 1, ... until a
// run allocates no more than that; returns the number of failed runs. read()
// must not catch (no doctest CHECK inside).
int fail_every_allocation(const std::string& path, const std::function<void()>& read) {
  int failures = 0;
  for (std::int64_t k = 0;; ++k) {
    CAPTURE(k);
    const std::int64_t before = alloc::live();
    bool done = false;
    alloc::arm(k);
    try {
      read();
      alloc::disarm();
      done = !alloc::tripped();
    } catch (const out_of_memory& e) {
      alloc::disarm();
      CHECK(std::string(e.what()).find(path) != std::string::npos);
      ++failures;
    } catch (...) {
      alloc::disarm();
      FAIL("an exception other than out_of_memory");
    }
    REQUIRE(alloc::live() == before);
    if (done) break;
    REQUIRE(k < 20000);
  }
  return failures;
}
}  // namespace

TEST_CASE("read_marriage and read_b_values fail cleanly at every allocation") {
  check::temp_dir dir;
  const MarriageInstance inst = easy_marriage(40, 0.5, 7);
  const std::string plain = (dir / "m.txt").string(), packed = (dir / "m.txt.gz").string();
  write_marriage(plain, inst);
  REQUIRE(std::system(("gzip -c '" + plain + "' >'" + packed + "'").c_str()) == 0);
  for (const std::string& path : {plain, packed}) {
    CAPTURE(path);
    bool same = false;
    CHECK(fail_every_allocation(path, [&] { same = read_marriage(path).men_lists == inst.men_lists; }) > 0);
    CHECK(same);
  }
  const std::string b = (dir / "b.txt").string();
  {
    std::ofstream out(b);
    for (int v = 0; v < 60; ++v) out << v % 5 << '\n';
  }
  std::size_t size = 0;
  CHECK(fail_every_allocation(b, [&] { size = read_b_values(b, 60).size(); }) > 0);
  CHECK(size == 60);
}
