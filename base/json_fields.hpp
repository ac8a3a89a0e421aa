// Typed fields of a parsed JSON document (from base/json_document.hpp), checked with one
// standard for every file gnbench reads: exact integers in a range, finite numbers, strings,
// known keys; every rejection a ConfigError "<file>: <where>: field '<field>' = <value>: <rule>".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gnbench {

// "a string", "an array", "a number", ... for "got ..." in messages.
std::string json_type_name(const nlohmann::json& v);
// One-line rendering of an offending value (cut at 80 characters; nan and inf spelt out,
// which dump() would print as null).
std::string json_value_text(const nlohmann::json& v);
// Shortest text that round-trips, so limits read as 1.1754943508222875e-38, not 1.17549e-38.
std::string shortest_double_text(double d);

// Where a field is, for messages: the file and, inside one, the item ("problem 'x'",
// "problems[3]" while the name is unknown, "axes[0]"); `field_prefix` is prepended to field
// names ("defaults." inside the defaults object).
struct JsonPlace {
  const std::string& source;
  std::string label;
  std::string field_prefix;

  std::string where() const { return source + ": " + (label.empty() ? "" : label + ": "); }
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_field(const std::string& field, const nlohmann::json* value,
                               const std::string& rule) const;
};

// Every key of `obj` must be in `allowed`; `object_field` names the object in the message.
void check_keys(const nlohmann::json& obj, const std::vector<std::string>& allowed,
                const JsonPlace& at, const std::string& object_field);
void require_object(const nlohmann::json& v, const JsonPlace& at, const std::string& field);
// Integers may be written as 8 or 8.0 or 8e0; anything that is not exactly an integer in
// [lo, hi] is rejected (8.5, "8", true, null, -1, 1e300, a float from 2^53 on).
uint64_t get_uint(const nlohmann::json& v, const JsonPlace& at, const std::string& field,
                  uint64_t lo, uint64_t hi);
double get_number(const nlohmann::json& v, const JsonPlace& at, const std::string& field);
std::string get_string(const nlohmann::json& v, const JsonPlace& at, const std::string& field);

}  // namespace gnbench
