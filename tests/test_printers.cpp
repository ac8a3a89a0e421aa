// The CSV, terminal and Markdown printers on hand-made records (no device needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cli/report/csv_printer.hpp"
#include "cli/report/markdown_printer.hpp"
#include "cli/report/summary_rows.hpp"
#include "cli/report/table_printer.hpp"

namespace gnbench {
namespace {

TimingResult printed_timing(const std::string& mode, double median_ns) {
  TimingResult t;
  t.mode = mode;
  t.total = summarize({median_ns * 0.99, median_ns, median_ns * 1.01});
  t.noise_target_reached = true;
  return t;
}

EntryRecord printed_entry(const std::string& variant, std::optional<double> cold_ns,
                          std::optional<double> hot_ns, Verdict verdict = Verdict::kPass) {
  EntryRecord e;
  e.problem.name = "p";
  e.problem.shape = {2, 8, 16, 4};
  e.problem.distribution.kind = "normal";
  e.variant = variant;
  e.verdict = verdict;
  e.trials = verdict == Verdict::kSkipped ? 0 : 1;
  e.required_bytes = 4096;
  if (cold_ns) e.cold = printed_timing("cold", *cold_ns);
  if (hot_ns) e.hot = printed_timing("hot", *hot_ns);
  return e;
}

RunRecords printed_run(std::vector<EntryRecord> entries, const std::string& mode) {
  RunRecords r;
  r.context.device = {{"name", "Test GPU"}};
  r.context.timing_mode = mode;
  r.context.copy_gbps = 100;
  r.entries = std::move(entries);
  derive_figures(r);  // as a run does when it makes the records
  return r;
}

// RFC 4180 fields of one line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) rows.push_back(csv_fields(line));
  return rows;
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  EXPECT_NE(it, header.end()) << name;
  return static_cast<size_t>(it - header.begin());
}

TEST(CsvReport, OneRowPerTimedModeAndOneForUntimedEntries) {
  const auto rows = csv_rows(csv_report(printed_run(
      {printed_entry("both", 2000, 1000), printed_entry("skipped", {}, {}, Verdict::kSkipped),
       printed_entry("hot_only", {}, 3000)},
      "cold+hot")));
  ASSERT_EQ(rows.size(), 5u);  // header, both x2, skipped, hot_only
  const auto& h = rows[0];
  for (const auto& r : rows) EXPECT_EQ(r.size(), h.size());
  const size_t variant = column(h, "variant"), mode = column(h, "mode"),
               median = column(h, "median_ns"), pct = column(h, "pct_copy");
  EXPECT_EQ(rows[1][variant], "both");
  EXPECT_EQ(rows[1][mode], "cold");
  EXPECT_DOUBLE_EQ(std::stod(rows[1][median]), 2000);
  EXPECT_DOUBLE_EQ(std::stod(rows[1][pct]), 100 * (4096.0 / 2000) / 100);
  EXPECT_EQ(rows[2][variant], "both");
  EXPECT_EQ(rows[2][mode], "hot");
  EXPECT_DOUBLE_EQ(std::stod(rows[2][median]), 1000);
  EXPECT_EQ(rows[3][variant], "skipped");
  EXPECT_EQ(rows[3][mode], "");
  EXPECT_EQ(rows[3][median], "");
  EXPECT_EQ(rows[4][mode], "hot");
}

TEST(CsvReport, QuotesFieldsWithCommasAndQuotes) {
  EntryRecord e = printed_entry("v", {}, {}, Verdict::kFail);
  e.message = "grad_input: 3 elements \"unwritten\", first at (n=0, c=1)";
  const auto rows = csv_rows(csv_report(printed_run({e}, "none")));
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[1].size(), rows[0].size());
  EXPECT_EQ(rows[1][column(rows[0], "message")], e.message);
}

TEST(SummaryTable, OneModeHasOneMedianColumn) {
  const SummaryTable t = summary_table(printed_run({printed_entry("a", 2000, {})}, "cold"));
  EXPECT_NE(std::find(t.titles.begin(), t.titles.end(), "median us"), t.titles.end());
  EXPECT_EQ(std::find(t.titles.begin(), t.titles.end(), "hot us"), t.titles.end());
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].size(), t.titles.size());
  EXPECT_EQ(t.left_aligned.size(), t.titles.size());
}

TEST(SummaryTable, BothModesShowColdAndHotMedians) {
  const RunRecords records = printed_run(
      {printed_entry("a", 2000, 1500), printed_entry("s", {}, {}, Verdict::kSkipped)}, "cold+hot");
  EXPECT_EQ(summary_table(records).rows.size(), 1u);  // SKIP rows only counted by default
  const SummaryTable t = summary_table(records, TableOptions{true});
  const auto at = [&](const std::string& title) {
    const auto it = std::find(t.titles.begin(), t.titles.end(), title);
    EXPECT_NE(it, t.titles.end()) << title;
    return static_cast<size_t>(it - t.titles.begin());
  };
  EXPECT_EQ(std::find(t.titles.begin(), t.titles.end(), "median us"), t.titles.end());
  EXPECT_EQ(t.left_aligned.size(), t.titles.size());
  ASSERT_EQ(t.rows.size(), 2u);
  for (const auto& r : t.rows) EXPECT_EQ(r.size(), t.titles.size());
  EXPECT_EQ(t.rows[0][at("cold us")], "2.00");
  EXPECT_EQ(t.rows[0][at("hot us")], "1.50");
  EXPECT_EQ(t.rows[0][at("GB/s")], "2.05");  // 4096 bytes over the cold 2000 ns
  EXPECT_EQ(t.rows[1][at("hot us")], "-");
}

// Copy probe readings that disagree (the H200's two modes) are pointed out under the table.
TEST(SummaryNotes, CopyProbeSpreadIsNoted) {
  auto notes_with = [](const nlohmann::json& pairs) {
    RunRecords r = printed_run({printed_entry("a", 2000, {})}, "cold");
    r.context.copy_bandwidth = {{"gbps", 4212.0}, {"pairs_gbps", pairs}};
    std::string all;
    for (const auto& n : summary_notes(r)) all += n + "\n";
    return all;
  };
  const std::string spread = notes_with({{1694.0, 2136.0}, {4200.0, 4212.0}});
  EXPECT_NE(spread.find("copy probe's buffer pairs read 1694 to 4212 GB/s"), std::string::npos)
      << spread;
  EXPECT_EQ(notes_with({{4150.0, 4212.0}, {4200.0}}).find("copy probe"), std::string::npos);
  EXPECT_EQ(notes_with(nlohmann::json::array()).find("copy probe"), std::string::npos);
}

TEST(PipelineStatistics, OneLinePerStageOrWhyNone) {
  RunRecords r = printed_run({printed_entry("a", 2000, {})}, "cold");
  std::ostringstream none;
  print_pipeline_statistics(none, r);
  EXPECT_NE(none.str().find("the device reports none"), std::string::npos) << none.str();
  r.context.pipeline_statistics = {
      {"gn_x", {{"group", {{"Register Count", 64}, {"Binary Size", 9000}}}, {"dwdb", {}}}}};
  std::ostringstream some;
  print_pipeline_statistics(some, r);
  EXPECT_NE(some.str().find("gn_x / group:  Binary Size 9000  Register Count 64"),
            std::string::npos)
      << some.str();
  EXPECT_NE(some.str().find("gn_x / dwdb:"), std::string::npos) << some.str();
}

TEST(MarkdownReport, TableHasTheSummaryColumns) {
  const std::string md = markdown_report(printed_run({printed_entry("a", 2000, 1500)}, "cold+hot"));
  std::istringstream in(md);
  std::vector<std::string> table;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '|') table.push_back(line);
  ASSERT_EQ(table.size(), 3u) << md;  // titles, alignment, one row
  const auto bars = [](const std::string& s) { return std::count(s.begin(), s.end(), '|'); };
  EXPECT_EQ(bars(table[1]), bars(table[0]));
  EXPECT_EQ(bars(table[2]), bars(table[0]));
  EXPECT_NE(table[0].find("| hot us |"), std::string::npos) << table[0];
}

}  // namespace
}  // namespace gnbench
