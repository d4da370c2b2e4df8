// bench_mmio: how fast read_matrix_market parses, against the I/O floor.
// Writes a synthetic coordinate real general file of N nonzeros (random
// indices and values from a fixed seed) into a temporary folder, or takes an
// existing file, then times, median of 3: (a) fread of the file's bytes into a
// chunk buffer (the peer: nothing can read the file faster), (b)
// read_matrix_market. With --gz also the .gz version: (a) gzread, (b) the
// reader on the .gz file.
//   bench_mmio [--nnz N] [--file PATH] [--gz] [--keep]
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "bench/args.hpp"
#include "bench/timing.hpp"
#include "lib/mmio.hpp"

namespace fs = std::filesystem;
using namespace matchblas;

namespace {

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t raw_read(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw error("cannot open " + path);
  std::vector<char> buf(std::size_t(8) << 20);
  std::size_t total = 0, n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) total += n + std::size_t(buf[n - 1] == '\n');
  std::fclose(f);
  return total;
}

std::size_t raw_gzread(const std::string& path) {
  gzFile g = gzopen(path.c_str(), "rb");
  if (!g) throw error("cannot open " + path);
  gzbuffer(g, 1 << 20);
  std::vector<char> buf(std::size_t(8) << 20);
  std::size_t total = 0;
  int n = 0;
  while ((n = gzread(g, buf.data(), unsigned(buf.size()))) > 0) total += std::size_t(n);
  gzclose(g);
  return total;
}

MmMatrix synthetic(long long nnz) {
  MmMatrix m;
  const vertex_t n = vertex_t(std::clamp<long long>(nnz / 10, 1, 2000000000));
  m.header = {MmFormat::coordinate, MmField::real, MmSymmetry::general, n, n, nnz};
  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<vertex_t> idx(0, n - 1);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  m.row.resize(std::size_t(nnz));
  m.col.resize(std::size_t(nnz));
  m.val.resize(std::size_t(nnz));
  for (long long k = 0; k < nnz; ++k) {
    m.row[k] = idx(rng);
    m.col[k] = idx(rng);
    m.val[k] = val(rng);
  }
  return m;
}

void row(const char* what, double bytes, double raw_s, double parse_s) {
  std::printf("%-6s %10.1f MB %10.1f MB/s %10.1f MB/s %8.2fx %10.3f s\n", what, bytes / 1e6, bytes / 1e6 / raw_s,
              bytes / 1e6 / parse_s, parse_s / raw_s, parse_s);
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::help(argc, argv,
      "usage: bench_mmio [--nnz N] [--file PATH] [--gz] [--keep]\n"
      "\n"
      "bench_mmio: how fast read_matrix_market parses, against the I/O floor.\n"
      "Writes a synthetic coordinate real general file of N nonzeros (random\n"
      "indices and values from a fixed seed) into a temporary folder, or takes an\n"
      "existing file, then times, median of 3: (a) fread of the file's bytes into a\n"
      "chunk buffer (the peer: nothing can read the file faster), (b)\n"
      "read_matrix_market. With --gz also the .gz version: (a) gzread, (b) the\n"
      "reader on the .gz file.\n"
      "(bench/README.md; results in bench/RESULTS.md)\n"))
    return 0;
  long long nnz = 10000000;
  std::string file;
  bool gz = false, keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--nnz" && i + 1 < argc) nnz = std::atoll(argv[++i]);
    else if (a == "--file" && i + 1 < argc) file = argv[++i];
    else if (a == "--gz") gz = true;
    else if (a == "--keep") keep = true;
    else {
      std::fprintf(stderr, "usage: bench_mmio [--nnz N] [--file PATH] [--gz] [--keep]\n");
      return 2;
    }
  }
  try {
    fs::path dir;
    if (file.empty()) {
      dir = fs::temp_directory_path() / ("bench_mmio." + std::to_string(::getpid()));
      fs::create_directories(dir);
      file = (dir / "synthetic.mtx").string();
      const MmMatrix m = synthetic(nnz);
      const double w = seconds([&] { write_matrix_market(file, m); });
      std::printf("wrote %s: %lld nonzeros in %.2f s (%.1f MB/s)\n", file.c_str(), nnz, w,
                  double(fs::file_size(file)) / 1e6 / w);
      if (gz) {
        const double wz = seconds([&] { write_matrix_market(file + ".gz", m); });
        std::printf("wrote %s.gz in %.2f s\n", file.c_str(), wz);
      }
    } else if (gz && !fs::exists(file + ".gz")) {
      std::fprintf(stderr, "--gz with --file wants %s.gz beside it\n", file.c_str());
      return 2;
    }
    std::printf("%-6s %13s %15s %15s %9s %12s\n", "input", "size", "fread", "read_mm", "mm/fread", "read_mm time");
    const double bytes = double(fs::file_size(file));
    offset_t entries = 0;
    const double raw_s = bench::median_seconds(3, [&] { raw_read(file); });
    const double mm_s = bench::median_seconds(3, [&] { entries = read_matrix_market(file).header.entries; });
    row("plain", bytes, raw_s, mm_s);
    if (gz) {
      const std::string zf = file + ".gz";
      const double zraw = bench::median_seconds(3, [&] { raw_gzread(zf); });
      const double zmm = bench::median_seconds(3, [&] { read_matrix_market(zf); });
      row("gzip", bytes, zraw, zmm);  // MB/s of uncompressed text
      std::printf("(gzip rows: MB/s of uncompressed text; the .gz file is %.1f MB)\n",
                  double(fs::file_size(zf)) / 1e6);
    }
    std::printf("%lld entries parsed, %.1f M entries/s\n", (long long)entries, double(entries) / mm_s / 1e6);
    if (!dir.empty() && !keep) fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_mmio: %s\n", e.what());
    return 1;
  }
  return 0;
}
