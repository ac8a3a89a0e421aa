// Every results file the test suite writes is checked against docs/results.schema.json with
// python3-jsonschema (tests/validate_results.py), so the documented format and the writer
// cannot drift apart.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace gnbench::testing {

inline std::string quote_arg(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Validates the files; the validator's report (one line per error) is the failure message.
inline void expect_valid_results(const std::vector<std::filesystem::path>& files) {
  const std::string source = GNBENCH_SOURCE_DIR;
  std::string cmd = quote_arg(GNBENCH_SYSTEM_PYTHON) + " " +
                    quote_arg(source + "/tests/validate_results.py") + " " +
                    quote_arg(source + "/docs/results.schema.json");
  for (const auto& f : files) {
    ASSERT_TRUE(std::filesystem::exists(f)) << f << " was not written";
    cmd += " " + quote_arg(f.string());
  }
  cmd += " 2>&1";
  std::string out;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  EXPECT_EQ(::pclose(pipe), 0) << out;
}

}  // namespace gnbench::testing
