// The schema of a problem configuration (docs/config.md): one problem, an axes block, the
// settings a problem inherits from "defaults" (eps, seed, distribution, tolerances, expect).
// The document-level rules (top-level keys, duplicate names, limits) are config_loader.cpp's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/json_fields.hpp"
#include "base/problem.hpp"

namespace gnbench::config_schema {

// The fields a problem inherits from "defaults" and may override one by one.
struct Settings {
  double eps = 1e-5;
  uint64_t seed = 0;
  Distribution distribution;
  Tolerances tolerances;
  Expectation expect;
};

extern const std::vector<std::string> kDefaultsKeys;
extern const std::vector<std::string> kTopKeys;
// A sweep of a few lists can multiply into millions of problems by accident; no real run
// wants that many, so it is treated as a mistake rather than silently queued.
inline constexpr size_t kMaxProblems = 100000;

// "" when `name` may name a problem, else the rule it breaks (base/path_name.hpp).
std::string name_rule(const std::string& name);
void validate_eps_in(double eps, const nlohmann::json* value, const JsonPlace& at,
                     const std::string& field);
void validate_shape_in(const Shape& shape, const JsonPlace& at);
// Reads the optional overridable fields present in `obj` over `s`.
void parse_settings(const nlohmann::json& obj, const JsonPlace& at, Settings& s, bool allow_expect);
Expectation parse_expect(const nlohmann::json& v, const JsonPlace& at,
                         const Tolerances& tolerances);
Problem parse_problem(const nlohmann::json& v, size_t index, const Settings& defaults,
                      const JsonPlace& file);
// Expands one axes object to the cartesian product of its lists, batch outermost; `origins`
// gets "axes[i]" per problem, for duplicate-name messages.
void expand_axes(const nlohmann::json& v, size_t index, const Settings& defaults,
                 const JsonPlace& file, std::vector<Problem>& out,
                 std::vector<std::string>& origins);

}  // namespace gnbench::config_schema
