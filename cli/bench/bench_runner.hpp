// The run itself: config problems -> inputs -> (GPU variants, float64 reference) ->
// verification and timing -> records. No printing here: progress goes to a callback.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "cli/bench/bench_options.hpp"
#include "cli/bench/records.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/variant_runner.hpp"

namespace gnbench {

class VulkanContext;

// The skip reason of a variant --variant best did not choose for the problem.
inline constexpr const char* kNotChosen = "not chosen";

// One problem x variant of a run, before it runs (`run --list`).
struct PlannedEntry {
  Problem problem;
  std::string variant;
  std::string skip_reason;  // "" = it would run; kNotChosen; else why it does not apply
};

using Progress = std::function<void(const std::string& line, size_t done, size_t total)>;

class BenchRunner {
 public:
  // Loads the manifests and resolves --variant; throws ConfigError for unknown names.
  explicit BenchRunner(BenchOptions options);
  ~BenchRunner();

  const std::vector<const VariantSpec*>& variants() const { return selected_; }
  const VulkanContext& context() const { return *ctx_; }

  // Checks every problem against the device before anything is allocated (ConfigError).
  void check_problems(const std::vector<Problem>& problems, const std::string& source) const;

  // Every problem x variant in run order, with why it would be skipped ("" = it runs).
  std::vector<PlannedEntry> plan(const std::vector<Problem>& problems) const;

  // Called with each entry that ran once its verdict is final (not for skipped entries).
  void on_entry_finished(std::function<void(const EntryRecord&)> f) { on_finished_ = std::move(f); }
  // Called after each problem with the records so far: run --checkpoint.
  void on_problem_finished(std::function<void(const RunRecords&)> f) { on_problem_ = std::move(f); }

  // Runs every problem x variant. Stops between entries (or between the variants' compiles,
  // before any entry) when `stop` becomes true and marks the records incomplete. When `stop` comes
  // while a kernel overruns --kernel-timeout (the wait cannot be cut short safely), `on_abandon`
  // gets the finished problems' records, marked incomplete, just before the process exits with 130.
  RunRecords run(const std::vector<Problem>& problems, const Progress& progress,
                 const std::atomic<bool>* stop,
                 const std::function<void(const RunRecords&)>& on_abandon = {});

 private:
  struct RunState;  // what one run() shares across its problems (bench_runner.cpp)
  struct Trial;     // one trial's inputs, reference and device copies

  // False when a stop came first (nothing is kept: a later run() compiles again).
  bool compile_variants(const std::atomic<bool>* stop);
  RunContext run_context() const;
  std::vector<EntryRecord> new_entries(const Problem& problem, const std::string& chosen) const;
  void run_problem(const Problem& problem, std::vector<EntryRecord>& entries, RunState& run);
  void run_entry(EntryRecord& e, size_t v, const Trial& trial, RunState& run);
  void time_entry(EntryRecord& e, VariantRunner& runner, uint64_t verified_hash,
                  const VerificationResult& verified, const Trial& trial, RunState& run);

  BenchOptions options_;
  std::vector<VariantSpec> manifests_;
  std::vector<const VariantSpec*> selected_;
  std::unique_ptr<VulkanContext> ctx_;
  // --variant best: the variant options_.choose picks for the problem (recorded in `choices`),
  // kNoChoice when it picks none, "" without a chooser.
  static constexpr const char* kNoChoice = "\x01none";
  std::string choose_for(const Problem& problem, nlohmann::json& choices) const;
  std::vector<CompiledVariant> compiled_;    // by run(), on first use
  std::vector<std::string> compile_errors_;  // per selected variant: why its pipeline failed
  std::function<void(const EntryRecord&)> on_finished_;
  std::function<void(const RunRecords&)> on_problem_;
};

}  // namespace gnbench
