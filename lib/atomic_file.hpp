// An output file that never leaves a partial regular file behind.
//   - The target does not exist or is a regular file: the data goes to an
//     unnamed temporary in the target's folder (O_TMPFILE; a killed process
//     leaves nothing), which commit() links under a unique name and renames
//     onto the target. Where O_TMPFILE is unsupported (or /proc is absent),
//     a named temporary "TARGET.tmp.PID.K" beside the target is used instead
//     and removed again on failure.
//     Replacing a file keeps its permission bits.
//   - A symbolic link leading to a regular file: that file is replaced as
//     above (temporary in its folder, renamed onto it); the link stays.
//   - The target exists and is not a regular file (a device such as
//     /dev/null or /dev/full, a FIFO, /dev/stdout) or is a symbolic link
//     leading to anything else:
//     the data is written straight to it (opened for writing, truncated when
//     it leads to a regular file); no temporary, no rename, so a device or a
//     link is never replaced by a file. A write error still throws.
//   - "-": standard output, written through and flushed by commit(), never
//     closed; its name in messages is "<stdout>".
// Every error is a matchblas::error naming the target, never the temporary.
#pragma once
#include <cstdio>
#include <string>

namespace matchblas {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws error when the output cannot be opened
  ~AtomicFile();                          // without commit(): the temporary is discarded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* get() const noexcept { return file_; }
  const std::string& path() const noexcept { return path_; }
  bool direct() const noexcept { return mode_ == Mode::direct || mode_ == Mode::standard_output; }

  // Writes n bytes; throws error naming the target path on failure.
  void write(const char* data, std::size_t n);

  // Flushes and closes the output, then (temporary modes) puts it in place
  // of the target; throws error naming the target on failure.
  void commit();

 private:
  enum class Mode { direct, unnamed, named, standard_output };
  [[noreturn]] void fail(int err) const;

  std::string path_;
  std::string target_;  // the file replaced: path_, or the regular file a link at path_ leads to
  std::string temp_;  // the named temporary (Mode::named; also Mode::unnamed once linked)
  std::FILE* file_ = nullptr;
  Mode mode_ = Mode::named;
};

}  // namespace matchblas
