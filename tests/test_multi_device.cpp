// run --device 0,0 / all (issue 21): one worker per listed device, round-robin slices merged
// into one results file in config order, each entry naming its device. lavapipe is one
// device, so the tests list it twice.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/config/config_loader.hpp"
#include "cli/report/results_json.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kDefaultConfig;

nlohmann::json entry_without_device(const EntryRecord& e) {
  RunRecords one;
  one.entries.push_back(e);
  one.entries.back().device.clear();
  one.entries.back().device_copy_gbps = 0;
  return results_to_json(one)["benchmarks"];
}

TEST(MultiDevice, TwoWorkersGiveTheSingleDeviceEntriesInConfigOrder) {
  testing::TempDir tmp("multi_device");
  const auto single = testing::run_gnbench({{"run", kDefaultConfig, "--variant", "seed,gn_fused",
                                             "--no-timing", "-q", "--json", tmp / "one.json"},
                                            300});
  ASSERT_EQ(single.exit_code, 0) << single.describe();
  // With --shard too: the workers split the shard's problems.
  for (const std::string shard : {"1/1", "2/2"}) {
    SCOPED_TRACE(shard);
    const std::string out = tmp / ("two" + std::to_string(shard[0]) + ".json");
    const auto two =
        testing::run_gnbench({{"run", kDefaultConfig, "--variant", "seed,gn_fused", "--no-timing",
                               "-q", "--device", "0,0", "--shard", shard, "--json", out},
                              300});
    ASSERT_EQ(two.exit_code, 0) << two.describe();
    const RunRecords a = read_results_file(tmp / "one.json"), b = read_results_file(out);
    std::vector<const EntryRecord*> expected;
    const size_t per_problem = 2, problems = a.entries.size() / per_problem;
    for (size_t p = (shard == "2/2"); p < problems; p += (shard == "2/2" ? 2 : 1))
      for (size_t v = 0; v < per_problem; ++v) expected.push_back(&a.entries[p * per_problem + v]);
    ASSERT_EQ(b.entries.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(entry_without_device(b.entries[i]), entry_without_device(*expected[i])) << i;
      EXPECT_EQ(b.entries[i].device, "0: " + b.context.device["name"].get<std::string>());
    }
    EXPECT_TRUE(b.context.complete);
    EXPECT_TRUE(b.context.merged_from.empty());
  }
}

TEST(MultiDevice, TimedEntriesUseTheirDevicesCopyBandwidth) {
  testing::TempDir tmp("multi_device_timed");
  const auto r = testing::run_gnbench(
      {{"run", "--batch", "2", "--channels", "32", "--spatial", "256", "--groups", "4", "--variant",
        "seed", "--samples", "3", "-q", "--device", "0,0", "--json", tmp / "t.json"},
       300});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const auto doc = nlohmann::json::parse(testing::slurp(tmp / "t.json"));
  int seen = 0;
  for (const auto& b : doc["benchmarks"]) {
    if (!b.contains("gnbench")) continue;
    const auto& e = b["gnbench"];
    ASSERT_GT(e.at("device_copy_gbps").get<double>(), 0);
    EXPECT_NEAR(e.at("pct_copy_required").get<double>(),
                100 * e.at("gbps_required").get<double>() / e["device_copy_gbps"].get<double>(),
                1e-9);
    ++seen;
  }
  EXPECT_EQ(seen, 1);
}

TEST(MultiDevice, BadListsAreUsageErrors) {
  for (const std::string list : {"0,99", "0,,0", ",", "0,nosuchgpu"}) {
    const auto r = testing::run_gnbench(
        {{"run", kDefaultConfig, "--variant", "seed", "--no-timing", "-q", "--device", list}});
    EXPECT_EQ(r.exit_code, 2) << list << r.describe();
    EXPECT_NE(r.err.find("--device"), std::string::npos) << r.describe();
  }
}

}  // namespace
}  // namespace gnbench
