// End-to-end: the built gnbench binary (GNBENCH_BINARY) for compare, merge, --baseline,
// --update-baseline, --shard and scripts/sweep.sh. Needs a Vulkan device (lavapipe will do);
// skipped without one. Runs are kept small (3 samples, 1 warm-up, one variant): lavapipe is slow.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "cli/report/results_json.hpp"
#include "results_schema.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

struct Shell {
  int code = -1;
  std::string out;  // stdout and stderr
};

Shell sh(const std::string& command) {
  Shell r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Single-quoted for the shell (the test paths hold no quotes).
std::string q(const fs::path& p) {
  std::string s = "'";
  s += p.string();
  s += '\'';
  return s;
}

const std::string kBin = GNBENCH_BINARY;
const fs::path kCheckout = GNBENCH_SOURCE_DIR;
// One variant keeps a lavapipe run of the default config to about a minute; --no-timing (no
// samples, no copy-bandwidth probe) where a test does not look at times.
const std::string kFast = " --samples 3 --warmup 1 -q --variant seed";
const std::string kUntimed = " -q --no-timing --variant seed";
const std::string kOneOffFlags = " --batch 2 --channels 8 --spatial 16 --groups 4";

std::set<std::string> entry_names(const fs::path& results) {
  std::set<std::string> names;
  for (const auto& e : read_results_file(results).entries) names.insert(e.name());
  return names;
}

class CliCompare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() /
           ("gnbench_cli_compare_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    Shell devices = sh(q(kBin) + " devices");
    if (devices.code != 0) skip_ = "no Vulkan device: " + devices.out;
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
  }

  // A run of the default config, made on first use and shared by the tests of this process
  // (ctest runs each test in its own process, so only the tests that need it pay for it).
  static fs::path default_run(const std::string& name, const std::string& flags = kFast) {
    const fs::path path = dir_ / name;
    if (!fs::exists(path)) {
      Shell r = sh(q(kBin) + " run " + q(kCheckout / "configs/default.json") + flags + " --json " +
                   q(path));
      EXPECT_EQ(r.code, 0) << r.out;
      testing::expect_valid_results({path});
    }
    return path;
  }

  static fs::path dir_;
  static std::string skip_;
};
fs::path CliCompare::dir_;
std::string CliCompare::skip_;

TEST_F(CliCompare, TwoRunsOfTheSameCode) {
  const fs::path a = default_run("a.json"), b = default_run("b.json");
  ASSERT_TRUE(fs::exists(a) && fs::exists(b));
  Shell r = sh(q(kBin) + " compare " + q(a) + " " + q(b) + " --json " + q(dir_ / "cmp.json"));
  // Timing on a CPU driver is noisy and other jobs share the machine, so a real (systematic)
  // difference between the two runs can be measured: any time verdict is acceptable, but never
  // a correctness regression or an error.
  EXPECT_TRUE(r.code == 0 || r.code == 3 || r.code == 4) << r.code << "\n" << r.out;
  std::set<std::string> names = entry_names(a);
  ASSERT_FALSE(names.empty());
  for (const auto& name : names)
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("median us"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  cold  "), std::string::npos) << r.out;  // the mode column

  std::ifstream in(dir_ / "cmp.json");
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["entries"].size(), names.size());
  EXPECT_EQ(j["options"]["mode"], "auto");
  EXPECT_EQ(j["exit_code"], r.code);
  // An existing --json file is replaced only with --force.
  Shell again = sh(q(kBin) + " compare " + q(a) + " " + q(b) + " --json " + q(dir_ / "cmp.json"));
  EXPECT_EQ(again.code, 2) << again.out;
  EXPECT_NE(again.out.find("--force"), std::string::npos) << again.out;
}

TEST_F(CliCompare, AFileWithItselfIsTheSame) {
  const fs::path one = dir_ / "one.json";
  Shell run = sh(q(kBin) + " run" + kOneOffFlags + kFast + " --json " + q(one));
  ASSERT_EQ(run.code, 0) << run.out;
  testing::expect_valid_results({one});
  // 3 samples a side cannot bound a ratio at 95 % (NOISY is honest there); never an alarm.
  Shell r = sh(q(kBin) + " compare " + q(one) + " " + q(one));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("0 faster, 0 slower"), std::string::npos) << r.out;
}

TEST_F(CliCompare, UnreadableFilesAreUsageErrors) {
  const fs::path config = kCheckout / "configs/default.json";
  Shell missing = sh(q(kBin) + " compare " + q(dir_ / "missing.json") + " " + q(config));
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("missing.json"), std::string::npos) << missing.out;
  Shell not_results = sh(q(kBin) + " compare " + q(config) + " " + q(config));
  EXPECT_EQ(not_results.code, 2) << not_results.out;
  EXPECT_NE(not_results.out.find("not a gnbench results file"), std::string::npos)
      << not_results.out;
  EXPECT_EQ(sh(q(kBin) + " compare " + q(config)).code, 2);
  EXPECT_EQ(sh(q(kBin) + " merge " + q(config) + " -o " + q(dir_ / "m.json")).code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "m.json"));
}

TEST_F(CliCompare, UpdateBaselineRefusesToReplaceWithoutForce) {
  const fs::path baseline = dir_ / "baseline.json";
  const std::string run = q(kBin) + " run" + kOneOffFlags + kUntimed;
  Shell first = sh(run + " --update-baseline " + q(baseline));
  ASSERT_EQ(first.code, 0) << first.out;
  ASSERT_FALSE(entry_names(baseline).empty());
  testing::expect_valid_results({baseline});
  const auto written = fs::last_write_time(baseline);

  Shell second = sh(run + " --update-baseline " + q(baseline));
  EXPECT_EQ(second.code, 2) << second.out;
  EXPECT_NE(second.out.find("--force"), std::string::npos) << second.out;
  // Refused before running: no results table was printed.
  EXPECT_EQ(second.out.find("PASS"), std::string::npos) << second.out;
  EXPECT_EQ(fs::last_write_time(baseline), written);

  // run --baseline: the run, then the comparison (of correctness only: untimed runs).
  Shell compared = sh(run + " --baseline " + q(baseline));
  EXPECT_EQ(compared.code, 0) << compared.out;
  EXPECT_NE(compared.out.find("PASS -> PASS"), std::string::npos) << compared.out;
  EXPECT_NE(compared.out.find("baseline: " + baseline.string()), std::string::npos) << compared.out;
  EXPECT_EQ(sh(run + " --baseline " + q(dir_ / "missing.json")).code, 2);
}

TEST_F(CliCompare, ShardsMergeToTheFullRun) {
  const std::string run = q(kBin) + " run " + q(kCheckout / "configs/default.json") + kUntimed;
  Shell s1 = sh(run + " --shard 1/2 --json " + q(dir_ / "s1.json"));
  ASSERT_EQ(s1.code, 0) << s1.out;
  Shell s2 = sh(run + " --shard 2/2 --json " + q(dir_ / "s2.json"));
  ASSERT_EQ(s2.code, 0) << s2.out;
  EXPECT_EQ(read_results_file(dir_ / "s1.json").context.shard, "1/2");

  const std::string merge = q(kBin) + " merge " + q(dir_ / "s1.json") + " " + q(dir_ / "s2.json") +
                            " -o " + q(dir_ / "merged.json");
  Shell m = sh(merge);
  ASSERT_EQ(m.code, 0) << m.out;
  const fs::path full = default_run("full.json", kUntimed);
  EXPECT_EQ(entry_names(dir_ / "merged.json"), entry_names(full));
  RunRecords merged = read_results_file(dir_ / "merged.json");
  EXPECT_EQ(merged.context.merged_from.size(), 2u);
  testing::expect_valid_results({dir_ / "s1.json", dir_ / "s2.json", dir_ / "merged.json"});
  EXPECT_TRUE(merged.context.shard.empty());

  EXPECT_EQ(sh(merge).code, 2);  // exists, no --force
  EXPECT_EQ(sh(merge + " --force").code, 0);
  // A name ending in .gz gets gzip bytes, which every reader takes.
  Shell gz = sh(q(kBin) + " merge " + q(dir_ / "s1.json") + " " + q(dir_ / "s2.json") + " -o " +
                q(dir_ / "merged.json.gz"));
  ASSERT_EQ(gz.code, 0) << gz.out;
  std::ifstream gin(dir_ / "merged.json.gz", std::ios::binary);
  unsigned char magic[2] = {};
  gin.read(reinterpret_cast<char*>(magic), 2);
  EXPECT_TRUE(magic[0] == 0x1f && magic[1] == 0x8b);
  EXPECT_EQ(entry_names(dir_ / "merged.json.gz"), entry_names(dir_ / "merged.json"));
  Shell clash = sh(q(kBin) + " merge " + q(dir_ / "s1.json") + " " + q(dir_ / "merged.json") +
                   " -o " + q(dir_ / "clash.json"));
  EXPECT_EQ(clash.code, 0) << clash.out;  // identical repeats are fine
  // One entry with other contents in two files: refused.
  nlohmann::json edited = nlohmann::json::parse(std::ifstream(dir_ / "s1.json"));
  for (auto& b : edited["benchmarks"])
    if (b.contains("gnbench")) b["gnbench"]["message"] = "edited";
  std::ofstream(dir_ / "s1x.json") << edited.dump();
  clash = sh(q(kBin) + " merge " + q(dir_ / "s1.json") + " " + q(dir_ / "s1x.json") + " -o " +
             q(dir_ / "clash2.json"));
  EXPECT_EQ(clash.code, 2) << clash.out;
  EXPECT_NE(clash.out.find("different results"), std::string::npos) << clash.out;

  for (const char* bad : {"0/2", "3/2", "1/0", "x", "1/2/3", "2"}) {
    Shell r = sh(q(kBin) + " run" + kOneOffFlags + kUntimed + " --shard " + bad);
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.out;
    EXPECT_NE(r.out.find("--shard"), std::string::npos) << r.out;
  }
}

TEST_F(CliCompare, SweepRunsMergesAndResumes) {
  const fs::path out = dir_ / "sweep";
  const std::string sweep = "GNBENCH=" + q(kBin) + " " + q(kCheckout / "scripts/sweep.sh") +
                            " --out " + q(out) +
                            " --batch 2 --channels 8,6 --spatial 16,32 --groups 4 --" + kFast;
  Shell first = sh(sweep);
  ASSERT_EQ(first.code, 0) << first.out;
  EXPECT_NE(first.out.find("skipping n2_c6_hw16_g4"), std::string::npos)
      << first.out;  // 6 % 4 != 0
  ASSERT_TRUE(fs::exists(out / "all.json"));
  std::set<std::string> problems;
  for (const auto& e : read_results_file(out / "all.json").entries) problems.insert(e.problem.name);
  EXPECT_EQ(problems, (std::set<std::string>{"n2_c8_hw16_g4", "n2_c8_hw32_g4"}));
  testing::expect_valid_results({out / "all.json", out / "points/n2_c8_hw16_g4.json"});
  // It ends with one table of every point (`gnbench show` of the merge), not a table per point.
  size_t headers = 0, table = std::string::npos;
  for (size_t at = 0; (at = first.out.find("\nproblem ", at)) != std::string::npos; ++at, ++headers)
    table = at;
  EXPECT_EQ(headers, 1u) << first.out;
  ASSERT_NE(table, std::string::npos) << first.out;
  EXPECT_NE(first.out.find("\nn2_c8_hw16_g4 ", table), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("\nn2_c8_hw32_g4 ", table), std::string::npos) << first.out;

  const auto written = fs::last_write_time(out / "points/n2_c8_hw16_g4.json");
  Shell second = sh(sweep);
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("n2_c8_hw16_g4: already done"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("n2_c8_hw32_g4: already done"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("0 run, 2 already done"), std::string::npos) << second.out;
  EXPECT_EQ(fs::last_write_time(out / "points/n2_c8_hw16_g4.json"), written);

  // The plot of the sweep, with a PyTorch anchor for one of its shapes.
  if (sh("/usr/bin/python3 -c 'import matplotlib'").code != 0) GTEST_SKIP() << "no matplotlib";
  std::ofstream(out / "torch.json") << R"({"copy_GBps": 100, "rows": [{"name": "n2_c8_hw16_g4",
      "torch_bwd_ms": 0.02, "graph_bwd_ms": 0.01, "torch_stats_plus_bwd_ms": 0.03}]})";
  Shell plot =
      sh("/usr/bin/python3 " + q(kCheckout / "scripts/plot.py") + " " + q(out / "all.json") +
         " --anchor " + q(out / "torch.json") + " -o " + q(out / "plot.png"));
  EXPECT_EQ(plot.code, 0) << plot.out;
  EXPECT_GT(fs::file_size(out / "plot.png"), 1000u);
}

}  // namespace
}  // namespace gnbench
