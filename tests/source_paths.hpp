// Paths of the checkout under test, shared by the test files: one definition each, because the
// test files compile in unity batches (tests/CMakeLists.txt), where a file-local copy of the same
// name in two files of a batch would clash.
#pragma once

#include <filesystem>
#include <string>

namespace gnbench::testing {

inline const std::string kSourceDir = GNBENCH_SOURCE_DIR;
inline const std::string kDefaultConfig = kSourceDir + "/configs/default.json";
// With its slash: kResultsDir + "h200/run20_h200.json.gz".
inline const std::string kResultsDir = kSourceDir + "/results/";
inline const std::filesystem::path kKernelsDir = std::filesystem::path(kSourceDir) / "kernels";

}  // namespace gnbench::testing
