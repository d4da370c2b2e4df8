#include "apps/eval/eval_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "lib/error.hpp"

namespace matchblas::cli {

namespace {

[[noreturn]] void fail(const std::string& what) { throw error(what + ": " + std::strerror(errno)); }

// Closes both ends of a pipe on scope exit unless released.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe2(fd, O_CLOEXEC) != 0) fail("eval: pipe");
  }
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
};

}  // namespace

std::string self_executable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw error("eval: cannot find the running executable (/proc/self/exe): " + ec.message());
  return p.string();
}

ChildResult run_child(const std::vector<std::string>& argv, double timeout_s) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Pipe out, err;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) fail("eval: fork");
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    dup2(out.fd[1], STDOUT_FILENO);
    dup2(err.fd[1], STDERR_FILENO);
    execv(args[0], args.data());
    const char msg[] = "eval: cannot run the child command\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(127);
  }
  close(out.fd[1]);
  close(err.fd[1]);
  out.fd[1] = err.fd[1] = -1;

  ChildResult r;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[1 << 16];
  while (open_fds > 0) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) {
        r.timed_out = true;
        kill(pid, SIGKILL);
        break;
      }
      wait_ms = int(left * 1000) + 1;
    }
    const int ready = poll(fds, 2, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      fail("eval: poll");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, std::size_t(got));
      } else if (got == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0)
    if (errno != EINTR) fail("eval: wait");
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.max_rss_mb = double(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace matchblas::cli
