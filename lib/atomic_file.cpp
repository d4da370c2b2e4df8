#include "lib/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lib/error.hpp"

namespace matchblas {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  temp_ = path_ + ".tmp." + std::to_string(::getpid()) + "." +
          std::to_string(reinterpret_cast<std::uintptr_t>(this) & 0xffffff);
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) throw error("cannot write " + path_ + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    std::remove(temp_.c_str());
  }
}

void AtomicFile::write(const char* data, std::size_t n) {
  if (n != 0 && std::fwrite(data, 1, n, file_) != n)
    throw error("cannot write " + path_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  const bool flushed = std::fflush(file_) == 0;
  const int saved = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    std::remove(temp_.c_str());
    throw error("cannot write " + path_ + ": " + std::strerror(flushed ? errno : saved));
  }
  std::error_code ec;
  std::filesystem::rename(temp_, path_, ec);
  if (ec) {
    std::remove(temp_.c_str());
    throw error("cannot write " + path_ + ": " + ec.message());
  }
}

}  // namespace matchblas
