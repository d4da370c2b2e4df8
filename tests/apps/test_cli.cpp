// The matchblas command line tool, run as a separate process.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "lib/graph_from_matrix.hpp"
#include "lib/mmio.hpp"
#include "datasets/generators.hpp"
#include "datasets/marriage.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/common/greedy.hpp"
#include "matchers/marriage/stable_marriage.hpp"
#include "ops/gpu/device.hpp"
#include "matchers/registry.hpp"
#include "tests/apps/cli_text.hpp"
#include "tests/check/check.hpp"
#include "tests/check/cli_process.hpp"

using namespace matchblas;

namespace {
using Result = check::CliResult;
using check::slurp;

Result cli(const check::temp_dir& dir, const std::string& args, const std::string& before = "") {
  return check::run_cli(dir, args, before);
}

long lines(const std::string& s) { return check::line_count(s); }

// Whether a temporary ("*.tmp*") is left in dir.
bool temp_left(const std::filesystem::path& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) return true;
  return false;
}

// Whether `list --json` says the exact matcher can run in this build.
bool have_exact_matcher(const check::temp_dir& dir) {
  const std::string out = cli(dir, "list --json").out;
  const auto at = out.find("\"name\": \"exact\"");
  REQUIRE(at != std::string::npos);
  return out.find("\"available\": true", at) < out.find('}', at);
}

std::string q(const std::filesystem::path& p) { return check::shell_quoted(p); }

// The exit status of a whole /bin/sh command line.
int sh(const std::string& cmd) { return check::shell_status(cmd); }
// bmatch --out's edges ('u v' lines) are ref's, every one.
void check_edges_file(const std::filesystem::path& edges, const BMatching& ref) {
  std::ifstream in(edges);
  long long count = 0;
  vertex_t u, v;
  while (in >> u >> v) {
    ++count;
    CHECK(std::binary_search(ref.partners.begin() + ref.offsets[u], ref.partners.begin() + ref.offsets[u + 1], v));
  }
  CHECK(count == ref.num_edges());
}

}  // namespace

TEST_CASE("list names greedy and exact with their guarantees") {
  check::temp_dir dir;
  const Result r = cli(dir, "list --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"name\": \"greedy\"") != std::string::npos);
  CHECK(r.out.find("\"guarantee\": \"greedy\"") != std::string::npos);
  CHECK(r.out.find("\"guarantee\": \"exact\"") != std::string::npos);
}

TEST_CASE("--help: the commands and the common options; the algorithms are matchblas list's") {
  check::temp_dir dir;
  const Result r = cli(dir, "--help");
  REQUIRE(r.status == 0);
  CHECK(lines(r.out) <= 40);
  CHECK(r.out.find("\nalgorithms: matchblas list") != std::string::npos);
  CHECK(r.out.find("\ncommon options") != std::string::npos);
  for (const char* option : {"--algo NAME", "--out FILE", "--json", "--threads T", "--device cpu|gpu"})
    CHECK_MESSAGE(r.out.find("\n  " + std::string(option) + " ") != std::string::npos, option);
  for (const MatcherInfo& m : matchers())  // none listed here
    CHECK_MESSAGE(r.out.find("\n  " + m.name + " ") == std::string::npos, m.name);
  // A command's own help still lists its algorithms.
  CHECK(cli(dir, "match --help").out.find("\n  suitor-locks ") != std::string::npos);
}

TEST_CASE("list: one row per algorithm within 100 columns; --long with sources and options") {
  check::temp_dir dir;
  const Result r = cli(dir, "list");
  REQUIRE(r.status == 0);
  std::istringstream in(r.out);
  std::string header;
  std::getline(in, header);
  const auto column = [&](const std::string& line, const char* word) { return line.find(word); };
  REQUIRE(header.rfind("name ", 0) == 0);
  std::size_t rows = 0;
  for (std::string line; std::getline(in, line) && !line.empty(); ++rows) {
    CAPTURE(line);
    CHECK(line.size() <= 100);
    REQUIRE(rows < matchers().size());
    const MatcherInfo& m = matchers()[rows];
    // Each column starts under its heading, the longest name's row too.
    CHECK(line.rfind(m.name + " ", 0) == 0);
    CHECK(line.compare(column(header, "problem"), to_string(m.problem).size(), to_string(m.problem)) == 0);
    CHECK(line.compare(column(header, "device"), to_string(m.device).size(), to_string(m.device)) == 0);
    CHECK(line.compare(column(header, "guarantee"), m.guarantee.size(), m.guarantee) == 0);
    const std::string available = line.substr(column(header, "available here"));
    CHECK((available == "yes" || available.rfind("no: ", 0) == 0));
  }
  CHECK(rows == matchers().size());
  CHECK(header.size() <= 100);
  CHECK(r.out.find("list --long") != std::string::npos);  // where the rest is
  CHECK(r.out.find("source: ") == std::string::npos);

  const Result long_list = cli(dir, "list --long");
  REQUIRE(long_list.status == 0);
  for (const MatcherInfo& m : matchers()) {
    CAPTURE(m.name);
    CHECK(long_list.out.find("\n" + m.name + " ") != std::string::npos);
    CHECK(long_list.out.find("source: " + m.reference + "\n") != std::string::npos);
    CHECK(long_list.out.find(m.summary) != std::string::npos);
  }
  CHECK(long_list.out.find("options: --") != std::string::npos);
  CHECK(cli(dir, "list --long --json").status == 2);
}

TEST_CASE("an unknown algorithm, command or option: the closest name, or where the names are") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen grid 3 --out " + q(g)).status == 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"match " + q(g) + " --algo suiter",
       "matchblas: unknown matcher 'suiter'; did you mean 'suitor'? (matchblas list names them all) (see "},
      {"match " + q(g) + " --algo sutior", "did you mean 'suitor'?"},  // two letters swapped: one edit
      {"match " + q(g) + " --algo roma-sprase-omp", "did you mean 'roma-sparse-omp'?"},
      {"bmatch " + q(g) + " --b 1 --algo b-suiter", "unknown b-matching algorithm 'b-suiter'; did you mean 'b-suitor'?"},
      {"perm " + q(g) + " --algo max-prodcut", "did you mean 'max-product'?"},
      {"eval " + q(g) + " --algos greedy,suiter --out " + q(dir / "ev"), "did you mean 'suitor'?"},
      {"match " + q(g) + " --algo zzzzzz", "unknown matcher 'zzzzzz' (matchblas list names them all)"},
      {"mach " + q(g), "unknown command 'mach'; did you mean 'match'? (commands: match, bmatch,"},
      {"help lsit", "unknown command 'lsit'; did you mean 'list'?"},
      {"--verison", "did you mean '--version'?"},
      {"frobnicate", "unknown command 'frobnicate' (commands: match, bmatch,"},
      {"match " + q(g) + " --algo greedy --jsno", "unknown option --jsno; did you mean '--json'?"},
      {"gen grid 3 --sed 2", "unknown option --sed; did you mean '--seed'?"},
      {"gen grid 3 --precision float", "unknown option --precision (see"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(r.err.find("known:") == std::string::npos);  // not every name
    if (message.find("did you mean") == std::string::npos) CHECK(r.err.find("did you mean") == std::string::npos);
  }
}

TEST_CASE("JSON numbers: the shortest decimal that reads back as the same double") {
  check::temp_dir dir;
  // One edge of weight 0.000362972: %.17g wrote 0.00036297199999999998.
  std::ofstream(dir / "one.mtx") << "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 0.000362972\n";
  const Result one = cli(dir, "match " + q(dir / "one.mtx") + " --algo greedy --json");
  REQUIRE(one.status == 0);
  CHECK(one.out.find("\"weight\": 0.000362972,") != std::string::npos);
  CHECK(check::is_shortest_decimal("0.000362972"));
  CHECK(!check::is_shortest_decimal("0.00036297199999999998"));  // the check can fail
  CHECK(std::stod("0.000362972") == std::stod("0.00036297199999999998"));
  // Every number of every command's JSON (times, weights, objectives).
  const auto g = dir / "g.mtx", m = dir / "m.txt";
  REQUIRE(cli(dir, "gen er 200 --seed 4 --out " + q(g)).status == 0);
  REQUIRE(cli(dir, "marriage-gen easy 50 --seed 4 --out " + q(m)).status == 0);
  for (const std::string& args : {"match " + q(g) + " --algo suitor --json", "bmatch " + q(g) + " --algo b-suitor --b 2 --json",
                                  "marry " + q(m) + " --algo mcvitie-wilson --json", "perm " + q(g) + " --json",
                                  "perm " + q(g) + " --job 4 --json", std::string("list --json")}) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    REQUIRE(r.status == 0);
    const std::vector<std::string> numbers = check::json_numbers(r.out);
    CHECK(numbers.size() >= 2);
    for (const std::string& x : numbers) CHECK_MESSAGE(check::is_shortest_decimal(x), x);
  }
}

TEST_CASE("gen then match: the mate array is greedy's matching") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", mates = dir / "mates.txt";
  REQUIRE(cli(dir, "gen er 300 --seed 5 --ties 3 --out '" + graph.string() + "'").status == 0);
  const Result r = cli(dir, "match '" + graph.string() + "' --algo greedy --json --out '" + mates.string() + "'");
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (const char* key : {"\"algo\"", "\"n\": 300", "\"edges\"", "\"weight\"", "\"cardinality\"", "\"time_s\"",
                          "\"valid\": true"})
    CHECK(r.out.find(key) != std::string::npos);
  const Csr<double> g = general_graph<double>(read_matrix_market(graph.string()));
  Matching m(300);
  std::ifstream in(mates);
  for (vertex_t& v : m.mate) in >> v;
  CHECK(in.good());
  CHECK(m == greedy(g));
}

TEST_CASE("--device gpu runs the GPU twin: greedy's matching whatever --threads, or one clear error without a GPU") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx";
  REQUIRE(cli(dir, "gen rmat 1024 --seed 3 --ties 4 --out " + q(graph)).status == 0);
  const Csr<double> g = general_graph<double>(read_matrix_market(graph.string()));
  for (const char* threads : {"1", "100", "0"}) {
    CAPTURE(threads);
    const auto mates = dir / (std::string("mates-") + threads + ".txt");
    const Result r = cli(dir, "match " + q(graph) + " --algo handshake --device gpu --gpu 0 --threads " + threads +
                                  " --json --out " + q(mates));
    INFO(r.err);
    if (gpu::device_count() == 0) {
      CHECK(r.status == 1);
      CHECK(lines(r.err) == 1);
      CHECK(r.err.find("'handshake-gpu' is unavailable: needs") != std::string::npos);  // CUDA, or a GPU
      CHECK(!std::filesystem::exists(mates));
      continue;
    }
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"algo\": \"handshake-gpu\"") != std::string::npos);
    Matching m(g.n_rows);
    std::ifstream in(mates);
    for (vertex_t& v : m.mate) in >> v;
    CHECK(in.good());
    CHECK(m == greedy(g));
  }
}

TEST_CASE("roma and rama on a complete graph: --phases, --min-gain, --start") {
  check::temp_dir dir;
  const auto graph = dir / "k.mtx";
  REQUIRE(cli(dir, "gen complete-exponential 30 --seed 4 --out " + q(graph)).status == 0);
  for (const char* algo : {"roma", "rama"})
    for (const char* start : {"greedy", "assignment"}) {
      const Result r = cli(dir, std::string("match ") + q(graph) + " --algo " + algo +
                                    " --phases 3 --min-gain 0 --start " + start + " --json");
      INFO(r.err);
      REQUIRE(r.status == 0);
      CHECK(r.out.find("\"valid\": true") != std::string::npos);
      CHECK(r.out.find("\"cardinality\": 15") != std::string::npos);
    }
  {  // The same graph as coordinates (general storage, every off-diagonal entry): auto sees a complete graph.
    const MmMatrix array = read_matrix_market(graph.string());
    const vertex_t n = array.header.rows;
    MmMatrix coo;
    coo.header = {MmFormat::coordinate, MmField::real, MmSymmetry::general, n, n, offset_t(n) * (n - 1)};
    for (vertex_t u = 0; u < n; ++u)
      for (vertex_t v = 0; v < n; ++v)
        if (u != v) {
          coo.row.push_back(u);
          coo.col.push_back(v);
          coo.val.push_back(array.val[std::size_t(u) * n + v]);
        }
    const auto coordinates = dir / "k_coordinate.mtx";
    write_matrix_market(coordinates.string(), coo);
    const std::string args = " --algo roma --phases 3 --min-gain 0 --start greedy --json";
    const Result from_array = cli(dir, "match " + q(graph) + args);
    const Result from_coordinates = cli(dir, "match " + q(coordinates) + args);
    INFO(from_coordinates.err);
    REQUIRE(from_coordinates.status == 0);
    CHECK(from_coordinates.out.find("\"graph\": \"complete\"") != std::string::npos);
    const auto weight = [](const std::string& out) { return out.substr(out.find("\"weight\": "), 32); };
    CHECK(weight(from_coordinates.out) == weight(from_array.out));
    const Result sparse = cli(dir, "match " + q(coordinates) + " --algo suitor --json");  // takes general graphs: unchanged
    CHECK(sparse.status == 0);
    CHECK(sparse.out.find("\"graph\": \"general\"") != std::string::npos);
    const Result general = cli(dir, "match " + q(coordinates) + " --algo roma --view general");
    CHECK(general.status == 1);
    CHECK(general.err.find("does not accept general graphs") != std::string::npos);
  }
  const Result report = cli(dir, "match " + q(graph) + " --algo roma --phases 2 --phase-report");
  INFO(report.err);
  REQUIRE(report.status == 0);
  CHECK(report.out.find("start ") != std::string::npos);
  CHECK(report.out.find("phase      0") != std::string::npos);
  CHECK(report.out.find("scanned") != std::string::npos);
  CHECK(report.out.find("fallbacks") != std::string::npos);  // roma-gpu's count; "-" for the CPU roma
  // With --json the table is the object's "phases" (one object on stdout,
  // nothing after it): the start row, then a row a phase.
  const Result json_report = cli(dir, "match " + q(graph) + " --algo roma --phases 2 --phase-report --json");
  INFO(json_report.err);
  REQUIRE(json_report.status == 0);
  CHECK(lines(json_report.out) == 1);
  CHECK(json_report.out.find("\"phases\": [{\"phase\": null, \"flips\": null, \"scanned\": null, \"weight\": ") !=
        std::string::npos);
  CHECK(json_report.out.find("{\"phase\": 0, \"flips\": ") != std::string::npos);
  CHECK(json_report.out.find("\"fallbacks\": null}") != std::string::npos);
  CHECK(json_report.out.find("phase      0") == std::string::npos);
  // --scan changed: phase 0 augments all 200 vertices, later phases those
  // whose edge changed (all of them, possibly, right after phase 0); the last
  // one (seed 2: 14) far fewer.
  const auto larger = dir / "k200.mtx";
  REQUIRE(cli(dir, "gen complete-uniform 200 --seed 2 --out " + q(larger)).status == 0);
  const Result changed = cli(dir, "match " + q(larger) + " --algo roma --scan changed --phases 20 --phase-report");
  INFO(changed.err);
  REQUIRE(changed.status == 0);
  std::vector<long long> scanned;  // the report's third column, phase by phase
  std::istringstream lines(changed.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string word, phase, flips;
    long long count = -1;
    if (fields >> word >> phase >> flips >> count && word == "phase") scanned.push_back(count);
  }
  REQUIRE(scanned.size() >= 2);
  CHECK(scanned[0] == 200);
  CHECK(scanned.back() < 50);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --scan some").status == 2);
  const Result rama_changed = cli(dir, "match " + q(graph) + " --algo rama --scan changed");
  CHECK(rama_changed.status == 2);
  CHECK(rama_changed.err.find("--scan is for roma and roma-gpu, not 'rama'") != std::string::npos);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma-gpu-2 --scan changed").status == 2);
  CHECK(cli(dir, "match " + q(graph) + " --algo rama --scan all").status == 2);  // rama has no changed-pairs scan
  CHECK(cli(dir, "match " + q(graph) + " --algo greedy --scan changed").status == 2);
  CHECK(cli(dir, "match " + q(graph) + " --algo greedy --phase-report").status == 2);
  const Result exact = cli(dir, "match " + q(graph) + " --algo roma --start assignment --exact-auction --json");
  INFO(exact.err);
  REQUIRE(exact.status == 0);
  CHECK(exact.out.find("\"cardinality\": 15") != std::string::npos);
  // The flag reaches the auction: on this graph the exact auction's start
  // (13.5056) differs from the default, stopped-early one (13.3101).
  const auto start_line = [&](const std::string& flags) {
    const Result r = cli(dir, "match " + q(graph) + " --algo roma --start assignment --phases 0 --phase-report" + flags);
    const std::size_t at = r.out.find("\nstart ");
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at + 1) - at);
  };
  const std::string with_exact = start_line(" --exact-auction"), with_default = start_line("");
  CHECK(with_exact.find("13.5056") != std::string::npos);
  CHECK(with_default.find("13.3101") != std::string::npos);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --exact-auction").status == 0);  // roma's default start: assignment
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --start neighbour --exact-auction").status == 2);
  CHECK(cli(dir, "match " + q(graph) + " --algo rama --exact-auction").status == 2);  // rama's default: neighbour
  // The default start of roma is the assignment, of rama the neighbour start
  // of N. H. Hovland, "Maximum weighted matching on a GPU", Master's thesis,
  // University of Bergen, 2020, sec. 5.5.7.
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --phases 0 --phase-report").out.find("13.3101") !=
        std::string::npos);
  CHECK(cli(dir, "match " + q(graph) + " --algo greedy --exact-auction").status == 2);
  // roma-gpu's shape options: usage errors before any GPU is needed.
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --bf16").status == 2);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma --cluster 2").status == 2);
  const Result no_float = cli(dir, "match " + q(graph) + " --algo roma-gpu --bf16");
  CHECK(no_float.status == 2);
  CHECK(no_float.err.find("--precision float") != std::string::npos);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma-gpu --cluster 17").status == 2);
  CHECK(cli(dir, "match " + q(graph) + " --algo roma-gpu --blocks-per-sm 3").status == 2);
  const Result bad_kernel = cli(dir, "match " + q(graph) + " --algo roma-gpu --kernel fast");
  CHECK(bad_kernel.status == 2);
  CHECK(bad_kernel.err.find("unknown --kernel 'fast' for roma-gpu (known: auto, cluster, stream, queued)") != std::string::npos);
  for (const std::string kernel : {"stream", "queued"}) {  // they never run the cluster kernel
    CAPTURE(kernel);
    const Result shape = cli(dir, "match " + q(graph) + " --algo roma-gpu --kernel " + kernel + " --cluster 2");
    CHECK(shape.status == 2);
    CHECK(shape.err.find("--cluster shapes the cluster kernel, which --kernel " + kernel + " never runs") !=
          std::string::npos);
    CHECK(cli(dir, "match " + q(graph) + " --algo roma-gpu --kernel " + kernel + " --blocks-per-sm 1").status == 2);
  }
  const Result cpu_kernel = cli(dir, "match " + q(graph) + " --algo roma --kernel stream");
  CHECK(cpu_kernel.status == 2);
  CHECK(cpu_kernel.err.find("--kernel is for roma-gpu, not 'roma'") != std::string::npos);
}

TEST_CASE("bmatch: --b and --b-file give b-greedy's edges (b-suitor-gpu: or one clear error without a GPU); marry and "
          "marriage-gen give the stable matching") {
  check::temp_dir dir;
  const auto graph = dir / "g.mtx", edges = dir / "edges.txt", bfile = dir / "b.txt";
  REQUIRE(cli(dir, "gen er 400 --seed 2 --ties 3 --out " + q(graph)).status == 0);
  const Csr<double> g = general_graph<double>(read_matrix_market(graph.string()));
  {
    std::ofstream b(bfile);
    for (vertex_t v = 0; v < g.n_rows; ++v) b << v % 4 << "\n";
  }
  std::vector<int> per_vertex(static_cast<std::size_t>(g.n_rows));
  for (vertex_t v = 0; v < g.n_rows; ++v) per_vertex[v] = v % 4;
  for (const char* algo : {"b-greedy", "b-suitor", "b-suitor-omp", "b-suitor-gpu", "b-ld-gpu"})
    for (const bool from_file : {false, true}) {
      CAPTURE(algo);
      CAPTURE(from_file);
      std::filesystem::remove(edges);
      const bool on_gpu = std::string(algo).ends_with("-gpu");
      const Result r = cli(dir, std::string("bmatch ") + q(graph) + " --algo " + algo +
                                    (from_file ? " --b-file " + q(bfile) : std::string(" --b 2")) + " --out " + q(edges) +
                                    (on_gpu ? " --gpu 0" : ""));
      INFO(r.err);
      if (on_gpu && gpu::device_count() == 0) {  // one clear line, no output file
        CHECK(r.status == 1);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find("'" + std::string(algo) + "' is unavailable: needs") != std::string::npos);
        CHECK(!std::filesystem::exists(edges));
        continue;
      }
      REQUIRE(r.status == 0);
      const BMatching ref = b_greedy(g, from_file ? per_vertex : constant_b(g.n_rows, 2));
      check_edges_file(edges, ref);
    }
  // --precision float: the float graph's b-greedy edges (b-suitor-gpu also
  // with its sorted first round, which needs float weights).
  {
    const Csr<float> f = general_graph<float>(read_matrix_market(graph.string()));
    const BMatching ref = b_greedy(f, constant_b(f.n_rows, 3));
    const bool gpu = gpu::device_count() > 0;
    std::vector<std::string> runs = {"--algo b-suitor", "--algo b-greedy"};
    if (gpu) runs.insert(runs.end(), {"--algo b-suitor-gpu", "--algo b-suitor-gpu --placement sorted"});
    for (const std::string& run : runs) {
      CAPTURE(run);
      std::filesystem::remove(edges);
      const Result r = cli(dir, "bmatch " + q(graph) + " " + run + " --b 3 --precision float --out " + q(edges));
      INFO(r.err);
      REQUIRE(r.status == 0);
      check_edges_file(edges, ref);
    }
    CHECK(cli(dir, "bmatch " + q(graph) + " --algo b-suitor --b 3 --precision half").status == 2);
    CHECK(cli(dir, "bmatch " + q(graph) + " --algo b-suitor-gpu --b 3 --placement bulk").status == 2);
    {  // sorted on double weights: a usage error saying what it needs, GPU or not
      const Result r = cli(dir, "bmatch " + q(graph) + " --algo b-suitor-gpu --b 3 --placement sorted");
      CHECK(r.status == 2);
      CHECK(r.err.find("--precision float") != std::string::npos);
    }
  }
  CHECK(cli(dir, "bmatch " + q(graph) + " --algo b-suitor").status == 2);
  const Result gpu_on_cpu = cli(dir, "bmatch " + q(graph) + " --algo b-suitor --b 2 --gpu 0");
  CHECK(gpu_on_cpu.status == 2);
  CHECK(gpu_on_cpu.err.find("--gpu is for the GPU matchers (b-suitor-gpu, b-ld-gpu); 'b-suitor' runs on the CPU") != std::string::npos);
  const Result bad_b = cli(dir, "bmatch " + q(graph) + " --algo b-suitor --b-file " + q(graph));
  CHECK(bad_b.status == 1);
  CHECK(lines(bad_b.err) == 1);

  const auto inst = dir / "m.txt", wives = dir / "wives.txt";
  REQUIRE(cli(dir, "marriage-gen easy 300 --seed 4 --out " + q(inst)).status == 0);
  const MarriageInstance mi = read_marriage(inst.string());
  const Marriage expected = gale_shapley(rank_lists(mi));
  for (const char* algo : {"gale-shapley", "mcvitie-wilson", "gale-shapley-omp", "mcvitie-wilson-omp"}) {
    CAPTURE(algo);
    const Result r = cli(dir, "marry " + q(inst) + " --algo " + algo + " --json --out " + q(wives));
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"stable\": true") != std::string::npos);
    std::ifstream in(wives);
    for (vertex_t m = 0; m < mi.men; ++m) {
      vertex_t w = -2;
      in >> w;
      CHECK(w == expected.wife[m]);
    }
  }
  CHECK(cli(dir, "marriage-gen medium 10").status == 2);
  CHECK(cli(dir, "marry " + q(inst) + " --algo stable").status == 2);
  const Result not_instance = cli(dir, "marry " + q(graph) + " --algo gale-shapley");
  CHECK(not_instance.status == 1);
  CHECK(not_instance.err.find("the header must be") != std::string::npos);
}

TEST_CASE("gen writes to stdout without --out, and is reproducible") {
  check::temp_dir dir;
  const Result a = cli(dir, "gen grid 4 --seed 2");
  const Result b = cli(dir, "gen grid 4 --seed 2");
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  const MmMatrix m = read_matrix_market_text(a.out);
  CHECK(m.header.rows == 16);
  CHECK(m.header.entries == 24);
}

TEST_CASE("gen knn writes the library's knn graph; gen --help names every kind and what N means") {
  check::temp_dir dir;
  const auto graph = dir / "knn.mtx";
  REQUIRE(cli(dir, "gen knn 400 --seed 6 --edge-factor 5 --out " + q(graph)).status == 0);
  GenOptions opt;
  opt.seed = 6, opt.edge_factor = 5;
  const Csr<double> expected = knn_graph<double>(400, opt);
  const Csr<double> g = general_graph<double>(read_matrix_market(graph.string()));
  CHECK(g.offsets == expected.offsets);
  CHECK(g.cols == expected.cols);
  CHECK(g.weights == expected.weights);  // shortest round-trip doubles
  const Result help = cli(dir, "gen --help");
  REQUIRE(help.status == 0);
  for (const GeneratorKind& k : generator_kinds()) {
    CAPTURE(k.name);
    CHECK(help.out.find(k.name + ": " + k.size_meaning) != std::string::npos);
  }
  CHECK(help.out.find("k of knn (default 16)") != std::string::npos);
}

TEST_CASE("bad input: one line on stderr, non-zero exit, no output file") {
  check::temp_dir dir;
  const auto mates = dir / "mates.txt";
  const auto bad = (check::test_data() / "mm_invalid").string();
  std::ofstream(dir / "broken.mtx") << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n";
  const std::vector<std::string> cases = {
      "match '" + (dir / "broken.mtx").string() + "' --algo greedy --out '" + mates.string() + "'",
      "match '" + (dir / "missing.mtx").string() + "' --algo greedy --out '" + mates.string() + "'",
      "match '" + (dir / "broken.mtx").string() + "' --algo no-such-matcher --out '" + mates.string() + "'",
      "match '" + (dir / "broken.mtx").string() + "' --algo greedy --bogus-option",
      "match --algo greedy",
      "gen rmat 1000 --out '" + (dir / "x.mtx").string() + "'",
      "gen nosuchkind 10",
      "frobnicate",
  };
  for (const std::string& args : cases) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status != 0);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
    CHECK(!std::filesystem::exists(mates));
    CHECK(!std::filesystem::exists(dir / "x.mtx"));
    CHECK(!temp_left(dir.path()));
  }
  const Result r = cli(dir, "match '" + (dir / "broken.mtx").string() + "' --algo greedy");
  CHECK(r.err.find("broken.mtx:4") != std::string::npos);  // file and line
}

TEST_CASE("exit status: 2 for a bad command line, 1 for a bad file; --help anywhere") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen grid 4 --out " + q(g)).status == 0);
  const std::vector<std::pair<std::string, std::string>> usage = {
      {"match " + q(g) + " --algo no-such-matcher", "unknown matcher"},
      {"match " + q(g) + " --algo greedy --view sideways", "unknown graph view"},
      {"match " + q(g) + " --algo greedy --precision half", "unknown precision"},
      {"match " + q(g) + " --algo greedy --out --json", "option --out needs a value"},
      {"match " + q(g) + " --algo greedy --json=1", "option --json takes no value"},
      {"match " + q(g) + " --algo greedy --gpu 0", "--gpu is for the GPU matchers"},
      {"match " + q(g) + " --algo greedy --device tpu", "--device must be cpu or gpu"},
      {"match " + q(g) + " --algo pga --device gpu", "has no gpu version"},
      {"match " + q(g) + " --algo suitor-gpu --variant fast", "unknown --variant 'fast' for suitor-gpu (known: nosync, synclb, syncnolb, hybrid)"},
      {"match " + q(g) + " --algo suitor-gpu --search fast", "unknown --search 'fast' for suitor-gpu (known: auto, champions, walk)"},
      {"match " + q(g) + " --algo greedy --search walk", "--search is for suitor-gpu, not 'greedy'"},
      {"match " + q(g) + " --algo suitor-gpu --threads-per-block 100", "threads-per-block must be"},
      {"match " + q(g) + " --algo handshake --device gpu --threads -1", "--threads must be in"},
      {"match " + q(g) + " --algo greedy --phases 3", "--phases is for roma-sparse"},
      {"match " + q(g) + " --algo roma --start sorted", "unknown --start 'sorted' for roma"},
      {"match " + q(g) + " --algo rama --min-gain -1", "--min-gain must be in [0, 1e+300], got -1 (an option of 'rama')"},
      {"match " + q(g) + " --algo greedy --threads 1000000", "--threads must be in"},
      {"gen er 10 --precision float", "unknown option --precision"},
      {"demo --threads 1000000", "--threads must be in"},
  };
  for (const auto& [args, message] : usage) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(message) != std::string::npos);
  }
  CHECK(!std::filesystem::exists("--json"));
  CHECK(cli(dir, "match " + q(dir / "missing.mtx") + " --algo greedy").status == 1);
  const std::vector<std::pair<std::string, std::string>> helps = {
      {"match --help", "usage: matchblas match FILE --algo NAME"},
      {"gen --help", "usage: matchblas gen KIND N"},
      {"match x.mtx --algo greedy --help", "usage: matchblas match FILE --algo NAME"},
      {"--help", "\nusage: matchblas COMMAND"}};
  for (const auto& [args, usage_line] : helps) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status == 0);
    CHECK((r.out.rfind(usage_line, 0) == 0 || (usage_line[0] == '\n' && r.out.find(usage_line) != std::string::npos)));
  }
}

TEST_CASE("a write that fails after the output is open leaves no file and no temporary") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx", mates = dir / "mates.txt", old = dir / "old.mtx";
  REQUIRE(cli(dir, "gen er 3000 --out " + q(g)).status == 0);
  std::ofstream(old) << "old contents\n";
  // Files limited to 1 KiB: the write fails with EFBIG part-way (SIGXFSZ ignored).
  const std::string small_files = "trap '' XFSZ; ulimit -f 1";
  for (const std::string& args : std::vector<std::string>{"gen er 3000 --out " + q(dir / "new.mtx"),
                                                          "gen er 3000 --out " + q(old),
                                                          "match " + q(g) + " --algo greedy --out " + q(mates)}) {
    CAPTURE(args);
    const Result r = cli(dir, args, small_files);
    CHECK(r.status == 1);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("cannot write") != std::string::npos);
    CHECK(r.err.find(".tmp") == std::string::npos);  // the message names the target
    CHECK(!std::filesystem::exists(dir / "new.mtx"));
    CHECK(!std::filesystem::exists(mates));
    CHECK(slurp(old) == "old contents\n");
    CHECK(!temp_left(dir.path()));
  }
  // A device that fails every write: an error, and the device stays.
  for (const std::string& args :
       std::vector<std::string>{"gen er 100 --out /dev/full", "match " + q(g) + " --algo greedy --out /dev/full"}) {
    CAPTURE(args);
    const Result r = cli(dir, args);
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot write /dev/full") != std::string::npos);
    CHECK(std::filesystem::is_character_file("/dev/full"));
  }
  CHECK(sh(std::string("'") + MATCHBLAS_CLI + "' gen er 100 >/dev/full 2>" + q(dir / "stderr")) == 1);
  CHECK(slurp(dir / "stderr").find("cannot write <stdout>") != std::string::npos);
}

TEST_CASE("--out onto a link, a FIFO or a device writes through it and leaves it in place") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen grid 4 --out " + q(g)).status == 0);
  // A symbolic link: its target gets the mates, the link stays a link.
  std::ofstream(dir / "target.txt") << "old\n";
  std::filesystem::create_symlink(dir / "target.txt", dir / "link.txt");
  REQUIRE(cli(dir, "match " + q(g) + " --algo greedy --out " + q(dir / "link.txt")).status == 0);
  REQUIRE(std::filesystem::is_symlink(dir / "link.txt"));
  CHECK(lines(slurp(dir / "target.txt")) == 16);
  // A FIFO: a reader gets the mates, the FIFO stays a FIFO.
  REQUIRE(std::system(("mkfifo " + q(dir / "fifo")).c_str()) == 0);
  REQUIRE(sh("timeout 20 cat " + q(dir / "fifo") + " >" + q(dir / "from_fifo") + " & '" + MATCHBLAS_CLI + "' match " +
             q(g) + " --algo greedy --out " + q(dir / "fifo") + " >/dev/null; rc=$?; wait; exit $rc") == 0);
  REQUIRE(std::filesystem::is_fifo(dir / "fifo"));
  CHECK(lines(slurp(dir / "from_fifo")) == 16);
  // Only now /dev/null itself (as root, a rename would have replaced it).
  REQUIRE(cli(dir, "match " + q(g) + " --algo greedy --out /dev/null").status == 0);
  CHECK(!std::filesystem::is_regular_file("/dev/null"));
  CHECK(std::filesystem::is_character_file("/dev/null"));
  CHECK(!temp_left(dir.path()));
}

TEST_CASE("demo: rows of what ran, names in a column that fits them, then one line of what was skipped and why") {
  check::temp_dir dir;
  const Result demo = cli(dir, "demo --n 64 --threads 2");
  INFO(demo.err);
  REQUIRE(demo.status == 0);
  std::istringstream in(demo.out);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  int tables = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& header = all[i];
    if (header.rfind("  matcher ", 0) != 0 && header.rfind("  algorithm ", 0) != 0) continue;
    ++tables;
    CAPTURE(header);
    // The second heading ("weight", "pairs") ends where each row's number ends: right-aligned, whatever the names.
    const std::size_t second_end = header.find(' ', header.find_first_not_of(' ', header.find(' ', 2)));
    std::size_t rows = 0, skipped = 0;
    for (++i; i < all.size() && !all[i].empty(); ++i) {
      const std::string& row = all[i];
      CAPTURE(row);
      if (row.rfind("  skipped: ", 0) == 0) {  // "N GPU algorithms (why), NAME (why)": the table's last line
        CHECK((i + 1 == all.size() || all[i + 1].empty()));
        std::istringstream groups(row.substr(11));
        for (std::string group; std::getline(groups, group, ')');) {
          if (group.rfind(", ", 0) == 0) group = group.substr(2);
          if (group.empty()) continue;
          CHECK(group.find(" (") != std::string::npos);  // with its reason
          skipped += std::isdigit(static_cast<unsigned char>(group[0])) ? std::stoul(group) : 1;
        }
        continue;
      }
      CHECK(row.find("skipped") == std::string::npos);
      const std::string name = row.substr(2, row.find(' ', 2) - 2);
      CHECK(std::any_of(matchers().begin(), matchers().end(), [&](const MatcherInfo& m) { return m.name == name; }));
      REQUIRE(row.size() > second_end);
      CHECK(row[second_end - 1] != ' ');
      CHECK(row[second_end] == ' ');
      ++rows;
    }
    CHECK(rows > 0);
    // Every algorithm of the table's problem is a row or counted as skipped
    // (the first table: general graphs, every matcher that takes them).
    if (tables == 1) {
      const auto takes = [](const MatcherInfo& m) { return m.problem == Problem::matching && m.accepts(general_graphs); };
      CHECK(rows + skipped == std::size_t(std::count_if(matchers().begin(), matchers().end(), takes)));
    }
  }
  CHECK(tables == 6);
}

TEST_CASE("demo, list, --gto, views, precision, and a shape error naming the file") {
  check::temp_dir dir;
  const Result demo = cli(dir, "demo --n 64 --threads 2");
  INFO(demo.err);
  CHECK(demo.status == 0);
  CHECK(demo.out.find("matcher") != std::string::npos);
  CHECK(demo.out.find("greedy") != std::string::npos);
  CHECK(demo.out.find("complete graph") != std::string::npos);

  const Result list = cli(dir, "list");
  CHECK(list.status == 0);
  CHECK(list.out.rfind("name", 0) == 0);
  CHECK(list.out.find("\ngreedy ") != std::string::npos);
  CHECK(list.out.find("\nexact ") != std::string::npos);

  const auto sq = dir / "sq.mtx", rect = dir / "rect.mtx";
  REQUIRE(cli(dir, "gen er 40 --seed 3 --out " + q(sq)).status == 0);
  std::ofstream(rect) << "%%MatrixMarket matrix coordinate real general\n3 5 3\n1 1 1\n2 5 2\n3 3 -4\n";
  if (have_exact_matcher(dir)) {
    const Result gto = cli(dir, "match " + q(sq) + " --algo greedy --gto --json");
    CHECK(gto.status == 0);
    CHECK(gto.out.find("\"gto\": null") == std::string::npos);
    CHECK(gto.out.find("\"gto\": ") != std::string::npos);
    CHECK(cli(dir, "match " + q(sq) + " --algo greedy --gto").out.find("GTO ") != std::string::npos);
  } else {
    MESSAGE("--gto check skipped: the exact matcher is unavailable in this build");
    const Result gto = cli(dir, "match " + q(dir / "missing.mtx") + " --algo greedy --gto");
    CHECK(gto.status == 1);
    CHECK(gto.err.find("--gto needs the exact optimum") != std::string::npos);  // before the file is read
  }
  const Result bip = cli(dir, "match " + q(sq) + " --algo greedy --view bipartite --json");
  CHECK(bip.status == 0);
  CHECK(bip.out.find("\"n\": 80") != std::string::npos);  // 40 rows + 40 columns
  CHECK(bip.out.find("\"graph\": \"bipartite") != std::string::npos);
  CHECK(bip.out.find("\"valid\": true") != std::string::npos);
  const Result single = cli(dir, "match " + q(sq) + " --algo greedy --precision float --json");
  CHECK(single.status == 0);
  CHECK(single.out.find("\"valid\": true") != std::string::npos);
  const Result shape = cli(dir, "match " + q(rect) + " --algo greedy --view general");
  CHECK(shape.status == 1);
  CHECK(lines(shape.err) == 1);
  CHECK(shape.err.find(rect.string() + ": a general graph needs a square matrix, this one is 3 x 5") !=
        std::string::npos);
}

TEST_CASE("match works on every valid shared matrix and refuses the complex one") {
  const auto shared = check::shared_matrices();
  if (!shared) {
    MESSAGE("skipped: the shared matrices are absent");
    return;
  }
  check::temp_dir dir;
  for (const auto& e : std::filesystem::directory_iterator(*shared)) {
    const std::string name = e.path().filename().string();
    if (name.find(".mtx") == std::string::npos) continue;
    CAPTURE(name);
    const Result r = cli(dir, "match '" + e.path().string() + "' --algo greedy --json");
    if (name == "young1c.mtx") {
      CHECK(r.status == 1);
      CHECK(r.err.find("complex") != std::string::npos);
    } else {
      CHECK(r.status == 0);
      CHECK(r.out.find("\"valid\": true") != std::string::npos);
    }
  }
}

// Issue 17, class 1: any readable stream, read once, plain or gzip.
TEST_CASE("input from standard input, a pipe or a FIFO, plain or gzip, for every reader") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen er 200 --seed 9 --out " + q(g)).status == 0);
  const Result direct = cli(dir, "match " + q(g) + " --algo greedy");
  REQUIRE(direct.status == 0);
  const std::string bin = std::string("'") + MATCHBLAS_CLI + "'";
  const auto out = dir / "out.txt", err = dir / "err.txt";
  // gzip through a pipe to "-", and plain text to "-": the same report.
  for (const std::string& feed : std::vector<std::string>{"gzip -c " + q(g), "cat " + q(g)}) {
    CAPTURE(feed);
    CHECK(sh(feed + " | " + bin + " match - --algo greedy >" + q(out) + " 2>" + q(err)) == 0);
    INFO(slurp(err));
    const auto report = [](const std::string& s) { return s.substr(s.find("weight"), s.find(", time") - s.find("weight")); };
    CHECK(report(slurp(out)) == report(direct.out));
  }
  // gzip through a FIFO.
  REQUIRE(sh("mkfifo " + q(dir / "fifo")) == 0);
  CHECK(sh("(gzip -c " + q(g) + " >" + q(dir / "fifo") + " &); timeout 30 " + bin + " match " + q(dir / "fifo") +
           " --algo greedy >" + q(out) + " 2>" + q(err)) == 0);
  CHECK(slurp(out).find("weight") != std::string::npos);
  // b-values from standard input, gzip-compressed.
  CHECK(sh("yes 1 | head -n 200 | gzip | timeout 30 " + bin + " bmatch " + q(g) + " --algo b-greedy --b-file - >" +
           q(out) + " 2>" + q(err)) == 0);
  CHECK(slurp(err).empty());
  // A marriage instance from standard input, gzip-compressed.
  std::ofstream(dir / "m.txt") << "stable-marriage 2 2\n0 1\n1 0\n0 1\n1 0\n";
  CHECK(sh("gzip -c " + q(dir / "m.txt") + " | timeout 30 " + bin + " marry - --algo gale-shapley --out " +
           q(dir / "wives.txt") + " >" + q(out) + " 2>" + q(err)) == 0);
  INFO(slurp(err));
  CHECK(slurp(dir / "wives.txt") == "0\n1\n");
  // Corrupt gzip from standard input: one line naming <stdin>.
  CHECK(sh("gzip -c " + q(g) + " | head -c 300 | " + bin + " match - --algo greedy >" + q(out) + " 2>" + q(err)) == 1);
  CHECK(slurp(err).find("error: <stdin>:") != std::string::npos);
  CHECK(slurp(err).find("<fd:") == std::string::npos);
  CHECK(lines(slurp(err)) == 1);
}

// Issue 17, class 3: a number too large for its type, wherever it stands.
TEST_CASE("an id or b value out of range at the end of a line is an error, not dropped") {
  check::temp_dir dir;
  const auto m = dir / "m.txt";
  std::ofstream(m) << "stable-marriage 2 2\n0 99999999999999999999\n1\n0\n1\n";
  Result r = cli(dir, "marry " + q(m) + " --algo gale-shapley");
  CHECK(r.status == 1);
  CHECK(r.err.find(m.string() + ":2:") != std::string::npos);
  std::ofstream(m) << "stable-marriage 2 2\n0 0\n0 1\n0 1\n0 1\n";  // a list naming someone twice: its line
  r = cli(dir, "marry " + q(m) + " --algo gale-shapley");
  CHECK(r.status == 1);
  CHECK(r.err.find(m.string() + ":2: man 0 lists 0 twice") != std::string::npos);
  std::ofstream(m) << "stable-marriage 2 2\n0 1\n1 0\n1\n0 1 1\n";
  r = cli(dir, "marry " + q(m) + " --algo gale-shapley");
  CHECK(r.status == 1);
  CHECK(r.err.find(m.string() + ":5: woman 1 lists 1 twice") != std::string::npos);
  std::ofstream(m) << "stable-marriage 2 99999999999999999999\n0\n1\n0\n1\n";
  CHECK(cli(dir, "marry " + q(m) + " --algo gale-shapley").status == 1);
  const auto g = dir / "g.mtx", b = dir / "b.txt";
  REQUIRE(cli(dir, "gen grid 2 --out " + q(g)).status == 0);
  std::ofstream(b) << "1\n1\n1\n99999999999999999999\n";
  r = cli(dir, "bmatch " + q(g) + " --algo b-greedy --b-file " + q(b));
  CHECK(r.status == 1);
  CHECK(r.err.find(b.string() + ":4:") != std::string::npos);
  std::ofstream(b) << "1\n1\n1\n1 99999999999999999999\n";
  CHECK(cli(dir, "bmatch " + q(g) + " --algo b-greedy --b-file " + q(b)).status == 1);
}

// Input text quoted in an error is made printable (lib/input_stream.hpp,
// printable): a NUL or control byte in a b-value or marriage file gives one
// whole line on stderr, the byte as \xNN, not a message cut at the NUL.
TEST_CASE("a control byte in a b-value or marriage file is quoted as \\xNN in a one-line error") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx", b = dir / "b.txt", m = dir / "m.txt";
  REQUIRE(cli(dir, "gen grid 2 --out " + q(g)).status == 0);
  std::ofstream(b, std::ios::binary) << "1\n1\n1" << '\0' << "\n1\n";
  Result r = cli(dir, "bmatch " + q(g) + " --algo b-suitor --b-file " + q(b));
  CHECK(r.status == 1);
  CHECK(r.err.find(b.string() + ":3: not an integer in range: '1\\x00'\n") != std::string::npos);
  CHECK(lines(r.err) == 1);
  std::ofstream(b, std::ios::binary) << "1\n1\n1 \x1b[2J\n1\n";
  r = cli(dir, "bmatch " + q(g) + " --algo b-greedy --b-file " + q(b));
  CHECK(r.status == 1);
  CHECK(r.err.find("'1 \\x1b[2J'") != std::string::npos);
  CHECK(lines(r.err) == 1);
  std::ofstream(m, std::ios::binary) << "stable-marriage 1 1\n0 x" << '\0' << "y\n0\n";
  r = cli(dir, "marry " + q(m) + " --algo gale-shapley");
  CHECK(r.status == 1);
  CHECK(r.err.find("entry 'x\\x00y'\n") != std::string::npos);
  CHECK(lines(r.err) == 1);
}

// Issue 17, class 7: a repeated option is a usage error, not "the last one wins".
TEST_CASE("a repeated option or flag is a usage error") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen grid 3 --out " + q(g)).status == 0);
  Result r = cli(dir, "match " + q(g) + " --algo greedy --algo suitor");
  CHECK(r.status == 2);
  CHECK(r.err.find("--algo given twice") != std::string::npos);
  CHECK(cli(dir, "match " + q(g) + " --algo greedy --json --json").status == 2);
  CHECK(cli(dir, "gen grid 3 --seed 1 --seed=2").status == 2);
}

// Issue 17, class 2: a result that cannot reach standard output is a failure;
// standard output is appended to, never reopened or truncated.
TEST_CASE("every command's standard output is checked, and appended to") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx", err = dir / "err.txt";
  REQUIRE(cli(dir, "gen grid 3 --out " + q(g)).status == 0);
  std::ofstream(dir / "m.txt") << "stable-marriage 1 1\n0\n0\n";
  const std::string bin = std::string("'") + MATCHBLAS_CLI + "' ";
  for (const std::string& args : std::vector<std::string>{"match " + q(g) + " --algo greedy", "match " + q(g) + " --algo greedy --json",
                                 "bmatch " + q(g) + " --algo b-greedy --b 1", "marry " + q(dir / "m.txt") +
                                 " --algo gale-shapley", "list", "list --json", "--help", "match --help",
                                 "demo --n 16", "marriage-gen easy 10"}) {
    CAPTURE(args);
    CHECK(sh(bin + args + " >/dev/full 2>" + q(err)) == 1);
    CHECK(slurp(err).find("cannot write <stdout>") != std::string::npos);
    CHECK(lines(slurp(err)) == 1);
    // A closed descriptor.
    CHECK(sh(bin + args + " >&- 2>" + q(err)) == 1);
  }
  // Appended to, as the shell's >> asks: what was there stays.
  std::ofstream(dir / "log.txt") << "kept\n";
  REQUIRE(sh(bin + "marriage-gen easy 5 >>" + q(dir / "log.txt")) == 0);
  REQUIRE(sh(bin + "gen grid 2 >>" + q(dir / "log.txt")) == 0);
  const std::string log = slurp(dir / "log.txt");
  CHECK(log.rfind("kept\nstable-marriage 5 5\n", 0) == 0);
  CHECK(log.find("%%MatrixMarket") != std::string::npos);
}

// Issue 17, class 6: the environment's thread count gets --threads' cap.
TEST_CASE("OMP_NUM_THREADS beyond 4 x the cores, or not a count, is a usage error") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx";
  REQUIRE(cli(dir, "gen grid 3 --out " + q(g)).status == 0);
  for (const char* env : {"100000000", "9999999999999", "abc", "0", "-3"}) {
    CAPTURE(env);
    const Result r = cli(dir, "match " + q(g) + " --algo suitor-locks", std::string("export OMP_NUM_THREADS=") + env);
    CHECK(r.status == 2);
    CHECK(r.err.find("OMP_NUM_THREADS") != std::string::npos);
    CHECK(cli(dir, "demo --n 16", std::string("export OMP_NUM_THREADS=") + env).status == 2);
  }
  CHECK(cli(dir, "match " + q(g) + " --algo suitor-locks", "export OMP_NUM_THREADS=2").status == 0);
  // --threads decides over the environment.
  CHECK(cli(dir, "match " + q(g) + " --algo suitor-locks --threads 1", "export OMP_NUM_THREADS=abc").status == 0);
}

// Issue 17, class 7: --json stays valid JSON whatever the file's name.
TEST_CASE("--json escapes control characters and bytes that are not UTF-8 in file names") {
  check::temp_dir dir;
  const std::string name = std::string("g\x01\t\"q\\\xff\xc3(\xe2\x82\xac") + ".mtx";  // ends in a valid euro sign
  const auto g = dir / name;
  REQUIRE(cli(dir, "gen grid 3 --out " + q(g)).status == 0);
  const Result r = cli(dir, "match " + q(g) + " --algo greedy --json");
  REQUIRE(r.status == 0);
  const std::string want = "\"file\": \"" + dir.path().string() + "/g\\u0001\\u0009\\\"q\\\\\\u00ff\\u00c3(\xe2\x82\xac.mtx\"";
  CHECK(r.out.find(want) != std::string::npos);
  // Every byte of the output is printable ASCII or part of valid UTF-8 (the euro sign).
  for (unsigned char c : r.out) CHECK((c >= 0x20 || c == '\n') );
  if (sh("command -v python3 >/dev/null") == 0) {
    std::ofstream(dir / "out.json", std::ios::binary) << r.out;
    CHECK(sh("python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' " + q(dir / "out.json")) == 0);
  }
}

// Issue 17, class 5: the output path is checked before the work, replaced
// with its permissions, and a link's file follows the no-partial-output rule.
TEST_CASE("--out: checked before the work, never the input, permissions kept, links replaced whole, .gz") {
  check::temp_dir dir;
  const auto g = dir / "g.mtx", bad = dir / "bad.mtx";
  REQUIRE(cli(dir, "gen grid 4 --out " + q(g)).status == 0);
  std::ofstream(bad) << "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 1.0\n";
  // A missing folder or an unwritable one is reported before the input is
  // even read (the bad input's own error never shows).
  for (const std::string& cmd : std::vector<std::string>{"match " + q(bad) + " --algo greedy",
                                                         "bmatch " + q(bad) + " --algo b-greedy --b 1",
                                                         "marry " + q(bad) + " --algo gale-shapley"}) {
    CAPTURE(cmd);
    const Result r = cli(dir, cmd + " --out " + q(dir / "missing" / "out.txt"));
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot write " + (dir / "missing" / "out.txt").string()) != std::string::npos);
  }
  CHECK(cli(dir, "gen er 100 --out " + q(dir / "missing" / "g.mtx")).status == 1);
  CHECK(cli(dir, "marriage-gen easy 10 --out " + q(dir / "missing" / "m.txt")).status == 1);
  // The input itself: refused, the input intact.
  const std::string before = slurp(g);
  Result r = cli(dir, "match " + q(g) + " --algo greedy --out " + q(g));
  CHECK(r.status == 1);
  CHECK(r.err.find("it is the input file") != std::string::npos);
  CHECK(slurp(g) == before);
  std::filesystem::create_symlink(g, dir / "g-link.mtx");
  CHECK(cli(dir, "match " + q(g) + " --algo greedy --out " + q(dir / "g-link.mtx")).status == 1);
  CHECK(slurp(g) == before);
  // Permissions kept on replace.
  const auto mates = dir / "mates.txt";
  std::ofstream(mates) << "old\n";
  std::filesystem::permissions(mates, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                          std::filesystem::perms::group_read);
  REQUIRE(cli(dir, "match " + q(g) + " --algo greedy --out " + q(mates)).status == 0);
  CHECK(lines(slurp(mates)) == 16);
  CHECK((std::filesystem::status(mates).permissions() & std::filesystem::perms::all) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write | std::filesystem::perms::group_read));
  // Through a link: a failed run leaves the linked file as it was.
  std::ofstream(dir / "target.txt") << "old\n";
  std::filesystem::create_symlink(dir / "target.txt", dir / "link.txt");
  CHECK(cli(dir, "match " + q(bad) + " --algo greedy --out " + q(dir / "link.txt")).status == 1);
  CHECK(slurp(dir / "target.txt") == "old\n");
  CHECK(std::filesystem::is_symlink(dir / "link.txt"));
  // .gz: gen writes gzip; the plain-text outputs refuse the name.
  REQUIRE(cli(dir, "gen grid 3 --out " + q(dir / "g3.mtx.gz")).status == 0);
  CHECK(slurp(dir / "g3.mtx.gz").rfind("\x1f\x8b", 0) == 0);
  CHECK(cli(dir, "match " + q(g) + " --algo greedy --out " + q(dir / "m.gz")).status == 2);
  CHECK(cli(dir, "marriage-gen easy 5 --out " + q(dir / "m.gz")).status == 2);
  CHECK(!std::filesystem::exists(dir / "m.gz"));
  CHECK(!temp_left(dir.path()));
}

// Issue 17, class 7: every error names its file (bmatch's shape errors did not).
TEST_CASE("bmatch's graph errors name the file") {
  check::temp_dir dir;
  const auto rect = dir / "rect.mtx";
  std::ofstream(rect) << "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 2 1\n2 3 1\n";
  const Result r = cli(dir, "bmatch " + q(rect) + " --algo b-greedy --b 1 --view general");
  CHECK(r.status == 1);
  CHECK(r.err.find("error: " + rect.string() + ": ") != std::string::npos);
  // The complete view is not bmatch's: a bad command line, refused before the file is read.
  const Result complete = cli(dir, "bmatch " + q(rect) + " --algo b-greedy --b 1 --view complete");
  CHECK(complete.status == 2);
  CHECK(complete.err.find("--view complete: bmatch takes sparse graphs") != std::string::npos);
}
