// Kernel families: one manifest entry that declares many builds of one kernel by axes of
// placeholder values, instead of one hand-written variant per build. expand_family() turns a
// family into the plain variants it stands for, in order; manifest.cpp then reads each of them
// like any other variant. Format: docs/kernels.md, "Families".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gnbench {

// A manifest entry declares a family when it has the field "family".
bool is_family(const nlohmann::json& entry);

struct ExpandedFamily {
  std::string where;                     // "<file>: family '<name>'", to prefix messages
  std::vector<nlohmann::json> variants;  // plain variants, every placeholder substituted
};

// Expands `family` (fields family, let, axes, variant): the product of its axes, first axis
// outermost, each build the template with its placeholders substituted. `where` names the file
// (and entry) in messages; throws ConfigError naming the family, the build, the field and the
// bad value for an unknown or malformed placeholder, an empty axis, a name bound twice or never
// used, a cycle, or two builds with the same name.
ExpandedFamily expand_family(const nlohmann::json& family, const std::string& where);

}  // namespace gnbench
