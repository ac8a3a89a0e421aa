// Paths of the checkout under test, shared by the test files: one definition each, because the
// test files compile in unity batches (tests/CMakeLists.txt), where a file-local copy of the same
// name in two files of a batch would clash.
#pragma once

#include <string>

namespace gnbench::testing {

inline const std::string kSourceDir = GNBENCH_SOURCE_DIR;
inline const std::string kDefaultConfig = kSourceDir + "/configs/default.json";

}  // namespace gnbench::testing
