// The errors matchblas throws. Library code throws; it never exits or aborts.
//   error            base of everything below; what() is one line for the user
//   parse_error      a file that is not valid Matrix Market (file, line, reason)
//   invalid_input    an argument or value the library cannot accept
//   shape_error      dimensions that do not fit (rectangular where square is needed)
//   cuda_error       a failed CUDA call (file, line, CUDA error name)
//   out_of_memory    an allocation that failed, host or device
#pragma once
#include <stdexcept>
#include <string>

namespace matchblas {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class parse_error : public error {
 public:
  parse_error(const std::string& file, long long line, const std::string& reason)
      : error(file + ":" + (line > 0 ? std::to_string(line) + ": " : std::string(" ")) + reason),
        file_(file), line_(line), reason_(reason) {}
  const std::string& file() const noexcept { return file_; }
  long long line() const noexcept { return line_; }  // 1-based; 0 when the error is not on a line
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  long long line_;
  std::string reason_;
};

class invalid_input : public error {
 public:
  using error::error;
};

class shape_error : public invalid_input {
 public:
  using invalid_input::invalid_input;
};

class cuda_error : public error {
 public:
  using error::error;
};

class out_of_memory : public error {
 public:
  using error::error;
};

}  // namespace matchblas

// A check the edge (parse_options, the C API) has already made: run in
// debug builds only, so that an algorithm re-checks nothing in a release
// build (e.g. MATCHBLAS_DEBUG_CHECK(check_suitor_gpu_options(opt))).
#ifndef NDEBUG
#define MATCHBLAS_DEBUG_CHECK(call) call
#else
#define MATCHBLAS_DEBUG_CHECK(call) ((void)0)
#endif

// Throws invalid_input("reason") unless cond holds. For O(1) argument checks.
#define MATCHBLAS_EXPECTS(cond, reason)                      \
  do {                                                       \
    if (!(cond)) throw ::matchblas::invalid_input(reason);   \
  } while (0)
