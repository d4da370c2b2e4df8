// JSON for the tool's --json outputs; see json_output.hpp.
#include "apps/json_output.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace matchblas::cli {

// A JSON string for any bytes: quotes, backslashes and control characters
// escaped; valid UTF-8 sequences kept; every other byte (a file name need not
// be UTF-8) written as \u00XX, its Latin-1 reading, so the output stays JSON.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto escape = [&](unsigned c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", c);
    out += buf;
  };
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = byte(i);
    if (c == '"' || c == '\\') {
      out += {'\\', char(c)};
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      escape(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += char(c);
      ++i;
      continue;
    }
    // The length of a well-formed UTF-8 sequence starting here (RFC 3629:
    // no overlongs, no surrogates, at most U+10FFFF), or 0.
    std::size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len && i + len <= s.size()) {
      const unsigned c1 = byte(i + 1);
      unsigned lo = 0x80, hi = 0xbf;
      if (c == 0xe0) lo = 0xa0;
      if (c == 0xed) hi = 0x9f;
      if (c == 0xf0) lo = 0x90;
      if (c == 0xf4) hi = 0x8f;
      bool ok = c1 >= lo && c1 <= hi;
      for (std::size_t k = 2; ok && k < len; ++k) ok = (byte(i + k) & 0xc0) == 0x80;
      if (!ok) len = 0;
    } else {
      len = 0;
    }
    if (len) {
      out.append(s, i, len);
      i += len;
    } else {
      escape(c);
      ++i;
    }
  }
  return out + "\"";
}

std::string shortest_decimal(double x) {
  char buf[32];  // the longest, -2.2250738585072014e-308, is 24
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

std::string json_number(double x) { return std::isfinite(x) ? shortest_decimal(x) : "null"; }

std::string json_number(std::int64_t x) { return std::to_string(x); }

JsonObject::JsonObject(const std::string& command) {
  integer("schema_version", json_schema_version);
  text("command", command);
}

JsonObject& JsonObject::add(const std::string& name, const std::string& json) {
  if (body_.size() > 1) body_ += ", ";
  body_ += json_string(name) + ": " + json;
  return *this;
}

JsonObject& JsonObject::text(const std::string& name, const std::string& value) {
  return add(name, json_string(value));
}
JsonObject& JsonObject::text(const std::string& name, const std::optional<std::string>& value) {
  return add(name, value ? json_string(*value) : "null");
}
JsonObject& JsonObject::number(const std::string& name, double value) { return add(name, json_number(value)); }
JsonObject& JsonObject::number(const std::string& name, const std::optional<double>& value) {
  return add(name, value ? json_number(*value) : "null");
}
JsonObject& JsonObject::integer(const std::string& name, std::int64_t value) { return add(name, json_number(value)); }
JsonObject& JsonObject::boolean(const std::string& name, bool value) { return add(name, value ? "true" : "false"); }
JsonObject& JsonObject::raw(const std::string& name, const std::string& json) { return add(name, json); }

std::string phase_report_json(const PhaseReport& report) {
  std::string s = "[";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const PhaseReport::Row& r = report.rows[i];
    JsonObject row;
    if (r.phase) row.integer("phase", *r.phase);
    else row.raw("phase", "null");
    for (std::size_t c = 0; c < report.columns.size() && c < r.cells.size(); ++c) {
      const std::string& cell = r.cells[c];
      double x = 0;
      const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
      if (cell == "-") row.raw(report.columns[c].name, "null");
      else if (ec == std::errc() && end == cell.data() + cell.size() && std::isfinite(x)) row.number(report.columns[c].name, x);
      else row.text(report.columns[c].name, cell);
    }
    s += (i ? ", " : "") + row.str();
  }
  return s + "]";
}

void print_json(const JsonObject& o) {
  const std::string s = o.str() + "\n";
  std::fwrite(s.data(), 1, s.size(), stdout);
}

}  // namespace matchblas::cli
