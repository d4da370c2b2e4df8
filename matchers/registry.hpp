// The registry: every algorithm matchblas runs is one declaration (a
// MatcherInfo in its family's matchers/<family>/registry.cpp) carrying all
// of its facts: name, problem, graphs, device, twin, determinism, guarantee,
// source, memory per vertex and edge, its options as typed specs, the
// reader of those options into the struct its runner receives, and the
// runner. The CLI's commands, `list`, `--help`, option parsing, `demo`,
// `eval`, the benchmarks, the C API, Python and the conformance test
// (tests/check/conformance.hpp) read it; entries are chosen by their fields
// (name and problem, device, job), never by their place in the list.
#pragma once
#include <cstdint>
#include <functional>
#include <any>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lib/csr.hpp"
#include "lib/error.hpp"
#include "lib/graph.hpp"
#include "lib/matching.hpp"
#include "lib/phase_report.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/bipartite/prepass.hpp"
#include "matchers/community/louvain.hpp"
#include "datasets/distributed/dist_graph.hpp"
#include "matchers/distributed/ld_mpi.hpp"
#include "matchers/marriage/stable_marriage.hpp"

namespace matchblas {

// distributed: MPI ranks, each with its part of the graph (a DistGraph),
// run under mpirun by `matchblas match` (apps/cmd_match_distributed.cpp).
enum class Device { cpu, gpu, distributed };
// bipartite: the diagonal pre-pass on an m-by-n matrix (a PrepassResult).
// community: community detection on an undirected graph (Communities).
// A new problem is a value here, a row of problems() and a runner type in
// MatcherInfo::run; the tools that list or choose entries need nothing else.
enum class Problem { matching, b_matching, marriage, bipartite, community };

// What each problem is, for the tools and the registry's own checks.
struct ProblemInfo {
  Problem problem;
  const char* name;                     // "matching", "b-matching", ...
  const char* result;                   // "a matching (mate array)", ...
  const char* input;                    // "" for graphs (the entry's kinds say which)
  std::vector<std::string> guarantees;  // what its entries may declare (MatcherInfo::guarantee)
};
const std::vector<ProblemInfo>& problems();
const ProblemInfo& problem_info(Problem p);

// One option an algorithm takes (on the command line: --name VALUE, or
// --name for a flag).
struct OptionSpec {
  enum class Type { integer, real, word, flag, bytes };  // bytes: an integer with an optional K, M, G or T (powers of 1024)
  std::string name;
  Type type = Type::flag;
  std::string fallback;            // the default, as text ("" for a flag)
  std::vector<std::string> words;  // Type::word: the accepted words
  double lo = 0, hi = 0;           // integer, real and bytes: the accepted range
  std::string help;                // one line
};

// An algorithm's options as given, read through its specs: a typed getter
// returns the given value or the spec's default. Build one with
// parse_options (which checks every value) or default-construct one with
// the specs for the defaults.
class OptionValues {
 public:
  OptionValues() = default;
  explicit OptionValues(const std::vector<OptionSpec>* specs, std::map<std::string, std::string> given = {})
      : specs_(specs), given_(std::move(given)) {}
  bool given(std::string_view name) const { return given_.count(std::string(name)) != 0; }
  bool takes(std::string_view name) const;  // whether the specs have this option
  const std::vector<OptionSpec>* specs() const { return specs_; }
  const std::map<std::string, std::string>& given_values() const { return given_; }
  std::int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;
  std::uint64_t bytes(std::string_view name) const;
  std::string word(std::string_view name) const;
  bool flag(std::string_view name) const;
  // The entry's typed options, read once by parse_options through
  // MatcherInfo::read_options (std::logic_error when T is not that type or
  // no reader ran).
  template <class T>
  const T& typed() const {
    if (const T* t = std::any_cast<T>(&typed_)) return *t;
    throw_untyped();
  }
  void set_typed(std::any t) { typed_ = std::move(t); }

 private:
  [[noreturn]] static void throw_untyped();
  const OptionSpec& spec(std::string_view name, OptionSpec::Type type) const;
  std::string text(const OptionSpec& s) const;
  const std::vector<OptionSpec>* specs_ = nullptr;
  std::map<std::string, std::string> given_;
  std::any typed_;
};

// What a run gets besides the input.
struct RunOptions {
  std::uint64_t seed = 1;  // randomised algorithms
  int threads = 0;         // CPU: threads (<= 0: all); GPU: about this many threads per kernel (0: one per item)
  int gpu = 0;             // GPU entries: the CUDA device
  OptionValues options;    // the entry's own options; empty: every default
  PhaseReport* phases = nullptr;  // entries with phases (option "phase-report") leave them here when set
};

using MatchRunner = std::function<Matching(GraphRef, const RunOptions&)>;
using BMatchRunner = std::function<BMatching(GraphRef, const std::vector<int>& b, const RunOptions&)>;
using MarriageRunner = std::function<Marriage(const RankedLists&, const RunOptions&)>;
using PrepassRunner = std::function<PrepassResult(const Csr<double>&, const RunOptions&)>;
// The graph of community_graph (lib/graph_from_matrix.hpp): symmetric,
// non-negative weights.
using CommunityRunner = std::function<Communities(const Csr<double>&, const RunOptions&)>;
// Collective over the ranks: this rank's part of the graph in, its part of
// the matching out.
using DistributedRunner = std::function<DistributedMatching(const DistGraph&, const RunOptions&)>;

// Collective over the ranks, a GPU each: this rank's part of the graph and
// b (n entries; all 1 for a matching) in, its rows of the b-matching out.
// Every rank throws alike invalid_input (the input and options, checked
// before any collective) and the failures the ranks agree on (no usable
// GPU, too little memory: "rank R: ..."); anything else is a fault of one
// rank while the others may wait in a collective.
using RanksRunner = std::function<BMatching(const DistGraph&, const std::vector<int>& b, const RunOptions&)>;

// One algorithm's declaration: everything any tool knows of it.
// Declared with designated initializers in this order; registry_defects()
// names any field an entry lacks.
struct MatcherInfo {
  std::string name{};
  Problem problem = Problem::matching;
  std::string family{};       // its folder, matchers/<family>/ (set by the registry)
  unsigned kinds = 0;       // GraphKind bits (matching and b-matching)
  Device device = Device::cpu;
  bool deterministic = true;
  // Whether RunOptions::threads sets how many threads do the work (an OpenMP
  // algorithm); false: one thread runs it (a sort inside may still use more).
  bool threaded = false;
  // Whether RunOptions::seed changes its result (random orders or starts);
  // the CLI refuses --seed for the others.
  bool seeded = false;
  // What the conformance test checks (one of problem_info(problem).guarantees):
  // "greedy" (equals greedy, mate for mate), "1/2" (at least half the
  // optimum), "2/3-eps" (a perfect matching with no 4-cycle gaining more
  // than min-gain: at least 2/3 of the optimum less min-gain per edge),
  // "exact", "maximal" (no edge with both ends free; weight not promised),
  // "b-greedy" (equals b_greedy, edge for edge), "man-optimal" (the
  // man-optimal stable matching); bipartite: "cardinality" (a maximum
  // matching), "bottleneck" (a maximum matching with the largest smallest
  // |a_ij|), "exact" (the best objective among the maximum matchings),
  // "approximate" (a maximum matching, its objective at most the optimum,
  // and no alternating 4-cycle gaining more than the entry's min-gain).
  std::string guarantee{};
  int job = 0;              // bipartite: the MC64 job it computes (1-5)
  std::string summary{};      // one line: the algorithm
  // Where it comes from, as a reader can find it: authors, title, venue or
  // kind, year, section or algorithm (docs/REFERENCES.md lists every entry
  // with this text; the sources' full forms are in matchers/references.hpp).
  std::string reference{};
  std::string twin{};         // the same algorithm on the other device; "" when none
  // The memory it needs beyond its input, at its peak: bytes per vertex and
  // per edge. Vertices and edges are those of its input: a graph's vertices
  // and undirected edges (a complete graph's n(n-1)/2 pairs); bipartite:
  // rows + columns and stored entries; marriage: men + women and list
  // entries (both sides). The input itself (the graph's Csr or Dense, the
  // matrix, the ranked lists) is not counted here: the memory check
  // (apps/memory_check.cpp) adds it. GPU entries: host memory only. Fitted
  // to peaks measured by bench/bench_memory and rounded up by about 20%
  // (bench/RESULTS.md, "Memory estimates") unless the entry says otherwise.
  struct Memory {
    double per_vertex = 0, per_edge = 0;
  } memory{};
  std::vector<OptionSpec> options{};
  // Reads the options (each already checked against its spec) into the
  // typed struct the runner receives (OptionValues::typed), checking the
  // rules between options and the weights' precision; throws invalid_input.
  // Called once per run, by parse_options, before any input is read. Unset:
  // the entry has no rules and reads no struct.
  std::function<std::any(const OptionValues&, Precision)> read_options{};
  std::variant<MatchRunner, BMatchRunner, MarriageRunner, PrepassRunner, DistributedRunner, CommunityRunner> run{};
  // Set for a GPU entry that also runs over MPI ranks, one GPU per rank (a
  // distributed GPU entry: `list` says so); under mpirun the CLI's match
  // and bmatch run it instead of `run` (apps/cmd_over_ranks.cpp).
  RanksRunner over_ranks{};
  // When set, the algorithm is registered but cannot run in this build; the
  // string says why (e.g. "needs LEMON").
  std::optional<std::string> unavailable{};

  bool accepts(GraphKind k) const { return (kinds & k) != 0; }
  const OptionSpec* option(std::string_view name) const;
};

// What entry m lacks or gets wrong, one line each ("" when nothing): a
// name, summary, reference, guarantee of its problem, memory, graph kinds
// (matchings), job (pre-pass), a runner of its problem, a twin that exists
// on the other device. The registry test requires none for every entry.
std::vector<std::string> registry_defects(const MatcherInfo& m, const std::vector<MatcherInfo>& all);

// Every registered algorithm, in a fixed order (by family, references first).
const std::vector<MatcherInfo>& matchers();

// The algorithm called `name` that solves `problem`; throws invalid_input
// naming the closest of that problem's names ("did you mean") when unknown.
const MatcherInfo& find_matcher(std::string_view name, Problem problem = Problem::matching);

// m's twin on `device` (m itself when it runs there); invalid_input when it
// has none, naming the algorithms that run there.
const MatcherInfo& on_device(const MatcherInfo& m, Device device);

// The options of m as given (name -> text), each checked against its spec
// (type, range, words), then read once by m.read_options into the typed
// struct its runner receives (OptionValues::typed); throws invalid_input
// naming the option and the algorithm. An option m does not take is an error
// naming the algorithms that take it.
OptionValues parse_options(const MatcherInfo& m, const std::map<std::string, std::string>& given,
                           Precision precision = Precision::float64);

// An algorithm named with its options in a list ("roma-sparse:start=gpa:
// phases=20"): the name and the options as given (a flag has an empty
// value). Throws invalid_input on an empty name or option or a repeated
// option; the options are checked by parse_options.
struct NamedWithOptions {
  std::string name;
  std::map<std::string, std::string> given;
};
NamedWithOptions split_named_options(const std::string& spec);

// The algorithms of `problem` that take option `name`, as "a, b and c".
std::string takers(std::string_view name, Problem problem);

// Runs m (of the right problem; invalid_input otherwise). Options read
// through another entry's specs (or none: every default) are parsed again
// with m's.
Matching run_matching(const MatcherInfo& m, GraphRef g, const RunOptions& opt);
BMatching run_b_matching(const MatcherInfo& m, GraphRef g, const std::vector<int>& b, const RunOptions& opt);
Marriage run_marriage(const MatcherInfo& m, const RankedLists& p, const RunOptions& opt);
PrepassResult run_prepass(const MatcherInfo& m, const Csr<double>& a, const RunOptions& opt);
Communities run_community(const MatcherInfo& m, const Csr<double>& g, const RunOptions& opt);
DistributedMatching run_distributed(const MatcherInfo& m, const DistGraph& g, const RunOptions& opt);
// m's over_ranks (invalid_input when it has none); collective.
BMatching run_over_ranks(const MatcherInfo& m, const DistGraph& g, const std::vector<int>& b, const RunOptions& opt);

// The entry a pre-pass job runs by default (1-5; 3 is 2's entry): the
// bipartite entry of that job on the CPU, deterministic and not
// approximate (exactly one per job: the registry test checks it). Throws
// invalid_input naming the jobs.
const MatcherInfo& find_prepass_job(int job);

// What m takes, in words: its graph kinds, "preference lists" or "m x n matrices".
std::string input_of(const MatcherInfo& m);

std::string to_string(Device d);  // "cpu", "gpu", "distributed"
std::string to_string(Problem p);
std::string to_string(OptionSpec::Type t);
Device parse_device(std::string_view name);  // "cpu" | "gpu"; invalid_input otherwise

namespace registry_detail {
// Each family's entries (matchers/<family>/registry.cpp), appended in order.
void add_general(std::vector<MatcherInfo>& r);
void add_complete(std::vector<MatcherInfo>& r);
void add_b_matching(std::vector<MatcherInfo>& r);
void add_marriage(std::vector<MatcherInfo>& r);
void add_bipartite(std::vector<MatcherInfo>& r);
void add_distributed(std::vector<MatcherInfo>& r);
void add_community(std::vector<MatcherInfo>& r);

// Adapts f(const Csr<W>&, rest...) -> R to a GraphRef of a sparse graph;
// a complete graph is refused naming the algorithm.
template <class R, class F>
auto on_sparse(std::string name, F f) {
  return [name, f](GraphRef g, const auto&... rest) -> R {
    return std::visit(
        [&](const auto* graph) -> R {
          if constexpr (requires { graph->n_rows; }) return f(*graph, rest...);
          else throw invalid_input("'" + name + "' takes sparse graphs, not complete ones");
        },
        g);
  };
}
// The same for complete graphs; a sparse graph is refused.
template <class F>
auto on_complete(std::string name, F f) {
  return [name, f](GraphRef g, const RunOptions& o) -> Matching {
    return std::visit(
        [&](const auto* graph) -> Matching {
          if constexpr (requires { graph->n_rows; })
            throw invalid_input("'" + name + "' takes complete graphs (--view complete), not sparse ones");
          else return f(*graph, o);
        },
        g);
  };
}
// "unavailable" for a GPU entry in a build without CUDA.
std::optional<std::string> needs_cuda();
// --device-memory BYTES of the entries that stream a graph larger than the
// device (GpuOptions::device_memory).
OptionSpec device_memory_option();
}  // namespace registry_detail

}  // namespace matchblas
