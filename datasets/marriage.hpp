// Stable marriage instances: the easy and hard generators and a text format.
// Source: F. Manne, M. Naim, H. Lerring, M. Halappanavar, "On stable
// marriages and greedy matching", SIAM Workshop on Combinatorial Scientific
// Computing (CSC) 2016, sec. 4 ("easy": each man ranks (1 + eps) ln n
// random women, each woman ranks exactly the men who ranked her, in random
// order; "hard": identical complete random lists on both sides).
//
// Text format (read_marriage / write_marriage), one list per line, ids
// 0-based, most preferred first:
//   % comment lines start with '%'
//   stable-marriage MEN WOMEN
//   MEN lines: man 0's list of women, man 1's, ... (an empty line: no one)
//   WOMEN lines: woman 0's list of men, ...
// A bad file is one parse_error "FILE:LINE: reason"; the instance is then
// checked (check_instance).
// Generators are seeded and give the same instance for every thread count.
#pragma once
#include <cstdio>
#include <cstdint>
#include <functional>
#include <string>

#include "lib/marriage_instance.hpp"

namespace matchblas {

MarriageInstance easy_marriage(vertex_t n, double eps = 0.1, std::uint64_t seed = 1);
IdenticalPreferences hard_marriage(vertex_t n, std::uint64_t seed = 1);
// The explicit instance of identical preferences (n^2 entries: small n only).
MarriageInstance explicit_instance(const IdenticalPreferences& p);

// on_header, when set, sees MEN and WOMEN before any list is read (the
// caller's memory check: it refuses by throwing). The lists, whose length
// the header does not give, are checked against the memory available
// (lib/memory_budget.hpp) each time their storage grows: a compressed file
// that expands to more lists than fit is an out_of_memory naming the file
// and line, not the OOM killer.
MarriageInstance read_marriage(const std::string& path,
                               const std::function<void(vertex_t men, vertex_t women)>& on_header = {});
void write_marriage(const std::string& path, const MarriageInstance& inst);
// The same text to a FILE* the caller keeps open (stdout: appended to, never
// reopened or truncated); throws error naming `name` on a write error.
void write_marriage(std::FILE* file, const MarriageInstance& inst, const std::string& name);

}  // namespace matchblas
