// `gnbench merge`: several results files (shards, sweep points) into one, as pure logic over
// RunRecords. The merged context is the first file's, marked with the files it came from, with
// the highest copy-bandwidth reading of the files from its device (the 100 % of "% copy").
#pragma once

#include <string>
#include <vector>

#include "cli/bench/records.hpp"

namespace gnbench {

struct MergeInput {
  std::string source;  // file name, for messages and context.merged_from
  RunRecords records;
};

struct MergeOptions {
  bool ignore_device = false;  // allow different device fingerprints
};

// Concatenates the entries in input order. Throws ConfigError when the same problem/variant
// appears twice with different content (identical repeats are kept once), when one problem
// name has different definitions, or when the devices differ and !options.ignore_device.
// `warnings` receives what the merged file cannot express (mixed timing modes, devices).
RunRecords merge_runs(const std::vector<MergeInput>& inputs, const MergeOptions& options,
                      std::vector<std::string>* warnings = nullptr);

}  // namespace gnbench
