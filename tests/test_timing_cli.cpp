// Timing end to end on lavapipe: with the default settings every timed entry records which
// rule stopped it (results file, CSV and table), and --flush picks the cold flush.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "run_binary.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
const std::string kDefault = std::string(GNBENCH_SOURCE_DIR) + "/configs/default.json";

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("gnbench_timing_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

TEST(TimingCli, DefaultSettingsRecordTheStopRule) {
  const fs::path json_path = scratch("stop.json"), csv_path = scratch("stop.csv");
  const testing::RunResult r = testing::run_gnbench(
      {{"run", kDefault, "--variant", "seed,gn_fused_v4", "--problem", "small_n8_*", "--mode",
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
      {{"run", kDefault, "--variant", "seed", "--problem", "small_n8_*", "--flush", "fill",
        "--samples", "3", "-q", "--json", json_path.string()},
       120});
  ASSERT_EQ(fill.exit_code, 0) << fill.describe();
  const auto doc = nlohmann::json::parse(testing::slurp(json_path));
  EXPECT_EQ(doc.at("context").at("gnbench").at("timing_mode"), "cold+fill-flush");

  const testing::RunResult bad = testing::run_gnbench(
      {{"run", kDefault, "--variant", "seed", "--flush", "evict", "--no-timing"}, 60});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("--flush"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gnbench
