#include <iostream>
#include <tuple>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/format.hpp"
#include "base/output_target.hpp"
#include "cli/commands/commands.hpp"
#include "cli/compare/compare.hpp"
#include "cli/compare/variant_pairs.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {

namespace {

std::string label(const std::filesystem::path& path, const RunContext& c) {
  return path.string() + " (" + c.git_revision + (c.date.empty() ? "" : ", " + c.date) + ")";
}

}  // namespace

int compare_command(const CompareCommand& cmd) {
  const bool by_variant = !cmd.variants.empty();
  if (by_variant && (cmd.variants.size() != 2 || cmd.files.size() != 1))
    throw ConfigError("compare --variants A B FILE: expected two variants and one results file");
  if (!by_variant && cmd.files.size() != 2)
    throw ConfigError(
        "compare: expected BASELINE and CURRENT results files (or --variants A B "
        "FILE)");
  std::optional<OutputTarget> json_target;
  if (cmd.json_out) json_target = check_output_target("--json", cmd.json_out->string(), cmd.force);
  RunRecords baseline, current;
  std::string base_label, cur_label;
  if (by_variant) {
    RunRecords run = read_results_file(cmd.files[0]);
    std::tie(baseline, current) =
        split_by_variants(run, cmd.variants[0], cmd.variants[1], cmd.files[0].string());
    base_label = "variant " + cmd.variants[0] + " in " + label(cmd.files[0], run.context);
    cur_label = "variant " + cmd.variants[1];
  } else {
    baseline = read_results_file(cmd.files[0]);
    current = read_results_file(cmd.files[1]);
    base_label = label(cmd.files[0], baseline.context);
    cur_label = label(cmd.files[1], current.context);
  }
  ComparisonReport report;
  try {
    report = compare_runs(baseline, current, cmd.options);
  } catch (const ConfigError& e) {  // different devices: name the files, not only the roles
    throw ConfigError(base_label + " vs " + cur_label + ": " + e.what());
  }
  // --json -: the JSON alone on stdout, the table on stderr.
  const bool json_on_stdout = json_target && json_target->kind == OutputTarget::Kind::kStdout;
  print_comparison(json_on_stdout ? std::cerr : std::cout, report, base_label, cur_label, cmd.all);
  if (cmd.json_out) {
    nlohmann::json j = comparison_to_json(report);
    j["baseline_file"] = cmd.files[0].string();
    j["current_file"] = cmd.files.back().string();
    if (by_variant) j["variants"] = cmd.variants;
    try {
      write_output(*json_target, j.dump(1) + "\n");
    } catch (const std::runtime_error& e) {
      // Exit 1 means a correctness regression here, so an I/O failure must not map to it.
      throw ConfigError(e.what());
    }
  }
  return report.exit_code;
}

}  // namespace gnbench
