// matchblas list [--json]: every registered algorithm and what it declares
// (problem, graphs, device, twin, determinism, whether OpenMP, guarantee, availability,
// options).
#include <cstdio>

#include "apps/commands.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

namespace {

std::string graphs_of(const MatcherInfo& m) {
  return input_of(m);
}

void print_json(const MatcherInfo& m, bool first) {
  std::printf("%s\n  {\"name\": %s, \"problem\": %s, \"family\": %s, \"kinds\": [", first ? "" : ",",
              json_string(m.name).c_str(), json_string(to_string(m.problem)).c_str(), json_string(m.family).c_str());
  bool first_kind = true;
  if (m.kinds != 0)
    for (GraphKind k : {general_graphs, complete_graphs, bipartite_graphs})
      if (m.accepts(k)) {
        std::printf("%s%s", first_kind ? "" : ", ", json_string(kinds_string(k)).c_str());
        first_kind = false;
      }
  std::printf("], \"device\": %s, \"twin\": %s, \"deterministic\": %s, \"threaded\": %s, \"guarantee\": %s, "
              "\"available\": %s, \"unavailable_reason\": %s, \"summary\": %s, \"options\": [",
              json_string(to_string(m.device)).c_str(), m.twin.empty() ? "null" : json_string(m.twin).c_str(),
              m.deterministic ? "true" : "false", m.threaded ? "true" : "false", json_string(m.guarantee).c_str(),
              m.unavailable ? "false" : "true",
              m.unavailable ? json_string(*m.unavailable).c_str() : "null", json_string(m.summary).c_str());
  for (std::size_t i = 0; i < m.options.size(); ++i) {
    const OptionSpec& s = m.options[i];
    std::printf("%s{\"name\": %s, \"type\": %s, \"default\": %s, ", i ? ", " : "", json_string(s.name).c_str(),
                json_string(to_string(s.type)).c_str(),
                s.type == OptionSpec::Type::flag ? "false" : json_string(s.fallback).c_str());
    if (s.type == OptionSpec::Type::word) {
      std::printf("\"words\": [");
      for (std::size_t w = 0; w < s.words.size(); ++w) std::printf("%s%s", w ? ", " : "", json_string(s.words[w]).c_str());
      std::printf("], ");
    } else if (s.type != OptionSpec::Type::flag) {
      std::printf("\"min\": %.17g, \"max\": %.17g, ", s.lo, s.hi);
    }
    std::printf("\"help\": %s}", json_string(s.help).c_str());
  }
  std::printf("]}");
}

}  // namespace

int command_list(const Args& a) {
  if (!a.positional().empty()) throw usage_error("list takes no arguments");
  if (a.flag("json")) {
    std::printf("[");
    bool first = true;
    for (const MatcherInfo& m : matchers()) {
      print_json(m, first);
      first = false;
    }
    std::printf("\n]\n");
    return 0;
  }
  std::printf("%-18s %-15s %-28s %-6s %-18s %-13s %-11s %s\n", "name", "problem", "graphs", "device", "twin",
              "deterministic", "guarantee", "available");
  for (const MatcherInfo& m : matchers()) {
    std::printf("%-18s %-15s %-28s %-6s %-18s %-13s %-11s %s\n", m.name.c_str(), to_string(m.problem).c_str(),
                graphs_of(m).c_str(), to_string(m.device).c_str(), m.twin.empty() ? "-" : m.twin.c_str(),
                m.deterministic ? "yes" : "no", m.guarantee.c_str(),
                m.unavailable ? ("no: " + *m.unavailable).c_str() : "yes");
    if (!m.options.empty()) {
      std::string names;
      for (const OptionSpec& s : m.options) names += (names.empty() ? "--" : ", --") + s.name;
      std::printf("%-18s options: %s\n", "", names.c_str());
    }
  }
  return 0;
}

}  // namespace matchblas::cli
