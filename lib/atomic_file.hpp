// A file written under a temporary name beside its target and renamed onto
// the target by commit(), so that a failed or interrupted write never leaves
// a partial file behind. Destroyed without commit(): the temporary is removed.
#pragma once
#include <cstdio>
#include <string>

namespace matchblas {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws error when the temporary cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* get() const noexcept { return file_; }
  const std::string& temp_path() const noexcept { return temp_; }
  const std::string& path() const noexcept { return path_; }

  // Writes n bytes; throws error naming the target path on failure.
  void write(const char* data, std::size_t n);

  // Closes the temporary and renames it onto the target; throws on failure.
  void commit();

 private:
  std::string path_;
  std::string temp_;
  std::FILE* file_ = nullptr;
};

}  // namespace matchblas
