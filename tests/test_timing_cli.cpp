// Timing end to end on lavapipe: with the default settings every timed entry records which
// rule stopped it (results file, CSV and table), --flush picks the cold flush, and --hot-batch
// times several runs per hot sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using testing::kDefaultConfig;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("gnbench_timing_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

TEST(TimingCli, DefaultSettingsRecordTheStopRule) {
  const fs::path json_path = scratch("stop.json"), csv_path = scratch("stop.csv");
  const testing::RunResult r = testing::run_gnbench(
      {{"run", kDefaultConfig, "--variant", "seed,gn_fused_v4", "--problem", "small_n8_*", "--mode",
        "both", "-q", "--json", json_path.string(), "--csv", csv_path.string()},
       120});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find(" stop"), std::string::npos) << r.out;
  const auto doc = nlohmann::json::parse(testing::slurp(json_path));
  const std::set<std::string> rules{"converged", "min-time", "timeout"};
  int timings = 0;
  for (const auto& b : doc.at("benchmarks")) {
    if (!b.contains("gnbench")) continue;
    for (const char* mode : {"cold", "hot"}) {
      if (!b["gnbench"].contains(mode)) continue;
      const auto& t = b["gnbench"][mode];
      ++timings;
      EXPECT_TRUE(rules.count(t.at("stop_reason").get<std::string>())) << t.dump();
      EXPECT_EQ(t.at("noise_target_reached").get<bool>(), t.at("stop_reason") != "timeout");
      EXPECT_TRUE(t.at("modes").at("bimodal").is_boolean());
      if (t.at("stop_reason") != "timeout") {
        // Converged: the interval is within the default 0.5 %, over at least 20 samples.
        EXPECT_LE(t.at("median_ci_rel").get<double>(), 0.005) << t.dump();
        EXPECT_GE(t.at("ns").at("samples").get<int>(), 20);
      }
    }
  }
  EXPECT_GT(timings, 0) << doc.dump().substr(0, 2000);
  const std::string csv = testing::slurp(csv_path);
  EXPECT_NE(csv.find(",stop_reason,bimodal,message"), std::string::npos);
}

TEST(TimingCli, FlushMethodIsChosenAndRecorded) {
  const fs::path json_path = scratch("fill.json");
  const testing::RunResult fill = testing::run_gnbench(
      {{"run", kDefaultConfig, "--variant", "seed", "--problem", "small_n8_*", "--flush", "fill",
        "--samples", "3", "-q", "--json", json_path.string()},
       120});
  ASSERT_EQ(fill.exit_code, 0) << fill.describe();
  const auto doc = nlohmann::json::parse(testing::slurp(json_path));
  EXPECT_EQ(doc.at("context").at("gnbench").at("timing_mode"), "cold+fill-flush");

  const testing::RunResult bad = testing::run_gnbench(
      {{"run", kDefaultConfig, "--variant", "seed", "--flush", "evict", "--no-timing"}, 60});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("--flush"), std::string::npos) << bad.err;
}

// The seed variant's hot median on one small problem with `extra` options; the results file's
// timing mode in `mode`.
double seed_hot_median(const std::string& name, const std::vector<std::string>& extra,
                       std::string& mode) {
  const fs::path json_path = scratch(name);
  std::vector<std::string> args{"run",       kDefaultConfig, "--variant",       "seed",
                                "--problem", "small_n8_*",   "--samples",       "5",
                                "-q",        "--json",       json_path.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const testing::RunResult r = testing::run_gnbench({args, 180});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  const auto doc = nlohmann::json::parse(testing::slurp(json_path));
  mode = doc.at("context").at("gnbench").at("timing_mode");
  for (const auto& b : doc.at("benchmarks"))
    if (b.contains("gnbench") && b["gnbench"].contains("hot"))
      return b["gnbench"]["hot"]["ns"]["median"].get<double>();
  ADD_FAILURE() << "no hot timing in " << doc.dump().substr(0, 2000);
  return 0;
}

// A hot sample of K runs reports the time of one (the total over K: within lavapipe's noise of
// the one-run samples, not K times them), cold samples stay one run each, and the mode says so.
TEST(TimingCli, HotBatchTimesSeveralRunsPerSampleAndIsRecorded) {
  std::string mode;
  const double single = seed_hot_median("hot1.json", {"--mode", "hot"}, mode);
  EXPECT_EQ(mode, "hot");
  const double batched = seed_hot_median("hot4.json", {"--mode", "hot", "--hot-batch", "4"}, mode);
  EXPECT_EQ(mode, "hot+hot-batch4");
  ASSERT_GT(single, 0);
  EXPECT_GT(batched / single, 0.4) << single << " ns against " << batched;
  EXPECT_LT(batched / single, 2.5) << single << " ns against " << batched;
  seed_hot_median("both.json", {"--mode", "both", "--hot-batch", "2"}, mode);
  EXPECT_EQ(mode, "cold+hot+hot-batch2");

  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"--hot-batch", "0"},
           {"--hot-batch", "2", "--stage-times"},
           {"--hot-batch", "x"},
           {"--hot-batch", "3"},  // the default mode is cold
           {"--hot-batch", "3", "--mode", "hot", "--no-timing"}}) {
    std::vector<std::string> args{"run", kDefaultConfig, "--variant", "seed"};
    args.insert(args.end(), bad.begin(), bad.end());
    const testing::RunResult r = testing::run_gnbench({args, 60});
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(r.err.find("--hot-batch"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace gnbench
