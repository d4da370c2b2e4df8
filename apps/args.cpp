#include "apps/args.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "lib/named_values.hpp"

namespace matchblas::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& valued,
           const std::set<std::string>& flags) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string name = a.substr(2), val;
      const auto eq = name.find('=');
      const bool inline_value = eq != std::string::npos;
      if (inline_value) {
        val = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (valued.count(name)) {
        if (!inline_value) {
          // "--out --json": the next word is an option, not the value (write
          // "--out=--json" to mean a file of that name).
          if (i + 1 >= argc || std::string_view(argv[i + 1]).starts_with("--"))
            throw usage_error("option --" + name + " needs a value");
          val = argv[++i];
        }
        if (!values_.emplace(name, val).second) throw usage_error("option --" + name + " given twice");
      } else if (flags.count(name)) {
        if (inline_value) throw usage_error("option --" + name + " takes no value");
        if (!flags_.insert(name).second) throw usage_error("option --" + name + " given twice");
      } else {
        std::vector<std::string> known(valued.begin(), valued.end());
        known.insert(known.end(), flags.begin(), flags.end());
        throw usage_error("unknown option --" + name + did_you_mean(name, known, "--"));
      }
    } else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.') {
      // "-o FILE": options are spelt --NAME; "-" alone is standard input.
      throw usage_error("unknown option " + a + " (options are spelt --NAME)");
    } else {
      positional_.push_back(a);
    }
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::int64_t parse_integer(const std::string& text, const std::string& what, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw usage_error(what + " must be an integer, got '" + text + "'");
  if (v < lo || v > hi)
    throw usage_error(what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + text);
  return v;
}

std::int64_t Args::integer(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
  const auto v = value(name);
  return v ? parse_integer(*v, "--" + name, lo, hi) : fallback;
}

double Args::real(const std::string& name, double fallback, double lo, double hi) const {
  const auto v = value(name);
  if (!v) return fallback;
  double x = 0;
  const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
  if (ec != std::errc() || end != v->data() + v->size() || !std::isfinite(x))
    throw usage_error("--" + name + " must be a number, got '" + *v + "'");
  if (x < lo || x > hi)
    throw usage_error("--" + name + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + *v);
  return x;
}

}  // namespace matchblas::cli
