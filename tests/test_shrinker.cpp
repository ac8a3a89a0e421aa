// The shrinker: candidates keep groups dividing channels and are each smaller in one size;
// on a kernel wrong only with more than 128 channels it finds a problem with one batch item,
// one spatial element and still more than 128 channels; and `run` prints both commands,
// which rerun the failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "cli/bench/shrinker.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kBrokenKernelsDir;
using testing::kSourceDir;

TEST(Shrinker, CandidatesAreSmallerAndKeepGroupsDividingChannels) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const uint32_t g = 1 + rng() % 300, cpg = 1 + rng() % 300;
    const Shape s{1 + rng() % 50, g * cpg, 1 + rng() % 5000, g};
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
    for (const Shape& c : shrink_candidates(s)) {
      EXPECT_EQ(c.channels % c.groups, 0u);
      EXPECT_LT(c.elements(), s.elements());
      const int smaller = (c.batch < s.batch) + (c.spatial < s.spatial) +
                          (c.channels_per_group() < s.channels_per_group()) + (c.groups < s.groups);
      EXPECT_EQ(smaller, 1);
      EXPECT_TRUE(seen.insert({c.batch, c.channels, c.spatial, c.groups}).second);
    }
    if (s.elements() > 1 || s.groups > 1) EXPECT_FALSE(seen.empty());
  }
  EXPECT_TRUE(shrink_candidates({1, 1, 1, 1}).empty());
}

TEST(Shrinker, FindsASmallerProblemFailingTheSameWay) {
  BenchOptions o;
  o.kernel_folders = {kSourceDir + "/kernels", kBrokenKernelsDir};
  o.variants = {"broken_weight_c128"};
  o.timing = false;
  o.measure_copy_bandwidth = false;
  BenchRunner runner(o);
  Problem p;
  p.name = "start";
  p.shape = {3, 384, 20, 6};
  p.eps = 1e-3f;
  p.seed = 4;
  const RunRecords first = runner.run(
      {p}, [](const std::string&, size_t, size_t) {}, nullptr);
  ASSERT_EQ(first.entries.size(), 1u);
  ASSERT_EQ(first.entries[0].verdict, Verdict::kFail) << first.entries[0].message;
  const ShrinkOutcome s = shrink_failure(runner, first.entries[0], 60, nullptr);
  EXPECT_LE(s.attempts, 60u);
  EXPECT_GT(s.steps, 0u);
  const Shape& m = s.smallest.shape;
  EXPECT_EQ(m.batch, 1u);
  EXPECT_GT(m.channels, 128u);  // the bug needs channels past 128
  EXPECT_LT(m.elements(), p.shape.elements());
  EXPECT_EQ(m.channels % m.groups, 0u);
  EXPECT_EQ(s.smallest.eps, p.eps);
  EXPECT_EQ(s.smallest.seed, p.seed);
  // It really fails: rerun it alone.
  const RunRecords again = runner.run(
      {s.smallest}, [](const std::string&, size_t, size_t) {}, nullptr);
  EXPECT_EQ(failure_signature(again.entries.at(0)), failure_signature(first.entries[0]));
}

// End to end: a random block whose problems all have > 128 channels fails on the broken
// kernel; run prints a reproduce line and a shrunk one, and the shrunk command fails again.
TEST(Shrinker, RunPrintsCommandsThatRerunTheFailure) {
  namespace fs = std::filesystem;
  const fs::path config =
      fs::temp_directory_path() / ("gnbench_shrink_" + std::to_string(::getpid()) + ".json");
  std::ofstream(config) << R"({"random": {"count": 1, "seed": 8, "channels": [200, 400],
    "spatial": [2, 40], "batch": [2, 3], "eps": [1e-4, 1e-2], "fold_fraction": 0}})";
  using testing::run_gnbench;
  const auto r = run_gnbench({{"run", config.string(), "--kernels", kBrokenKernelsDir, "--variant",
                               "broken_weight_c128", "--no-timing", "-q"},
                              120});
  fs::remove(config);
  ASSERT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.out.find("Reproduce:"), std::string::npos) << r.out;
  std::smatch m;
  const std::regex smallest("smallest failing: gnbench run (.*)\n");
  ASSERT_TRUE(std::regex_search(r.out, m, smallest)) << r.out;
  std::vector<std::string> args;
  std::istringstream words(m[1].str());
  for (std::string w; words >> w;) args.push_back(w);
  args.push_back("-q");
  args.insert(args.begin(), "run");
  const auto again = run_gnbench({args, 60});
  EXPECT_EQ(again.exit_code, 1) << again.describe();
  EXPECT_NE(again.out.find("FAIL"), std::string::npos) << again.out;
}

}  // namespace
}  // namespace gnbench
