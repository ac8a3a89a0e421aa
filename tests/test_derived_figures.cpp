// GB/s and % of copy are derived once (derive_figures) and every printer shows those same
// figures: generated records, each entry against its own device's copy bandwidth in a run
// over several devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "cli/bench/records.hpp"
#include "cli/report/csv_printer.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {
namespace {

std::vector<std::string> split(const std::string& line) {  // no quoted fields in these rows
  std::vector<std::string> out(1);
  for (char ch : line) {
    if (ch == ',')
      out.emplace_back();
    else
      out.back().push_back(ch);
  }
  return out;
}

TimingResult figures_timing(const std::string& mode, double median_ns) {
  TimingResult t;
  t.mode = mode;
  t.total.samples = 10;
  t.total.median = t.total.q1 = t.total.q3 = t.total.min = t.total.max = t.total.mean = median_ns;
  t.samples_ns.assign(10, median_ns);
  return t;
}

RunRecords random_run(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> ns(500, 5e6), gbps(100, 5000);
  RunRecords r;
  r.context.timing_mode = "cold+hot";
  r.context.copy_gbps = rng() % 4 == 0 ? 0.0 : gbps(rng);  // sometimes not measured
  r.context.copy_bandwidth = {{"gbps", r.context.copy_gbps}, {"source", "given"}};
  const int n = 1 + static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) {
    EntryRecord e;
    e.problem.name = "p" + std::to_string(i);
    e.problem.shape = {1 + uint32_t(rng() % 8), 32, 1 + uint32_t(rng() % 4096), 8};
    e.variant = "v";
    e.verdict = Verdict::kPass;
    e.trials = 1;
    e.required_bytes = 4 * (3 * e.problem.shape.elements() + 3 * 32);
    e.actual_bytes = rng() % 2 ? e.required_bytes + rng() % 4096 : 0;
    if (rng() % 3) e.cold = figures_timing("cold", ns(rng));
    if (rng() % 3) e.hot = figures_timing("hot", ns(rng));
    if (rng() % 3 == 0) {  // a run over several devices: its own device's bandwidth
      e.device = "gpu" + std::to_string(rng() % 2);
      e.device_copy_gbps = gbps(rng);
    }
    r.entries.push_back(std::move(e));
  }
  derive_figures(r);
  return r;
}

TEST(DerivedFigures, FromBytesMedianAndTheEntrysCopyBandwidth) {
  std::mt19937_64 rng(20261202);
  for (int round = 0; round < 200; ++round) {
    const RunRecords r = random_run(rng);
    for (const EntryRecord& e : r.entries) {
      const double copy = e.device.empty() ? r.context.copy_gbps : e.device_copy_gbps;
      for (const TimingResult* t : e.timings()) {
        const double gbps = double(e.required_bytes) / t->total.median;
        EXPECT_DOUBLE_EQ(t->throughput.gbps, gbps);
        EXPECT_DOUBLE_EQ(t->throughput.actual_gbps, double(e.actual_bytes) / t->total.median);
        EXPECT_DOUBLE_EQ(t->throughput.pct_copy, copy > 0 ? 100 * gbps / copy : 0.0);
      }
    }
  }
}

TEST(DerivedFigures, TimingWithoutSamplesHasNone) {
  RunRecords r;
  r.context.copy_gbps = 1000;
  EntryRecord e;
  e.required_bytes = 4096;
  e.cold = TimingResult{};
  e.cold->throughput.gbps = 7;  // stale: derive_figures must clear it
  r.entries.push_back(e);
  derive_figures(r);
  EXPECT_EQ(r.entries[0].cold->throughput.gbps, 0);
  EXPECT_EQ(r.entries[0].cold->throughput.pct_copy, 0);
}

// The results file, read back, and the CSV show the derived figures of the headline mode.
TEST(DerivedFigures, EveryPrinterShowsTheSameFigures) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    const RunRecords r = random_run(rng);
    const nlohmann::json doc = results_to_json(r);
    size_t k = 0;
    for (const auto& b : doc.at("benchmarks")) {
      if (!b.contains("gnbench")) continue;
      const auto& j = b.at("gnbench");
      const EntryRecord& e = r.entries.at(k++);
      const TimingResult* t = e.headline();
      if (!t) {
        EXPECT_FALSE(j.contains("gbps_required"));
        continue;
      }
      EXPECT_DOUBLE_EQ(j.at("gbps_required").get<double>(), t->throughput.gbps);
      EXPECT_EQ(j.contains("pct_copy_required"), t->throughput.pct_copy > 0);
      if (t->throughput.pct_copy > 0)
        EXPECT_DOUBLE_EQ(j.at("pct_copy_required").get<double>(), t->throughput.pct_copy);
    }
    EXPECT_EQ(k, r.entries.size());
    // Read back, the figures are derived again from what the file holds.
    const RunRecords back = results_from_json(doc, "test.json");
    ASSERT_EQ(back.entries.size(), r.entries.size());
    for (size_t i = 0; i < r.entries.size(); ++i) {
      const TimingResult* a = r.entries[i].headline();
      const TimingResult* b = back.entries[i].headline();
      ASSERT_EQ(a == nullptr, b == nullptr);
      if (a)
        EXPECT_NEAR(b->throughput.pct_copy, a->throughput.pct_copy,
                    1e-9 * a->throughput.pct_copy + 1e-12);
    }
    // The CSV: one row per timed mode, its figures those derived (to its 6 digits).
    std::istringstream csv(csv_report(r));
    std::string line;
    std::getline(csv, line);
    const std::vector<std::string> header = split(line);
    const auto col = [&](const std::string& name) {
      return size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t gbps = col("gbps_required"), pct = col("pct_copy");
    ASSERT_LT(pct, header.size());
    for (const EntryRecord& e : r.entries) {
      const auto timings = e.timings();
      for (size_t m = 0; m < std::max<size_t>(1, timings.size()); ++m) {
        ASSERT_TRUE(std::getline(csv, line));
        if (timings.empty()) continue;
        const auto cells = split(line);
        const Throughput& f = timings[m]->throughput;
        EXPECT_NEAR(std::stod(cells.at(gbps)), f.gbps, 1e-5 * f.gbps);
        EXPECT_NEAR(std::stod(cells.at(pct)), f.pct_copy, 1e-5 * f.pct_copy);
      }
    }
    EXPECT_FALSE(std::getline(csv, line));
  }
}

}  // namespace
}  // namespace gnbench
