// Enumerations named by strings: a fixed table of (name, value) pairs, the
// value of a name (invalid_input listing the names when unknown) and the
// name of a value. Used for the options that take one of a few words.
// Also did_you_mean: the known name closest to a misspelt one, for the
// errors that name an unknown algorithm, command or option.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/error.hpp"

namespace matchblas {

template <class E, std::size_t N>
using NamedValues = std::array<std::pair<std::string_view, E>, N>;

// The value named `name` in `names`, or invalid_input naming `what` and
// listing the names; and the name of a value.
template <class E, std::size_t N>
E parse_named(const NamedValues<E, N>& names, std::string_view name,
              const std::string& what) {
  std::string known;
  for (const auto& [n, v] : names) {
    if (n == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw invalid_input("unknown " + what + " '" + std::string(name) + "' (known: " + known + ")");
}
// The names in table order (an option spec's words).
template <class E, std::size_t N>
std::vector<std::string> names_of(const NamedValues<E, N>& names) {
  std::vector<std::string> out;
  for (const auto& [n, v] : names) out.emplace_back(n);
  return out;
}
template <class E, std::size_t N>
std::string name_of(const NamedValues<E, N>& names, E value) {
  for (const auto& [n, v] : names)
    if (v == value) return std::string(n);
  return "?";
}

// Edits (insert, delete, replace a character, swap two neighbours) that turn
// a into b: the optimal string alignment distance. O(|a| |b|).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// "; did you mean 'K'?" for the name K of `known` closest to the unknown
// `name` (the first of equals), when it is within max(2, |name| / 3) edits
// and fewer than |name|; else "". `prefix` goes before K ("--" for an
// option: "did you mean '--algo'?").
inline std::string did_you_mean(std::string_view name, const std::vector<std::string>& known,
                                std::string_view prefix = "") {
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(name, k);
    if (d <= limit && d < name.size() && (!best || d < best_distance)) best = &k, best_distance = d;
  }
  return best ? "; did you mean '" + std::string(prefix) + *best + "'?" : "";
}

}  // namespace matchblas
