// Progress of a command on standard error: the step it is in ("reading
// g.mtx", "running suitor"), the percent of the input read, and the time
// spent, redrawn on one line a few times a second once a step has taken
// about a second, only when standard error is a terminal. --quiet: nothing;
// --verbose: also one line per finished step with its time, terminal or not.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "apps/args.hpp"

namespace matchblas::cli {

class Progress {
 public:
  enum class Level { quiet, normal, verbose };
  // --quiet / --verbose of a command's line (both: a usage error).
  static Level level(const Args& a);
  // Whether progress written as whole lines (eval's line per run) is shown:
  // when standard error is a terminal, or with --verbose; never with --quiet.
  static bool shows_lines(Level level);

  explicit Progress(Level level);
  ~Progress();  // ends the last step, clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Ends the current step (verbose: its line) and starts `name`. With
  // `input` (a file being read; "-" for standard input) the line shows how
  // much of it has been read, from the descriptor's offset.
  void step(const std::string& name, const std::string& input = "");
  // Ends the current step.
  void finish();

 private:
  void ticker();
  void clear_line();
  std::string line() const;  // under mutex_

  Level level_;
  bool terminal_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string name_, input_;
  long long input_size_ = -1;
  std::chrono::steady_clock::time_point start_;
  bool active_ = false, drawn_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace matchblas::cli
