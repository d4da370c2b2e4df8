#include "apps/eval/eval_rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <set>

#include "apps/commands.hpp"
#include "lib/error.hpp"

namespace matchblas::cli {

namespace {

const char* const columns[] = {"matrix",   "path",      "algo",    "device",     "threads", "rep",     "status",
                               "message",  "n",         "edges",   "weight",     "cardinality", "read_s", "setup_s",
                               "compute_s", "wall_s",   "max_rss_mb", "optimum", "gto_percent", "git",
                               "modularity", "communities"};

// A measurement as text: "" when absent (NaN) or not finite (null in the JSON lines).
std::string real(double x) { return std::isfinite(x) ? shortest_decimal(x) : ""; }
std::string count(long long x) { return x < 0 ? "" : std::to_string(x); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The row's fields in the order of `columns`, as text ("" when absent).
std::vector<std::string> fields(const EvalRow& r) {
  return {r.matrix, r.path, r.algo, r.device, std::to_string(r.threads), std::to_string(r.rep), r.status, r.message,
          count(r.n), count(r.edges), real(r.weight), count(r.cardinality), real(r.read_s), real(r.setup_s),
          real(r.compute_s), real(r.wall_s), real(r.max_rss_mb), real(r.optimum), real(r.gto_percent), r.git,
          real(r.modularity), count(r.communities)};
}

// Text for a Markdown table cell.
std::string md(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

bool is_text_column(std::size_t i) { return i <= 3 || i == 6 || i == 7 || i == 19; }

void put_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

double parse_real(const std::string& text, const std::string& name, const std::string& where) {
  double x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size())
    throw error(where + ": field '" + name + "' is not a number: " + text);
  return x;
}

long long parse_count(const std::string& text, const std::string& name, const std::string& where) {
  long long x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size())
    throw error(where + ": field '" + name + "' is not an integer: " + text);
  return x;
}

}  // namespace

std::string row_key(const std::string& path, const std::string& algo, int rep) {
  return path + '\0' + algo + '\0' + std::to_string(rep);
}

std::string csv_header() {
  std::string s;
  for (const char* c : columns) {
    if (!s.empty()) s += ',';
    s += c;
  }
  return s + "\n";
}

std::string to_csv(const EvalRow& r) {
  std::string s;
  const std::vector<std::string> f = fields(r);
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (i) s += ',';
    s += csv_field(f[i]);
  }
  return s + "\n";
}

std::string to_jsonl(const EvalRow& r) {
  std::string s = "{";
  const std::vector<std::string> f = fields(r);
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (i) s += ", ";
    s += json_string(columns[i]);
    s += ": ";
    if (is_text_column(i)) s += json_string(f[i]);
    else s += f[i].empty() ? "null" : f[i];
  }
  return s + "}\n";
}

EvalRow row_from_json(const std::string& line, const std::string& where) {
  const std::map<std::string, std::string> v = parse_flat_json(line, where);
  const auto text = [&](const char* name) {
    const auto it = v.find(name);
    return it == v.end() ? std::string() : it->second;
  };
  const auto num = [&](const char* name) {
    const auto it = v.find(name);
    return it == v.end() ? EvalRow::none : parse_real(it->second, name, where);
  };
  const auto cnt = [&](const char* name) {
    const auto it = v.find(name);
    return it == v.end() ? -1LL : parse_count(it->second, name, where);
  };
  EvalRow r;
  r.matrix = text("matrix");
  r.path = text("path");
  r.algo = text("algo");
  r.device = text("device");
  r.threads = int(cnt("threads"));
  r.rep = int(cnt("rep"));
  r.status = text("status");
  r.message = text("message");
  r.n = cnt("n");
  r.edges = cnt("edges");
  r.weight = num("weight");
  r.cardinality = cnt("cardinality");
  r.read_s = num("read_s");
  r.setup_s = num("setup_s");
  r.compute_s = num("compute_s");
  r.wall_s = num("wall_s");
  r.max_rss_mb = num("max_rss_mb");
  r.optimum = num("optimum");
  r.gto_percent = num("gto_percent");
  r.git = text("git");
  r.modularity = num("modularity");
  r.communities = cnt("communities");
  if (r.path.empty() || r.algo.empty() || r.status.empty() || r.rep < 1)
    throw error(where + ": not a row of matchblas eval (path, algo, rep and status are required)");
  return r;
}

std::map<std::string, std::string> parse_flat_json(const std::string& text, const std::string& where,
                                                   bool skip_nested) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  const auto bad = [&](const std::string& why) -> error {
    return error(where + ": " + why + " at byte " + std::to_string(i + 1));
  };
  const auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  };
  const auto string = [&] {
    if (i >= text.size() || text[i] != '"') throw bad("expected a string");
    std::string s;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] != '\\') {
        s += text[i];
        continue;
      }
      if (++i >= text.size()) break;
      switch (text[i]) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          unsigned cp = 0;
          if (i + 4 >= text.size() ||
              std::from_chars(text.data() + i + 1, text.data() + i + 5, cp, 16).ptr != text.data() + i + 5)
            throw bad("a bad \\u escape");
          put_utf8(s, cp);
          i += 4;
          break;
        }
        default: s += text[i];  // \" \\ \/
      }
    }
    if (i >= text.size()) throw bad("an unterminated string");
    ++i;
    return s;
  };
  skip();
  if (i >= text.size() || text[i++] != '{') throw bad("expected '{'");
  skip();
  if (i < text.size() && text[i] == '}') return out;
  while (true) {
    skip();
    const std::string name = string();
    skip();
    if (i >= text.size() || text[i++] != ':') throw bad("expected ':'");
    skip();
    if (i < text.size() && text[i] == '"') {
      out[name] = string();
    } else if (skip_nested && i < text.size() && (text[i] == '[' || text[i] == '{')) {
      int depth = 0;  // to the matching bracket, strings stepped over whole
      while (i < text.size()) {
        if (text[i] == '"') {
          string();
          continue;
        }
        if (text[i] == '[' || text[i] == '{') ++depth;
        if (text[i] == ']' || text[i] == '}') --depth;
        ++i;
        if (depth == 0) break;
      }
      if (depth != 0) throw bad("an unterminated array or object");
    } else {
      const std::size_t start = i;
      while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ' ') ++i;
      const std::string value = text.substr(start, i - start);
      if (value.empty() || value[0] == '{' || value[0] == '[') throw bad("expected a flat value for '" + name + "'");
      if (value != "null") out[name] = value;
    }
    skip();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    if (i < text.size() && text[i] == '}') break;
    throw bad("expected ',' or '}'");
  }
  return out;
}

void append_to_file(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw error(path + ": cannot open for appending: " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      close(fd);
      throw error(path + ": write failed: " + why);
    }
    done += std::size_t(n);
  }
  if (close(fd) != 0) throw error(path + ": write failed: " + std::strerror(errno));
}

std::string summary_markdown(const std::vector<EvalRow>& rows) {
  // Per (algorithm, matrix): the median compute time of the ok runs, the
  // weight and GTO of the first ok run.
  struct Cell {
    std::vector<double> times;
    double weight = EvalRow::none, gto = EvalRow::none;  // community detection: weight is the modularity
  };
  const bool community = std::any_of(rows.begin(), rows.end(), [](const EvalRow& r) { return !std::isnan(r.modularity); });
  std::vector<std::string> algos, matrices;
  std::map<std::pair<std::string, std::string>, Cell> cells;
  std::map<std::string, int> failed, skipped;
  for (const EvalRow& r : rows) {
    if (std::find(algos.begin(), algos.end(), r.algo) == algos.end()) algos.push_back(r.algo);
    if (std::find(matrices.begin(), matrices.end(), r.matrix) == matrices.end()) matrices.push_back(r.matrix);
    if (r.status == "skipped") {
      ++skipped[r.algo];
      continue;
    }
    if (r.status != "ok") {
      ++failed[r.algo];
      continue;
    }
    Cell& c = cells[{r.algo, r.matrix}];
    c.times.push_back(r.compute_s);
    if (std::isnan(c.weight)) {
      c.weight = community ? r.modularity : r.weight;
      c.gto = r.gto_percent;
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  // The matrices every algorithm that solved any solved: the geometric
  // means compare those (an algorithm skipped everywhere does not empty it).
  std::vector<std::string> solvers, common;
  for (const std::string& a : algos)
    if (std::any_of(matrices.begin(), matrices.end(), [&](const std::string& m) { return cells.count({a, m}); }))
      solvers.push_back(a);
  for (const std::string& m : matrices)
    if (std::all_of(solvers.begin(), solvers.end(), [&](const std::string& a) { return cells.count({a, m}); }))
      common.push_back(m);

  std::string s = "# matchblas eval summary\n\n";
  s += std::to_string(matrices.size()) + " matrices, " + std::to_string(algos.size()) + " algorithms, " +
       std::to_string(rows.size()) + " runs. Times are the median over repetitions of the matcher's own time " +
       "(compute_s); the geometric mean is over the " + std::to_string(common.size()) +
       " matrices every algorithm solved (of those that solved any). " +
       (community ? "Modularity: of the first repetition's communities, at the resolution each ran with.\n\n"
                  : "GTO: gap to the optimum in percent, where `--exact` found it.\n\n");
  s += community ? "| algorithm | solved | failed runs | skipped runs | geo-mean time s | mean modularity |\n"
                   "|---|---|---|---|---|---|\n"
                 : "| algorithm | solved | failed runs | skipped runs | geo-mean time s | mean GTO % | max GTO % |\n"
                   "|---|---|---|---|---|---|---|\n";
  char buf[64];
  for (const std::string& a : algos) {
    int solved = 0;
    double log_sum = 0, gto_sum = 0, gto_max = EvalRow::none, quality_sum = 0;
    int gto_count = 0;
    for (const std::string& m : matrices) {
      const auto it = cells.find({a, m});
      if (it == cells.end()) continue;
      ++solved;
      quality_sum += it->second.weight;
      if (!std::isnan(it->second.gto)) {
        gto_sum += it->second.gto;
        ++gto_count;
        gto_max = std::isnan(gto_max) ? it->second.gto : std::max(gto_max, it->second.gto);
      }
    }
    const bool timed = std::find(solvers.begin(), solvers.end(), a) != solvers.end() && !common.empty();
    if (timed)
      for (const std::string& m : common) log_sum += std::log(std::max(median(cells[{a, m}].times), 1e-9));
    s += "| " + md(a) + " | " + std::to_string(solved) + " | " + std::to_string(failed[a]) + " | " +
         std::to_string(skipped[a]) + " | ";
    if (!timed) s += "- | ";
    else {
      std::snprintf(buf, sizeof buf, "%.3g | ", std::exp(log_sum / double(common.size())));
      s += buf;
    }
    if (community) {
      if (solved == 0) s += "- |\n";
      else {
        std::snprintf(buf, sizeof buf, "%.6f |\n", quality_sum / solved);
        s += buf;
      }
    } else if (gto_count == 0) s += "- | - |\n";
    else {
      std::snprintf(buf, sizeof buf, "%.4f | %.4f |\n", gto_sum / gto_count, gto_max);
      s += buf;
    }
  }
  // The heaviest: every algorithm within a relative 1e-12 of the best weight
  // ("greedy = suitor": the 1/2-approximate family returns equal weights by
  // design, and naming one of them would be arbitrary).
  s += community ? "\n| matrix | fastest | time s | best | modularity |\n|---|---|---|---|---|\n"
                 : "\n| matrix | fastest | time s | heaviest | weight |\n|---|---|---|---|---|\n";
  for (const std::string& m : matrices) {
    std::string fastest = "-", heaviest;
    double best_t = EvalRow::none, best_w = EvalRow::none;
    for (const std::string& a : algos) {
      const auto it = cells.find({a, m});
      if (it == cells.end()) continue;
      const double t = median(it->second.times);
      if (std::isnan(best_t) || t < best_t) best_t = t, fastest = a;
      if (std::isnan(best_w) || it->second.weight > best_w) best_w = it->second.weight;
    }
    for (const std::string& a : algos) {
      const auto it = cells.find({a, m});
      if (it == cells.end() || !(std::abs(it->second.weight - best_w) <= 1e-12 * std::abs(best_w))) continue;
      if (!heaviest.empty()) heaviest += " = ";
      heaviest += a;
    }
    s += "| " + md(m) + " | " + md(fastest) + " | ";
    if (std::isnan(best_t)) s += "- | - | - |\n";
    else {
      std::snprintf(buf, sizeof buf, "%.3g | ", best_t);
      s += buf + md(heaviest) + " | ";
      std::snprintf(buf, sizeof buf, "%.10g |\n", best_w);
      s += buf;
    }
  }
  return s;
}

}  // namespace matchblas::cli
