// The copy probe between problems: with a gap of 0 a run of P problems probes P + 1 times (before
// the first, between each two, after the last), the run's copy bandwidth is the highest
// reading, and every entry's % of copy is against it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"

namespace gnbench {
namespace {

TEST(CopyProbe, BetweenProblemsWhenDueAndTheHighestReadingCounts) {
  std::mt19937 rng(std::random_device{}());
  const int count = 2 + int(rng() % 3);
  nlohmann::json problems = nlohmann::json::array();
  for (int k = 0; k < count; ++k) {
    const uint32_t groups = 1 + rng() % 4;
    problems.push_back({{"name", "p" + std::to_string(k)},
                        {"batch", 1 + rng() % 3},
                        {"channels", groups * (1 + rng() % 8)},
                        {"spatial", 1 + rng() % 300},
                        {"groups", groups}});
  }
  SCOPED_TRACE(problems.dump());
  BenchOptions o;
  o.kernel_folders = {std::string(GNBENCH_SOURCE_DIR) + "/kernels"};
  o.variants = {"gn_fused"};
  o.cold = false;
  o.hot = true;
  o.sampling.warmup = 0;
  o.sampling.fixed_samples = 2;
  o.copy_probe_gap_s = 0;
  BenchRunner runner(o);
  const RunRecords r = runner.run(
      parse_config_text(nlohmann::json{{"problems", problems}}.dump(), "generated.json"),
      [](const std::string&, size_t, size_t) {}, nullptr);
  const nlohmann::json& readings = r.context.copy_bandwidth.at("probes_gbps");
  ASSERT_EQ(readings.size(), size_t(count) + 1) << r.context.copy_bandwidth.dump();
  double best = 0;
  for (const auto& g : readings) best = std::max(best, g.get<double>());
  EXPECT_EQ(r.context.copy_gbps, best);
  ASSERT_EQ(r.entries.size(), size_t(count));
  for (const EntryRecord& e : r.entries) {
    ASSERT_TRUE(e.hot) << e.name();
    EXPECT_DOUBLE_EQ(e.hot->throughput.pct_copy, 100 * e.hot->throughput.gbps / best) << e.name();
  }
}

}  // namespace
}  // namespace gnbench
