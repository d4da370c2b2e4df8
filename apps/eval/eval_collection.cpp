#include "apps/eval/eval_collection.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "apps/args.hpp"
#include "lib/error.hpp"

namespace matchblas::cli {

namespace fs = std::filesystem;

namespace {

bool is_matrix_file(const fs::path& p) {
  const std::string s = p.filename().string();
  return s.ends_with(".mtx") || s.ends_with(".mtx.gz");
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

void from_manifest(const fs::path& manifest, std::vector<EvalInput>& out) {
  std::ifstream in(manifest);
  if (!in) throw error(manifest.string() + ": cannot open the manifest");
  std::string line;
  if (!std::getline(in, line)) throw error(manifest.string() + ":1: an empty manifest");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> header = split_tabs(line);
  const auto column = std::find(header.begin(), header.end(), "file");
  if (column == header.end()) throw error(manifest.string() + ":1: the manifest's header has no 'file' column");
  const std::size_t at = std::size_t(column - header.begin());
  for (long number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(line);
    if (f.size() <= at || f[at].empty())
      throw error(manifest.string() + ":" + std::to_string(number) + ": no value in the 'file' column");
    out.push_back({(manifest.parent_path() / f[at]).string(), f[at]});
  }
}

}  // namespace

std::vector<EvalInput> collect_inputs(const std::vector<std::string>& paths) {
  std::vector<EvalInput> all;
  for (const std::string& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw usage_error("eval: no such file or directory: " + p);
    if (fs::is_directory(st)) {
      std::vector<EvalInput> found;
      for (const auto& e : fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied)) {
        if (!e.is_regular_file() || !is_matrix_file(e.path())) continue;
        found.push_back({e.path().string(), fs::relative(e.path(), p).string()});
      }
      std::sort(found.begin(), found.end(), [](const EvalInput& a, const EvalInput& b) { return a.name < b.name; });
      all.insert(all.end(), found.begin(), found.end());
    } else if (p.ends_with(".tsv")) {
      from_manifest(p, all);
    } else {
      all.push_back({p, fs::path(p).filename().string()});
    }
  }
  std::vector<EvalInput> out;
  std::set<std::string> seen;
  for (EvalInput& in : all) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(in.path, ec);
    if (seen.insert(ec ? in.path : canonical.string()).second) out.push_back(std::move(in));
  }
  return out;
}

std::string content_key(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw error(path + ": cannot open to hash its content");
  std::uint64_t h = 1469598103934665603ULL, size = 0;
  char buf[1 << 16];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
    size += got;
    for (std::size_t i = 0; i < got; ++i) h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ULL;
  }
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw error(path + ": read failed while hashing its content");
  char key[48];
  std::snprintf(key, sizeof key, "%016llx-%llu", static_cast<unsigned long long>(h),
                static_cast<unsigned long long>(size));
  return key;
}

}  // namespace matchblas::cli
