// The memory a command may spend; see memory_budget.hpp.
#include "lib/memory_budget.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lib/error.hpp"

namespace matchblas {

namespace {

// The number after `key` in a "Key:  value kB" file (/proc/meminfo,
// /proc/self/status), in bytes; negative when absent.
double kib_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      std::istringstream s(line.substr(key.size()));
      double kib = -1;
      s >> kib;
      return kib >= 0 ? kib * 1024 : -1;
    }
  return -1;
}

// The first line of a file as a number of bytes; negative when absent or
// "max" (no limit).
double number_file(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return -1;
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);
  return end && *end == '\0' && v >= 0 ? v : -1;
}

// The room left in this process's cgroup (v2), or negative.
double cgroup_room() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) {
      const std::string dir = "/sys/fs/cgroup" + line.substr(3);
      const double max = number_file(dir + "/memory.max");
      if (max < 0) return -1;
      return std::max(0.0, max - std::max(0.0, number_file(dir + "/memory.current")));
    }
  return -1;
}

// MATCHBLAS_MEMORY_AVAILABLE's bytes: digits with an optional K/M/G/T.
double override_bytes(const char* text) {
  const std::string s(text);
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  const std::string unit = s.substr(digits);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : unit == "T" ? 40 : -1;
  if (digits == 0 || digits > 15 || shift < 0)
    throw invalid_input("MATCHBLAS_MEMORY_AVAILABLE='" + s.substr(0, 40) +
                        "' must be a number of bytes, optionally with K, M, G or T (powers of 1024)");
  return std::stod(s.substr(0, digits)) * std::ldexp(1.0, shift);
}

}  // namespace

AvailableMemory available_memory() {
  if (const char* o = std::getenv("MATCHBLAS_MEMORY_AVAILABLE"); o && *o) return {override_bytes(o), "MATCHBLAS_MEMORY_AVAILABLE"};
  AvailableMemory a{kib_field("/proc/meminfo", "MemAvailable:"), "MemAvailable"};
  const auto lower = [&](double bytes, const char* source) {
    if (bytes >= 0 && (a.bytes < 0 || bytes < a.bytes)) a = {bytes, source};
  };
  rlimit lim{};
  if (::getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
    const double mapped = std::max(0.0, kib_field("/proc/self/status", "VmSize:"));
    lower(std::max(0.0, double(lim.rlim_cur) - mapped), "RLIMIT_AS");
  }
  lower(cgroup_room(), "cgroup memory.max");
  return a;
}

std::string memory_text(double bytes) {
  char buf[32];
  const char* unit = "bytes";
  double v = bytes;
  for (const char* u : {"kB", "MB", "GB", "TB"}) {
    if (v < 1000) break;
    v /= 1000;
    unit = u;
  }
  std::snprintf(buf, sizeof buf, v < 10 && unit[0] != 'b' ? "%.1f %s" : "%.0f %s", v, unit);
  return buf;
}

void require_memory(double bytes, const std::string& what) {
  // Below 16 MiB the system's figures are not read (that costs more than a
  // small build: the fuzzed graph rules ran 7x slower, and a library call on
  // a small graph paid it every time); such an allocation, if it fails, is
  // std::bad_alloc, the same out-of-memory error. The override still applies.
  constexpr double unchecked_below = double(16 << 20);
  const char* override_text = std::getenv("MATCHBLAS_MEMORY_AVAILABLE");
  if (bytes < unchecked_below && !(override_text && *override_text)) return;
  const AvailableMemory a = available_memory();
  if (a.bytes < 0 || bytes <= 0.9 * a.bytes) return;
  throw out_of_memory(what + " needs about " + memory_text(bytes) + " of memory, " + memory_text(a.bytes) +
                      " available (" + a.source + "; 10% is kept as a margin)");
}

}  // namespace matchblas
