// matchblas list [--json]: the registered matchers and what they declare.
#include <cstdio>

#include "apps/commands.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

int command_list(const Args& a) {
  if (!a.positional().empty()) throw usage_error("list takes no arguments");
  if (a.flag("json")) {
    std::printf("[");
    bool first = true;
    for (const MatcherInfo& m : matchers()) {
      std::printf("%s\n  {\"name\": %s, \"kinds\": [", first ? "" : ",", json_string(m.name).c_str());
      bool first_kind = true;
      for (GraphKind k : {general_graphs, complete_graphs, bipartite_graphs})
        if (m.accepts(k)) {
          std::printf("%s%s", first_kind ? "" : ", ", json_string(kinds_string(k)).c_str());
          first_kind = false;
        }
      std::printf("], \"device\": %s, \"deterministic\": %s, \"guarantee\": %s, \"available\": %s, "
                  "\"summary\": %s}",
                  json_string(to_string(m.device)).c_str(), m.deterministic ? "true" : "false",
                  json_string(m.guarantee).c_str(), m.unavailable ? "false" : "true",
                  json_string(m.summary).c_str());
      first = false;
    }
    std::printf("\n]\n");
    return 0;
  }
  std::printf("%-14s %-28s %-6s %-13s %-9s %s\n", "name", "graphs", "device", "deterministic", "guarantee",
              "available");
  for (const MatcherInfo& m : matchers())
    std::printf("%-14s %-28s %-6s %-13s %-9s %s\n", m.name.c_str(), kinds_string(m.kinds).c_str(),
                to_string(m.device).c_str(), m.deterministic ? "yes" : "no", m.guarantee.c_str(),
                m.unavailable ? ("no: " + *m.unavailable).c_str() : "yes");
  return 0;
}

}  // namespace matchblas::cli
