// --out, checked before any work: the output is opened (its folder exists,
// it may be written) and is not one of the inputs; a name ending in ".gz" is
// refused by the commands that write plain text. See commands.hpp.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "apps/commands.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"

namespace matchblas::cli {

void require_one_input(const Args& a, const std::string& command) {
  const auto& p = a.positional();
  if (p.size() == 1) return;
  if (p.empty()) throw usage_error(command + " needs a FILE (- for standard input)");
  std::string given;
  for (const std::string& s : p) given += " '" + s + "'";
  throw usage_error(command + " takes one FILE, got " + std::to_string(p.size()) + ":" + given);
}

namespace {

// Whether an output path is standard output: "-", or a name of the
// process's own descriptor 1.
bool names_stdout(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

// Where an output path leads: absolute, symbolic links followed (a dangling
// one too: the output would create its target), then resolved as far as it
// exists; the path as given where that fails.
std::filesystem::path output_target(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code e;
  fs::path p = fs::absolute(path, e);
  if (e) return path;
  for (int hops = 0; hops < 40 && fs::is_symlink(p, e); ++hops) {
    const fs::path to = fs::read_symlink(p, e);
    if (e) return path;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  const fs::path resolved = fs::weakly_canonical(p, e);
  return e ? fs::path(path) : resolved;
}

// Whether two output paths (neither standard output) lead to one file,
// which the later output would replace. Devices such as /dev/null may take
// any number of outputs. (Two hard links to one file are two names: each
// output replaces its own, so nothing is lost.)
bool same_output_file(const std::string& x, const std::string& y) {
  struct stat s {};
  if (::stat(x.c_str(), &s) == 0 && !S_ISREG(s.st_mode)) return false;
  return output_target(x) == output_target(y);
}

}  // namespace

std::FILE* report_stream(const Args& a, const std::vector<std::string>& outputs) {
  // Two outputs into one file: the later would replace the earlier.
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto x = a.value(outputs[i]), y = a.value(outputs[j]);
      if (!x || !y || names_stdout(*x) || names_stdout(*y) || !same_output_file(*x, *y)) continue;
      throw usage_error("--" + outputs[i] + " " + *x + " and --" + outputs[j] + " " + *y +
                        " name the same file: give each output its own");
    }
  std::string to_stdout;
  for (const std::string& o : outputs)
    if (const auto v = a.value(o); v && names_stdout(*v)) {
      if (!to_stdout.empty())
        throw usage_error("--" + to_stdout + " and --" + o + " both name standard output: one output can go there");
      to_stdout = o;
    }
  if (to_stdout.empty()) return stdout;
  if (a.flag("json"))
    throw usage_error("--" + to_stdout + " " + *a.value(to_stdout) + " and --json conflict: both would go to standard output");
  return stderr;
}

void check_output_path(const std::string& out, const std::vector<std::string>& inputs, bool gzip_ok) {
  if (out == "-") return;
  if (out.empty()) throw usage_error("--out needs a file name (- : standard output)");
  if (!gzip_ok && out.size() > 3 && out.compare(out.size() - 3, 3, ".gz") == 0)
    throw usage_error("--out " + out + ": this command writes plain text, not gzip (name it without .gz)");
  struct stat o {};
  const bool exists = ::stat(out.c_str(), &o) == 0;
  if (!exists || S_ISREG(o.st_mode)) {
    // A new or replaced file goes into its folder: that folder must exist
    // and be writable now, not after the work.
    const auto slash = out.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : out.substr(0, slash);
    struct stat d {};
    if (::stat(folder.c_str(), &d) == 0 && !S_ISDIR(d.st_mode))
      throw error("cannot write " + out + ": " + folder + " is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
      throw error("cannot write " + out + ": " + std::strerror(errno) + " (folder " + folder + ")");
  }
  if (!exists || !S_ISREG(o.st_mode)) return;
  for (const std::string& in : inputs) {
    struct stat i {};
    if (in != "-" && ::stat(in.c_str(), &i) == 0 && i.st_dev == o.st_dev && i.st_ino == o.st_ino)
      throw error("cannot write " + out + ": it is the input file " + in);
  }
}

std::unique_ptr<AtomicFile> open_output(const Args& a, const std::vector<std::string>& inputs) {
  const auto out = a.value("out");
  if (!out) return nullptr;
  check_output_path(*out, inputs, false);
  return std::make_unique<AtomicFile>(*out);
}

std::unique_ptr<AtomicFile> open_named_output(const Args& a, const std::string& option, const std::string& input) {
  const auto path = a.value(option);
  if (!path) return nullptr;
  try {
    check_output_path(*path, {input}, false);
  } catch (const usage_error& e) {
    throw usage_error("--" + option + std::string(e.what()).substr(5));  // "--out X: ..." names this option
  }
  return std::make_unique<AtomicFile>(*path);
}

void check_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw error(std::string("cannot write <stdout>: ") + (errno ? std::strerror(errno) : "write error"));
}

void commit_outputs(std::initializer_list<AtomicFile*> files) {
  check_stdout();
  for (AtomicFile* f : files)
    if (f) f->commit();
}

}  // namespace matchblas::cli
