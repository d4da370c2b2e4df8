// matchblas list [--long | --json]: every registered algorithm, one row
// each (name, problem, device, guarantee, whether it can run on this
// machine, or briefly why not), within 100 columns. --long and --json: all
// it declares (graphs, twin, determinism, whether OpenMP or seeded, options),
// why it cannot run here in full (unavailable_here: the build lacks CUDA or
// LEMON, no usable GPU, not under mpirun), and its source
// (MatcherInfo::reference). The device column says "gpu, ranks" for the
// GPU entries that also run over MPI ranks.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "apps/commands.hpp"
#include "matchers/registry.hpp"
#include "matchers/run_matcher.hpp"

namespace matchblas::cli {

namespace {

std::string options_json(const MatcherInfo& m) {
  std::string out = "[";
  for (std::size_t i = 0; i < m.options.size(); ++i) {
    const OptionSpec& s = m.options[i];
    JsonObject o;
    o.text("name", s.name).text("type", to_string(s.type));
    if (s.type == OptionSpec::Type::flag) o.boolean("default", false);
    else o.text("default", s.fallback);
    if (s.type == OptionSpec::Type::word) {
      std::string words = "[";
      for (std::size_t w = 0; w < s.words.size(); ++w) words += (w ? ", " : "") + json_string(s.words[w]);
      o.raw("words", words + "]");
    } else if (s.type != OptionSpec::Type::flag) {
      o.number("min", s.lo).number("max", s.hi);
    }
    o.text("help", s.help);
    out += (i ? ", " : "") + o.str();
  }
  return out + "]";
}

std::string entry_json(const MatcherInfo& m) {
  std::string kinds = "[";
  bool first = true;
  if (m.kinds != 0)
    for (GraphKind k : {general_graphs, complete_graphs, bipartite_graphs})
      if (m.accepts(k)) {
        kinds += (first ? "" : ", ") + json_string(kinds_string(k));
        first = false;
      }
  const std::optional<std::string> why = unavailable_here(m);
  JsonObject o;
  o.text("name", m.name)
      .text("problem", to_string(m.problem))
      .text("family", m.family)
      .raw("kinds", kinds + "]")
      .text("device", to_string(m.device))
      .boolean("over_ranks", bool(m.over_ranks))
      .text("twin", m.twin.empty() ? std::nullopt : std::optional<std::string>(m.twin))
      .boolean("deterministic", m.deterministic)
      .boolean("threaded", m.threaded)
      .boolean("seeded", m.seeded)
      .text("guarantee", m.guarantee)
      .boolean("available", !why)
      .text("unavailable_reason", why)
      .text("summary", m.summary)
      .text("reference", m.reference)
      .raw("options", options_json(m));
  return o.str();
}

}  // namespace

std::optional<std::string> unavailable_briefly(const MatcherInfo& m) {
  const std::optional<std::string> why = unavailable_here(m);
  if (!why) return std::nullopt;
  if (!m.unavailable && m.device == Device::distributed) return "needs mpirun";
  std::string brief = why->substr(0, why->find_first_of(":(,"));
  while (!brief.empty() && brief.back() == ' ') brief.pop_back();
  return brief;
}

// The device column: "gpu, ranks" for a GPU entry that also runs over MPI
// ranks (a GPU each, under mpirun).
std::string device_column(const MatcherInfo& m) {
  return to_string(m.device) + (m.over_ranks ? ", ranks" : "");
}

int command_list(const Args& a) {
  if (!a.positional().empty()) throw usage_error("list takes no arguments");
  if (a.flag("json") && a.flag("long")) throw usage_error("list takes --json or --long, not both");
  if (a.flag("json")) {
    std::string entries = "[";
    bool first = true;
    for (const MatcherInfo& m : matchers()) {
      entries += std::string(first ? "\n  " : ",\n  ") + entry_json(m);
      first = false;
    }
    print_json(JsonObject("list").raw("algorithms", entries + "\n]"));
    return 0;
  }
  int w = 18;  // the name column: the longest name
  for (const MatcherInfo& m : matchers()) w = std::max(w, int(m.name.size()));
  if (!a.flag("long")) {
    // One row per algorithm, within 100 columns (the longest name, problem
    // and guarantee, then the device and "no: " and a brief reason).
    int wp = 7, wg = 9;
    for (const MatcherInfo& m : matchers()) {
      wp = std::max(wp, int(to_string(m.problem).size()));
      wg = std::max(wg, int(m.guarantee.size()));
    }
    std::printf("%-*s  %-*s  %-11s  %-*s  %s\n", w, "name", wp, "problem", "device", wg, "guarantee", "available here");
    for (const MatcherInfo& m : matchers()) {
      const std::optional<std::string> why = unavailable_briefly(m);
      std::printf("%-*s  %-*s  %-11s  %-*s  %s\n", w, m.name.c_str(), wp, to_string(m.problem).c_str(),
                  device_column(m).c_str(), wg, m.guarantee.c_str(), why ? ("no: " + *why).c_str() : "yes");
    }
    std::printf("\nmatchblas list --long: with graphs, twins, summaries, sources and options\n");
    return 0;
  }
  std::printf("%-*s %-15s %-28s %-11s %-18s %-13s %-11s %s\n", w, "name", "problem", "graphs", "device", "twin",
              "deterministic", "guarantee", "available here");
  for (const MatcherInfo& m : matchers()) {
    const std::optional<std::string> why = unavailable_here(m);
    std::printf("%-*s %-15s %-28s %-11s %-18s %-13s %-11s %s\n", w, m.name.c_str(), to_string(m.problem).c_str(),
                input_of(m).c_str(), device_column(m).c_str(), m.twin.empty() ? "-" : m.twin.c_str(),
                m.deterministic ? "yes" : "no", m.guarantee.c_str(), why ? ("no: " + *why).c_str() : "yes");
    std::printf("%-*s %s\n", w, "", m.summary.c_str());
    std::printf("%-*s source: %s\n", w, "", m.reference.c_str());
    if (m.over_ranks)
      std::printf("%-*s over MPI ranks, a GPU each: mpirun -np P matchblas %s FILE --algo %s [--gpus IDS]\n", w, "",
                  m.problem == Problem::b_matching ? "bmatch" : "match", m.name.c_str());
    if (!m.options.empty()) {
      std::string names;
      for (const OptionSpec& s : m.options) names += (names.empty() ? "--" : ", --") + s.name;
      std::printf("%-*s options: %s\n", w, "", names.c_str());
    }
  }
  return 0;
}

}  // namespace matchblas::cli
