// The tool's JSON: every command's --json is one object of the versioned
// schema docs/json-schema.json (described in docs/JSON.md), written through
// JsonObject so that each object starts with the schema's version and the
// command, and a name means the same thing in every command.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "lib/phase_report.hpp"

namespace matchblas::cli {

// The schema's version, the "schema_version" of every object; raised when
// a field changes meaning or goes away (a new field keeps it).
inline constexpr int json_schema_version = 1;

// JSON string literal of s (quotes and escapes; bytes that are not UTF-8 as
// \u00XX, their Latin-1 reading).
std::string json_string(const std::string& s);

// The shortest decimal that reads back as the same double (std::to_chars):
// 0.000362972, not %.17g's 0.00036297199999999998. Every number the tool
// writes for a program to read (JSON, eval's rows, perm's scalings) is this.
std::string shortest_decimal(double x);

// A number as JSON: shortest_decimal for doubles (null when not finite:
// JSON has no infinity), decimal for integers.
std::string json_number(double x);
std::string json_number(std::int64_t x);

// One JSON object, fields in the order added. JsonObject(command) starts
// with {"schema_version": 1, "command": COMMAND}; JsonObject() is a nested
// object without them.
class JsonObject {
 public:
  JsonObject() = default;
  explicit JsonObject(const std::string& command);
  JsonObject& text(const std::string& name, const std::string& value);
  JsonObject& text(const std::string& name, const char* value) { return text(name, std::string(value)); }
  JsonObject& text(const std::string& name, const std::optional<std::string>& value);  // null when empty
  JsonObject& number(const std::string& name, double value);
  JsonObject& number(const std::string& name, const std::optional<double>& value);  // null when empty
  JsonObject& integer(const std::string& name, std::int64_t value);
  JsonObject& boolean(const std::string& name, bool value);
  JsonObject& raw(const std::string& name, const std::string& json);  // an array or object already written
  std::string str() const { return body_ + "}"; }

 private:
  JsonObject& add(const std::string& name, const std::string& json);
  std::string body_ = "{";
};

// A phase report (--phase-report) as a JSON array, a row an object:
// "phase" (the phase's number; null for the start row), then each column by
// its name: a number where the cell is one, null where it is "-", else the
// cell as a string.
std::string phase_report_json(const PhaseReport& report);

// o.str() and a newline on standard output (the caller's checks of stdout
// apply).
void print_json(const JsonObject& o);

}  // namespace matchblas::cli
