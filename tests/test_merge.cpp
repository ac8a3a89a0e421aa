#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "base/errors.hpp"
#include "base/read_file.hpp"
#include "cli/compare/merge.hpp"
#include "cli/report/gzip_text.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {
namespace {

EntryRecord merge_entry(const std::string& problem, const std::string& variant,
                        double median_ns = 1e3) {
  EntryRecord e;
  e.problem.name = problem;
  e.problem.shape = {2, 8, 16, 4};
  e.variant = variant;
  e.verdict = Verdict::kPass;
  e.trials = 1;
  TimingResult t;
  t.mode = "cold";
  t.samples_ns = {median_ns, median_ns};
  t.total = summarize(t.samples_ns);
  e.cold = t;
  return e;
}

MergeInput input(const std::string& source, std::vector<EntryRecord> entries,
                 const std::string& fingerprint = "dev-a") {
  MergeInput in{source, {}};
  in.records.context.device = {{"name", "Test GPU"}};
  in.records.context.device_fingerprint = fingerprint;
  in.records.context.timing_mode = "cold";
  in.records.context.configs = {source + ".config"};
  in.records.context.command_line = "gnbench run " + source;
  in.records.entries = std::move(entries);
  return in;
}

std::vector<std::string> names(const RunRecords& r) {
  std::vector<std::string> out;
  for (const auto& e : r.entries) out.push_back(e.name());
  return out;
}

TEST(Merge, ConcatenatesInOrderWithTheFirstContext) {
  auto a = input("a.json", {merge_entry("p1", "v"), merge_entry("p3", "v")});
  a.records.context.shard = "1/2";
  a.records.context.copy_gbps = 42;
  auto b = input("b.json", {merge_entry("p2", "v")});
  b.records.context.shard = "2/2";
  RunRecords m = merge_runs({a, b}, {});
  EXPECT_EQ(names(m), (std::vector<std::string>{"p1/v", "p3/v", "p2/v"}));
  EXPECT_EQ(m.context.command_line, "gnbench run a.json");
  EXPECT_EQ(m.context.copy_gbps, 42);
  EXPECT_EQ(m.context.merged_from, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(m.context.configs, (std::vector<std::string>{"a.json.config", "b.json.config"}));
  EXPECT_TRUE(m.context.shard.empty());
  EXPECT_TRUE(m.context.complete);
}

TEST(Merge, IdenticalRepeatsAreKeptOnce) {
  auto a = input("a.json", {merge_entry("p", "v")});
  auto b = input("b.json", {merge_entry("p", "v"), merge_entry("q", "v")});
  RunRecords m = merge_runs({a, b}, {});
  EXPECT_EQ(names(m), (std::vector<std::string>{"p/v", "q/v"}));
}

TEST(Merge, DifferentResultsForOneEntryAreAnError) {
  auto a = input("a.json", {merge_entry("p", "v", 1e3)});
  auto b = input("b.json", {merge_entry("p", "v", 2e3)});
  try {
    merge_runs({a, b}, {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("p/v"), std::string::npos) << what;
    EXPECT_NE(what.find("a.json"), std::string::npos) << what;
    EXPECT_NE(what.find("b.json"), std::string::npos) << what;
  }
}

TEST(Merge, OneProblemNameWithTwoDefinitionsIsAnError) {
  auto a = input("a.json", {merge_entry("p", "v1")});
  auto b = input("b.json", {merge_entry("p", "v2")});
  b.records.entries[0].problem.shape.batch = 4;
  EXPECT_THROW(merge_runs({a, b}, {}), ConfigError);
}

TEST(Merge, DifferentDevicesNeedIgnoreDevice) {
  auto a = input("a.json", {merge_entry("p", "v")}, "dev-a");
  auto b = input("b.json", {merge_entry("q", "v")}, "dev-b");
  EXPECT_THROW(merge_runs({a, b}, {}), ConfigError);
  std::vector<std::string> warnings;
  RunRecords m = merge_runs({a, b}, {.ignore_device = true}, &warnings);
  EXPECT_EQ(m.entries.size(), 2u);
  EXPECT_EQ(m.context.device_fingerprint, "dev-a");
  EXPECT_FALSE(warnings.empty());
}

TEST(Merge, IncompleteInputsAndMixedModesAreCarried) {
  auto a = input("a.json", {merge_entry("p", "v")});
  auto b = input("b.json", {merge_entry("q", "v")});
  b.records.context.complete = false;
  b.records.context.timing_mode = "hot";
  std::vector<std::string> warnings;
  RunRecords m = merge_runs({a, b}, {}, &warnings);
  EXPECT_FALSE(m.context.complete);
  EXPECT_EQ(m.context.timing_mode, "mixed");
  EXPECT_EQ(warnings.size(), 2u);
}

TEST(Merge, MergingMergesFlattensTheSourceList) {
  RunRecords ab = merge_runs(
      {input("a.json", {merge_entry("p", "v")}), input("b.json", {merge_entry("q", "v")})}, {});
  MergeInput abin{"ab.json", ab};
  RunRecords m = merge_runs({abin, input("c.json", {merge_entry("r", "v")})}, {});
  EXPECT_EQ(m.context.merged_from, (std::vector<std::string>{"a.json", "b.json", "c.json"}));
}

TEST(Merge, ShardAndSourcesSurviveTheResultsFile) {
  RunRecords r = input("a.json", {merge_entry("p", "v")}).records;
  r.context.shard = "2/3";
  r.context.merged_from = {"x.json", "y.json"};
  RunRecords back = results_from_json(results_to_json(r), "test");
  EXPECT_EQ(back.context.shard, "2/3");
  EXPECT_EQ(back.context.merged_from, r.context.merged_from);
  // Absent in plain files.
  nlohmann::json plain = results_to_json(input("a.json", {}).records);
  EXPECT_FALSE(plain["context"]["gnbench"].contains("shard"));
  EXPECT_FALSE(plain["context"]["gnbench"].contains("merged_from"));
}

TEST(Merge, PipelineStatisticsAreUnitedAndSurviveTheResultsFile) {
  auto a = input("a.json", {merge_entry("p", "v")});
  a.records.context.pipeline_statistics = {{"v", {{"group", {{"Register Count", 64}}}}}};
  auto b = input("b.json", {merge_entry("q", "w")});
  b.records.context.pipeline_statistics = {{"w", {{"group", {{"Register Count", 40}}}}}};
  RunRecords m = merge_runs({a, b}, {});
  EXPECT_EQ(m.context.pipeline_statistics["v"]["group"]["Register Count"], 64);
  EXPECT_EQ(m.context.pipeline_statistics["w"]["group"]["Register Count"], 40);
  RunRecords back = results_from_json(results_to_json(m), "test");
  EXPECT_EQ(back.context.pipeline_statistics, m.context.pipeline_statistics);
  // Absent where the device reports none.
  nlohmann::json plain = results_to_json(input("c.json", {}).records);
  EXPECT_FALSE(plain["context"]["gnbench"].contains("pipeline_statistics"));
}

MergeInput measured(const std::string& source, double gbps, std::vector<EntryRecord> entries,
                    const std::string& fingerprint = "dev-a") {
  MergeInput in = input(source, std::move(entries), fingerprint);
  in.records.context.copy_gbps = gbps;
  in.records.context.copy_bandwidth = {
      {"gbps", gbps}, {"source", "measured"}, {"probes_gbps", {gbps}}};
  derive_figures(in.records);
  return in;
}

// Shards of one device whose copy probes read differently (a low probe, a shard stopped before
// its second probe): the merged % of copy is against the highest reading, as within one run; a
// file from another device does not count; an entry in two shards is still one result.
TEST(Merge, TheHighestCopyReadingOfTheDeviceCounts) {
  const unsigned seed = std::random_device{}();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> reading(1000, 4000);
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round));
    const int shards = 2 + int(rng() % 5);
    std::vector<MergeInput> inputs;
    double best = 0, lowest = 1e9;
    for (int k = 0; k < shards; ++k) {
      EntryRecord e = merge_entry("p" + std::to_string(k), "v", 1e3 + double(rng() % 1000));
      e.required_bytes = 1 + rng() % 100000000;
      EntryRecord shared = merge_entry("common", "v", 2e3);
      shared.required_bytes = 4000000;
      const double gbps = reading(rng);
      best = std::max(best, gbps);
      lowest = std::min(lowest, gbps);
      inputs.push_back(measured("s" + std::to_string(k) + ".json", gbps, {e, shared}));
    }
    // Another device, faster still: not this device's copy bandwidth.
    inputs.push_back(measured("other.json", 9000, {merge_entry("q", "v")}, "dev-b"));
    std::vector<std::string> warnings;
    RunRecords m = merge_runs(inputs, {.ignore_device = true}, &warnings);
    EXPECT_EQ(m.context.copy_gbps, best);
    EXPECT_EQ(m.context.copy_bandwidth["gbps"], best);
    EXPECT_EQ(m.context.copy_bandwidth["probes_gbps"].size(), size_t(shards));
    EXPECT_EQ(m.entries.size(), size_t(shards) + 2);  // "common" once
    for (const EntryRecord& e : m.entries) {
      if (e.problem.name == "q" || !e.required_bytes) continue;
      const double gbps = double(e.required_bytes) / e.cold->total.median;
      EXPECT_DOUBLE_EQ(e.cold->throughput.pct_copy, 100 * gbps / best) << e.name();
    }
    const bool spread = lowest < 0.95 * best;
    const bool warned = std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
      return w.find("highest reading") != std::string::npos;
    });
    EXPECT_EQ(warned, spread);
    // The merged file says the same when read back.
    RunRecords back = results_from_json(results_to_json(m), "test");
    EXPECT_EQ(back.context.copy_gbps, best);
  }
}

TEST(Merge, AGivenCopyFigureStandsForEveryFile) {
  auto a = measured("a.json", 3000, {merge_entry("p", "v")});
  auto b = measured("b.json", 2500, {merge_entry("q", "v")});
  b.records.context.copy_bandwidth = {{"gbps", 2500}, {"source", "given"}};
  std::vector<std::string> warnings;
  RunRecords m = merge_runs({a, b}, {}, &warnings);
  EXPECT_EQ(m.context.copy_gbps, 2500);
  EXPECT_EQ(m.context.copy_bandwidth["source"], "given");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("a.json"), std::string::npos) << warnings[0];
}

TEST(Merge, NothingToMergeIsAnError) { EXPECT_THROW(merge_runs({}, {}), ConfigError); }

// Results written to a .gz name are gzip, read back as they were written; other names as given.
TEST(GzipText, NamedGzRoundTripsOtherNamesAsGiven) {
  std::mt19937 rng(std::random_device{}());
  for (int round = 0; round < 20; ++round) {
    std::string text(std::uniform_int_distribution<size_t>(0, 200000)(rng), ' ');
    const char alphabet[] = "{}[]\":,0123456789.e-abc \n";
    for (char& c : text) c = alphabet[rng() % (sizeof alphabet - 1)];
    const std::string gz = gzip_if_named("r.json.gz", text);
    ASSERT_GE(gz.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
    EXPECT_EQ(gunzip_if_compressed(gz, "r.json.gz", kMaxResultsBytes), text);
    EXPECT_EQ(gzip_if_named("r.json", text), text);
    EXPECT_EQ(gzip_if_named("-", text), text);
  }
}

// Several members read as one text (as gzip -d does); anything else after the data, or a text
// past the bound, is refused, never dropped or inflated without end.
TEST(GzipText, MembersTrailingBytesAndTheBound) {
  std::mt19937 rng(std::random_device{}());
  for (int round = 0; round < 20; ++round) {
    std::string a(rng() % 5000, 'a'), b(rng() % 5000, 'b');
    const std::string gz = gzip_if_named("r.gz", a) + gzip_if_named("r.gz", b);
    EXPECT_EQ(gunzip_if_compressed(gz, "r.gz", kMaxResultsBytes), a + b);
    std::string junk(1 + rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    if (junk.size() >= 2 && static_cast<unsigned char>(junk[0]) == 0x1f) junk[0] = 'x';
    const std::string err = [&] {
      try {
        gunzip_if_compressed(gz + junk, "r.gz", kMaxResultsBytes);
      } catch (const ConfigError& e) {
        return std::string(e.what());
      }
      return std::string();
    }();
    EXPECT_NE(err.find("after the end of the gzip data"), std::string::npos) << err;
  }
  const std::string big(3 << 20, '0');  // inflates past a 2 MiB bound, from a few KB
  EXPECT_THROW(gunzip_if_compressed(gzip_if_named("r.gz", big), "r.gz", 2 << 20), ConfigError);
  EXPECT_EQ(gunzip_if_compressed(gzip_if_named("r.gz", big), "r.gz", 3 << 20), big);
}

}  // namespace
}  // namespace gnbench
