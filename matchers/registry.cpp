// The registry's lookups, option parsing and runners (matchers/registry.hpp).
// The entries themselves are in each family's registry.cpp.
#include "matchers/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <new>
#include <optional>
#include <stdexcept>

#include "lib/error.hpp"
#include "lib/named_values.hpp"

namespace matchblas {

namespace {

std::vector<MatcherInfo> make_registry() {
  std::vector<MatcherInfo> r;
  // Each family's entries, named after its folder (matchers/<family>/).
  const std::pair<const char*, void (*)(std::vector<MatcherInfo>&)> families[] = {
      {"general", registry_detail::add_general},
      {"complete", registry_detail::add_complete},
      {"b_matching", registry_detail::add_b_matching},
      {"marriage", registry_detail::add_marriage},
      {"bipartite", registry_detail::add_bipartite},
      {"distributed", registry_detail::add_distributed},
      {"community", registry_detail::add_community}};
  for (const auto& [family, add] : families) {
    const std::size_t first = r.size();
    add(r);
    for (std::size_t i = first; i < r.size(); ++i) r[i].family = family;
  }
  return r;
}

template <class Runner>
bool runs(const MatcherInfo& m) {
  const auto* f = std::get_if<Runner>(&m.run);
  return f && *f;
}

// Whether m's runner is of its problem's type.
bool runner_fits(const MatcherInfo& m) {
  if (m.device == Device::distributed) return runs<DistributedRunner>(m);
  switch (m.problem) {
    case Problem::matching: return runs<MatchRunner>(m);
    case Problem::b_matching: return runs<BMatchRunner>(m);
    case Problem::marriage: return runs<MarriageRunner>(m);
    case Problem::bipartite: return runs<PrepassRunner>(m);
    case Problem::community: return runs<CommunityRunner>(m);
  }
  return false;
}

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

// A byte count: digits, then optionally K, M, G or T (powers of 1024),
// optionally followed by B or iB ("512M", "4GiB"); nullopt when malformed
// or past 2^63.
std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string_view unit(end, std::size_t(text.data() + text.size() - end));
  int shift = 0;
  if (!unit.empty()) {
    const char c = char(std::toupper(static_cast<unsigned char>(unit[0])));
    shift = c == 'K' ? 10 : c == 'M' ? 20 : c == 'G' ? 30 : c == 'T' ? 40 : -1;
    if (shift < 0) {
      if (unit != "B" && unit != "b") return std::nullopt;
      shift = 0;
    } else {
      unit.remove_prefix(1);
      if (!unit.empty() && unit != "B" && unit != "iB" && unit != "b" && unit != "ib") return std::nullopt;
    }
  }
  if (v > (std::uint64_t(1) << (63 - shift))) return std::nullopt;
  return v << shift;
}

// Checks `text` against spec s; throws invalid_input naming the option and
// the algorithm.
void check_value(const OptionSpec& s, const std::string& text, const std::string& algo) {
  const std::string option = "--" + s.name, of = " (an option of '" + algo + "')";
  switch (s.type) {
    case OptionSpec::Type::flag:
      if (!text.empty()) throw invalid_input("option " + option + " takes no value" + of);
      return;
    case OptionSpec::Type::word: {
      std::string known;
      for (const std::string& w : s.words) {
        if (w == text) return;
        known += (known.empty() ? "" : ", ") + w;
      }
      throw invalid_input("unknown " + option + " '" + text + "' for " + algo + " (known: " + known + ")");
    }
    case OptionSpec::Type::integer: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size())
        throw invalid_input(option + " must be an integer, got '" + text + "'" + of);
      if (double(v) < s.lo || double(v) > s.hi)
        throw invalid_input(option + " must be in " + number(s.lo) + ".." + number(s.hi) + ", got " + text + of);
      return;
    }
    case OptionSpec::Type::real: {
      double v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        throw invalid_input(option + " must be a number, got '" + text + "'" + of);
      if (v < s.lo || v > s.hi)
        throw invalid_input(option + " must be in [" + number(s.lo) + ", " + number(s.hi) + "], got " + text + of);
      return;
    }
    case OptionSpec::Type::bytes: {
      const std::optional<std::uint64_t> v = parse_bytes(text);
      if (!v) throw invalid_input(option + " must be a byte count (e.g. 4096, 512M, 8G), got '" + text + "'" + of);
      if (double(*v) < s.lo || double(*v) > s.hi)
        throw invalid_input(option + " must be in " + number(s.lo) + ".." + number(s.hi) + " bytes, got " + text + of);
      return;
    }
  }
}

}  // namespace

const OptionSpec* MatcherInfo::option(std::string_view name) const {
  for (const OptionSpec& s : options)
    if (s.name == name) return &s;
  return nullptr;
}

const OptionSpec& OptionValues::spec(std::string_view name, OptionSpec::Type type) const {
  if (specs_)
    for (const OptionSpec& s : *specs_)
      if (s.name == name) {
        if (s.type != type)
          throw error("option '" + s.name + "' is " + to_string(s.type) + ", read as " + to_string(type));
        return s;
      }
  throw error("no option '" + std::string(name) + "' in this algorithm's specs");
}

void OptionValues::throw_untyped() {
  throw std::logic_error("an algorithm's typed options read as another type, or never read (parse_options)");
}

bool OptionValues::takes(std::string_view name) const {
  if (specs_)
    for (const OptionSpec& s : *specs_)
      if (s.name == name) return true;
  return false;
}

std::string OptionValues::text(const OptionSpec& s) const {
  const auto it = given_.find(s.name);
  return it == given_.end() ? s.fallback : it->second;
}

std::int64_t OptionValues::integer(std::string_view name) const {
  const std::string t = text(spec(name, OptionSpec::Type::integer));
  std::int64_t v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

double OptionValues::real(std::string_view name) const {
  const std::string t = text(spec(name, OptionSpec::Type::real));
  double v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

std::uint64_t OptionValues::bytes(std::string_view name) const {
  return parse_bytes(text(spec(name, OptionSpec::Type::bytes))).value_or(0);
}

std::string OptionValues::word(std::string_view name) const { return text(spec(name, OptionSpec::Type::word)); }

bool OptionValues::flag(std::string_view name) const {
  spec(name, OptionSpec::Type::flag);
  return given(name);
}

const std::vector<MatcherInfo>& matchers() {
  static const std::vector<MatcherInfo> registry = make_registry();
  return registry;
}

const MatcherInfo& find_matcher(std::string_view name, Problem problem) {
  std::vector<std::string> known;
  for (const MatcherInfo& m : matchers()) {
    if (m.problem != problem) continue;
    if (m.name == name) return m;
    known.push_back(m.name);
  }
  for (const MatcherInfo& m : matchers())
    if (m.name == name)
      throw invalid_input("'" + std::string(name) + "' computes a " + to_string(m.problem) + ", not a " +
                          to_string(problem));
  const std::string what = problem == Problem::matching ? "matcher" : to_string(problem) + " algorithm";
  throw invalid_input("unknown " + what + " '" + std::string(name) + "'" + did_you_mean(name, known) +
                      " (matchblas list names them all)");
}

const MatcherInfo& on_device(const MatcherInfo& m, Device device) {
  if (m.device == device) return m;
  if (!m.twin.empty()) return find_matcher(m.twin, m.problem);
  std::vector<std::string> there;
  for (const MatcherInfo& other : matchers())
    if (other.device == device && other.problem == m.problem) there.push_back(other.name);
  throw invalid_input("'" + m.name + "' has no " + to_string(device) + " version (" + to_string(device) +
                      " algorithms of its problem: " + (there.empty() ? std::string("none yet") : listed(there)) + ")");
}

std::string takers(std::string_view name, Problem problem) {
  std::vector<std::string> names;
  for (const MatcherInfo& m : matchers())
    if (m.problem == problem && m.option(name)) names.push_back(m.name);
  return listed(names);
}

OptionValues parse_options(const MatcherInfo& m, const std::map<std::string, std::string>& given,
                           Precision precision) {
  for (const auto& [name, text] : given) {
    const OptionSpec* s = m.option(name);
    if (!s) {
      const std::string who = takers(name, m.problem);
      throw invalid_input("--" + name + (who.empty() ? " is not an option of '" + m.name + "'"
                                                     : " is for " + who + ", not '" + m.name + "'"));
    }
    check_value(*s, text, m.name);
  }
  OptionValues values(&m.options, given);
  if (m.read_options) values.set_typed(m.read_options(values, precision));
  return values;
}

NamedWithOptions split_named_options(const std::string& spec) {
  NamedWithOptions r;
  std::size_t at = spec.find(':');
  r.name = spec.substr(0, at);
  if (r.name.empty()) throw invalid_input("an empty algorithm name in '" + spec + "'");
  while (at != std::string::npos) {
    const std::size_t end = spec.find(':', at + 1);
    const std::string part = spec.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    const std::size_t eq = part.find('=');
    const std::string name = part.substr(0, eq);
    if (name.empty() || r.given.count(name)) throw invalid_input("a bad or repeated option in '" + spec + "'");
    r.given[name] = eq == std::string::npos ? "" : part.substr(eq + 1);
    at = end;
  }
  return r;
}


namespace {
// opt with its options read through m's specs.
RunOptions for_entry(const MatcherInfo& m, const RunOptions& opt) {
  RunOptions o = opt;
  if (opt.options.specs() != &m.options) o.options = parse_options(m, opt.options.given_values());
  return o;
}

// run(), a failed host allocation (std::bad_alloc) turned into out_of_memory
// naming the matcher.
template <class F>
auto naming_matcher(const MatcherInfo& m, F run) -> decltype(run()) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    throw out_of_memory("out of memory in matcher '" + m.name + "'");
  }
}
}  // namespace

Matching run_matching(const MatcherInfo& m, GraphRef g, const RunOptions& opt) {
  const auto* run = std::get_if<MatchRunner>(&m.run);
  if (!run && m.device == Device::distributed)
    throw invalid_input("'" + m.name + "' runs on MPI ranks, each with its part of the graph (mpirun -np P matchblas match FILE --algo " + m.name + ")");
  if (!run) throw invalid_input("'" + m.name + "' computes a " + to_string(m.problem) + ", not a matching");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(g, for_entry(m, opt)); });
}

BMatching run_b_matching(const MatcherInfo& m, GraphRef g, const std::vector<int>& b, const RunOptions& opt) {
  const auto* run = std::get_if<BMatchRunner>(&m.run);
  if (!run) throw invalid_input("'" + m.name + "' computes a " + to_string(m.problem) + ", not a b-matching");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(g, b, for_entry(m, opt)); });
}

Marriage run_marriage(const MatcherInfo& m, const RankedLists& p, const RunOptions& opt) {
  const auto* run = std::get_if<MarriageRunner>(&m.run);
  if (!run) throw invalid_input("'" + m.name + "' computes a " + to_string(m.problem) + ", not a stable marriage");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(p, for_entry(m, opt)); });
}

PrepassResult run_prepass(const MatcherInfo& m, const Csr<double>& a, const RunOptions& opt) {
  const auto* run = std::get_if<PrepassRunner>(&m.run);
  if (!run) throw invalid_input("'" + m.name + "' computes a " + to_string(m.problem) + ", not a bipartite pre-pass");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(a, for_entry(m, opt)); });
}

Communities run_community(const MatcherInfo& m, const Csr<double>& g, const RunOptions& opt) {
  const auto* run = std::get_if<CommunityRunner>(&m.run);
  if (!run) throw invalid_input("'" + m.name + "' computes a " + to_string(m.problem) + ", not communities");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(g, for_entry(m, opt)); });
}

DistributedMatching run_distributed(const MatcherInfo& m, const DistGraph& g, const RunOptions& opt) {
  const auto* run = std::get_if<DistributedRunner>(&m.run);
  if (!run) throw invalid_input("'" + m.name + "' does not run on distributed graphs");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return (*run)(g, for_entry(m, opt)); });
}

BMatching run_over_ranks(const MatcherInfo& m, const DistGraph& g, const std::vector<int>& b, const RunOptions& opt) {
  if (!m.over_ranks) throw invalid_input("'" + m.name + "' does not run over MPI ranks");
  if (m.unavailable) throw error("'" + m.name + "' is unavailable: " + *m.unavailable);
  return naming_matcher(m, [&] { return m.over_ranks(g, b, for_entry(m, opt)); });
}

namespace {
// The default entry of a pre-pass job, by its fields (find_prepass_job).
bool default_for_job(const MatcherInfo& m, int job) {
  return m.problem == Problem::bipartite && m.job == job && m.device == Device::cpu && m.deterministic &&
         m.guarantee != "approximate";
}
}  // namespace

const MatcherInfo& find_prepass_job(int job) {
  static const std::vector<const MatcherInfo*> by_job = [] {
    std::vector<const MatcherInfo*> t(6, nullptr);
    for (int j = 1; j <= 5; ++j)
      for (const MatcherInfo& m : matchers())
        if (default_for_job(m, j == 3 ? 2 : j) && !t[j]) t[j] = &m;
    return t;
  }();
  if (job >= 1 && job <= 5 && by_job[job]) return *by_job[job];
  std::string jobs;
  for (int j = 1; j <= 5; ++j)
    if (j != 3 && by_job[j]) jobs += (jobs.empty() ? "" : ", ") + std::to_string(j) + " " + by_job[j]->name;
  throw invalid_input("--job " + std::to_string(job) + " is not a pre-pass job (jobs: " + jobs + ", 3 as 2)");
}

const std::vector<ProblemInfo>& problems() {
  static const std::vector<ProblemInfo> table = {
      {Problem::matching, "matching", "a matching (mate array)", "", {"greedy", "1/2", "2/3-eps", "exact", "maximal"}},
      {Problem::b_matching, "b-matching", "a b-matching (partner lists)", "", {"b-greedy"}},
      {Problem::marriage, "stable marriage", "a stable marriage (wife of each man)", "preference lists",
       {"man-optimal"}},
      {Problem::bipartite, "bipartite", "a matching of rows to columns, permutation and scalings", "m x n matrices",
       {"cardinality", "bottleneck", "exact", "approximate"}},
      {Problem::community, "community detection", "a community per vertex and the modularity",
       "undirected graphs (square matrices)", {"local optimum"}},
  };
  return table;
}

const ProblemInfo& problem_info(Problem p) {
  for (const ProblemInfo& i : problems())
    if (i.problem == p) return i;
  throw std::logic_error("problem_info: a Problem without a row in problems()");
}

std::vector<std::string> registry_defects(const MatcherInfo& m, const std::vector<MatcherInfo>& all) {
  std::vector<std::string> d;
  const auto lacks = [&](bool bad, const char* what) {
    if (bad) d.push_back("'" + m.name + "' " + what);
  };
  lacks(m.name.empty(), "has no name");
  lacks(m.family.empty(), "has no family");
  lacks(m.summary.empty(), "has no summary");
  lacks(m.reference.empty(), "has no reference");
  const std::vector<std::string>& known = problem_info(m.problem).guarantees;
  lacks(std::find(known.begin(), known.end(), m.guarantee) == known.end(),
        "declares no guarantee its problem knows");
  lacks(!(m.memory.per_vertex > 0 || m.memory.per_edge > 0), "declares no memory");
  lacks((m.problem == Problem::matching || m.problem == Problem::b_matching) && m.kinds == 0,
        "accepts no graph kind");
  lacks(m.problem == Problem::bipartite && (m.job < 1 || m.job > 5), "computes no pre-pass job");
  lacks(m.problem != Problem::bipartite && m.job != 0, "has a job outside the pre-pass");
  lacks(!runner_fits(m), "has no runner of its problem");
  for (const OptionSpec& o : m.options) {
    lacks(o.name.empty() || o.help.empty(), "has an option without a name or help");
    lacks(o.type == OptionSpec::Type::word &&
              std::find(o.words.begin(), o.words.end(), o.fallback) == o.words.end(),
          "has a word option whose default is not one of its words");
  }
  lacks(m.over_ranks && !(m.device == Device::gpu &&
                          (m.problem == Problem::matching || m.problem == Problem::b_matching)),
        "runs over ranks but is not a GPU matching or b-matching");
  if (!m.twin.empty()) {
    const auto t = std::find_if(all.begin(), all.end(), [&](const MatcherInfo& x) { return x.name == m.twin; });
    lacks(t == all.end(), "names a twin that is not an entry");
    lacks(t != all.end() && (t->problem != m.problem || t->device == m.device),
          "names a twin of another problem or the same device");
  }
  return d;
}

std::string input_of(const MatcherInfo& m) {
  const ProblemInfo& p = problem_info(m.problem);
  return *p.input ? p.input : kinds_string(m.kinds);
}

std::string to_string(Device d) {
  switch (d) {
    case Device::cpu: return "cpu";
    case Device::gpu: return "gpu";
    case Device::distributed: return "distributed";
  }
  return "?";
}

std::string to_string(Problem p) { return problem_info(p).name; }

std::string to_string(OptionSpec::Type t) {
  switch (t) {
    case OptionSpec::Type::integer: return "integer";
    case OptionSpec::Type::real: return "real";
    case OptionSpec::Type::word: return "word";
    case OptionSpec::Type::flag: return "flag";
    case OptionSpec::Type::bytes: return "bytes";
  }
  return "?";
}

Device parse_device(std::string_view name) {
  if (name == "cpu") return Device::cpu;
  if (name == "gpu") return Device::gpu;
  throw invalid_input("--device must be cpu or gpu, got '" + std::string(name) + "'");
}

namespace registry_detail {
OptionSpec device_memory_option() {
  return {"device-memory", OptionSpec::Type::bytes, "0", {}, 0, 9.0e18,
          "at most BYTES of GPU memory (K, M, G suffixes; 0: the free memory): a graph that does not fit streams "
          "its rows through the GPU in batches (same result)"};
}

std::optional<std::string> needs_cuda() {
#ifdef MATCHBLAS_HAVE_CUDA
  return std::nullopt;
#else
  return "needs CUDA: this build has none (configure with -DMATCHBLAS_CUDA=ON; the Python package: MATCHBLAS_CUDA=ON pip install .)";
#endif
}
}  // namespace registry_detail

}  // namespace matchblas
