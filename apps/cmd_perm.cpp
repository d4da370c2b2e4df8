// matchblas perm FILE [--job J | --algo NAME] [--symmetric] [--out PERM]
//                [--scales-out S] [--scaled-out B.mtx] [--json]:
// the diagonal pre-pass (matchers/bipartite/prepass.hpp) on a Matrix Market
// file, as MC64's jobs. Options are checked and every output is opened
// before the file is read; the outputs are committed together at the end,
// so a failure leaves none of them.
//   PERM  one line per row i: perm[i] + 1, the column of A that becomes
//         column i (MC64's CPERM, 1-based; SuperLU's perm_r + 1). A
//         rectangular matrix has no permutation: the line holds the column
//         matched to row i + 1, or 0.
//   S     job 5's log scalings: "r I VALUE" for every row, then "c J VALUE"
//         for every column, b_ij = a_ij exp(r_i + c_j).
//   B     A Q (columns permuted so that the matched entries are on the
//         diagonal), scaled when job 5 ran; square matrices only.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "apps/algorithm_args.hpp"
#include "apps/commands.hpp"
#include "apps/memory_check.hpp"
#include "apps/naming_file.hpp"
#include "apps/progress.hpp"
#include "lib/atomic_file.hpp"
#include "lib/error.hpp"
#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

namespace {

void write_text(AtomicFile& f, const std::string& s) { f.write(s.data(), s.size()); }

std::string permutation_text(const PrepassResult& r) {
  std::string out;
  const bool square = !r.perm.empty() || r.mates.row_mate.empty();
  for (std::size_t i = 0; i < r.mates.row_mate.size(); ++i)
    out += std::to_string((square ? r.perm[i] : r.mates.row_mate[i]) + 1) + "\n";
  return out;
}

std::string scales_text(const PrepassResult& r) {
  std::string out = "% matchblas perm: log scalings, b_ij = a_ij exp(r_i + c_j); rows (r I VALUE), then columns (c J VALUE)\n";
  const auto line = [&](char side, std::size_t i, double value) {
    out += side;
    out += ' ';
    out += std::to_string(i + 1);
    out += ' ';
    out += shortest_decimal(value);
    out += '\n';
  };
  for (std::size_t i = 0; i < r.row_log_scale.size(); ++i) line('r', i, r.row_log_scale[i]);
  for (std::size_t j = 0; j < r.col_log_scale.size(); ++j) line('c', j, r.col_log_scale[j]);
  return out;
}

// A Q, scaled when the result has scalings.
MmMatrix permuted_scaled(const Csr<double>& a, const PrepassResult& r) {
  const Csr<double> b = r.row_log_scale.empty() ? a : apply_log_scaling(a, r.row_log_scale, r.col_log_scale);
  std::vector<vertex_t> position(a.n_cols);
  for (vertex_t i = 0; i < a.n_rows; ++i) position[r.perm[i]] = i;
  MmMatrix m;
  m.header.rows = a.n_rows;
  m.header.cols = a.n_cols;
  m.header.entries = b.num_entries();
  for (vertex_t i = 0; i < b.n_rows; ++i)
    for (offset_t k = b.offsets[i]; k < b.offsets[i + 1]; ++k) {
      m.row.push_back(i);
      m.col.push_back(position[b.cols[k]]);
      m.val.push_back(b.weights[k]);
    }
  return m;
}

}  // namespace

int command_perm(const Args& a) {
  require_one_input(a, "perm");
  if (a.value("job") && a.value("algo")) throw usage_error("perm takes --job or --algo, not both");
  int job = -1;  // automatic
  if (const auto j = a.value("job")) {
    const std::int64_t v = parse_integer(*j, "--job", INT64_MIN, INT64_MAX);
    if (v < 0 || v > 5)
      throw usage_error("--job must be 1..5 (MC64's jobs) or 0 (none: the identity permutation), got " + *j);
    job = int(v);
  }
  // The entry: --algo's, --job's, or (automatic) max-product's until the
  // file shows a pattern; its options (the registry's) checked before the
  // file is read.
  ChosenAlgorithm chosen;
  if (a.value("algo")) chosen = choose_algorithm(a, Problem::bipartite, "perm");
  else if (job != 0) {
    try {
      const MatcherInfo* e = &find_prepass_job(job > 0 ? job : 5);
      if (const auto d = a.value("device")) e = &on_device(*e, parse_device(*d));  // --job 1, 4 or 5 --device gpu
      chosen = configure_algorithm(*e, a);
    } catch (const invalid_input& e) {
      throw usage_error(e.what());
    }
  } else {
    for (const MatcherInfo& m : matchers())
      if (m.problem == Problem::bipartite)
        for (const OptionSpec& o : m.options)
          if (o.type == OptionSpec::Type::flag ? a.flag(o.name) : a.value(o.name).has_value())
            throw usage_error("--" + o.name + " is for '" + m.name + "', not job 0");
  }
  const MatcherInfo* entry = job < 0 && !a.value("algo") ? nullptr : chosen.info;
  const auto needs_scalings = [&](const MatcherInfo* e) {
    if (a.value("scales-out") && (!e || e->job != 5))
      throw usage_error("--scales-out needs job 5 (max-product): '" + (e ? e->name : std::string("job 0")) +
                        "' computes no scalings");
  };
  const bool known = entry || job == 0;  // before the file is read; automatic: after it
  if (known) needs_scalings(entry);
  const std::string& file = a.positional()[0];
  const std::string shown = file == "-" ? "<stdin>" : file;  // in the text report
  std::FILE* report = report_stream(a, {"out", "scales-out", "scaled-out"});
  const std::unique_ptr<AtomicFile> perm_out = open_output(a, {file});
  const std::unique_ptr<AtomicFile> scales_out = open_named_output(a, "scales-out", file);
  const std::unique_ptr<AtomicFile> scaled_out = open_named_output(a, "scaled-out", file);

  Progress progress(Progress::level(a));
  const auto t0 = std::chrono::steady_clock::now();
  progress.step("reading " + file, file);
  // The memory check: the chosen entry (automatic: max-product, which needs
  // more than job 1's); job 0 runs no matcher beyond the driver.
  std::optional<MmMatrix> mm = naming_file(file, [&] {
    return read_matrix_market(file, [&](const MmHeader& h) {
      check_prepass_memory(file, h, chosen.info ? *chosen.info : find_prepass_job(1));
    });
  });
  const bool pattern = mm->header.field == MmField::pattern;
  const Csr<double> matrix = naming_file(file, [&] { return matrix_as_given(*mm); });
  mm.reset();
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Automatic job: 5 for a matrix with values (or --symmetric), 1 for a pattern.
  if (!entry && job != 0) {
    entry = chosen.info;  // max-product
    if (pattern && !a.flag("symmetric")) {
      entry = &find_prepass_job(1);
      if (const auto d = a.value("device")) entry = &on_device(*entry, parse_device(*d));
      chosen = configure_algorithm(*entry, a);
    }
  }
  if (!known) needs_scalings(entry);
  if (scaled_out && matrix.n_rows != matrix.n_cols)
    throw error("--scaled-out: " + file + " is " + std::to_string(matrix.n_rows) + " x " +
                std::to_string(matrix.n_cols) + "; only a square matrix has a permuted form");

  progress.step("running " + (entry ? entry->name : std::string("job 0")));
  const PrepassResult r = naming_file(
      file, [&] { return entry ? run_prepass(*entry, matrix, chosen.run) : prepass(matrix, {.job = 0}); },
      "running '" + (entry ? entry->name : std::string("job 0")) + "'");
  const int ran = job == 3 ? 3 : r.job;

  progress.step("writing");
  if (perm_out) write_text(*perm_out, permutation_text(r));
  if (scales_out) write_text(*scales_out, scales_text(r));
  if (scaled_out)
    write_matrix_market(scaled_out->get(), permuted_scaled(matrix, r),
                        {" matchblas perm " + file + ": A Q" + std::string(r.row_log_scale.empty() ? "" : ", scaled") +
                         " (job " + std::to_string(ran) + ")"},
                        scaled_out->path());
  progress.finish();

  const char* objective_name = ran == 1 ? "matched" : ran <= 3 ? "smallest |a_ij|" : ran == 4 ? "sum |a_ij|" : "log product";
  if (a.flag("json")) {
    print_json(JsonObject("perm")
                   .text("algo", entry ? entry->name : "none")
                   .text("file", file)
                   .integer("job", ran)
                   .integer("rows", matrix.n_rows)
                   .integer("cols", matrix.n_cols)
                   .integer("entries", matrix.num_entries())
                   .integer("cardinality", r.mates.matched)
                   .boolean("structurally_singular", r.singular)
                   .number("objective", r.objective)  // null when not finite (a zero had to be matched)
                   .number("min_matched_abs", r.min_matched_abs)
                   .boolean("scaling_near_overflow", r.scaling_near_overflow)
                   .boolean("symmetric", a.flag("symmetric"))
                   .number("time_s", r.seconds)
                   .integer("threads", chosen.info ? chosen.run.threads : 1)
                   .text("device", entry ? to_string(entry->device) : "cpu")
                   .number("read_s", read_s));
  } else {
    std::fprintf(report, "%s: %d x %d, %lld entries\n", shown.c_str(), matrix.n_rows, matrix.n_cols,
                static_cast<long long>(matrix.num_entries()));
    std::fprintf(report, "%s (job %d): matched %lld of %d", entry ? entry->name.c_str() : "none", ran,
                static_cast<long long>(r.mates.matched), std::min(matrix.n_rows, matrix.n_cols));
    if (ran >= 2) std::fprintf(report, ", %s %.10g", objective_name, r.objective);
    std::fprintf(report, ", smallest matched |a_ij| %.6g, time %.6f s\n", r.min_matched_abs, r.seconds);
  }
  commit_outputs({perm_out.get(), scales_out.get(), scaled_out.get()});  // together at the end: all or none
  if (r.singular)
    std::fprintf(stderr, "matchblas: warning: %s is structurally singular: %lld of %d matched (a maximum partial matching)\n",
                 shown.c_str(), static_cast<long long>(r.mates.matched), std::min(matrix.n_rows, matrix.n_cols));
  if (r.scaling_near_overflow)
    std::fprintf(stderr, "matchblas: warning: some scalings exceed log(DBL_MAX)/2 and may overflow when applied\n");
  return 0;
}

}  // namespace matchblas::cli
