#include "cli/config/problem_name.hpp"

#include <cstdint>
#include <cstdio>
#include <utility>

namespace gnbench {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string one_off_problem_name(const Problem& p) {
  const Shape& s = p.shape;
  // Appended piece by piece: GCC 12 warns (falsely) about "literal" + std::to_string(...).
  std::string name = "n";
  for (const auto& [label, value] : {std::pair<const char*, uint32_t>{"", s.batch},
                                     {"_c", s.channels},
                                     {"_hw", s.spatial},
                                     {"_g", s.groups}})
    name.append(label).append(std::to_string(value));
  const Problem defaults;
  if (p.distribution.kind != defaults.distribution.kind) name += "_" + p.distribution.kind;
  if (p.distribution.param != defaults.distribution.param)
    name += "_p" + number(p.distribution.param);
  if (p.eps != defaults.eps) name += "_eps" + number(p.eps);
  if (p.seed != defaults.seed) name += "_seed" + std::to_string(p.seed);
  return name;
}

}  // namespace gnbench
