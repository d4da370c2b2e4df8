// Fuzz helper: the fuzzer's bytes as a readable file (a memfd, so the
// readers go through their real stream path: lib/input_stream, gzip or
// plain), and the errors a reader may legitimately throw.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

struct MemFile {
  int fd = -1;
  std::string path;
  MemFile(const std::uint8_t* data, std::size_t size) {
    fd = ::memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0) __builtin_trap();
    for (std::size_t done = 0; done < size;) {
      const ssize_t w = ::write(fd, data + done, size - done);
      if (w <= 0) __builtin_trap();
      done += std::size_t(w);
    }
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  ~MemFile() { ::close(fd); }
};
