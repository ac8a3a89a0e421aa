// The CLI11 checks that several subcommands share; their names (FINITE, NONNEGATIVE) show in
// --help after the option's type.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
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

// CLI11 reads a number past 2^64-1 into an unsigned 64-bit option as 2^64-1, and one with a
// leading zero as octal.
inline const CLI::Validator kUint64(
    [](std::string& s) {
      uint64_t value = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
      // A leading zero: CLI11 would read "010" as octal 8.
      if (ec == std::errc() && end == s.data() + s.size() && (s.size() == 1 || s[0] != '0'))
        return std::string();
      return "'" + s + "' is not an integer in [0, 2^64-1] (no leading zeros)";
    },
    "UINT64");

// An empty value would read as "not given" and be ignored without a word.
inline const CLI::Validator kNotEmpty(
    [](std::string& s) { return s.empty() ? std::string("must not be empty") : std::string(); },
    "NOT_EMPTY");

}  // namespace gnbench
