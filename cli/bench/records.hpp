// What a run produced, one record per problem x variant, plus the run's context. Every
// printer (table, JSON, CSV, Markdown) and `compare` read these; nothing else is shared.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/build_info.hpp"
#include "base/problem.hpp"
#include "cli/timing/sampler.hpp"
#include "cli/verify/invariants.hpp"
#include "cli/verify/metrics.hpp"

namespace gnbench {

enum class Verdict { kPass, kFail, kXFail, kXPass, kSkipped, kError };
std::string verdict_name(Verdict v);  // "PASS", "FAIL", "XFAIL", "XPASS", "SKIP", "ERROR"
Verdict verdict_from_name(const std::string& name);

// Failures that end the run with exit code 1.
inline bool is_failure(Verdict v) { return v == Verdict::kFail || v == Verdict::kError; }

struct EntryRecord {
  Problem problem;
  std::string variant;
  Verdict verdict = Verdict::kSkipped;
  std::string message;  // failure line, skip reason, error or expected-failure reason

  uint32_t trials = 0;       // trials run; verification is the worst of them
  uint32_t worst_trial = 0;  // its index (seed = trial_seed(problem.seed, worst_trial))
  VerificationResult verification;
  InvariantResult invariants;
  bool checked_after_timing = false;         // outputs of the timed runs were verified too
  bool failed_after_timing = false;          // ...and were wrong although the first run was right
  std::optional<bool> bitwise_reproducible;  // two runs on the same inputs, same bits
  bool declared_deterministic = true;        // from the manifest
  std::string input_write;  // non-empty: the variant changed an input buffer (which, where, when)

  std::optional<TimingResult> cold, hot;
  uint64_t required_bytes = 0;  // read x, grad_out, weight once; write the outputs once
  uint64_t actual_bytes = 0;    // the variant's own traffic model (0 = not declared)

  // Set by runs over several devices (run --device all): which one ran this entry, and that
  // device's copy bandwidth (the % of copy is against it, not the first device's).
  std::string device;
  double device_copy_gbps = 0;

  // Cold when measured, else hot; nullptr when not timed.
  const TimingResult* headline() const { return cold ? &*cold : hot ? &*hot : nullptr; }
  // The modes that have samples, cold first (one CSV row each; both medians in the table).
  std::vector<const TimingResult*> timings() const;
  double worst_scaled_error() const;
  std::string name() const { return problem.name + "/" + variant; }
};

struct RunContext {
  std::string gnbench_version = GNBENCH_VERSION;
  std::string git_revision = gnbench::git_revision();
  std::string build_type = GNBENCH_BUILD_TYPE;
  std::string command_line;
  std::string date;  // ISO 8601, local time with offset
  std::string host_name;
  nlohmann::json device;  // DeviceInfo::to_json()
  std::string device_fingerprint;
  double copy_gbps = 0;  // measured copy bandwidth (0 = not measured)
  nlohmann::json copy_bandwidth;
  bool validation = false;
  uint64_t validation_messages = 0;  // what the validation layer reported; > 0 fails the run
  std::string dump_error;            // why --dump stopped writing (empty: it did not fail)
  bool complete = true;              // false when interrupted
  std::vector<std::string> configs;
  std::string timing_mode;
  std::string shard;                     // "I/N" from run --shard; empty when not sharded
  std::vector<std::string> merged_from;  // files `gnbench merge` combined; empty otherwise
  // variant -> stage -> {statistic: value}, as the driver reports its compiled code
  // (VK_KHR_pipeline_executable_properties); empty where the device does not.
  nlohmann::json pipeline_statistics = nlohmann::json::object();
  // run --variant best: problem -> {variant, how} as the dispatch table chose.
  nlohmann::json dispatch_choices = nlohmann::json::object();
};

struct RunRecords {
  RunContext context;
  std::vector<EntryRecord> entries;
};

// Sets every timing's Throughput from the bytes, the median and the copy bandwidth (the entry's
// own device's in a run over several devices, else the run's). Called where
// records are made (the run, a merge, reading a results file); printers only format them.
void derive_figures(RunRecords& records);

}  // namespace gnbench
