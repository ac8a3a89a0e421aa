// Best variant per problem and dispatch tables (gnbench tune, run --variant best --table).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>

#include "base/errors.hpp"
#include "base/format.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/dispatch/dispatch_rule.hpp"
#include "cli/dispatch/dispatch_table.hpp"
#include "cli/report/best_variants.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_gnbench;
using testing::RunSpec;
using testing::TempDir;

using testing::kSourceDir;

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
    t.entries.push_back({"p" + std::to_string(i++), shape, variant, 1.0, "", 0, {{variant, 1.0}}});
  return t;
}

// An entry timing several variants (us); its fastest becomes `variant`.
DispatchEntry timed_entry(const std::string& problem, Shape shape,
                          std::map<std::string, double> times) {
  DispatchEntry e{problem, shape, "", 0, "", 0, std::move(times)};
  for (const auto& [v, us] : e.times_us)
    if (e.variant.empty() || us < e.median_us) {
      e.variant = v;
      e.median_us = us;
    }
  return e;
}

Shape random_shape(std::mt19937& rng) {
  auto pick = [&](uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  };
  const uint32_t groups = pick(1, 64), cpg = pick(1, 64);
  return {pick(1, 512), groups * cpg, pick(1, 4096), groups};
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

  EXPECT_TRUE(back.complete);

  // An interrupted tune's table says so, and merging it makes the merged table incomplete.
  DispatchTable partial = t;
  partial.complete = false;
  std::ofstream(path) << table_to_json(partial).dump(1);
  DispatchTable merged = read_dispatch_table(path);
  EXPECT_FALSE(merged.complete);
  DispatchTable whole = t;
  merge_tables(whole, merged, "partial");
  EXPECT_FALSE(whole.complete);

  const json good = table_to_json(t);
  // The choice follows the times, whatever an edit wrote into "variant".
  {
    json edited = good;
    edited["entries"][0]["times"] = {{"a", 5.0}, {"z", 2.0}};
    std::ofstream(path) << edited.dump();
    const DispatchTable e = read_dispatch_table(path);
    EXPECT_EQ(e.entries[0].variant, "z");
    EXPECT_EQ(e.entries[0].median_us, 2.0);
    EXPECT_EQ(e.entries[0].runner_up, "a");
  }
  const std::vector<std::pair<std::function<void(json&)>, std::string>> breaks = {
      {[](json& j) { j["format"] = "other"; }, "field 'format'"},
      {[](json& j) { j["version"] = 3; }, "field 'version'"},
      {[](json& j) { j["entries"][0].erase("times"); }, "field 'entries[0].times' is missing"},
      {[](json& j) { j["entries"][0]["times"] = json::array(); }, "field 'entries[0].times'"},
      {[](json& j) { j["entries"][0]["times"]["a"] = -2; }, "field 'entries[0].times.a' = -2"},
      {[](json& j) {
         j["entries"][1]["times"] = {{"c", 1.0}};
       },
       "lacks the entry's variant 'b'"},
      {[](json& j) { j["entries"][0]["runner_up"] = 5; }, "field 'entries[0].runner_up'"},
      {[](json& j) { j["entries"] = json::array(); }, "field 'entries'"},
      {[](json& j) { j["entries"][1].erase("variant"); }, "field 'entries[1].variant' is missing"},
      {[](json& j) { j["entries"][0]["batch"] = 0; }, "field 'entries[0].batch' = 0"},
      {[](json& j) { j["entries"][0]["spatial"] = "8"; }, "field 'entries[0].spatial'"},
      {[](json& j) { j["entries"][1]["channels"] = 7; }, "must be divisible by groups (3)"},
      {[](json& j) { j["entries"][0]["median_us"] = -1; }, "field 'entries[0].median_us'"},
      // A time of 0 is no measurement; it would win every shape it is in.
      {[](json& j) { j["entries"][0]["times"]["a"] = 0; }, "field 'entries[0].times.a' = 0"},
      {[](json& j) { j["entries"][1]["median_us"] = 0.0; }, "field 'entries[1].median_us' = 0"},
      {[](json& j) { j["complete"] = "no"; }, "field 'complete'"},
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

// Any node of a valid table replaced by a value of another type or range: read_dispatch_table
// accepts it or throws ConfigError naming the file, never another exception.
TEST(DispatchTable, MutatedTablesAreReadOrRefusedWithAConfigError) {
  TempDir dir("dispatch_mutate");
  DispatchTable t;
  t.entries.push_back(timed_entry("p", {2, 64, 256, 8}, {{"a", 3.0}, {"b", 4.0}}));
  t.entries.push_back(timed_entry("q", {4, 96, 1, 3}, {{"c", 1.5}}));
  const json good = table_to_json(t);
  const std::vector<json> values = {nullptr,
                                    true,
                                    -1,
                                    0,
                                    1,
                                    4294967296ull,
                                    1.5,
                                    -0.0,
                                    1e308,
                                    "",
                                    "x\n\x01y",
                                    json::array(),
                                    json::object(),
                                    json::array({1, "a"}),
                                    json{{"a", -1}}};
  // Every path into the document (objects and arrays), to pick from.
  std::vector<json::json_pointer> paths;
  std::function<void(const json&, const json::json_pointer&)> walk =
      [&](const json& j, const json::json_pointer& at) {
        paths.push_back(at);
        if (j.is_object())
          for (const auto& [k, v] : j.items()) walk(v, at / k);
        if (j.is_array())
          for (size_t i = 0; i < j.size(); ++i) walk(j[i], at / i);
      };
  walk(good, json::json_pointer());
  std::mt19937 rng(26);
  const std::string path = dir / "t.json";
  int refused = 0;
  for (int round = 0; round < 400; ++round) {
    json bad = good;
    for (int k = 0; k < 1 + int(rng() % 2); ++k) {
      const auto& at = paths[rng() % paths.size()];
      if (at.empty() || !bad.contains(at)) continue;
      bad[at] = values[rng() % values.size()];
    }
    std::ofstream(path) << bad.dump();
    try {
      read_dispatch_table(path);
    } catch (const ConfigError& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a ConfigError: " << e.what() << " on " << bad.dump();
    }
  }
  EXPECT_GT(refused, 200);
}

// A version-1 table (before `times`) still reads: its variant and runner-up are what it timed.
TEST(DispatchTable, ReadsVersionOneTablesAsTheirTwoTimedVariants) {
  TempDir dir("dispatch_v1");
  std::ofstream(dir / "t.json") << R"({"format": "gnbench-dispatch-table", "version": 1,
    "entries": [{"problem": "p", "batch": 2, "channels": 8, "spatial": 16, "groups": 2,
                 "variant": "a", "median_us": 3.0, "runner_up": "b", "runner_up_us": 4.5},
                {"problem": "q", "batch": 1, "channels": 4, "spatial": 1, "groups": 4,
                 "variant": "c", "median_us": 2.0}]})";
  const DispatchTable t = read_dispatch_table(dir / "t.json");
  ASSERT_EQ(t.entries.size(), 2u);
  EXPECT_EQ(t.entries[0].times_us, (std::map<std::string, double>{{"a", 3.0}, {"b", 4.5}}));
  EXPECT_EQ(t.entries[1].times_us, (std::map<std::string, double>{{"c", 2.0}}));
  // Written back as version 2 with the times.
  const json back = table_to_json(t);
  EXPECT_EQ(back["version"], 2);
  EXPECT_EQ(back["entries"][0]["times"]["b"], 4.5);
}

// Where the nearest shape's winner is barely ahead and loses badly on the next nearest shapes,
// the variant that is close to the fastest on all of them is chosen (the version-1 rule took
// the nearest winner).
TEST(DispatchTable, UnseenShapesTakeTheVariantFastestOverTheNearShapes) {
  DispatchTable t;
  t.entries.push_back(timed_entry("a", {8, 256, 1024, 32}, {{"x", 10.0}, {"y", 10.1}}));
  t.entries.push_back(timed_entry("b", {16, 256, 1024, 32}, {{"x", 40.0}, {"y", 20.0}}));
  t.entries.push_back(timed_entry("c", {4, 256, 1024, 32}, {{"x", 12.0}, {"y", 6.0}}));
  t.entries.push_back(timed_entry("far", {1, 4096, 1, 1}, {{"z", 1.0}}));
  auto all = [](const std::string&) { return true; };
  auto near_only = [](const std::string& v) { return v != "z"; };
  const auto c = choose_variant(t, {8, 256, 1024, 16}, near_only);
  EXPECT_EQ(c.variant, "y");
  // The evidence named: the nearest entry that timed it, the mean ratio, how many.
  EXPECT_EQ(c.how.rfind("nearest c (4x256x1024/32); 1.003x", 0), 0u) << c.how;
  EXPECT_NE(c.how.find("over 3 near shapes"), std::string::npos) << c.how;
  // The exact shape: its own fastest admitted variant, whatever its neighbours say.
  EXPECT_EQ(choose_variant(t, {8, 256, 1024, 32}, all).variant, "x");
  EXPECT_EQ(choose_variant(t, {8, 256, 1024, 32}, all).how, "exact");
  auto no_x = [](const std::string& v) { return v != "x"; };
  EXPECT_EQ(choose_variant(t, {8, 256, 1024, 32}, no_x).variant, "y");
  // Nothing near admitted: the search widens to every entry.
  auto only_z = [](const std::string& v) { return v == "z"; };
  EXPECT_EQ(choose_variant(t, {8, 256, 1024, 16}, only_z).variant, "z");
}

// Evidence is weighted by nearness: a variant 1.3x ahead on an entry 1-1.6 steps away beats one
// 3x ahead on two entries of another regime (ten or more steps away), which decide only when
// the near entry is missing. Generated around random shapes.
TEST(DispatchTable, NearEvidenceOutweighsFarEvidence) {
  std::mt19937 rng(39);
  for (int round = 0; round < 100; ++round) {
    const Shape target = random_shape(rng);
    Shape near = target;
    near.batch = target.batch > 1 ? target.batch / 2 : 2;  // regime distance 1 to 1.6
    auto far = [&](uint32_t factor) {
      Shape s = target;
      s.spatial *= factor;  // M and HW both 8+ steps away
      return s;
    };
    const Shape far_a = far(256), far_b = far(512);
    ASSERT_LE(regime_distance(target, near), 1.6);
    ASSERT_GE(regime_distance(target, far_a), 10.0);
    ASSERT_GE(regime_distance(target, far_b), 10.0);
    const double base = std::uniform_real_distribution<double>(1.0, 100.0)(rng);
    DispatchTable t;
    t.entries.push_back(timed_entry("fa", far_a, {{"x", 3 * base}, {"y", base}}));
    t.entries.push_back(timed_entry("fb", far_b, {{"x", 3 * base}, {"y", base}}));
    auto all = [](const std::string&) { return true; };
    EXPECT_EQ(choose_variant(t, target, all).variant, "y") << shape_label(target);
    t.entries.push_back(timed_entry("n", near, {{"x", base}, {"y", 1.3 * base}}));
    const auto c = choose_variant(t, target, all);
    EXPECT_EQ(c.variant, "x") << shape_label(target);
    EXPECT_EQ(c.how.rfind("nearest n (", 0), 0u) << c.how;
  }
}

// Generated tables: the choice is admitted whenever any timed variant is, an exact shape gets
// its fastest admitted variant, a variant fastest everywhere wins everywhere, and scaling one
// entry's times (another clock) changes nothing.
TEST(DispatchTable, GeneratedTablesChooseAdmittedRankedVariants) {
  std::mt19937 rng(20261204);
  const std::vector<std::string> names = {"v0", "v1", "v2", "v3", "v4", "v5"};
  for (int round = 0; round < 200; ++round) {
    DispatchTable t;
    const int n = std::uniform_int_distribution<int>(1, 30)(rng);
    std::uniform_real_distribution<double> us(1.0, 100.0);
    for (int i = 0; i < n; ++i) {
      std::map<std::string, double> times;
      for (const auto& v : names)
        if (rng() % 2) times[v] = us(rng);
      if (times.empty()) times["v0"] = us(rng);
      t.entries.push_back(timed_entry("e" + std::to_string(i), random_shape(rng), times));
    }
    std::set<std::string> refused;
    for (const auto& v : names)
      if (rng() % 3 == 0) refused.insert(v);
    auto admits = [&](const std::string& v) { return !refused.count(v); };
    std::set<std::string> timed_ok;
    for (const auto& e : t.entries)
      for (const auto& [v, x] : e.times_us)
        if (admits(v)) timed_ok.insert(v);
    const Shape unseen = random_shape(rng);
    const auto c = choose_variant(t, unseen, admits);
    EXPECT_EQ(c.variant.empty(), timed_ok.empty());
    if (!c.variant.empty()) {
      EXPECT_TRUE(admits(c.variant)) << c.variant;
    }

    const DispatchEntry& e = t.entries[rng() % t.entries.size()];
    const auto exact = choose_variant(t, e.shape, admits);
    std::string fastest;
    for (const auto& [v, x] : e.times_us)
      if (admits(v) && (fastest.empty() || x < e.times_us.at(fastest))) fastest = v;
    if (!fastest.empty()) {
      // Another entry of the same shape earlier in the table may answer first.
      const bool first = &*std::find_if(t.entries.begin(), t.entries.end(),
                                        [&](const auto& x) { return x.shape == e.shape; }) == &e;
      if (first) {
        EXPECT_EQ(exact.variant, fastest);
      }
      EXPECT_EQ(exact.how, "exact");
    }

    DispatchTable scaled = t;
    for (auto& x : scaled.entries) {
      const double k = std::uniform_real_distribution<double>(0.1, 10.0)(rng);
      for (auto& [v, time] : x.times_us) time *= k;
    }
    EXPECT_EQ(choose_variant(scaled, unseen, admits).variant, c.variant);

    // "best" timed everywhere and fastest everywhere: chosen for any shape.
    DispatchTable dominated = t;
    for (auto& x : dominated.entries) x.times_us["best"] = 0.5;
    EXPECT_EQ(choose_variant(dominated, unseen, admits).variant, "best");
  }
}

TEST(DispatchTable, MergesLaterFilesAndDropsUnknownVariants) {
  DispatchTable a, b;
  a.device = b.device = "gpu";
  a.subgroup_size = b.subgroup_size = 32;
  a.timing_mode = b.timing_mode = "hot";
  a.gnbench_revision = "r1";
  b.gnbench_revision = "r2";
  a.entries.push_back(timed_entry("s", {2, 8, 16, 2}, {{"old", 1.0}, {"gone", 0.5}}));
  a.entries.push_back(timed_entry("t", {4, 8, 16, 2}, {{"gone", 2.0}}));
  b.entries.push_back(timed_entry("s2", {2, 8, 16, 2}, {{"new", 3.0}, {"old", 4.0}}));
  b.entries.push_back(timed_entry("u", {1, 4, 1, 4}, {{"new", 1.0}}));
  DispatchTable other_device = b;
  other_device.device = "cpu";
  DispatchTable merged = a;
  EXPECT_THROW(merge_tables(merged, other_device, "x.json"), ConfigError);
  merge_tables(merged, b, "b.json");
  ASSERT_EQ(merged.entries.size(), 3u);
  EXPECT_EQ(merged.entries[0].problem, "s2");  // the later file's measurement of the shape
  EXPECT_EQ(merged.entries[0].variant, "new");
  EXPECT_EQ(merged.gnbench_revision, "r1, r2");
  const auto dropped = keep_known_variants(merged, [](const std::string& v) { return v != "new"; });
  EXPECT_EQ(dropped, (std::vector<std::string>{"new"}));
  ASSERT_EQ(merged.entries.size(), 2u);  // u timed only "new"
  EXPECT_EQ(merged.entries[0].variant, "old");
  EXPECT_DOUBLE_EQ(merged.entries[0].median_us, 4.0);
  EXPECT_TRUE(merged.entries[0].runner_up.empty());
  EXPECT_EQ(merged.entries[1].variant, "gone");

  // One results file naming a shape twice: one entry, each variant at its lower median, the
  // name of the faster measurement.
  RunRecords r;
  const Shape s{2, 64, 256, 8};
  r.entries.push_back(timed("p", s, "a", Verdict::kPass, 10e3));
  r.entries.push_back(timed("p", s, "b", Verdict::kPass, 12e3));
  r.entries.push_back(timed("q", s, "a", Verdict::kPass, 9e3));
  r.entries.push_back(timed("q", s, "c", Verdict::kPass, 20e3));
  const DispatchTable one = table_from_records(r, "hot", "r.json");
  ASSERT_EQ(one.entries.size(), 1u);
  EXPECT_EQ(one.entries[0].problem, "q");
  EXPECT_EQ(one.entries[0].variant, "a");
  EXPECT_EQ(one.entries[0].runner_up, "b");
  EXPECT_EQ(one.entries[0].times_us,
            (std::map<std::string, double>{{"a", 9.0}, {"b", 12.0}, {"c", 20.0}}));

  // An interrupted run: a problem that got fewer variants than the others (stopped between
  // them) is left out, not given a choice among the variants that ran.
  RunRecords stopped;
  stopped.context.complete = false;
  const Shape s2{4, 32, 100, 4};
  for (const char* v : {"a", "b", "c"})
    stopped.entries.push_back(timed("done", s, v, Verdict::kPass, v[0] == 'b' ? 5e3 : 8e3));
  stopped.entries.push_back(timed("half", s2, "a", Verdict::kPass, 30e3));
  const DispatchTable partial = table_from_records(stopped, "hot", "stopped.json");
  EXPECT_FALSE(partial.complete);
  ASSERT_EQ(partial.entries.size(), 1u);
  EXPECT_EQ(partial.entries[0].problem, "done");
  EXPECT_EQ(partial.entries[0].variant, "b");
}

// tune --fill-from: another device's entries go in for the shapes the table lacks, and only
// those; each says which device timed it (in the file and in the choice's `how`), and tables
// timed two ways or at two subgroup sizes are refused. Generated tables.
TEST(DispatchTable, FillsTheShapesItLacksFromAnotherDevice) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  for (int draw = 0; draw < 20; ++draw) {
    DispatchTable mine, other;
    mine.device = "gpu a";
    other.device = "gpu b";
    mine.subgroup_size = other.subgroup_size = 32;
    mine.timing_mode = other.timing_mode = "hot";
    mine.gnbench_revision = "r1";
    other.gnbench_revision = "r2";
    std::vector<Shape> shapes;
    while (shapes.size() < 12) {
      const Shape s = random_shape(rng);
      if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
    }
    // Shapes 0-5 timed here, 4-11 there: 4 and 5 on both.
    for (size_t i = 0; i < 6; ++i)
      mine.entries.push_back(timed_entry("m" + std::to_string(i), shapes[i], {{"a", 1.0}}));
    for (size_t i = 4; i < 12; ++i)
      other.entries.push_back(
          timed_entry("o" + std::to_string(i), shapes[i], {{"a", 2.0}, {"b", 1.0}}));
    DispatchTable filled = mine;
    EXPECT_EQ(fill_table(filled, other, "o.json"), 6u);
    ASSERT_EQ(filled.entries.size(), 12u);
    for (size_t i = 0; i < 12; ++i) {
      const DispatchEntry& e = filled.entries[i];
      EXPECT_EQ(e.shape, shapes[i]);
      EXPECT_EQ(e.device, i < 6 ? "" : "gpu b");  // this device's own measurement kept
      EXPECT_EQ(e.variant, i < 6 ? "a" : "b");
    }
    EXPECT_EQ(filled.device, "gpu a");
    EXPECT_EQ(filled.gnbench_revision, "r1, r2");
    auto all = [](const std::string&) { return true; };
    EXPECT_EQ(choose_variant(filled, shapes[4], all).how, "exact");
    EXPECT_EQ(choose_variant(filled, shapes[9], all).how, "exact, timed on gpu b");
    // It survives a round trip; a table without the field reads as this device's.
    TempDir dir("table_fill");
    std::ofstream(dir / "t.json") << table_to_json(filled).dump();
    const DispatchTable read = read_dispatch_table(dir / "t.json");
    ASSERT_EQ(read.entries.size(), 12u);
    for (size_t i = 0; i < 12; ++i) EXPECT_EQ(read.entries[i].device, filled.entries[i].device);
    // The same device's file fills without naming it; two kinds of timing never mix.
    DispatchTable same = mine, same_device = other;
    same_device.device = mine.device;
    fill_table(same, same_device, "s.json");
    for (const auto& e : same.entries) EXPECT_TRUE(e.device.empty());
    DispatchTable cold = other, sg8 = other;
    cold.timing_mode = "cold";
    sg8.subgroup_size = 8;
    for (const DispatchTable* bad : {&cold, &sg8}) {
      DispatchTable t = mine;
      try {
        fill_table(t, *bad, "bad.json");
        ADD_FAILURE() << "filled from " << bad->timing_mode << " sg " << bad->subgroup_size;
      } catch (const ConfigError& err) {
        EXPECT_EQ(std::string(err.what()).rfind("bad.json: measured with ", 0), 0u) << err.what();
      }
      EXPECT_EQ(t.entries.size(), mine.entries.size());
    }
  }
  // A nearest choice made on another device's entry says so.
  DispatchTable t = table_of({{{8, 320, 4096, 32}, "big"}});
  t.entries[0].device = "gpu b";
  const auto c = choose_variant(t, {4, 320, 4096, 32}, [](const std::string&) { return true; });
  EXPECT_EQ(c.how.rfind("nearest p0 (8x320x4096/32) on gpu b; ", 0), 0u) << c.how;
}

// A table records how its medians were taken, as the results file did, for the mode it ranks
// by; tables of two kinds are never merged (their medians are not like for like).
TEST(DispatchTable, RecordsTheSourcesTimingAndRefusesToMergeTwoKinds) {
  std::mt19937 rng(20);
  for (int draw = 0; draw < 20; ++draw) {
    const uint32_t k = std::uniform_int_distribution<uint32_t>(2, 1000)(rng);
    const bool stages = draw % 3 == 0, fill = draw % 2 == 0;
    RunRecords r;
    r.context.timing_mode = std::string("cold+hot") + (stages ? "+stage-times" : "") +
                            "+hot-batch" + std::to_string(k) + (fill ? "+fill-flush" : "");
    EntryRecord e = timed("p", {2, 8, 16, 2}, "a", Verdict::kPass, 1e3);
    e.cold = e.hot;
    r.entries.push_back(e);
    const std::string s = stages ? "+stage-times" : "";
    DispatchTable hot = table_from_records(r, "hot", "r.json");
    EXPECT_EQ(hot.timing_mode, "hot" + s + "+hot-batch" + std::to_string(k))
        << r.context.timing_mode;
    EXPECT_EQ(table_from_records(r, "cold", "r.json").timing_mode,
              "cold" + s + (fill ? "+fill-flush" : ""))
        << r.context.timing_mode;
    // It survives a round trip, and a one-run hot table of the same device does not merge in.
    TempDir dir("table_mode");
    std::ofstream(dir / "t.json") << table_to_json(hot).dump();
    DispatchTable read = read_dispatch_table(dir / "t.json");
    EXPECT_EQ(read.timing_mode, hot.timing_mode);
    RunRecords one_run = r;
    one_run.context.timing_mode = "hot";
    try {
      merge_tables(read, table_from_records(one_run, "hot", "one.json"), "one.json");
      ADD_FAILURE() << "merged " << hot.timing_mode << " with hot";
    } catch (const ConfigError& err) {
      EXPECT_NE(std::string(err.what()).find("one.json: measured with timing mode hot"),
                std::string::npos)
          << err.what();
    }
  }
}

// models.json: enough shapes, each with its source, loadable, and covering the regimes the
// kernels have to meet (issue 20).
TEST(ModelsConfig, PublishedShapesWithSourcesCoverTheRegimes) {
  const std::string path = kSourceDir + "/configs/models.json";
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

// A stopped tune writes the table of what finished, marked incomplete (run --variant best warns
// when it reads one); stopped before any entry was timed, it writes none and still exits 130.
TEST(TuneCli, AnInterruptedTuneSaysSo) {
  TempDir dir("tune_stop");
  const std::string long_config = testing::write_long_config(dir.path());
  const std::string table = dir / "t.json";
  testing::RunResult r;
  for (double delay : {4.0, 8.0, 20.0}) {  // a loaded machine may time nothing in 4 s
    fs::remove(table);
    r = run_gnbench(
        RunSpec({"tune", long_config, "--json", table, "--variant", "seed", "--samples", "2", "-q"},
                120, delay));
    if (fs::exists(table)) break;
  }
  SCOPED_TRACE(r.describe());
  EXPECT_EQ(r.exit_code, 130);
  ASSERT_TRUE(fs::exists(table));
  const DispatchTable t = read_dispatch_table(table);
  EXPECT_FALSE(t.complete);
  EXPECT_LT(t.entries.size(), 192u);
  EXPECT_NE(r.out.find("incomplete: the run was interrupted"), std::string::npos);
  auto best = run_gnbench(RunSpec({"run", long_config, "--problem", t.entries[0].problem,
                                   "--variant", "best", "--table", table, "--no-timing", "-q"},
                                  120));
  EXPECT_EQ(best.exit_code, 0) << best.describe();
  EXPECT_NE(best.err.find("written from an interrupted run"), std::string::npos) << best.err;

  fs::remove(table);
  auto early = run_gnbench(
      RunSpec({"tune", long_config, "--json", table, "--variant", "seed", "--samples", "2", "-q"},
              120, 0.2));
  EXPECT_EQ(early.exit_code, 130) << early.describe();
  if (!fs::exists(table))
    EXPECT_NE(early.err.find("no dispatch table written"), std::string::npos) << early.err;
}

// tune's --max-noise is a percent, as run's is: 150 is out of range, 0.5 is half a percent.
TEST(TuneCli, MaxNoiseIsAPercentAsInRun) {
  TempDir dir("tune_noise");
  std::ofstream(dir / "c.json")
      << R"({"problems": [{"name": "p", "batch": 2, "channels": 16, "spatial": 16, "groups": 4}]})";
  auto high = run_gnbench(
      RunSpec({"tune", dir / "c.json", "--json", dir / "t.json", "--max-noise", "150"}, 60));
  EXPECT_EQ(high.exit_code, 2) << high.describe();
  // The table and the run's results file are never one file (the table would replace it).
  auto same = run_gnbench(RunSpec({"tune", dir / "c.json", "--json", dir / "t.json", "--results",
                                   dir.path().string() + "/./t.json"},
                                  60));
  EXPECT_EQ(same.exit_code, 2) << same.describe();
  EXPECT_NE(same.err.find("same file"), std::string::npos) << same.err;
  auto help = run_gnbench(RunSpec({"tune", "--help"}, 60));
  EXPECT_NE(help.out.find("in percent"), std::string::npos) << help.out;
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
  // Several files: a shape in both takes the later file's entry; the times come along.
  auto two = run_gnbench(RunSpec(
      {"tune", "--from", dir / "r.json", "--from", dir / "r.json", "--json", dir / "t3.json", "-q"},
      60));
  ASSERT_EQ(two.exit_code, 0) << two.describe();
  const DispatchTable t3 = read_dispatch_table(dir / "t3.json");
  ASSERT_EQ(t3.entries.size(), 2u);
  EXPECT_EQ(t3.entries[0].times_us, t.entries[0].times_us);
  EXPECT_GE(t3.entries[0].times_us.size(), 2u);

  // --fill-from: the same file as another device's with "img" at batch 3, a shape the table
  // lacks: it comes in, naming that device; "flat", timed here too, keeps this device's entry.
  std::ifstream r_in(dir / "r.json");
  json other = json::parse(r_in);
  other["context"]["gnbench"]["device"]["name"] = "Other GPU";
  for (auto& e : other["benchmarks"])
    if (e.contains("gnbench") && e["gnbench"]["problem"]["name"] == "img")
      e["gnbench"]["problem"]["batch"] = 3;
  std::ofstream(dir / "other.json") << other.dump();
  auto filled = run_gnbench(RunSpec({"tune", "--from", dir / "r.json", "--fill-from",
                                     dir / "other.json", "--json", dir / "t6.json", "-q"},
                                    60));
  ASSERT_EQ(filled.exit_code, 0) << filled.describe();
  EXPECT_NE(filled.out.find("3 shape(s) (1 timed on Other GPU)"), std::string::npos) << filled.out;
  const DispatchTable t6 = read_dispatch_table(dir / "t6.json");
  ASSERT_EQ(t6.entries.size(), 3u);
  EXPECT_EQ(t6.device, t.device);
  EXPECT_EQ(t6.entries[0].device, "");
  EXPECT_EQ(t6.entries[1].device, "");
  EXPECT_EQ(t6.entries[2].device, "Other GPU");
  EXPECT_EQ(t6.entries[2].shape, (Shape{3, 16, 16, 4}));
  // Timed another way (hot samples of 5 runs): refused, naming the file; no table written.
  other["context"]["gnbench"]["timing_mode"] = "hot+hot-batch5";
  std::ofstream(dir / "batched.json") << other.dump();
  auto mixed = run_gnbench(RunSpec({"tune", "--from", dir / "r.json", "--fill-from",
                                    dir / "batched.json", "--json", dir / "t7.json", "-q"},
                                   60));
  EXPECT_EQ(mixed.exit_code, 2) << mixed.describe();
  EXPECT_NE(mixed.err.find("batched.json: measured with timing mode hot+hot-batch5"),
            std::string::npos)
      << mixed.describe();
  EXPECT_FALSE(fs::exists(dir / "t7.json"));

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
  // --list plans what the run does: the choice per problem runs, the rest are "not chosen".
  auto list = run_gnbench(RunSpec(
      {"run", dir / "u.json", "--variant", "best", "--table", dir / "t.json", "--list"}, 120));
  ASSERT_EQ(list.exit_code, 0) << list.describe();
  EXPECT_NE(list.out.find(" 2 would run, "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find(" not chosen (--variant best)"), std::string::npos) << list.out;
  for (const std::string problem : {"flat", "unseen_flat"}) {
    const std::string row =
        "(^|\n)" + problem + " .*" + choices[problem]["variant"].get<std::string>() + " +run";
    EXPECT_TRUE(std::regex_search(list.out, std::regex(row))) << row << "\n" << list.out;
  }

  // A table that also times a build this gnbench lacks still runs, naming what it left out;
  // one that times nothing this gnbench builds is a usage error.
  std::ifstream tin(dir / "t.json");
  json table = json::parse(tin);
  table["entries"][0]["times"]["gn_retired_build"] = 0.001;
  std::ofstream(dir / "t4.json") << table.dump();
  auto retired = run_gnbench(RunSpec(
      {"run", dir / "u.json", "--variant", "best", "--table", dir / "t4.json", "--no-timing", "-q"},
      120));
  EXPECT_EQ(retired.exit_code, 0) << retired.describe();
  EXPECT_NE(retired.err.find("does not build, left out: gn_retired_build"), std::string::npos)
      << retired.describe();
  for (auto& e : table["entries"]) {
    e["variant"] = "gn_retired_build";
    e["times"] = {{"gn_retired_build", 1.0}};
  }
  std::ofstream(dir / "t5.json") << table.dump();
  auto none = run_gnbench(RunSpec(
      {"run", dir / "u.json", "--variant", "best", "--table", dir / "t5.json", "--no-timing"}, 60));
  EXPECT_EQ(none.exit_code, 2) << none.describe();
  EXPECT_NE(none.err.find("no entry times a variant this gnbench builds"), std::string::npos)
      << none.describe();
}

// tune --hot-batch K times hot samples as run --hot-batch does and the table says so; a table
// built from results files keeps how they were timed, and files timed two ways do not merge.
TEST(TuneCli, HotBatchIsRecordedInTheTable) {
  TempDir dir("tune_batch");
  std::ofstream(dir / "c.json")
      << R"({"problems": [{"name": "p", "batch": 2, "channels": 16, "spatial": 16, "groups": 4}]})";
  const uint32_t k = 2 + std::random_device{}() % 30;
  SCOPED_TRACE("K = " + std::to_string(k));
  auto tune = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args{"tune",      dir / "c.json",
                                  "--json",    dir / (name + ".json"),
                                  "--variant", "seed",
                                  "--samples", "2",
                                  "--results", dir / ("r" + name + ".json"),
                                  "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_gnbench(RunSpec(args, 120));
  };
  const auto batched = tune("tb", {"--hot-batch", std::to_string(k)});
  ASSERT_EQ(batched.exit_code, 0) << batched.describe();
  const std::string mode = "hot+hot-batch" + std::to_string(k);
  EXPECT_EQ(read_dispatch_table(dir / "tb.json").timing_mode, mode);
  EXPECT_NE(batched.out.find(mode + " medians"), std::string::npos) << batched.out;
  const auto single = tune("t1", {});
  ASSERT_EQ(single.exit_code, 0) << single.describe();
  EXPECT_EQ(read_dispatch_table(dir / "t1.json").timing_mode, "hot");

  auto from = run_gnbench(
      RunSpec({"tune", "--from", dir / "rtb.json", "--json", dir / "f.json", "-q"}, 60));
  ASSERT_EQ(from.exit_code, 0) << from.describe();
  EXPECT_EQ(read_dispatch_table(dir / "f.json").timing_mode, mode);
  auto mixed = run_gnbench(RunSpec({"tune", "--from", dir / "rtb.json", "--from", dir / "rt1.json",
                                    "--json", dir / "m.json", "-q"},
                                   60));
  EXPECT_EQ(mixed.exit_code, 2) << mixed.describe();
  EXPECT_NE(mixed.err.find("timing mode hot, the tables before it " + mode), std::string::npos)
      << mixed.err;
  EXPECT_FALSE(fs::exists(dir / "m.json"));
}

TEST(TuneCli, UsageErrorsAreOneLineExit2) {
  TempDir dir("tune_usage");
  const std::string cfg = kSourceDir + "/configs/default.json";
  std::ofstream(dir / "bad.json") << R"({"format": "gnbench-dispatch-table", "version": 1,
    "entries": [{"problem": "x", "batch": 1, "channels": 4, "spatial": 1, "groups": 2}]})";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", cfg, "--variant", "best"}, "--variant best needs --table"},
      {{"run", cfg, "--table", dir / "bad.json"}, "--table needs --variant best"},
      {{"run", cfg, "--variant", "best", "--table", dir / "bad.json"},
       "field 'entries[0].variant' is missing"},
      {{"tune", "--json", dir / "t.json"}, "no problems"},
      {{"tune", cfg, "--from", dir / "bad.json", "--json", dir / "t.json"}, "not both"},
      {{"tune", cfg, "--json", dir / "t.json", "--mode", "cold", "--hot-batch", "2"},
       "give --mode hot (the mode is cold)"},
      {{"tune", "--from", dir / "bad.json", "--json", dir / "t.json", "--hot-batch", "5"},
       "--from reads results files"},
      {{"tune", cfg, "--fill-from", dir / "none.json", "--json", dir / "t.json"}, "none.json"},
      {{"tune", cfg, "--fill-from", dir / "bad.json", "--json", dir / "t.json"}, "bad.json"},
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
