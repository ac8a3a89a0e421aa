// An expectation that declares one failure hides only that failure: run end to end on lavapipe
// with broken kernels, a failure of the declared kind within the declared bound is XFAIL, the
// same failure beyond the bound is FAIL, and another kind or tensor on the same problem is FAIL.
// The bounds come from the run itself, not from numbers written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kBrokenKernelsDir;
using testing::kSourceDir;

// default.json's problems, each declaring `tensors` as the expected failure of every variant.
std::vector<Problem> problems_expecting(const std::string& tensors) {
  std::vector<Problem> problems = load_config_file(kSourceDir + "/configs/default.json");
  const Problem with = parse_config_text(
      R"({"problems": [{"name": "x", "batch": 1, "channels": 1, "spatial": 1, "groups": 1,
          "expect": {"verdict": "may_fail", "reason": "test", "tensors": )" +
          tensors + "}}]}",
      "test.json")[0];
  for (auto& p : problems) p.expect = with.expect;
  return problems;
}

RunRecords run_expecting(const std::string& variant, const std::vector<Problem>& problems) {
  BenchOptions o;
  o.kernel_folders = {kSourceDir + "/kernels", kBrokenKernelsDir};
  o.variants = {variant};
  o.timing = false;
  o.measure_copy_bandwidth = false;
  BenchRunner runner(o);
  return runner.run(
      problems, [](const std::string&, size_t, size_t) {}, nullptr);
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

TEST(ExpectationVerdicts, TheBoundSeparatesXfailFromFail) {
  // broken_fp16_output: grad_input above tolerance, finite and written.
  const RunRecords loose =
      run_expecting("broken_fp16_output", problems_expecting(R"({"grad_input": {"kinds": ["error"],
                                                      "max_scaled": 1e30, "l2_rel": 1e30}})"));
  double worst = 0;
  size_t xfail = 0;
  for (const auto& e : loose.entries) {
    EXPECT_TRUE(e.verdict == Verdict::kXFail || e.verdict == Verdict::kPass)
        << e.name() << ": " << verdict_name(e.verdict) << " " << e.message;
    if (e.verdict != Verdict::kXFail) continue;
    ++xfail;
    worst = std::max(worst, e.verification.tensors[0].max_scaled);
  }
  ASSERT_GT(xfail, 0u) << "fp16 rounding failed no problem of default.json";

  // Half the worst error as the bound: the entry that reached it is now FAIL.
  const RunRecords tight =
      run_expecting("broken_fp16_output",
                    problems_expecting(R"({"grad_input": {"kinds": ["error"], "max_scaled": )" +
                                       sci(std::max(worst / 2, 1.01e-3)) + "}}"));
  size_t fail = 0;
  for (const auto& e : tight.entries)
    if (e.verdict == Verdict::kFail) {
      ++fail;
      EXPECT_NE(e.message.find("not the declared failure (grad_input max scaled error"),
                std::string::npos)
          << e.message;
    }
  EXPECT_GE(fail, 1u);
}

TEST(ExpectationVerdicts, AnotherKindOrTensorIsFail) {
  // Declared: grad_input error. broken_skip_tail leaves grad_input unwritten (another kind),
  // broken_off_by_one breaks grad_weight and grad_bias (other tensors).
  const auto problems = problems_expecting(
      R"({"grad_input": {"kinds": ["error", "nonfinite"], "max_scaled": 1e30, "l2_rel": 1e30}})");
  for (const auto& [variant, why] :
       {std::pair<std::string, std::string>{"broken_skip_tail", "unwritten elements, not declared"},
        {"broken_off_by_one", "grad_weight failed but is not declared"}}) {
    const RunRecords r = run_expecting(variant, problems);
    ASSERT_EQ(r.entries.size(), problems.size());
    size_t fail = 0;
    for (const auto& e : r.entries) {
      EXPECT_NE(e.verdict, Verdict::kXFail) << e.name() << ": " << e.message;
      if (e.verdict != Verdict::kFail) continue;
      ++fail;
      EXPECT_NE(e.message.find(why), std::string::npos) << e.message;
    }
    EXPECT_GE(fail, 1u) << variant;
  }
}

}  // namespace
}  // namespace gnbench
