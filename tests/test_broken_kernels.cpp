// The verifier's self-test: deliberately broken copies of the seed (tests/make_broken_kernels.py,
// one bug each) run through BenchRunner on configs/default.json must FAIL, with a message that
// names the tensor the bug damages. A verifier that let any of them pass would be useless.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "kernels/runtime/manifest.hpp"
#include "shared_fixtures.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kBrokenKernelsDir;
using testing::kSourceDir;

struct BrokenCase {
  std::string variant;
  std::vector<std::string> damaged;  // tensors the bug makes wrong, in verification order
  double eps = 0;                    // > 0: override the config's eps, with the seed as control
  void (*each_entry)(const EntryRecord&) = nullptr;  // further checks on every entry
};

// Names the case in test listings (gtest would print the struct's bytes).
void PrintTo(const BrokenCase& c, std::ostream* os) { *os << c.variant; }

// The tensors every test inspects, in the order verify() reports them.
using testing::kOutputTensors;

// The skipped tail is poison the verifier must count and locate: the last element of every
// (n, group), the first of them at the end of group 0.
void skip_tail_checks(const EntryRecord& e) {
  const Shape& s = e.problem.shape;
  EXPECT_EQ(e.verdict, Verdict::kFail);
  const TensorMetrics& gi = e.verification.tensors.at(0);
  EXPECT_GT(gi.unwritten, 0u);
  EXPECT_EQ(gi.unwritten, uint64_t{s.batch} * s.groups);
  EXPECT_EQ(gi.nonfinite, 0u);  // poison is not counted as a computed NaN
  EXPECT_EQ(gi.worst.n, 0);
  EXPECT_EQ(gi.worst.c, int64_t{s.channels_per_group()} - 1);
  EXPECT_EQ(gi.worst.hw, int64_t{s.spatial} - 1);
  const std::string where = "(n=0, c=" + std::to_string(s.channels_per_group() - 1) +
                            ", hw=" + std::to_string(s.spatial - 1) + ")";
  EXPECT_EQ(e.message, "grad_input: " + std::to_string(gi.unwritten) +
                           " elements unwritten, first at " + where);
}

// A swap damages both per-channel tensors on every problem.
void swap_checks(const EntryRecord& e) {
  EXPECT_EQ(e.verdict, Verdict::kFail);
  EXPECT_FALSE(e.verification.tensors.at(1).pass);
  EXPECT_FALSE(e.verification.tensors.at(2).pass);
  EXPECT_EQ(e.message.rfind("grad_weight: ", 0), 0u);
  EXPECT_FALSE(e.invariants.pass);  // grad_bias != sum of grad_out
}

// Dropping the last batch item from a sum over the batch is wrong on every problem.
void off_by_one_checks(const EntryRecord& e) { EXPECT_EQ(e.verdict, Verdict::kFail); }

const std::vector<BrokenCase>& broken_cases() {
  static const std::vector<BrokenCase> cases{
      {"broken_skip_tail", {"grad_input"}, 0, skip_tail_checks},
      {"broken_off_by_one", {"grad_weight", "grad_bias"}, 0, off_by_one_checks},
      // At eps = 1e-5 and unit-variance inputs, dropping eps changes the outputs by ~5e-6
      // relative, far inside the tolerances: default.json cannot see this bug. Its shapes with
      // eps = 0.1 can, and the seed, run alongside as a control, passes them.
      {"broken_eps_ignored", {"grad_input", "grad_weight"}, 0.1},
      {"broken_swap_wb", {"grad_weight", "grad_bias"}, 0, swap_checks},
      {"broken_variance_factor", {"grad_input", "grad_weight"}},
      {"broken_fp16_output", {"grad_input"}},
      {"broken_missing_barrier", {"grad_input"}},
  };
  return cases;
}

using testing::kQuiet;

std::vector<Problem> default_problems(double eps = 0) {
  std::vector<Problem> problems = load_config_file(kSourceDir + "/configs/default.json");
  if (eps > 0)
    for (auto& p : problems) p.eps = static_cast<float>(eps);
  return problems;
}

RunRecords run_variants(const std::vector<std::string>& variants,
                        const std::vector<Problem>& problems) {
  BenchOptions o;
  o.kernel_folders = {kSourceDir + "/kernels", kBrokenKernelsDir};
  o.variants = variants;
  o.timing = false;
  o.measure_copy_bandwidth = false;
  BenchRunner runner(o);
  runner.check_problems(problems, "default.json");
  return runner.run(problems, kQuiet, nullptr);
}

bool damages(const BrokenCase& c, const std::string& tensor) {
  return std::find(c.damaged.begin(), c.damaged.end(), tensor) != c.damaged.end();
}

TEST(BrokenKernels, FolderLoadsNextToTheShippedKernels) {
  const auto variants = load_manifests({kSourceDir + "/kernels", kBrokenKernelsDir});
  std::set<std::string> names;
  for (const auto& v : variants) names.insert(v.name);
  EXPECT_TRUE(names.count("seed"));
  for (const auto& c : broken_cases()) EXPECT_TRUE(names.count(c.variant)) << c.variant;
  for (const auto& v : load_manifests({kBrokenKernelsDir})) {
    EXPECT_EQ(v.name.rfind("broken_", 0), 0u) << v.name;
    EXPECT_EQ(v.description.rfind("BROKEN on purpose", 0), 0u) << v.name;
    EXPECT_EQ(v.stages.size(), 2u) << v.name;
  }
}

class BrokenKernel : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenKernel, FailsNamingTheDamagedTensor) {
  const BrokenCase& c = GetParam();
  const std::vector<Problem> problems = default_problems(c.eps);
  std::vector<std::string> variants{c.variant};
  if (c.eps > 0) variants.insert(variants.begin(), "seed");
  const RunRecords records = run_variants(variants, problems);
  ASSERT_EQ(records.entries.size(), problems.size() * variants.size());

  size_t failed = 0;
  std::set<std::string> failed_tensors;
  for (const EntryRecord& e : records.entries) {
    SCOPED_TRACE(e.name() + ": " + verdict_name(e.verdict) + " " + e.message);
    if (e.variant == "seed") {  // the control: the problems themselves are fine
      EXPECT_EQ(e.verdict, Verdict::kPass);
      continue;
    }
    EXPECT_EQ(e.variant, c.variant);
    // A wrong answer is FAIL, never ERROR (the kernels run to completion) nor PASS for a
    // tensor the bug does not touch.
    ASSERT_NE(e.verdict, Verdict::kError);
    ASSERT_EQ(e.verification.tensors.size(), 3u);
    if (c.each_entry) c.each_entry(e);
    for (size_t i = 0; i < 3; ++i) {
      const TensorMetrics& t = e.verification.tensors[i];
      EXPECT_EQ(t.tensor, kOutputTensors[i]);
      if (!damages(c, t.tensor)) {
        EXPECT_TRUE(t.pass) << t.failure;
      }
      if (!t.pass) failed_tensors.insert(t.tensor);
    }
    if (e.verdict != Verdict::kFail) continue;
    ++failed;
    // The message is the first failing tensor's line: it names a damaged tensor.
    const std::string first = e.message.substr(0, e.message.find(':'));
    EXPECT_TRUE(damages(c, first)) << "message names '" << first << "'";
  }
  EXPECT_GE(failed, 1u) << c.variant << " passed every problem of default.json";
  // The first damaged tensor is caught somewhere.
  EXPECT_TRUE(failed_tensors.count(c.damaged.front())) << c.damaged.front();
}

INSTANTIATE_TEST_SUITE_P(SelfTest, BrokenKernel, ::testing::ValuesIn(broken_cases()),
                         [](const ::testing::TestParamInfo<BrokenCase>& info) {
                           return info.param.variant;
                         });

}  // namespace
}  // namespace gnbench
