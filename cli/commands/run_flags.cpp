#include "cli/commands/run_flags.hpp"

#include <cmath>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/problem_name.hpp"
#include "cli/config/seed_defects.hpp"
#include "cli/inputs/input_generator.hpp"

namespace gnbench {

std::string distribution_kind_list() {
  std::string s;
  for (const auto& d : distribution_kinds()) s += (s.empty() ? "" : ", ") + d.kind;
  return s;
}

std::string distribution_help() {
  std::string s = "Distributions (--distribution; docs/config.md):\n";
  for (const auto& d : distribution_kinds())
    s += "  " + d.kind + std::string(d.kind.size() < 16 ? 16 - d.kind.size() : 1, ' ') +
         d.description + "\n";
  return s;
}

void parse_copy_bandwidth(const std::string& text, BenchOptions& bench) {
  if (text == "off") {
    bench.measure_copy_bandwidth = false;
    return;
  }
  size_t used = 0;
  double gbps = 0;
  try {
    gbps = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(gbps) || gbps <= 0)
    throw ConfigError("--copy-bandwidth '" + text + "': expected GB/s > 0 (e.g. 4200) or 'off'");
  bench.copy_gbps = gbps;
}

void check_distribution_kind(const std::string& kind) {
  if (!is_distribution_kind(kind))
    throw ConfigError("--distribution '" + kind +
                      "': unknown distribution (valid: " + distribution_kind_list() + ")");
}

Problem one_off_problem(Problem problem, double eps, const std::string& distribution,
                        const std::string& name) {
  check_distribution_kind(distribution);
  problem.eps = static_cast<float>(eps);
  problem.distribution.kind = distribution;
  if (!name.empty()) validate_problem_name(name, "--name");
  problem.name = name.empty() ? one_off_problem_name(problem) : name;
  problem.expect = seed_known_defects(problem.tolerances);  // no config to declare it in
  return problem;
}

}  // namespace gnbench
