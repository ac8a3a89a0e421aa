// compare for people: the text report (interval and p, collapsed rows, geometric mean),
// --variants within one file, and results files read back from .json.gz.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <random>
#include <sstream>

#include "base/errors.hpp"
#include "cli/commands/commands.hpp"
#include "cli/compare/variant_pairs.hpp"
#include "cli/report/results_json.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

EntryRecord report_entry(const std::string& problem, const std::string& variant, double median_ns,
                         Verdict verdict = Verdict::kPass) {
  EntryRecord e;
  e.problem.name = problem;
  e.problem.shape = {2, 8, 16, 4};
  e.variant = variant;
  e.verdict = verdict;
  e.trials = verdict == Verdict::kSkipped ? 0 : 1;  // a judged entry ran at least once
  if (median_ns > 0) {
    TimingResult t;
    t.mode = "cold";
    for (int i = 0; i < 30; ++i) t.samples_ns.push_back(median_ns * (1 + 0.001 * (i % 7 - 3)));
    t.total = summarize(t.samples_ns);
    e.cold = t;
  }
  return e;
}

RunRecords records_of(std::vector<EntryRecord> entries) {
  RunRecords r;
  r.context.device = {{"name", "Test GPU"}};
  r.context.device_fingerprint = "dev";
  r.context.timing_mode = "cold";
  r.entries = std::move(entries);
  return r;
}

std::string printed(const ComparisonReport& r, bool all) {
  std::ostringstream out;
  print_comparison(out, r, "base.json", "cur.json", all);
  return out.str();
}

TEST(CompareReport, ShowsIntervalPAndGeometricMean) {
  RunRecords base = records_of({report_entry("a", "v", 100e3), report_entry("b", "v", 100e3)});
  RunRecords cur = records_of({report_entry("a", "v", 130e3), report_entry("b", "v", 100e3)});
  const std::string text = printed(compare_runs(base, cur, {}), false);
  EXPECT_NE(text.find("interval"), std::string::npos) << text;
  EXPECT_NE(text.find("[+29."), std::string::npos) << text;  // a: about +30 %
  EXPECT_NE(text.find("SLOWER"), std::string::npos) << text;
  EXPECT_NE(text.find("geometric mean"), std::string::npos) << text;
  EXPECT_NE(text.find("1.1402"), std::string::npos) << text;  // sqrt(1.3 * 1.0)
  EXPECT_NE(text.find("Bonferroni"), std::string::npos) << text;
}

TEST(CompareReport, SkipRowsAndBaselineOnlyEntriesAreCountedUnlessAll) {
  std::vector<EntryRecord> b{report_entry("a", "v", 1e3)}, c{report_entry("a", "v", 1e3)};
  for (int i = 0; i < 4; ++i) {
    b.push_back(report_entry("s" + std::to_string(i), "v", 0, Verdict::kSkipped));
    c.push_back(report_entry("s" + std::to_string(i), "v", 0, Verdict::kSkipped));
    b.push_back(report_entry("gone" + std::to_string(i), "v", 1e3));
  }
  const ComparisonReport r = compare_runs(records_of(b), records_of(c), {});
  const std::string brief = printed(r, false), all = printed(r, true);
  EXPECT_EQ(brief.find("s2/v"), std::string::npos) << brief;
  EXPECT_NE(brief.find("4 entries SKIP -> SKIP not shown"), std::string::npos) << brief;
  EXPECT_EQ(brief.find("gone1/v"), std::string::npos) << brief;
  EXPECT_NE(brief.find("4 entries only in the baseline"), std::string::npos) << brief;
  EXPECT_NE(all.find("s2/v"), std::string::npos) << all;
  EXPECT_NE(all.find("only in baseline: gone1/v"), std::string::npos) << all;
  EXPECT_EQ(all.find("not shown"), std::string::npos) << all;
}

TEST(CompareVariants, PairsTwoVariantsPerProblem) {
  RunRecords one = records_of({report_entry("p1", "seed", 100e3), report_entry("p1", "fast", 50e3),
                               report_entry("p1", "other", 10e3), report_entry("p2", "seed", 80e3),
                               report_entry("p3", "fast", 1e3)});
  auto [a, b] = split_by_variants(one, "seed", "fast", "f.json");
  ComparisonReport r = compare_runs(a, b, {});
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "p1/fast vs seed");
  EXPECT_EQ(r.entries[0].time.verdict, TimeVerdict::kFaster);
  EXPECT_EQ(r.only_in_baseline, std::vector<std::string>{"p2/fast vs seed"});
  EXPECT_EQ(r.only_in_current, std::vector<std::string>{"p3/fast vs seed"});
  try {
    split_by_variants(one, "seed", "nope", "f.json");
    FAIL() << "an unknown variant must be refused";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("f.json: --variants: no entry of variant 'nope'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(split_by_variants(one, "seed", "seed", "f.json"), ConfigError);
}

void write_gzip(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), unsigned(text.size())), int(text.size()));
  gzclose(f);
}

TEST(ResultsGzip, ReadsCompressedResultsAndRefusesCorruptOnes) {
  testing::TempDir dir("gz");
  const RunRecords r =
      records_of({report_entry("p", "v", 5e3), report_entry("q", "w", 0, Verdict::kSkipped)});
  const std::string text = results_to_json(r).dump(1);
  write_gzip(dir / "r.json.gz", text);
  const RunRecords back = read_results_file(dir / "r.json.gz");
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].cold->samples_ns, r.entries[0].cold->samples_ns);
  // Truncated and bit-flipped streams: a usage error naming the file, never a crash.
  const std::string gz = testing::slurp(dir / "r.json.gz");
  std::mt19937 rng(3);
  for (int i = 0; i < 20; ++i) {
    std::string bad = gz;
    if (i % 2)
      bad.resize(2 + rng() % (gz.size() - 2));
    else
      bad[10 + rng() % (gz.size() - 10)] ^= char(1 + rng() % 255);
    std::ofstream(dir / "bad.json.gz", std::ios::binary) << bad;
    try {
      read_results_file(dir / "bad.json.gz");
      ADD_FAILURE() << "corrupt stream " << i << " was read";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("bad.json.gz"), std::string::npos) << e.what();
    }
  }
}

TEST(ResultsGzip, OldStoredResultsStillRead) {
  // The oldest stored H200 run, a --stage-times run, an untimed lavapipe baseline: all written
  // with a Google Benchmark row per sample, before this format was documented.
  const std::string dir = std::string(GNBENCH_SOURCE_DIR) + "/results/";
  for (const char* file :
       {"h200/run8_h200.json.gz", "h200/run12_stages.json.gz", "lavapipe/baseline.json",
        "lavapipe/numerics_standard_bbae273.json.gz"}) {
    const RunRecords r = read_results_file(dir + file);
    EXPECT_GE(r.entries.size(), 70u) << file;
    EXPECT_FALSE(r.context.device_fingerprint.empty()) << file;
  }
}

TEST(ResultsJson, PerSampleRowsOnlyOnRequest) {
  const RunRecords r = records_of({report_entry("p", "v", 5e3)});
  auto rows = [](const nlohmann::json& j, const std::string& type) {
    size_t n = 0;
    for (const auto& b : j["benchmarks"]) n += b["run_type"] == type;
    return n;
  };
  EXPECT_EQ(rows(results_to_json(r), "iteration"), 0u);
  EXPECT_EQ(rows(results_to_json(r), "aggregate"), 4u);
  EXPECT_EQ(rows(results_to_json(r, true), "iteration"), 30u);
  // Either way the record carries every stored sample, and reads back the same.
  for (bool rows_on : {false, true})
    EXPECT_EQ(results_from_json(results_to_json(r, rows_on), "t").entries[0].cold->samples_ns,
              r.entries[0].cold->samples_ns);
}

}  // namespace
}  // namespace gnbench
