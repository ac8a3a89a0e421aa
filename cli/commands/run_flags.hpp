// The parts of `run`'s command line that CLI11 cannot check alone: help texts built from the
// distributions, --copy-bandwidth GBPS|off, and the one-off problem's name and distribution.
#pragma once

#include <string>

#include "base/problem.hpp"
#include "cli/bench/bench_options.hpp"

namespace gnbench {

// "normal, large_mean, ..." for --help and the error for an unknown kind.
std::string distribution_kind_list();
// A footer for `run --help`: every distribution with its description.
std::string distribution_help();
// --distribution: throws ConfigError listing the valid kinds unless `kind` is one.
void check_distribution_kind(const std::string& kind);

// --copy-bandwidth: "off" (no probe, no % of copy) or a bandwidth in GB/s > 0 (no probe, that
// value counts). Throws ConfigError otherwise.
void parse_copy_bandwidth(const std::string& text, BenchOptions& bench);

// The one-off problem of --batch/--channels/...: `problem` with its shape and seed, given eps,
// distribution kind (checked) and --name (checked; "" = named from the shape).
Problem one_off_problem(Problem problem, double eps, const std::string& distribution,
                        const std::string& name);

}  // namespace gnbench
