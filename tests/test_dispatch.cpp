// Best variant per problem and dispatch tables (gnbench tune, run --variant best --table).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/dispatch/dispatch_table.hpp"
#include "cli/report/best_variants.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_gnbench;
using testing::RunSpec;
using testing::TempDir;

const std::string kSource = GNBENCH_SOURCE_DIR;

EntryRecord timed(const std::string& problem, Shape shape, const std::string& variant,
                  Verdict verdict, double hot_ns) {
  EntryRecord e;
  e.problem.name = problem;
  e.problem.shape = shape;
  e.variant = variant;
  e.verdict = verdict;
  if (hot_ns > 0) {
    e.hot.emplace();
    e.hot->total.samples = 3;
    e.hot->total.median = hot_ns;
  }
  return e;
}

TEST(BestVariants, LowestVerifiedHotMedianPerProblemWithRunnerUp) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    RunRecords r;
    const Shape s{2, 64, 256, 8};
    std::uniform_real_distribution<double> ns(1e3, 1e6);
    double best = 1e30, second = 1e30;
    std::string best_name;
    for (int v = 0; v < 6; ++v) {
      const Verdict verdict = v % 3 == 2 ? Verdict::kFail
                              : v == 4   ? Verdict::kXPass
                                         : Verdict::kPass;
      const double t = ns(rng);
      r.entries.push_back(timed("p", s, "v" + std::to_string(v), verdict, t));
      if (verdict == Verdict::kFail) continue;
      if (t < best) {
        second = best;
        best = t;
        best_name = "v" + std::to_string(v);
      } else if (t < second) {
        second = t;
      }
    }
    r.entries.push_back(timed("q", s, "only", Verdict::kPass, 5e3));
    r.entries.push_back(timed("q", s, "untimed", Verdict::kPass, 0));
    const auto b = best_variants(r);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].problem.name, "p");
    EXPECT_EQ(b[0].mode, "hot");
    EXPECT_EQ(b[0].variant, best_name);
    EXPECT_DOUBLE_EQ(b[0].median_ns, best);
    EXPECT_DOUBLE_EQ(b[0].runner_up_ns, second);
    EXPECT_EQ(b[0].candidates, 4u);  // the two failures are not candidates
    EXPECT_EQ(b[1].variant, "only");
    EXPECT_TRUE(b[1].runner_up.empty());
    EXPECT_TRUE(best_variants(r, "cold").empty());  // nothing timed cold
  }
}

DispatchTable table_of(std::vector<std::pair<Shape, std::string>> rows) {
  DispatchTable t;
  int i = 0;
  for (auto& [shape, variant] : rows)
    t.entries.push_back({"p" + std::to_string(i++), shape, variant, 1.0, "", 0});
  return t;
}

TEST(DispatchTable, ExactThenNearestAdmittedByRegime) {
  const DispatchTable t = table_of({{{8, 320, 4096, 32}, "big"},     // M 40960, NG 256
                                    {{256, 2048, 1, 32}, "flat"},    // M 64, NG 8192
                                    {{32, 2048, 49, 32}, "odd"},     // M 3136, HW % 4 = 1
                                    {{32, 256, 3136, 32}, "mid"}});  // M 25088
  auto all = [](const std::string&) { return true; };
  EXPECT_EQ(choose_variant(t, {256, 2048, 1, 32}, all).variant, "flat");
  EXPECT_EQ(choose_variant(t, {256, 2048, 1, 32}, all).how, "exact");
  // Unseen shapes go to their regime: tiny groups, many of them.
  EXPECT_EQ(choose_variant(t, {1024, 512, 1, 16}, all).variant, "flat");
  // HW = 25 is unaligned like "odd"; the alignment term outweighs a closer M.
  EXPECT_EQ(choose_variant(t, {64, 1024, 25, 32}, all).variant, "odd");
  EXPECT_EQ(choose_variant(t, {4, 320, 4096, 32}, all).variant, "big");
  EXPECT_EQ(choose_variant(t, {4, 320, 4096, 32}, all).how.rfind("nearest p0", 0), 0u);
  // A variant the shape does not admit is never chosen, even on an exact match.
  auto no_flat = [](const std::string& v) { return v != "flat"; };
  const auto c = choose_variant(t, {256, 2048, 1, 32}, no_flat);
  EXPECT_NE(c.variant, "flat");
  EXPECT_FALSE(c.variant.empty());
  EXPECT_TRUE(
      choose_variant(t, {1, 1, 1, 1}, [](const std::string&) { return false; }).variant.empty());
}

TEST(DispatchTable, RoundTripsAndRejectsMalformedFilesNamingTheField) {
  TempDir dir("dispatch");
  DispatchTable t = table_of({{{2, 64, 256, 8}, "a"}, {{4, 96, 1, 3}, "b"}});
  t.timing_mode = "hot";
  const std::string path = dir / "t.json";
  std::ofstream(path) << table_to_json(t).dump(1);
  const DispatchTable back = read_dispatch_table(path);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[1].variant, "b");
  EXPECT_EQ(back.entries[1].shape.groups, 3u);

  const json good = table_to_json(t);
  const std::vector<std::pair<std::function<void(json&)>, std::string>> breaks = {
      {[](json& j) { j["format"] = "other"; }, "field 'format'"},
      {[](json& j) { j["version"] = 2; }, "field 'version'"},
      {[](json& j) { j["entries"] = json::array(); }, "field 'entries'"},
      {[](json& j) { j["entries"][1].erase("variant"); }, "field 'entries[1].variant' is missing"},
      {[](json& j) { j["entries"][0]["batch"] = 0; }, "field 'entries[0].batch' = 0"},
      {[](json& j) { j["entries"][0]["spatial"] = "8"; }, "field 'entries[0].spatial'"},
      {[](json& j) { j["entries"][1]["channels"] = 7; }, "must be divisible by groups (3)"},
      {[](json& j) { j["entries"][0]["median_us"] = -1; }, "field 'entries[0].median_us'"},
  };
  for (const auto& [edit, expected] : breaks) {
    json bad = good;
    edit(bad);
    std::ofstream(path) << bad.dump();
    try {
      read_dispatch_table(path);
      ADD_FAILURE() << "accepted: " << bad.dump();
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u) << e.what();
    }
  }
}

// models.json: enough shapes, each with its source, loadable, and covering the regimes the
// kernels have to meet (issue 20).
TEST(ModelsConfig, PublishedShapesWithSourcesCoverTheRegimes) {
  const std::string path = kSource + "/configs/models.json";
  const auto problems = load_config_file(path);
  EXPECT_GE(problems.size(), 40u);
  std::ifstream in(path);
  const json doc = json::parse(in);
  for (const auto& p : doc["problems"])
    EXPECT_GE(p.value("description", "").size(), 20u) << p.dump();
  auto any = [&](auto pred) { return std::any_of(problems.begin(), problems.end(), pred); };
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.spatial == 1; }));
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.groups == p.shape.channels; }));
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.groups == 1; }));
  EXPECT_TRUE(
      any([](const Problem& p) { return p.shape.spatial % 4 != 0 && p.shape.spatial > 1; }));
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.batch >= 64; }));
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.batch <= 2 && p.shape.channels >= 1280; }));
  EXPECT_TRUE(any([](const Problem& p) { return p.shape.tensor_bytes() >= 40e6; }));
}

// tune on lavapipe writes a table of verified variants; run --variant best runs its choice
// per problem (exact for a tuned shape, nearest for an unseen one) and records it.
TEST(TuneCli, TableFromARunThenRunBest) {
  TempDir dir("tune");
  std::ofstream(dir / "c.json") << R"({"problems": [
    {"name": "flat", "batch": 64, "channels": 96, "spatial": 1, "groups": 8},
    {"name": "img", "batch": 2, "channels": 16, "spatial": 16, "groups": 4}]})";
  // Small groups and the family built for them: seconds on lavapipe.
  const std::string variants = "gn_sgroup_*";
  auto tune = run_gnbench(RunSpec({"tune", dir / "c.json", "--json", dir / "t.json", "--variant",
                                   variants, "--samples", "2", "--results", dir / "r.json", "-q"},
                                  120));
  ASSERT_EQ(tune.exit_code, 0) << tune.describe();
  EXPECT_NE(tune.out.find("best variant per problem (hot"), std::string::npos) << tune.out;
  const DispatchTable t = read_dispatch_table(dir / "t.json");
  ASSERT_EQ(t.entries.size(), 2u);
  EXPECT_EQ(t.timing_mode, "hot");
  std::ifstream rin(dir / "r.json");
  const json results = json::parse(rin);
  const json& best = results["context"]["gnbench"]["best_variants"];
  ASSERT_EQ(best.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(best[i]["variant"], t.entries[i].variant);

  // Again without --force: refused before any work.
  auto again = run_gnbench(RunSpec({"tune", dir / "c.json", "--json", dir / "t.json"}, 60));
  EXPECT_EQ(again.exit_code, 2) << again.describe();
  // From the results file: the same table.
  auto from =
      run_gnbench(RunSpec({"tune", "--from", dir / "r.json", "--json", dir / "t2.json", "-q"}, 60));
  ASSERT_EQ(from.exit_code, 0) << from.describe();
  EXPECT_EQ(read_dispatch_table(dir / "t2.json").entries[1].variant, t.entries[1].variant);

  std::ofstream(dir / "u.json") << R"({"problems": [
    {"name": "flat", "batch": 64, "channels": 96, "spatial": 1, "groups": 8},
    {"name": "unseen_flat", "batch": 200, "channels": 40, "spatial": 1, "groups": 5}]})";
  auto best_run =
      run_gnbench(RunSpec({"run", dir / "u.json", "--variant", "best", "--table", dir / "t.json",
                           "--no-timing", "--json", dir / "b.json", "-q"},
                          120));
  ASSERT_EQ(best_run.exit_code, 0) << best_run.describe();
  std::ifstream bin(dir / "b.json");
  const json b = json::parse(bin);
  const json& choices = b["context"]["gnbench"]["dispatch_choices"];
  EXPECT_EQ(choices["flat"]["how"], "exact");
  EXPECT_EQ(choices["flat"]["variant"], t.entries[0].variant);
  EXPECT_EQ(choices["unseen_flat"]["how"].get<std::string>().rfind("nearest flat", 0), 0u)
      << choices.dump();
  size_t entries = 0;  // one per problem: the table's choice only
  for (const auto& e : b["benchmarks"]) entries += e.contains("gnbench");
  EXPECT_EQ(entries, 2u);
  EXPECT_NE(best_run.out.find("unseen_flat -> "), std::string::npos) << best_run.out;
}

TEST(TuneCli, UsageErrorsAreOneLineExit2) {
  TempDir dir("tune_usage");
  const std::string cfg = kSource + "/configs/default.json";
  std::ofstream(dir / "bad.json") << R"({"format": "gnbench-dispatch-table", "version": 1,
    "entries": [{"problem": "x", "batch": 1, "channels": 4, "spatial": 1, "groups": 2}]})";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", cfg, "--variant", "best"}, "--variant best needs --table"},
      {{"run", cfg, "--table", dir / "bad.json"}, "--table needs --variant best"},
      {{"run", cfg, "--variant", "best", "--table", dir / "bad.json"},
       "field 'entries[0].variant' is missing"},
      {{"tune", "--json", dir / "t.json"}, "no problems"},
      {{"tune", cfg, "--from", dir / "bad.json", "--json", dir / "t.json"}, "not both"},
  };
  for (const auto& [args, expected] : cases) {
    auto r = run_gnbench(RunSpec(args, 60));
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.err_lines().size(), 1u) << r.describe();
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.describe();
  }
}

}  // namespace
}  // namespace gnbench
