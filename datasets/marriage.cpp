// Stable marriage instances; see marriage.hpp.
#include "datasets/marriage.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <climits>
#include <cstring>
#include <numeric>
#include <string_view>

#include "lib/atomic_file.hpp"
#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/input_stream.hpp"
#include "lib/memory_budget.hpp"

namespace matchblas {

namespace {
constexpr std::uint64_t men_stream = 0x4D454E, women_stream = 0x574F4D;

}  // namespace

MarriageInstance easy_marriage(vertex_t n, double eps, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(n >= 0 && eps >= 0 && std::isfinite(eps), "easy_marriage: n >= 0 and eps >= 0 needed");
  MarriageInstance inst;
  inst.men = inst.women = n;
  const offset_t k = n <= 1 ? n : std::min<offset_t>(n, offset_t(std::ceil((1 + eps) * std::log(double(n)))));
  const rng::Stream men(seed, men_stream);
  // Every man's list is a pure function of (seed, m), k entries long: the
  // men are drawn in parallel into fixed places.
  inst.men_offsets.resize(static_cast<std::size_t>(n) + 1);
  for (vertex_t m = 0; m <= n; ++m) inst.men_offsets[m] = offset_t(m) * k;
  inst.men_lists.resize(static_cast<std::size_t>(n * k));
#pragma omp parallel
  {
    std::vector<vertex_t> all;  // for long lists: a shuffle of every woman
#pragma omp for schedule(static)
    for (vertex_t m = 0; m < n; ++m) {
      vertex_t* list = inst.men_lists.data() + offset_t(m) * k;
      if (4 * k > n) {
        // k distinct women as the start of a seeded shuffle.
        all.resize(static_cast<std::size_t>(n));
        std::iota(all.begin(), all.end(), 0);
        rng::shuffle(all, men, std::uint64_t(m) << 32);
        std::copy(all.begin(), all.begin() + k, list);
      } else {
        // k distinct random women (rejection of repeats; k << n), in draw order.
        offset_t have = 0;
        for (std::uint64_t draw = 0; have < k; ++draw) {
          const vertex_t w = vertex_t(men.below(std::uint64_t(m) * 1000003ULL * 64 + draw, std::uint64_t(n)));
          if (std::find(list, list + have, w) == list + have) list[have++] = w;
        }
      }
    }
  }
  // Each woman: exactly the men who ranked her, in random order (filled in
  // man order, then shuffled with a seeded shuffle per woman, in parallel).
  inst.women_offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (vertex_t w : inst.men_lists) ++inst.women_offsets[w + 1];
  for (vertex_t w = 0; w < n; ++w) inst.women_offsets[w + 1] += inst.women_offsets[w];
  inst.women_lists.resize(inst.men_lists.size());
  std::vector<offset_t> fill(inst.women_offsets.begin(), inst.women_offsets.end() - 1);
  for (vertex_t m = 0; m < n; ++m)
    for (offset_t i = inst.men_offsets[m]; i < inst.men_offsets[m + 1]; ++i) inst.women_lists[fill[inst.men_lists[i]]++] = m;
  const rng::Stream women(seed, women_stream);
#pragma omp parallel
  {
    std::vector<vertex_t> list;
#pragma omp for schedule(dynamic, 4096)
    for (vertex_t w = 0; w < n; ++w) {
      list.assign(inst.women_lists.begin() + inst.women_offsets[w], inst.women_lists.begin() + inst.women_offsets[w + 1]);
      rng::shuffle(list, women, std::uint64_t(inst.women_offsets[w]) * 2);
      std::copy(list.begin(), list.end(), inst.women_lists.begin() + inst.women_offsets[w]);
    }
  }
  return inst;
}

IdenticalPreferences hard_marriage(vertex_t n, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(n >= 0, "hard_marriage: n >= 0 needed");
  IdenticalPreferences p;
  p.women_order.resize(static_cast<std::size_t>(n));
  std::iota(p.women_order.begin(), p.women_order.end(), 0);
  rng::shuffle(p.women_order, rng::Stream(seed, men_stream), 0);
  std::vector<vertex_t> men_order(static_cast<std::size_t>(n));
  std::iota(men_order.begin(), men_order.end(), 0);
  rng::shuffle(men_order, rng::Stream(seed, women_stream), 0);
  p.man_rank.resize(static_cast<std::size_t>(n));
  for (vertex_t r = 0; r < n; ++r) p.man_rank[men_order[r]] = r;
  return p;
}

MarriageInstance explicit_instance(const IdenticalPreferences& p) {
  const vertex_t n_w = vertex_t(p.women_order.size()), n_m = vertex_t(p.man_rank.size());
  MATCHBLAS_EXPECTS(double(n_w) * n_m <= 1e8, "explicit_instance: more than 1e8 list entries");
  MarriageInstance inst;
  inst.men = n_m;
  inst.women = n_w;
  std::vector<vertex_t> men_order(static_cast<std::size_t>(n_m));
  for (vertex_t m = 0; m < n_m; ++m) men_order[p.man_rank[m]] = m;
  for (vertex_t m = 0; m < n_m; ++m) {
    inst.men_lists.insert(inst.men_lists.end(), p.women_order.begin(), p.women_order.end());
    inst.men_offsets.push_back(offset_t(inst.men_lists.size()));
  }
  for (vertex_t w = 0; w < n_w; ++w) {
    inst.women_lists.insert(inst.women_lists.end(), men_order.begin(), men_order.end());
    inst.women_offsets.push_back(offset_t(inst.women_lists.size()));
  }
  return inst;
}

namespace {
MarriageInstance read_marriage_stream(const std::string& path,
                                      const std::function<void(vertex_t, vertex_t)>& on_header) {
  InputStream in(path);
  LineReader lines(in);
  const std::string& name = in.name();
  std::string line;
  const auto fail = [&](const std::string& why) { throw parse_error(name, lines.line(), why); };
  const auto next_line = [&]() -> bool {
    while (lines.next(line))
      if (line.empty() || line[0] != '%') return true;
    return false;
  };
  const auto tokens = [](const std::string& s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
      if (j > i) out.emplace_back(s.data() + i, j - i);
      i = j;
    }
    return out;
  };
  // The header may not be preceded by empty lines.
  do {
    if (!lines.next(line)) fail("missing the header 'stable-marriage MEN WOMEN'");
  } while (!line.empty() && line[0] == '%');
  const auto head = tokens(line);
  long long men = -1, women = -1;
  if (head.size() != 3 || head[0] != "stable-marriage" || !parse_integer(head[1], 0, INT32_MAX, men) ||
      !parse_integer(head[2], 0, INT32_MAX, women))
    fail("the header must be 'stable-marriage MEN WOMEN' with MEN, WOMEN in 0..2147483647");
  if (on_header) on_header(vertex_t(men), vertex_t(women));
  MarriageInstance inst;
  inst.men = vertex_t(men);
  inst.women = vertex_t(women);
  // A list naming someone twice is refused here, with its line, before
  // check_instance would find it: each list's entries are sorted in a scratch
  // copy, so the check's memory follows the list read, never the header's
  // counts.
  std::vector<vertex_t> sorted_list;
  const auto read_side = [&](long long count, long long other, std::vector<offset_t>& off, std::vector<vertex_t>& lists,
                             const char* side) {
    for (long long a = 0; a < count; ++a) {
      if (!next_line()) fail(std::string("missing the list of ") + side + " " + std::to_string(a));
      const std::size_t begin = lists.size();
      for (const std::string_view t : tokens(line)) {
        long long id = -1;
        if (!parse_integer(t, LLONG_MIN, LLONG_MAX, id))
          fail(std::string("the list of ") + side + " " + std::to_string(a) + " has a non-integer or out-of-range entry '" +
               printable(t, 40) + "'");
        if (id < 0 || id >= other)
          fail(std::string(side) + " " + std::to_string(a) + " lists " + std::to_string(id) + ", out of range 0.." +
               std::to_string(other - 1));
        if (lists.size() == lists.capacity()) {  // the next growth: about twice as much
          const double grown = 2.0 * sizeof(vertex_t) * double(std::max<std::size_t>(lists.size(), 1024));
          try {
            require_memory(grown, "the preference lists");
          } catch (const out_of_memory& e) {
            throw out_of_memory(name + ":" + std::to_string(lines.line()) + ": " + e.what());
          }
        }
        lists.push_back(vertex_t(id));
      }
      sorted_list.assign(lists.begin() + std::ptrdiff_t(begin), lists.end());
      std::sort(sorted_list.begin(), sorted_list.end());
      if (const auto twice = std::adjacent_find(sorted_list.begin(), sorted_list.end()); twice != sorted_list.end())
        fail(std::string(side) + " " + std::to_string(a) + " lists " + std::to_string(*twice) + " twice");
      off.push_back(offset_t(lists.size()));
    }
  };
  read_side(men, women, inst.men_offsets, inst.men_lists, "man");
  read_side(women, men, inst.women_offsets, inst.women_lists, "woman");
  while (next_line())
    if (line.find_first_not_of(" \t\r") != std::string::npos) fail("more lines than MEN + WOMEN lists");
  try {
    check_instance(inst);
  } catch (const invalid_input& e) {
    throw parse_error(name, 0, e.what());
  }
  return inst;
}
}  // namespace

MarriageInstance read_marriage(const std::string& path, const std::function<void(vertex_t, vertex_t)>& on_header) {
  try {
    return read_marriage_stream(path, on_header);
  } catch (const std::bad_alloc&) {
    throw out_of_memory((path == "-" ? std::string("<stdin>") : path) + ": out of memory while reading the instance");
  }
}

namespace {
// The instance's text, handed to sink(data, size) in pieces of about 1 MiB.
template <class Sink>
void marriage_text(const MarriageInstance& inst, Sink sink) {
  std::string buf = "stable-marriage " + std::to_string(inst.men) + " " + std::to_string(inst.women) + "\n";
  const auto lists = [&](const std::vector<offset_t>& off, const std::vector<vertex_t>& ids, vertex_t count) {
    for (vertex_t a = 0; a < count; ++a) {
      for (offset_t k = off[a]; k < off[a + 1]; ++k) {
        if (k > off[a]) buf += ' ';
        buf += std::to_string(ids[k]);
      }
      buf += '\n';
      if (buf.size() > (1 << 20)) {
        sink(buf.data(), buf.size());
        buf.clear();
      }
    }
  };
  lists(inst.men_offsets, inst.men_lists, inst.men);
  lists(inst.women_offsets, inst.women_lists, inst.women);
  sink(buf.data(), buf.size());
}
}  // namespace

void write_marriage(const std::string& path, const MarriageInstance& inst) {
  check_instance(inst);
  AtomicFile f(path);
  marriage_text(inst, [&](const char* p, std::size_t n) { f.write(p, n); });
  f.commit();
}

void write_marriage(std::FILE* file, const MarriageInstance& inst, const std::string& name) {
  check_instance(inst);
  marriage_text(inst, [&](const char* p, std::size_t n) {
    if (std::fwrite(p, 1, n, file) != n) throw error("cannot write " + name + ": " + std::strerror(errno));
  });
  if (std::fflush(file) != 0) throw error("cannot write " + name + ": " + std::strerror(errno));
}

}  // namespace matchblas
