// The memory a command may spend, checked before it is spent: what the
// machine has available now (MemAvailable of /proc/meminfo), lowered to the
// process's address-space limit (RLIMIT_AS less what is mapped already) and
// its cgroup's room (cgroup v2 memory.max less memory.current) when those
// are lower. MATCHBLAS_MEMORY_AVAILABLE=BYTES (an integer, or with a K, M,
// G or T suffix of powers of 1024) replaces the measurement, so that tests
// can force a refusal. require_memory keeps a margin of 10% of what is
// available for what the estimates leave out (stacks, libraries, allocator
// slack) and refuses with one line: what needs how much, and how much is
// available from where. Cost: reading two or three small /proc and /sys
// files, skipped for requests under 16 MiB without the override.
#pragma once
#include <cstdint>
#include <string>

namespace matchblas {

struct AvailableMemory {
  double bytes = 0;    // < 0: unknown (no /proc/meminfo and no limit): nothing is refused
  std::string source;  // "MemAvailable", "RLIMIT_AS", "cgroup memory.max", "MATCHBLAS_MEMORY_AVAILABLE"
};

// Throws invalid_input when MATCHBLAS_MEMORY_AVAILABLE is set but not a size.
AvailableMemory available_memory();

// Throws out_of_memory "WHAT needs about X of memory, Y available (SOURCE)"
// when bytes exceed 90% of what is available.
void require_memory(double bytes, const std::string& what);

// A size for messages: "512 MB", "1.5 GB", "2e+03 TB".
std::string memory_text(double bytes);

}  // namespace matchblas
