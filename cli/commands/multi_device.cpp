#include "cli/commands/multi_device.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "base/errors.hpp"
#include "cli/compare/merge.hpp"
#include "cli/config/name_patterns.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

std::vector<std::string> device_list(const std::string& text) {
  if (text != "all")
    return text.find(',') == std::string::npos ? std::vector<std::string>{text}
                                               : split_list(text, "--device");
  std::vector<std::string> all;
  for (const auto& d : VulkanContext::list_devices()) all.push_back(std::to_string(d.index));
  return all;
}

namespace {

std::string label(const DeviceInfo& d) { return std::to_string(d.index) + ": " + d.name; }

// Every device is opened and checked before any work, so that a bad --device, a problem one
// device cannot hold or a mix of models fails at once.
std::vector<std::unique_ptr<BenchRunner>> open_devices(const BenchOptions& options,
                                                       const std::vector<std::string>& devices,
                                                       const std::vector<Problem>& problems,
                                                       const std::string& source, bool mixed) {
  std::vector<std::unique_ptr<BenchRunner>> runners;
  for (const auto& d : devices) {
    BenchOptions one = options;
    one.context.device = d;
    runners.push_back(std::make_unique<BenchRunner>(one));
    runners.back()->check_problems(problems, source);
    const DeviceInfo& first = runners.front()->context().info();
    const DeviceInfo& now = runners.back()->context().info();
    if (options.timing && !mixed && now.fingerprint() != first.fingerprint())
      throw ConfigError("--device " + label(first) + " and " + label(now) +
                        " are different models: their times do not belong in one table; pass "
                        "--mixed-devices to run anyway, or --no-timing");
  }
  return runners;
}

}  // namespace

RunRecords run_on_devices(const BenchOptions& options, const std::vector<std::string>& devices,
                          const std::vector<Problem>& problems, const std::string& source,
                          bool mixed_devices, const Progress& progress,
                          const std::atomic<bool>* stop) {
  auto runners = open_devices(options, devices, problems, source, mixed_devices);
  const size_t n = runners.size();
  std::vector<MergeInput> parts(n);
  std::vector<std::exception_ptr> errors(n);
  std::vector<size_t> done(n, 0);
  std::mutex progress_mutex;
  const size_t total = problems.size() * runners.front()->variants().size();
  auto worker = [&](size_t k) {
    try {
      std::vector<Problem> mine;
      for (size_t i = k; i < problems.size(); i += n) mine.push_back(problems[i]);
      const std::string name = label(runners[k]->context().info());
      Progress report = [&, k, name](const std::string& what, size_t d, size_t) {
        std::lock_guard lock(progress_mutex);
        done[k] = d;
        size_t sum = 0;
        for (size_t x : done) sum += x;
        if (what != "done") progress("[" + name + "] " + what, sum, total);
      };
      parts[k].source = "device " + name;
      parts[k].records = runners[k]->run(mine, report, stop);
      for (auto& e : parts[k].records.entries) {
        e.device = name;
        e.device_copy_gbps = parts[k].records.context.copy_gbps;
      }
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t k = 0; k < n; ++k) threads.emplace_back(worker, k);
  for (auto& t : threads) t.join();
  progress("done", total, total);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  RunRecords merged = merge_runs(parts, MergeOptions{.ignore_device = mixed_devices});
  merged.context.merged_from.clear();  // one run, not a merge of files
  std::map<std::string, size_t> order;
  for (size_t i = 0; i < problems.size(); ++i) order[problems[i].name] = i;
  std::stable_sort(merged.entries.begin(), merged.entries.end(),
                   [&](const EntryRecord& a, const EntryRecord& b) {
                     return order[a.problem.name] < order[b.problem.name];
                   });
  return merged;
}

}  // namespace gnbench
