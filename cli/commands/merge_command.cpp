#include <iostream>

#include "base/output_target.hpp"
#include "cli/commands/commands.hpp"
#include "cli/compare/merge.hpp"
#include "cli/report/gzip_text.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {

int merge_command(const MergeCommand& cmd) {
  const OutputTarget target = check_output_target("--output", cmd.output.string(), cmd.force);
  std::vector<MergeInput> inputs;
  for (const auto& path : cmd.inputs) inputs.push_back({path.string(), read_results_file(path)});
  std::vector<std::string> warnings;
  RunRecords merged = merge_runs(inputs, {cmd.ignore_device}, &warnings);
  for (const auto& w : warnings) std::cerr << "gnbench: warning: " << w << "\n";
  write_output(target, gzip_if_named(target.path, results_to_json(merged).dump(1) + "\n"));
  std::cout << "merged " << merged.entries.size() << " entries from " << inputs.size()
            << (inputs.size() == 1 ? " file" : " files") << " into " << cmd.output.string() << "\n";
  return 0;
}

}  // namespace gnbench
