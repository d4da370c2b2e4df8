// matchblas eval PATH...: the registry's matchers over a matrix collection,
// or its community detection entries (--algos louvain,... or --family
// community: `cluster` runs, modularity and communities in the rows; one
// problem per evaluation). Each (matrix, algorithm, repetition) is one
// child process (`matchblas match FILE --algo NAME --json`, or `cluster`),
// so a crash or a timeout costs one row;
// rows are appended whole to DIR/runs.jsonl and DIR/runs.csv as they end,
// --resume skips the runs already there, --exact adds the optimum (the
// `exact` matcher, cached by the file's content; a build without it reads
// the optima from --cache alone) and each row's GTO; then
// DIR/summary.md and the pictures (apps/eval/eval_plots.py, matplotlib).
// A line per run goes to standard error when it is a terminal (--verbose:
// always; --quiet: never); warnings (no optimum, no pictures) always do.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/eval/eval_child.hpp"
#include "apps/eval/eval_collection.hpp"
#include "apps/eval/eval_rows.hpp"
#include "apps/memory_check.hpp"
#include "apps/progress.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/graph.hpp"
#include "lib/memory_budget.hpp"
#include "lib/mmio.hpp"
#include "lib/named_values.hpp"
#include "matchers/registry.hpp"
#include "matchers/run_matcher.hpp"

#ifndef MATCHBLAS_GIT_REVISION
#define MATCHBLAS_GIT_REVISION "unknown"
#endif

namespace matchblas::cli {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// One algorithm to run: a registry entry with some of its options
// ("roma-sparse:start=gpa:phases=20" in --algos), its label in the rows.
struct Chosen {
  const MatcherInfo* info = nullptr;
  std::string label;                    // the name, with its options as given
  std::vector<std::string> arguments;   // the options for `match` (--start gpa ...)
};

// A matching or community detection entry by name.
const MatcherInfo& find_evaluated(const std::string& name) {
  for (const MatcherInfo& m : matchers())
    if (m.name == name && m.problem == Problem::community) return m;
  return find_matcher(name, Problem::matching);
}

// "name[:option=value|:flag]..." checked against the entry's options.
Chosen parse_chosen(const std::string& spec) {
  Chosen c;
  try {
    const NamedWithOptions named = split_named_options(spec);
    c.info = &find_evaluated(named.name);
    for (const auto& [name, value] : named.given) {
      c.arguments.push_back("--" + name);
      if (!value.empty()) c.arguments.push_back(value);
    }
    parse_options(*c.info, named.given);
  } catch (const invalid_input& e) {
    throw usage_error(std::string("eval: ") + e.what());
  }
  c.label = spec;
  return c;
}

// The algorithms to run: --algos as named, else --family's or every
// available matcher on --device (the exact reference only when named).
std::vector<Chosen> chosen_algorithms(const Args& a) {
  const std::optional<std::string> device_name = a.value("device");
  Device device = Device::cpu;
  if (device_name) {
    try {
      device = parse_device(*device_name);
    } catch (const invalid_input& e) {
      throw usage_error(e.what());
    }
  }
  std::vector<Chosen> out;
  if (const auto algos = a.value("algos")) {
    if (a.value("family")) throw usage_error("eval takes --algos or --family, not both");
    for (const std::string& spec : split_commas(*algos)) {
      Chosen c = parse_chosen(spec);
      if (device_name && c.info->device != device)
        throw usage_error("eval: '" + c.info->name + "' runs on the " + to_string(c.info->device) + ", not on the " +
                          *device_name + " (--device)");
      if (std::none_of(out.begin(), out.end(), [&](const Chosen& o) { return o.label == c.label; }))
        out.push_back(std::move(c));
    }
    if (out.empty()) throw usage_error("eval: --algos names no algorithm");
    for (const Chosen& c : out)
      if ((c.info->problem == Problem::community) != (out[0].info->problem == Problem::community))
        throw usage_error("eval: --algos mixes matching and community detection ('" + out[0].info->name + "', '" +
                          c.info->name + "'): one problem per evaluation");
    return out;
  }
  const std::optional<std::string> family = a.value("family");
  std::set<std::string> families;
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != Problem::matching && m.problem != Problem::community) continue;
    families.insert(m.family);
    if (m.problem == Problem::community && family != m.family) continue;  // only when named
    if (m.device != device || m.name == "exact") continue;
    if (family && m.family != *family) continue;
    out.push_back({&m, m.name, {}});
  }
  if (family && !families.count(*family)) {
    std::string names;
    for (const std::string& f : families) names += (names.empty() ? "" : ", ") + f;
    throw usage_error("eval: no matcher family '" + *family + "'" +
                      did_you_mean(*family, {families.begin(), families.end()}) + " (families: " + names + ")");
  }
  if (out.empty()) throw usage_error("eval: no matcher of that family runs on the " + to_string(device));
  return out;
}

// The first line of a child's error output, without the tool's prefix.
std::string child_message(const ChildResult& c) {
  std::string s = c.err.substr(0, c.err.find('\n'));
  for (const char* prefix : {"matchblas: error: ", "matchblas: "})
    if (s.rfind(prefix, 0) == 0) s = s.substr(std::strlen(prefix));
  if (s.empty()) s = "no message";
  return s;
}

std::string signal_message(int sig) {
  const char* name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : sig == SIGKILL ? "SIGKILL"
                     : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : nullptr;
  return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 120) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
  else std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  return buf;
}

// Where optima are cached: --cache, else $XDG_CACHE_HOME/matchblas/optimum,
// else ~/.cache/matchblas/optimum, else DIR/optimum-cache.
fs::path cache_dir(const Args& a, const fs::path& out) {
  if (const auto c = a.value("cache")) return *c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "matchblas" / "optimum";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "matchblas" / "optimum";
  return out / "optimum-cache";
}

// The optimum of `path` from the cache, or computed by the exact matcher in
// a child (a progress line first, when `progress`) and cached; nullopt (and
// a line on stderr) when that fails, or when it is not cached and
// `no_exact` says why this build cannot compute it.
std::optional<double> optimum_of(const EvalInput& in, const fs::path& cache, double timeout_s, const std::string& self,
                                 bool progress, const std::string& no_exact) {
  std::string key;
  try {
    key = content_key(in.path);
  } catch (const error& e) {
    std::fprintf(stderr, "eval: no optimum for %s: %s\n", in.name.c_str(), e.what());
    return std::nullopt;
  }
  const fs::path entry = cache / (key + ".json");
  bool damaged = false;
  if (std::ifstream f(entry); f) {
    std::string line;
    std::getline(f, line);
    try {
      const auto v = parse_flat_json(line, entry.string());
      if (v.count("optimum")) return std::stod(v.at("optimum"));
    } catch (const std::exception&) {
    }  // a damaged entry: computed again below
    damaged = true;
  }
  if (!no_exact.empty()) {
    const std::string where = damaged ? "its cache entry " + entry.string() + " is damaged"
                                      : "it is not in the cache " + cache.string();
    std::fprintf(stderr, "eval: no optimum for %s: %s, and %s\n", in.name.c_str(), where.c_str(), no_exact.c_str());
    return std::nullopt;
  }
  if (progress) std::fprintf(stderr, "eval: the optimum of %s (exact)...\n", in.name.c_str());
  const ChildResult c = run_child({self, "match", in.path, "--algo", "exact", "--json"}, timeout_s);
  std::map<std::string, std::string> v;
  if (c.exit_code == 0) {
    try {
      v = parse_flat_json(c.out, in.path + ": exact's output");
    } catch (const error&) {
    }
  }
  if (!v.count("weight")) {
    const std::string why = c.timed_out ? "over " + seconds_text(timeout_s) + " (--timeout)"
                            : c.signal   ? signal_message(c.signal)
                                         : child_message(c);
    std::fprintf(stderr, "eval: no optimum for %s: %s\n", in.name.c_str(), why.c_str());
    return std::nullopt;
  }
  std::error_code ec;
  fs::create_directories(cache, ec);
  try {
    AtomicFile f(entry.string());
    const std::string text = "{\"optimum\": " + v.at("weight") + ", \"file\": " + json_string(in.path) + "}\n";
    f.write(text.data(), text.size());
    f.commit();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "eval: the optimum of %s is not cached: %s\n", in.name.c_str(), e.what());
  }
  return std::stod(v.at("weight"));
}

// The rows already in DIR/runs.jsonl; runs.csv completed from them when it
// has fewer (a stop between the two appends).
std::vector<EvalRow> resume_rows(const fs::path& out) {
  std::vector<EvalRow> rows;
  const fs::path jsonl = out / "runs.jsonl", csv = out / "runs.csv";
  std::ifstream in(jsonl);
  std::string line;
  for (long number = 1; std::getline(in, line); ++number)
    if (!line.empty()) rows.push_back(row_from_json(line, jsonl.string() + ":" + std::to_string(number)));
  std::size_t csv_rows = 0;
  if (std::ifstream c(csv); c) {
    for (std::string l; std::getline(c, l);) ++csv_rows;
    csv_rows = csv_rows > 0 ? csv_rows - 1 : 0;  // the header
  } else {
    append_to_file(csv.string(), csv_header());
  }
  if (csv_rows > rows.size())
    throw error(csv.string() + " has more rows than " + jsonl.string() + ": not a matchblas eval folder to resume");
  std::string missing;
  for (std::size_t i = csv_rows; i < rows.size(); ++i) missing += to_csv(rows[i]);
  if (!missing.empty()) append_to_file(csv.string(), missing);
  return rows;
}

// The pictures script: $MATCHBLAS_EVAL_PLOTS, beside the executable, or
// where the package installs it.
std::optional<fs::path> plots_script(const std::string& self) {
  if (const char* p = std::getenv("MATCHBLAS_EVAL_PLOTS"); p && *p) return fs::path(p);
  const fs::path bin = fs::path(self).parent_path();
  for (const fs::path& p : {bin / "eval_plots.py", bin / ".." / "share" / "matchblas" / "eval_plots.py"})
    if (fs::exists(p)) return p;
  return std::nullopt;
}

// The row's outcome from a child's exit (timeout, signal, error message),
// false when it exited with 0.
bool child_failed(EvalRow& r, const ChildResult& c, double timeout_s) {
  r.wall_s = c.wall_s;
  r.max_rss_mb = c.max_rss_mb;
  if (c.timed_out) {
    r.status = "timeout";
    r.message = "over " + seconds_text(timeout_s) + " (--timeout)";
  } else if (c.signal) {
    r.status = "error";
    r.message = signal_message(c.signal);
  } else if (c.exit_code != 0) {
    r.status = "error";
    r.message = child_message(c);
  } else {
    return false;
  }
  return true;
}

// One community detection run: skipped (no child) when the entry cannot
// run here, the matrix is not square or will not fit this machine's memory;
// else `cluster FILE --algo NAME --json` and its modularity.
void run_cluster(EvalRow& r, const std::string& path, const MmHeader& header, const Chosen& chosen, int threads,
                 int gpu, double timeout_s, const std::string& self) {
  const MatcherInfo& m = *chosen.info;
  if (m.unavailable) {
    r.status = "skipped";
    r.message = *m.unavailable;
    return;
  }
  if (header.rows != header.cols) {
    r.status = "skipped";
    r.message = "community detection takes square matrices, this one is " + std::to_string(header.rows) + " x " +
                std::to_string(header.cols);
    return;
  }
  try {
    check_community_memory(path, header, m);
  } catch (const out_of_memory& e) {
    r.status = "skipped";
    r.message = e.what();
    return;
  }
  std::vector<std::string> argv = {self, "cluster", path, "--algo", m.name, "--json", "--threads", std::to_string(threads)};
  if (m.device == Device::gpu) argv.insert(argv.end(), {"--gpu", std::to_string(gpu)});
  argv.insert(argv.end(), chosen.arguments.begin(), chosen.arguments.end());
  const ChildResult c = run_child(argv, timeout_s);
  if (child_failed(r, c, timeout_s)) return;
  try {
    const auto v = parse_flat_json(c.out, path + ": the output of cluster --algo " + m.name, true);
    r.n = std::stoll(v.at("vertices"));
    r.edges = std::stoll(v.at("edges"));
    r.modularity = std::stod(v.at("modularity"));
    r.communities = std::stoll(v.at("communities"));
    r.compute_s = std::stod(v.at("time_s"));
    if (v.count("read_s")) r.read_s = std::stod(v.at("read_s"));
    if (v.count("threads")) r.threads = std::stoi(v.at("threads"));
    r.status = "ok";
  } catch (const std::exception& e) {
    r.status = "error";
    r.message = std::string("unreadable result: ") + e.what();
  }
}

}  // namespace

int command_eval(const Args& a) {
  const bool progress = Progress::shows_lines(Progress::level(a));  // a line per run on stderr
  if (a.positional().empty()) throw usage_error("eval takes one or more PATHs (directories, manifests, files)");
  const std::vector<Chosen> algos = chosen_algorithms(a);
  const bool community = algos[0].info->problem == Problem::community;
  const int threads = int(a.integer("threads", 0, 0, 4 * std::int64_t(std::max(1u, std::thread::hardware_concurrency()))));
  const int reps = int(a.integer("reps", 1, 1, 1000000));
  const double timeout_s = a.real("timeout", 600, 0, 1e9);
  const int gpu = int(a.integer("gpu", 0, 0, 1024));
  const bool exact = a.flag("exact"), resume = a.flag("resume"), plots = !a.flag("no-plots");
  const std::string baseline = a.value("baseline").value_or("greedy");
  try {
    find_matcher(baseline, Problem::matching);
  } catch (const invalid_input& e) {
    throw usage_error(std::string("--baseline: ") + e.what());
  }
  const fs::path out = a.value("out").value_or("matchblas-eval");
  const std::string self = self_executable();
  if (exact && community) throw usage_error("eval: --exact is for matchings (community detection has no optimum here)");
  std::string no_exact;  // why this build cannot compute an optimum ("" when it can)
  if (exact) {
    try {
      require_available(find_matcher("exact"));
    } catch (const error& e) {
      // With --cache, the optima may have been computed elsewhere.
      if (!a.value("cache"))
        throw error(std::string("--exact needs the exact optimum (or --cache DIR with optima computed by a build "
                                "that has it): ") +
                    e.what());
      no_exact = e.what();
    }
  }
  if (const auto c = a.value("cache"); c && fs::exists(*c) && !fs::is_directory(*c))
    throw usage_error("--cache " + *c + ": not a folder (the optima's cache is a folder, made when missing)");
  const std::vector<EvalInput> inputs = collect_inputs(a.positional());
  if (inputs.empty()) throw error("eval: no .mtx or .mtx.gz files found in the PATHs given");

  // The output folder: new, or an earlier run's with --resume.
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out)) throw error(out.string() + ": cannot create the output folder: " + ec.message());
  const fs::path jsonl = out / "runs.jsonl", csv = out / "runs.csv";
  if (!resume && (fs::exists(jsonl) || fs::exists(csv)))
    throw usage_error("eval: " + out.string() +
                      " already holds an evaluation's runs; --resume continues it, or choose another --out");
  std::vector<EvalRow> rows = resume ? resume_rows(out) : std::vector<EvalRow>{};
  if (!resume) append_to_file(csv.string(), csv_header());
  std::set<std::string> done;
  for (const EvalRow& r : rows) done.insert(row_key(r.path, r.algo, r.rep));
  const fs::path cache = cache_dir(a, out);

  const long total = long(inputs.size() * algos.size()) * reps;
  long finished = long(done.size()), ran = 0;
  std::map<std::string, long> by_status;
  const auto start = std::chrono::steady_clock::now();
  const auto record = [&](EvalRow r) {
    r.git = MATCHBLAS_GIT_REVISION;
    append_to_file(jsonl.string(), to_jsonl(r));
    append_to_file(csv.string(), to_csv(r));
    ++finished;
    ++by_status[r.status];
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string what = r.status;
    if (r.status == "ok") {
      char buf[48];
      std::snprintf(buf, sizeof buf, " %.4g s", r.compute_s);
      what += buf;
    } else if (!r.message.empty()) {
      what += ": " + r.message;
    }
    std::string eta;
    if (ran > 0 && finished < total) eta = ", ETA " + seconds_text(elapsed / double(ran) * double(total - finished));
    if (progress)
      std::fprintf(stderr, "eval [%ld/%ld] %s %s rep %d: %s (elapsed %s%s)\n", finished, total, r.matrix.c_str(),
                   r.algo.c_str(), r.rep, what.c_str(), seconds_text(elapsed).c_str(), eta.c_str());
    rows.push_back(std::move(r));
  };

  for (const EvalInput& in : inputs) {
    bool pending = false;
    for (const Chosen& c : algos)
      for (int rep = 1; rep <= reps; ++rep) pending = pending || !done.count(row_key(in.path, c.label, rep));
    if (!pending) continue;
    EvalRow base;
    base.matrix = in.name;
    base.path = in.path;
    base.threads = threads;
    // Read once here: a file that cannot be read is one error per run, no
    // child; one too large to read here is skipped (every run would be).
    std::optional<MmHeader> header;
    std::string read_error, too_large;
    try {
      header = read_matrix_market(in.path, [&](const MmHeader& h) {
        require_memory(matrix_market_bytes(h), "reading it");
      }).header;
    } catch (const out_of_memory& e) {
      too_large = std::string(e.what()).rfind(in.path + ":", 0) == 0 ? e.what() : in.path + ": " + e.what();
    } catch (const std::bad_alloc&) {
      read_error = in.path + ": out of memory reading it";
    } catch (const std::exception& e) {
      read_error = e.what();
    }
    std::optional<double> optimum;
    if (header && exact) optimum = optimum_of(in, cache, timeout_s, self, progress, no_exact);
    for (const Chosen& c : algos) {
      const MatcherInfo* m = c.info;
      for (int rep = 1; rep <= reps; ++rep) {
        if (done.count(row_key(in.path, c.label, rep))) continue;
        EvalRow r = base;
        r.algo = c.label;
        r.device = to_string(m->device);
        r.rep = rep;
        r.optimum = optimum.value_or(EvalRow::none);
        if (!header) {
          r.status = too_large.empty() ? "error" : "skipped";
          r.message = too_large.empty() ? read_error : too_large;
          record(std::move(r));
          continue;
        }
        if (community) {
          run_cluster(r, in.path, *header, c, threads, gpu, timeout_s, self);
          if (r.status != "skipped") ++ran;
          record(std::move(r));
          continue;
        }
        const GraphKind kind = expected_kind(*header, GraphView::automatic, m->kinds);
        if (m->unavailable || !m->accepts(kind)) {
          r.status = "skipped";
          r.message = m->unavailable ? *m->unavailable
                                     : "'" + m->name + "' takes " + kinds_string(m->kinds) +
                                           " graphs, this file is a " + kinds_string(kind) + " graph";
          record(std::move(r));
          continue;
        }
        try {  // a run that will not fit this machine's memory now: skipped, no child
          check_graph_memory(in.path, *header, GraphView::automatic, Precision::float64, *m);
        } catch (const out_of_memory& e) {
          r.status = "skipped";
          r.message = e.what();
          record(std::move(r));
          continue;
        }
        std::vector<std::string> argv = {self, "match", in.path, "--algo", m->name, "--json",
                                         "--threads", std::to_string(threads)};
        if (m->device == Device::gpu) argv.insert(argv.end(), {"--gpu", std::to_string(gpu)});
        argv.insert(argv.end(), c.arguments.begin(), c.arguments.end());
        const ChildResult c = run_child(argv, timeout_s);
        ++ran;
        if (!child_failed(r, c, timeout_s)) {
          try {
            const auto v = parse_flat_json(c.out, in.path + ": the output of match --algo " + m->name);
            r.n = std::stoll(v.at("n"));
            r.edges = std::stoll(v.at("edges"));
            r.cardinality = std::stoll(v.at("cardinality"));
            r.weight = std::stod(v.at("weight"));
            r.compute_s = std::stod(v.at("time_s"));
            if (v.count("read_s")) r.read_s = std::stod(v.at("read_s"));
            if (v.count("setup_s")) r.setup_s = std::stod(v.at("setup_s"));
            if (v.count("threads")) r.threads = std::stoi(v.at("threads"));
            if (optimum) r.gto_percent = gto_percent(r.weight, *optimum);
            r.status = "ok";
          } catch (const std::exception& e) {
            r.status = "error";
            r.message = std::string("unreadable result: ") + e.what();
          }
        }
        record(std::move(r));
      }
    }
  }

  {
    AtomicFile f((out / "summary.md").string());
    const std::string s = summary_markdown(rows);
    f.write(s.data(), s.size());
    f.commit();
  }
  std::string counts;
  long this_time = 0;
  for (const auto& [status, n] : by_status) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + status;
    this_time += n;
  }
  std::printf("eval: %ld rows in %s: %s this time, %ld from an earlier run\n", long(rows.size()),
              out.string().c_str(), counts.empty() ? "none" : counts.c_str(), long(rows.size()) - this_time);
  if (!plots) return 0;
  const std::optional<fs::path> script = plots_script(self);
  if (!script) {
    std::fprintf(stderr, "eval: pictures skipped: eval_plots.py not found beside %s (set MATCHBLAS_EVAL_PLOTS)\n",
                 self.c_str());
    return 0;
  }
  // $MATCHBLAS_PYTHON, else the python3 of PATH, then the system's (where
  // the distribution's matplotlib is) when the first has no matplotlib.
  std::vector<std::vector<std::string>> pythons;
  if (const char* p = std::getenv("MATCHBLAS_PYTHON"); p && *p) pythons.push_back({p});
  else pythons = {{"/usr/bin/env", "python3"}, {"/usr/bin/python3"}};
  ChildResult c;
  for (std::vector<std::string> cmd : pythons) {
    if (cmd[0] != "/usr/bin/env" && !fs::exists(cmd[0])) continue;
    cmd.insert(cmd.end(), {script->string(), out.string(), "--baseline", baseline});
    c = run_child(cmd, 600);
    if (c.exit_code != 3) break;  // 3: the script's "matplotlib is missing"
  }
  std::fputs(c.out.c_str(), stdout);
  if (c.exit_code == 3) {
    std::fprintf(stderr, "eval: pictures skipped: %s\n", child_message(c).c_str());
    return 0;
  }
  if (c.exit_code != 0) throw error("eval: drawing the pictures failed: " + child_message(c));
  return 0;
}

}  // namespace matchblas::cli
