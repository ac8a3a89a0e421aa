#include "config/problem_name.hpp"

#include <cstdio>

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
  std::string name = "n" + std::to_string(s.batch) + "_c" + std::to_string(s.channels) + "_hw" +
                     std::to_string(s.spatial) + "_g" + std::to_string(s.groups);
  const Problem defaults;
  if (p.distribution.kind != defaults.distribution.kind) name += "_" + p.distribution.kind;
  if (p.distribution.param != defaults.distribution.param)
    name += "_p" + number(p.distribution.param);
  if (p.eps != defaults.eps) name += "_eps" + number(p.eps);
  if (p.seed != defaults.seed) name += "_seed" + std::to_string(p.seed);
  return name;
}

}  // namespace gnbench
