#include "apps/algorithm_args.hpp"

#include <omp.h>

#include <cstdlib>
#include <map>
#include <string_view>

#include "apps/commands.hpp"
#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/omp_threads.hpp"
#include "matchers/distributed/mpi_session.hpp"
#include "matchers/run_matcher.hpp"
#include "ops/gpu/device.hpp"

namespace matchblas::cli {

// --threads T, capped at 4 x the cores; a count from the environment
// (OMP_NUM_THREADS, its first level) gets the same cap, checked before any
// parallel region starts the runtime's threads; then the count is started
// once (require_threads), so that one the system cannot start is an error
// here, not the OpenMP runtime's exit inside the work.
void apply_threads(const Args& a) {
  const std::int64_t cap = 4 * std::int64_t(omp_get_num_procs());
  const int t = static_cast<int>(a.integer("threads", 0, 0, cap));
  if (t > 0) {
    omp_set_num_threads(t);
    require_threads(t);
    return;
  }
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && *env) {
    std::string_view first(env);
    first = first.substr(0, first.find(','));
    while (!first.empty() && (first.front() == ' ' || first.front() == '\t')) first.remove_prefix(1);
    while (!first.empty() && (first.back() == ' ' || first.back() == '\t')) first.remove_suffix(1);
    long long v = 0;
    if (!matchblas::parse_integer(first, 1, cap, v))
      throw usage_error("OMP_NUM_THREADS='" + std::string(env).substr(0, 40) + "' must be a thread count in 1.." +
                        std::to_string(cap) + " (4 x the cores), like --threads");
  }
  if (omp_get_max_threads() > cap) omp_set_num_threads(int(cap));
  require_threads(omp_get_max_threads());
}

ChosenAlgorithm choose_algorithm(const Args& a, Problem problem, const std::string& command, Precision precision) {
  const auto algo = a.value("algo");
  if (!algo) throw usage_error(command + " needs --algo NAME (matchblas list shows the names)");
  const MatcherInfo* m = nullptr;
  try {
    m = &find_matcher(*algo, problem);
    if (const auto d = a.value("device")) {
      const Device device = parse_device(*d);
      if (m->device == Device::gpu && device == Device::cpu)
        throw usage_error("'" + m->name + "' runs on the GPU: --device cpu conflicts with it" +
                          (m->twin.empty() ? std::string() : " (its CPU version is --algo " + m->twin + ")"));
      m = &on_device(*m, device);
    }
  } catch (const invalid_input& e) {
    throw usage_error(e.what());
  }
  return configure_algorithm(*m, a, precision);
}

ChosenAlgorithm configure_algorithm(const MatcherInfo& entry, const Args& a, Precision precision) {
  const Problem problem = entry.problem;
  ChosenAlgorithm c;
  c.info = &entry;
  try {
    // The entry's options as given: every registry option of this problem
    // that is on the command line.
    std::map<std::string, std::string> given;
    for (const MatcherInfo& m : matchers())
      if (m.problem == problem)
        for (const OptionSpec& s : m.options) {
          if (s.type == OptionSpec::Type::flag ? a.flag(s.name) : a.value(s.name).has_value())
            given[s.name] = s.type == OptionSpec::Type::flag ? "" : *a.value(s.name);
        }
    c.run.options = parse_options(*c.info, given, precision);
  } catch (const invalid_input& e) {
    throw usage_error(e.what());
  }
  const MatcherInfo& m = *c.info;
  if (a.value("seed") && !m.seeded) {
    const std::string who = [&] {
      std::vector<std::string> names;
      for (const MatcherInfo& s : matchers())
        if (s.problem == problem && s.seeded) names.push_back(s.name);
      std::string out;
      for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
      return out;
    }();
    throw usage_error("--seed is for the randomised algorithms (" + (who.empty() ? std::string("none") : who) +
                      "); '" + m.name + "' uses no seed");
  }
  c.run.seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  if (m.device == Device::gpu) {
    c.run.gpu = static_cast<int>(a.integer("gpu", 0, 0, 1024));
    c.run.threads = static_cast<int>(a.integer("threads", 0, 0, std::int64_t(1) << 30));
  } else {
    if (a.value("gpu")) {
      std::string gpus;
      for (const MatcherInfo& other : matchers())
        if (other.problem == problem && other.device == Device::gpu) gpus += (gpus.empty() ? "" : ", ") + other.name;
      throw usage_error("--gpu is for the GPU matchers (" + gpus + "); '" + m.name +
                        "' runs on the CPU (add --device gpu)");
    }
    apply_threads(a);
    c.run.threads = omp_get_max_threads();
  }
  if (a.value("gpus") && !over_ranks(m))
    throw usage_error("--gpus is for suitor-gpu and b-suitor-gpu under mpirun (one GPU per rank); '" + m.name +
                      "'" + (m.over_ranks ? " runs in one process here: use --gpu" : " takes --gpu"));
  if (m.device == Device::distributed) {
    require_distributed(m);  // usage errors: no MPI, no mpirun
  } else if (over_ranks(m)) {  // the ranks' GPUs are checked by the ranks together
    if (m.unavailable)
      throw usage_error("'" + m.name + "' cannot run over MPI ranks (a GPU each) with this build: " + *m.unavailable);
  } else {
    require_available(m);
  }
  // A GPU that exists, before any input is read (over ranks: each rank's,
  // agreed by the ranks).
  if (m.device == Device::gpu && !over_ranks(m)) gpu::use_device(m.name, c.run.gpu);
  return c;
}

bool over_ranks(const MatcherInfo& m) { return m.over_ranks && mpi::launched(); }

}  // namespace matchblas::cli
