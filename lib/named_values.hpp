// Enumerations named by strings: a fixed table of (name, value) pairs, the
// value of a name (invalid_input listing the names when unknown) and the
// name of a value. Used for the options that take one of a few words.
#pragma once
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

}  // namespace matchblas
