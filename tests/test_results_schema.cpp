// docs/results.schema.json against what results_to_json writes, on generated runs that use
// every optional part of the format, and against files broken on purpose (the check must be
// able to fail).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>

#include "cli/report/results_json.hpp"
#include "results_schema.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

TimingResult random_timing(std::mt19937_64& rng, const std::string& mode, bool stages) {
  TimingResult t;
  t.mode = mode;
  const size_t n = 1 + rng() % 500;  // more than 200: the file keeps 200
  std::lognormal_distribution<double> ln(10, 0.3);
  for (size_t i = 0; i < n; ++i) t.samples_ns.push_back(ln(rng));
  t.total = summarize(t.samples_ns);
  if (stages)
    for (const char* s : {"partials", "apply"}) {
      t.stage_names.push_back(s);
      t.stages.push_back(summarize({1e3, 2e3}));
    }
  t.noise_target_reached = rng() % 2;
  t.wall_s = 0.5;
  return t;
}

EntryRecord random_entry(std::mt19937_64& rng, int i) {
  EntryRecord e;
  e.problem.name = "p" + std::to_string(i);
  e.problem.shape = {1 + uint32_t(rng() % 8), 64, 1 + uint32_t(rng() % 4096), 8};
  e.variant = "v" + std::to_string(rng() % 3);
  const Verdict verdicts[] = {Verdict::kPass,  Verdict::kFail,    Verdict::kXFail,
                              Verdict::kXPass, Verdict::kSkipped, Verdict::kError};
  e.verdict = verdicts[rng() % 6];
  if (rng() % 3 == 0) e.problem.expect = {Expectation::Outcome::kFail, "known", {"v1"}};
  e.trials = uint32_t(rng() % 3);
  for (const char* name : {"grad_input", "grad_weight", "grad_bias"}) {
    TensorMetrics t;
    t.tensor = name;
    t.elements = 100;
    t.max_scaled = rng() % 4 ? 1e-6 : std::nan("");  // NaN is written as null
    t.worst_gpu = rng() % 4 ? 1.0 : INFINITY;
    e.verification.tensors.push_back(t);
  }
  e.invariants.worst_sum_violation = rng() % 4 ? 0.0 : INFINITY;
  if (rng() % 2) e.bitwise_reproducible = rng() % 2;
  e.required_bytes = 1000;
  e.actual_bytes = rng() % 2 ? 0 : 2000;
  if (rng() % 3 == 0) {  // run --device all
    e.device = "Test GPU 1";
    e.device_copy_gbps = 50;
  }
  const bool stages = rng() % 3 == 0;
  if (rng() % 3) e.cold = random_timing(rng, "cold", stages);
  if (rng() % 3) e.hot = random_timing(rng, "hot", stages);
  return e;
}

RunRecords schema_random_run(std::mt19937_64& rng) {
  RunRecords r;
  RunContext& c = r.context;
  c.device = {{"name", "Test GPU"}, {"fingerprint", "Test GPU | 1"}, {"subgroup_size", 32}};
  c.device_fingerprint = "Test GPU | 1";
  c.timing_mode = "cold+hot";
  c.configs = {"configs/default.json"};
  if (rng() % 2) {
    c.copy_gbps = 100;
    c.copy_bandwidth = {{"gbps", 100.0}, {"probes_gbps", {99.0, 100.0}}};
  }
  if (rng() % 2) c.shard = "1/3";
  if (rng() % 2) c.merged_from = {"a.json", "b.json"};
  if (rng() % 2) c.pipeline_statistics = {{"v0", {{"apply", {{"Register Count", 32}}}}}};
  c.complete = rng() % 2;
  const int n = int(rng() % 6);
  for (int i = 0; i < n; ++i) r.entries.push_back(random_entry(rng, i));
  return r;
}

TEST(ResultsSchema, EveryGeneratedRunIsValid) {
  testing::TempDir dir("schema");
  std::mt19937_64 rng(16);
  std::vector<std::filesystem::path> files;
  for (int i = 0; i < 12; ++i) {
    files.push_back(dir / ("r" + std::to_string(i) + ".json"));
    std::ofstream(files.back()) << results_to_json(schema_random_run(rng), i % 3 == 0).dump(1);
  }
  testing::expect_valid_results(files);
}

TEST(ResultsSchema, BrokenFilesAreRejected) {
  testing::TempDir dir("schema_bad");
  std::mt19937_64 rng(17);
  RunRecords r;
  while (r.entries.empty() || !r.entries[0].cold) r = schema_random_run(rng);
  const nlohmann::json good = results_to_json(r);
  auto record = [](nlohmann::json& doc) -> nlohmann::json& {
    for (auto& b : doc["benchmarks"])
      if (b.contains("gnbench")) return b["gnbench"];
    throw std::runtime_error("no record");
  };
  std::vector<std::function<void(nlohmann::json&)>> breaks{
      [&](nlohmann::json& d) { record(d).erase("verdict"); },
      [&](nlohmann::json& d) { record(d)["verdict"] = "MAYBE"; },
      [&](nlohmann::json& d) { record(d)["undocumented"] = 1; },
      [&](nlohmann::json& d) { record(d)["cold"]["samples_ns"] = "fast"; },
      [&](nlohmann::json& d) { d["context"]["gnbench"]["schema_version"] = 2; },
      [&](nlohmann::json& d) { d["context"]["gnbench"]["shard"] = "half"; },
  };
  std::string cmd = std::string(GNBENCH_SYSTEM_PYTHON) + " " + GNBENCH_SOURCE_DIR +
                    "/tests/validate_results.py " + GNBENCH_SOURCE_DIR +
                    "/docs/results.schema.json";
  for (size_t i = 0; i < breaks.size(); ++i) {
    nlohmann::json doc = good;
    breaks[i](doc);
    const auto path = dir / ("bad" + std::to_string(i) + ".json");
    std::ofstream(path) << doc.dump();
    cmd.append(" ").append(path);
  }
  // One interpreter for all: every file must be refused ("0 of 6 ... valid").
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  EXPECT_NE(::pclose(pipe), 0) << out;
  EXPECT_NE(out.find("0 of " + std::to_string(breaks.size()) + " results files valid"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace gnbench
