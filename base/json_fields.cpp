#include "base/json_fields.hpp"

#include <cmath>
#include <sstream>

#include "base/errors.hpp"
#include "base/message_text.hpp"

namespace gnbench {
namespace {

using nlohmann::json;

// Doubles hold every integer exactly only up to 2^53; beyond, 1e17-style literals may not be
// the integer the author meant, so they must be written out.
constexpr double kMaxExactDouble = 9007199254740992.0;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

std::string json_type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::binary: return "binary data";
    default: return "a number";
  }
}

std::string json_value_text(const json& v) {
  if (v.is_number_float() && !std::isfinite(v.get<double>())) {
    double d = v.get<double>();
    if (std::isnan(d)) return "nan";
    return d > 0 ? "inf (too large for a double)" : "-inf (too large for a double)";
  }
  std::string s = v.dump();  // escapes newlines: messages stay on one line
  constexpr size_t kMaxShown = 80;
  if (s.size() > kMaxShown) s = s.substr(0, kMaxShown) + "...";
  return s;
}

std::string shortest_double_text(double d) {
  std::string s;
  for (int p = 1; p <= 17; ++p) {
    std::ostringstream t;
    t.precision(p);
    t << d;
    s = t.str();
    if (std::stod(s) == d) break;
  }
  return s;
}

void JsonPlace::fail(const std::string& what) const { throw ConfigError(where() + what); }

void JsonPlace::fail_field(const std::string& field, const json* value,
                           const std::string& rule) const {
  std::string msg = where() + "field '" + field_prefix + field + "'";
  if (value != nullptr) msg += " = " + json_value_text(*value);
  throw ConfigError(msg + ": " + rule);
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, const JsonPlace& at,
                const std::string& object_field) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const auto& a : allowed) known = known || key == a;
    if (!known) {
      std::string in = object_field.empty() ? "" : " in '" + at.field_prefix + object_field + "'";
      at.fail("unknown field '" + printable(key, 80) + "'" + in + " (allowed: " + join(allowed) +
              ")");
    }
  }
}

void require_object(const json& v, const JsonPlace& at, const std::string& field) {
  if (!v.is_object()) at.fail_field(field, &v, "must be an object, got " + json_type_name(v));
}

uint64_t get_uint(const json& v, const JsonPlace& at, const std::string& field, uint64_t lo,
                  uint64_t hi) {
  std::string rule =
      "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (v.is_number_integer()) {
    // nlohmann stores non-negative literals as unsigned, except "-0".
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0) at.fail_field(field, &v, rule);
    uint64_t x = v.is_number_unsigned() ? v.get<uint64_t>() : 0;
    if (x < lo || x > hi) at.fail_field(field, &v, rule);
    return x;
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) at.fail_field(field, &v, rule);
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) at.fail_field(field, &v, rule);
    // From 2^53 on, a double is not the integer written (9007199254740993.0 reads as ...992).
    if (d >= kMaxExactDouble)
      at.fail_field(field, &v, rule + ", written as an integer (a float from 2^53 on is inexact)");
    return static_cast<uint64_t>(d);
  }
  at.fail_field(field, &v, rule + ", got " + json_type_name(v));
}

double get_number(const json& v, const JsonPlace& at, const std::string& field) {
  if (!v.is_number()) at.fail_field(field, &v, "must be a number, got " + json_type_name(v));
  double d = v.get<double>();
  if (!std::isfinite(d)) at.fail_field(field, &v, "must be finite");
  return d;
}

std::string get_string(const json& v, const JsonPlace& at, const std::string& field) {
  if (!v.is_string()) at.fail_field(field, &v, "must be a string, got " + json_type_name(v));
  return v.get<std::string>();
}

}  // namespace gnbench
