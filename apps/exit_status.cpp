// The exit-status policy; see exit_status.hpp.
#include "apps/exit_status.hpp"

#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "apps/args.hpp"

namespace matchblas::cli {

int report_exception(std::exception_ptr e, const char* command) {
  try {
    std::rethrow_exception(e);
  } catch (const usage_error& u) {
    const std::string help = command && *command ? std::string("matchblas ") + command + " --help" : "matchblas --help";
    std::fprintf(stderr, "matchblas: %s (see %s)\n", u.what(), help.c_str());
    return exit_usage;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "matchblas: error: out of memory\n");
  } catch (const std::exception& x) {
    std::fprintf(stderr, "matchblas: error: %s\n", x.what());
  } catch (...) {
    std::fprintf(stderr, "matchblas: error: an unknown exception\n");
  }
  return exit_failure;
}

}  // namespace matchblas::cli
