// The diagonal pre-pass (the bipartite family's registry entries) on
// Matrix Market files and generated solver matrices, against HSL MC64
// (SuperLU's copy, when the build has it) in the same run: the median time of
// each entry at each thread count, its objective, MC64's time and objective
// for the same job, and the ratio. `--dump DIR` also writes each matrix as
// DIR/NAME.csr (int64 rows, cols, nnz; int64 offsets; int32 columns; float64
// values, little-endian) for bench/prepass_scipy.py, which times scipy on the
// same matrices. Threaded entries run at each thread count, and so do the GPU
// entries (their host stages: checks, costs, objective and scalings). A GPU
// entry is called once more before its timed calls at each thread count,
// and that call's time is reported apart ("first call"): for the process's
// first GPU call it holds the device's set-up (CUDA's context and memory
// pool, 0.3 s on an H200), which a median of few calls would otherwise
// take in (with --reps 1 or 2 it was the median, with 3 it pushed the
// median to the slower of the other two). `--device-arrays` also times
// matchblas_prepass_device (the C API) beside the GPU entry it runs for job
// 1, 4 or 5 (cardinality-gpu, max-sum-gpu, max-product-gpu),
// the matrix uploaded before (CSR, int64, 0-based, doubles) and the results
// left on the device: the "matrix already on the device" case, reported as
// the entry's name with "/device-arrays" appended, its message saying
// whether it ran wholly on the device.
//   bench_prepass INPUT... [--algos a,b:option=value] [--threads 1,2] [--reps R] [--mc64-jobs 2,4,5]
//                 [--dump DIR] [--device-arrays] [--json]
//   INPUT: a .mtx/.mtx.gz file, or a generator (datasets/solver_matrices.hpp):
//   stencil2d:SIDE, stencil3d:SIDE, circuit:N, heavy:N[:DEGREE].
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "datasets/solver_matrices.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchblas/prepass.h"
#include "matchers/registry.hpp"
#include "tests/check/mc64_reference.hpp"

#if MATCHBLAS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

using namespace matchblas;

namespace {

const char* usage =
    "usage: bench_prepass INPUT... [--algos a,b:option=value] [--threads 1,2] [--reps R] [--mc64-jobs 2,4,5] [--dump DIR]\n"
    "                     [--device-arrays] [--json]\n"
    "  INPUT: FILE.mtx[.gz], stencil2d:SIDE, stencil3d:SIDE, circuit:N or heavy:N[:DEGREE]\n";

bool is_generator(const std::string& s) {
  for (const char* kind : {"stencil2d:", "stencil3d:", "circuit:", "heavy:"})
    if (s.rfind(kind, 0) == 0) return true;
  return false;
}

std::string base_name(const std::string& input) {
  if (is_generator(input)) {
    std::string s = input;
    for (char& c : s)
      if (c == ':') c = '_';
    return s;
  }
  std::string s = std::filesystem::path(input).filename().string();
  for (const char* ext : {".gz", ".mtx"})
    if (s.size() > std::strlen(ext) && s.ends_with(ext)) s.resize(s.size() - std::strlen(ext));
  return s;
}

void dump(const std::filesystem::path& p, const Csr<double>& a) {
  std::ofstream out(p, std::ios::binary);
  const std::int64_t head[3] = {a.n_rows, a.n_cols, a.num_entries()};
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  out.write(reinterpret_cast<const char*>(a.offsets.data()), std::streamsize(a.offsets.size() * sizeof(offset_t)));
  out.write(reinterpret_cast<const char*>(a.cols.data()), std::streamsize(a.cols.size() * sizeof(vertex_t)));
  out.write(reinterpret_cast<const char*>(a.weights.data()), std::streamsize(a.weights.size() * sizeof(double)));
  if (!out) throw error("cannot write " + p.string());
}

// JSON has no NaN or infinity: null.
std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// The registry entry matchblas_prepass_device runs for `job` ("" for a job
// it runs on the host): only that entry gets a /device-arrays row (awpm-gpu,
// also job 4, is not what the device path runs).
std::string device_path_entry(int job) {
  return job == 1 ? "cardinality-gpu" : job == 4 ? "max-sum-gpu" : job == 5 ? "max-product-gpu" : "";
}

#if MATCHBLAS_HAVE_CUDA
// A host vector's copy in device memory (cudaMalloc), freed at the end.
template <class T>
struct OnDevice {
  T* p = nullptr;
  explicit OnDevice(const std::vector<T>& host) : OnDevice(host.size()) {
    if (cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
      throw error("cannot copy to the device");
  }
  explicit OnDevice(std::size_t n) {
    if (cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(n, 1) * sizeof(T)) != cudaSuccess)
      throw error("cannot allocate " + std::to_string(n * sizeof(T)) + " bytes on the device");
  }
  ~OnDevice() { cudaFree(p); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;
};

// matchblas_prepass_device on a's arrays uploaded before the timed calls:
// the median seconds of `reps` calls after an untimed first one, and the
// last call's inform.
double time_device_arrays(const Csr<double>& a, int job, int reps, matchblas_inform& inform) {
  const std::vector<std::int64_t> offsets(a.offsets.begin(), a.offsets.end());
  const std::vector<std::int64_t> cols(a.cols.begin(), a.cols.end());
  const OnDevice<std::int64_t> d_offsets(offsets);
  const OnDevice<std::int64_t> d_cols(cols);
  const OnDevice<double> d_values(a.weights);
  const std::size_t m = std::size_t(a.n_rows), n = std::size_t(a.n_cols);
  OnDevice<std::int64_t> row_mate(m), col_mate(n);
  OnDevice<double> row_scale(m), col_scale(n);
  matchblas_sparse s{};
  s.rows = a.n_rows;
  s.cols = a.n_cols;
  s.layout = MATCHBLAS_CSR;
  s.base = 0;
  s.index_type = MATCHBLAS_INT64;
  s.value_type = MATCHBLAS_DOUBLE;
  s.pointers = d_offsets.p;
  s.indices = d_cols.p;
  s.values = d_values.p;
  matchblas_prepass_options opt;
  matchblas_prepass_default_options(&opt);
  opt.job = job;
  const auto call = [&] {
    const int status = matchblas_prepass_device(&s, &opt, nullptr, nullptr, row_mate.p, col_mate.p, row_scale.p,
                                                col_scale.p, &inform);
    if (status < 0) throw error(std::string("matchblas_prepass_device: ") + inform.message);
  };
  call();
  return bench::median_seconds(reps, call);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs, algos;
  std::vector<int> threads = {1, omp_get_max_threads()}, mc64_jobs = {2, 4, 5};
  int reps = 3;
  bool json = false, device_arrays = false;
  std::string dump_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a == "--json") json = true;
    else if (a == "--device-arrays") device_arrays = true;
    else if (a == "--algos" && has_value) algos = bench::string_list(argv[++i]);
    else if (a == "--threads" && has_value) threads = bench::int_list(argv[++i]);
    else if (a == "--mc64-jobs" && has_value) mc64_jobs = bench::int_list(argv[++i]);
    else if (a == "--reps" && has_value) reps = std::atoi(argv[++i]);
    else if (a == "--dump" && has_value) dump_dir = argv[++i];
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "bench_prepass: unknown option or missing value: %s\n%s", a.c_str(), usage);
      return 2;
    } else inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }
  struct Entry {
    const MatcherInfo* info;
    OptionValues options;
    std::string label;  // the name with its options as given
  };
  std::vector<Entry> entries;
  try {
    if (algos.empty())
      for (const MatcherInfo& m : matchers())
        if (m.problem == Problem::bipartite && !m.unavailable && m.device == Device::cpu)
          entries.push_back({&m, parse_options(m, {}), m.name});
    for (const std::string& spec : algos) {
      const NamedWithOptions named = split_named_options(spec);
      const MatcherInfo& m = find_matcher(named.name, Problem::bipartite);
      entries.push_back({&m, parse_options(m, named.given), spec});
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_prepass: %s\n", e.what());
    return 2;
  }
  if (!json)
    std::printf("%-26s %9s %10s %-12s %4s %3s %11s %10s %22s %11s %8s\n", "matrix", "n", "nnz", "algo", "job", "thr",
                "median s", "matched", "objective", "MC64 s", "MC64/us");
  try {
    for (const std::string& input : inputs) {
      const std::string name = base_name(input);
      const Csr<double> a =
          is_generator(input) ? solver_matrix(input) : matrix_as_given(read_matrix_market(input));
      if (!dump_dir.empty()) dump(std::filesystem::path(dump_dir) / (name + ".csr"), a);
      // MC64's time and result per job, run once for all the entries of a job
      // (square matrices; SuperLU's copy has jobs 2-5).
      struct Mc64Run {
        double seconds = NAN, objective = NAN;
        int matched = -1;
      };
      std::map<int, Mc64Run> mc64_runs;
      for (const Entry& entry : entries) {
        const MatcherInfo* m = entry.info;
        Mc64Run& mc64 = mc64_runs[m->job];
#if MATCHBLAS_HAVE_MC64
        if (std::isnan(mc64.seconds) && a.n_rows == a.n_cols &&
            std::find(mc64_jobs.begin(), mc64_jobs.end(), m->job) != mc64_jobs.end()) {
          check::Mc64Input in = check::mc64_input(a);
          check::Mc64Result r;
          mc64.seconds = bench::median_seconds(reps, [&] { r = check::mc64_run(in, m->job); });
          mc64.objective = check::mc64_objective(a, r.cperm, m->job);
          mc64.matched = r.num;
        }
#endif
        const double mc64_s = mc64.seconds, mc64_obj = mc64.objective;
        const int mc64_num = mc64.matched;
        for (int t : (m->threaded || m->device == Device::gpu ? threads : std::vector<int>{1})) {
          RunOptions opt;
          opt.threads = t;
          opt.options = entry.options;
          omp_set_num_threads(t);
          PrepassResult r;
          std::vector<double> device_s;  // GPU entries: the matrix already on the device
          double first_s = NAN;          // a GPU entry's first call's seconds (with its set-up: not in the median)
          if (m->device == Device::gpu) {
            const auto t0 = std::chrono::steady_clock::now();
            r = run_prepass(*m, a, opt);
            first_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          }
          const double s = bench::median_seconds(reps, [&] {
            r = run_prepass(*m, a, opt);
            device_s.push_back(r.device_seconds);
          });
          std::sort(device_s.begin(), device_s.end());
          const double on_device = device_s.empty() ? NAN : device_s[device_s.size() / 2];
          const bool differs = !std::isnan(mc64_obj) && mc64_num == r.mates.matched &&
                               (m->guarantee == "exact" || m->guarantee == "bottleneck") &&
                               std::fabs(mc64_obj - r.objective) > 1e-9 * std::fabs(mc64_obj);
          if (json)
            std::printf("{\"matrix\": \"%s\", \"n\": %d, \"nnz\": %lld, \"algo\": \"%s\", \"job\": %d, \"threads\": %d, "
                        "\"seconds\": %.6g, \"matched\": %d, \"objective\": %s, \"mc64_seconds\": %s, "
                        "\"mc64_matched\": %d, \"mc64_objective\": %s, \"device_seconds\": %s, "
                        "\"first_call_seconds\": %s}\n",
                        name.c_str(), a.n_rows, static_cast<long long>(a.num_entries()), entry.label.c_str(), m->job, t, s,
                        r.mates.matched, json_number(r.objective).c_str(), json_number(mc64_s).c_str(), mc64_num,
                        json_number(mc64_obj).c_str(), json_number(on_device).c_str(), json_number(first_s).c_str());
          else
            std::printf("%-26s %9d %10lld %-12s %4d %3d %11.5f %10d %22.15g %11.5f %8.2f%s%s\n", name.c_str(), a.n_rows,
                        static_cast<long long>(a.num_entries()), entry.label.c_str(), m->job, t, s, r.mates.matched,
                        r.objective, mc64_s, mc64_s / s, differs ? "  (objective differs from MC64's)" : "",
                        std::isnan(on_device) ? "" : ("  (on the device: " + std::to_string(on_device) + " s, first call " + std::to_string(first_s) + " s, " + std::to_string(r.searches) +
                                                          " searches" + (r.details.empty() ? "" : "; " + r.details) + ")").c_str());
          std::fflush(stdout);
        }
        if (device_arrays && m->device == Device::gpu && m->name == device_path_entry(m->job)) {
#if MATCHBLAS_HAVE_CUDA
          matchblas_inform inform{};
          const double s = time_device_arrays(a, m->job, reps, inform);
          const std::string label = entry.label + "/device-arrays";
          if (json)
            std::printf("{\"matrix\": \"%s\", \"n\": %d, \"nnz\": %lld, \"algo\": \"%s\", \"job\": %d, "
                        "\"seconds\": %.6g, \"matched\": %lld, \"objective\": %s, \"mc64_seconds\": %s, "
                        "\"message\": \"%s\"}\n",
                        name.c_str(), a.n_rows, static_cast<long long>(a.num_entries()), label.c_str(), m->job, s,
                        static_cast<long long>(inform.matched), json_number(inform.objective).c_str(),
                        json_number(mc64_s).c_str(), inform.message);
          else
            std::printf("%-26s %9d %10lld %-12s %4d %3s %11.5f %10lld %22.15g %11.5f %8.2f  (%s)\n", name.c_str(),
                        a.n_rows, static_cast<long long>(a.num_entries()), label.c_str(), m->job, "-", s,
                        static_cast<long long>(inform.matched), inform.objective, mc64_s, mc64_s / s, inform.message);
          std::fflush(stdout);
#else
          throw error("--device-arrays needs a CUDA build");
#endif
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_prepass: %s\n", e.what());
    return 1;
  }
  return 0;
}
