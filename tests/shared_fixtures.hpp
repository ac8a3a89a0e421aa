// Small fixtures that several test files use, defined once: the test files compile in unity
// batches (tests/CMakeLists.txt), where two file-local copies of one name in a batch clash.
#pragma once

#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"

namespace gnbench::testing {

// The three outputs, in the order the verifier reports them.
inline const std::vector<std::string> kOutputTensors{"grad_input", "grad_weight", "grad_bias"};

// A BenchRunner progress callback that prints nothing.
inline const Progress kQuiet = [](const std::string&, size_t, size_t) {};

}  // namespace gnbench::testing
