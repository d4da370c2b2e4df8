// The registered matchers. One entry per matcher; keep the list sorted by
// family (references first).
#include "matchers/registry.hpp"

#include "lib/error.hpp"
#include "matchers/exact.hpp"
#include "matchers/greedy.hpp"

namespace matchblas {

namespace {

// Adapts a generic callable f(graph, options) to GraphRef, for the graph
// kinds it accepts; other kinds throw (the registry's `kinds` says which).
template <class F>
std::function<Matching(GraphRef, const MatchOptions&)> on_sparse_and_dense(F f) {
  return [f](GraphRef g, const MatchOptions& opt) {
    return std::visit([&](const auto* graph) { return f(*graph, opt); }, g);
  };
}

std::vector<MatcherInfo> make_registry() {
  std::vector<MatcherInfo> r;
  r.push_back({
      .name = "greedy",
      .kinds = general_graphs | complete_graphs | bipartite_graphs,
      .device = Device::cpu,
      .deterministic = true,
      .guarantee = "greedy",
      .summary = "sort edges by (weight desc, min id, max id), scan (seed 000 sec. 3.3.1)",
      .run = on_sparse_and_dense([](const auto& g, const MatchOptions& o) { return greedy(g, o.threads); }),
      .unavailable = std::nullopt,
  });
  r.push_back({
      .name = "exact",
      .kinds = general_graphs | complete_graphs | bipartite_graphs,
      .device = Device::cpu,
      .deterministic = true,
      .guarantee = "exact",
      .summary = "maximum weight matching, LEMON's blossom algorithm; perfect on complete graphs",
      .run = on_sparse_and_dense([](const auto& g, const MatchOptions&) {
        if constexpr (requires { g.n_rows; }) {
          return exact_matching(g);
        } else {  // odd n: one zero-weight vertex added, then dropped again
          Matching m = exact_perfect_matching(padded_to_even(g));
          if (m.size() > g.n) {
            if (m.mate[g.n] != no_vertex) m.mate[m.mate[g.n]] = no_vertex;
            m.mate.resize(g.n);
          }
          return m;
        }
      }),
      .unavailable = have_exact() ? std::nullopt
                                  : std::optional<std::string>("needs LEMON (liblemon-dev), absent from this build"),
  });
  return r;
}

}  // namespace

const std::vector<MatcherInfo>& matchers() {
  static const std::vector<MatcherInfo> registry = make_registry();
  return registry;
}

const MatcherInfo& find_matcher(std::string_view name) {
  std::string known;
  for (const MatcherInfo& m : matchers()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw invalid_input("unknown matcher '" + std::string(name) + "' (known: " + known + ")");
}

std::string to_string(Device d) { return d == Device::cpu ? "cpu" : "gpu"; }

}  // namespace matchblas
