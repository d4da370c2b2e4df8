// matchblas marry FILE --algo NAME: by a registered stable marriage algorithm,
// the man-optimal stable matching of a stable marriage instance
// (datasets/marriage.hpp's text format), checked for stability; reports
// pairs, rank sum and time; --out writes each man's wife (0-based, or -1),
// one line per man.
// matchblas marriage-gen easy|hard N [--eps E] [--seed S] [--out FILE]:
// the instances of Manne, Naim, Lerring and Halappanavar, "On stable
// marriages and greedy matching", CSC 2016, in that format (hard ones have
// N^2 entries a side).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/memory_check.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "datasets/marriage.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "matchers/marriage/stable_marriage.hpp"

namespace matchblas::cli {

int command_marry(const Args& a) {
  require_one_input(a, "marry");
  const ChosenAlgorithm chosen = choose_algorithm(a, Problem::marriage, "marry");
  const std::string& algo = chosen.info->name;
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;  // in the text report
  std::FILE* report = report_stream(a, {"out"});
  const std::unique_ptr<AtomicFile> out = open_output(a, {file});
  Progress progress(Progress::level(a));
  const auto t0 = std::chrono::steady_clock::now();
  progress.step("reading " + file, file);
  // The memory check: at the header (MEN, WOMEN), then with the lists' length.
  const auto check = [&](vertex_t men, vertex_t women, double entries) {
    check_marriage_memory(file, men, women, entries, *chosen.info);
  };
  const MarriageInstance inst = read_marriage(file, [&](vertex_t men, vertex_t women) { check(men, women, 0); });
  check(inst.men, inst.women, double(inst.men_lists.size() + inst.women_lists.size()));
  const RankedLists p = naming_file(file, [&] { return rank_lists(inst); }, "ranking the lists");
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.step("running " + algo);
  const auto start = std::chrono::steady_clock::now();
  const Marriage m = naming_file(file, [&] { return run_marriage(*chosen.info, p, chosen.run); }, "running '" + algo + "'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.step("checking stability");
  const std::string why = marriage_violation(inst, m);
  if (!why.empty()) throw error("'" + algo + "' returned an unstable matching on " + file + ": " + why);
  long long pairs = 0;
  for (vertex_t w : m.wife) pairs += w != no_vertex;
  if (out) {
    progress.step("writing");
    AtomicFile& f = *out;
    std::string buf;
    for (vertex_t w : m.wife) buf += std::to_string(w) + '\n';
    f.write(buf.data(), buf.size());
  }
  progress.finish();
  const long long ranks = rank_sum(inst, m);
  if (a.flag("json"))
    print_json(JsonObject("marry")
                   .text("algo", algo)
                   .text("file", file)
                   .integer("men", inst.men)
                   .integer("women", inst.women)
                   .integer("cardinality", pairs)
                   .integer("rank_sum", ranks)
                   .number("time_s", seconds)
                   .boolean("stable", true)
                   .integer("threads", chosen.run.threads)
                   .text("device", to_string(chosen.info->device))
                   .number("read_s", read_s));
  else
    std::fprintf(report, "%s: %d men, %d women\n%s: %lld pairs, rank sum %lld, time %.6f s, stable\n", shown.c_str(),
                 inst.men, inst.women, algo.c_str(), pairs, ranks, seconds);
  commit_outputs({out.get()});
  return 0;
}

int command_marriage_gen(const Args& a) {
  if (a.positional().size() != 2) throw usage_error("marriage-gen takes KIND (easy or hard) and N");
  const std::optional<std::string> out = a.value("out");
  const std::string& kind = a.positional()[0];
  if (kind != "easy" && kind != "hard") throw usage_error("unknown instance kind '" + kind + "' (easy, hard)");
  const vertex_t n = static_cast<vertex_t>(parse_integer(a.positional()[1], "N", 0, INT32_MAX));
  const auto seed = static_cast<std::uint64_t>(a.integer("seed", 1, 0, INT64_MAX));
  if (kind == "hard" && a.value("eps")) throw usage_error("--eps applies to marriage-gen easy only (hard lists everyone)");
  const double eps = a.real("eps", 0.1, 0, 1e6);
  if (kind == "hard" && double(n) * n > 1e8) throw usage_error("marriage-gen hard: N^2 list entries must be at most 1e8");
  if (kind == "easy" && n > 1 && double(n) * std::ceil((1 + eps) * std::log(double(n))) > 2e9)
    throw usage_error("marriage-gen easy: N x (1 + eps) ln N list entries must be at most 2e9");
  if (out) check_output_path(*out, {}, false);  // before the work
  const MarriageInstance inst = kind == "easy" ? easy_marriage(n, eps, seed) : explicit_instance(hard_marriage(n, seed));
  if (out && *out != "-") {
    write_marriage(*out, inst);
  } else {
    write_marriage(stdout, inst, "<stdout>");
  }
  return 0;
}

}  // namespace matchblas::cli
