#include "lib/graph.hpp"

#include <utility>

namespace matchblas {

std::string kinds_string(unsigned kinds) {
  std::string s;
  for (auto [bit, name] : {std::pair{general_graphs, "general"}, {complete_graphs, "complete"},
                           {bipartite_graphs, "bipartite"}})
    if (kinds & bit) {
      if (!s.empty()) s += ',';
      s += name;
    }
  return s;
}

}  // namespace matchblas
