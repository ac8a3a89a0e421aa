// The CLI11 checks that several subcommands share; their names (FINITE, NONNEGATIVE) show in
// --help after the option's type.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <exception>
#include <string>

namespace gnbench {

// CLI11's number checks let nan through (every comparison with it is false), and inf is
// never a sensible duration or ratio.
inline const CLI::Validator kFinite(
    [](std::string& s) {
      try {
        size_t used = 0;
        double d = std::stod(s, &used);
        if (used == s.size() && std::isfinite(d)) return std::string();
      } catch (const std::exception&) {
      }
      return "'" + s + "' is not a finite number";
    },
    "FINITE");

// CLI11 reads "-1" into an unsigned option as 2^64-1.
inline const CLI::Validator kNotNegative(
    [](std::string& s) {
      return s.find('-') == std::string::npos ? std::string() : "'" + s + "' must not be negative";
    },
    "NONNEGATIVE");

}  // namespace gnbench
