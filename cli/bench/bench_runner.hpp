// The run itself: config problems -> inputs -> (GPU variants, float64 reference) ->
// verification and timing -> records. No printing here: progress goes to a callback.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "config/problem.hpp"
#include "report/records.hpp"
#include "runtime/manifest.hpp"

namespace gnbench {

class VulkanContext;

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

  // Runs every problem x variant. Stops between entries when `stop` becomes true and marks
  // the records incomplete.
  RunRecords run(const std::vector<Problem>& problems, const Progress& progress,
                 const std::atomic<bool>* stop);

 private:
  BenchOptions options_;
  std::vector<VariantSpec> manifests_;
  std::vector<const VariantSpec*> selected_;
  std::unique_ptr<VulkanContext> ctx_;
};

}  // namespace gnbench
