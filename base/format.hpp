// Small number and shape formatting shared by the printers and the run plan.
#pragma once

#include <cstdio>
#include <string>

#include "base/problem.hpp"

namespace gnbench {

inline std::string format(const char* fmt, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

inline std::string format(const char* fmt, double a, double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

inline std::string shape_label(const Shape& s) {
  return std::to_string(s.batch) + "x" + std::to_string(s.channels) + "x" +
         std::to_string(s.spatial) + "/" + std::to_string(s.groups);
}

}  // namespace gnbench
