// Variants are isolated: a kernel that writes into its inputs is FAIL naming the input, and the
// variant run after it on the same problem gets the original inputs (and PASSes). The broken
// kernels (tests/make_broken_kernels.py) write into grad_out in every run, or into x only in hot
// timing runs, or leave a zero-filled counter dirty; the seed is run after them as the control.
// Shapes are drawn from a fixed seed.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kBrokenKernelsDir;
using testing::kSourceDir;

std::vector<Problem> random_problems(uint32_t seed, int count, const std::string& expect = "") {
  std::mt19937 rng(seed);
  auto draw = [&](uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  };
  std::string text = R"({"problems": [)";
  for (int i = 0; i < count; ++i) {
    const uint32_t groups = draw(1, 6), channels = groups * draw(1, 6);
    text += std::string(i ? "," : "") + R"({"name": "p)" + std::to_string(i) + R"(", "batch": )" +
            std::to_string(draw(2, 4)) + R"(, "channels": )" + std::to_string(channels) +
            R"(, "spatial": )" + std::to_string(draw(1, 300)) + R"(, "groups": )" +
            std::to_string(groups) + R"(, "seed": )" + std::to_string(draw(0, 1000)) + expect + "}";
  }
  return parse_config_text(text + "]}", "isolation.json");
}

// The broken folder first, so its variants run before the seed on every problem.
RunRecords run_isolated(const std::vector<std::string>& variants,
                        const std::vector<Problem>& problems, bool hot_timing) {
  BenchOptions o;
  o.kernel_folders = {kBrokenKernelsDir, kSourceDir + "/kernels"};
  o.variants = variants;
  o.timing = hot_timing;
  o.cold = false;
  o.hot = true;
  o.sampling.warmup = 1;
  o.sampling.fixed_samples = 3;
  o.measure_copy_bandwidth = false;
  BenchRunner runner(o);
  runner.check_problems(problems, "isolation.json");
  return runner.run(
      problems, [](const std::string&, size_t, size_t) {}, nullptr);
}

void expect_blamed_and_isolated(const RunRecords& records, const std::string& broken,
                                const std::string& input, bool whole_first_item,
                                const std::string& when) {
  ASSERT_EQ(records.entries.size() % 2, 0u);
  for (size_t i = 0; i < records.entries.size(); i += 2) {
    const EntryRecord& bad = records.entries[i];
    const EntryRecord& seed = records.entries[i + 1];
    const Shape& s = bad.problem.shape;
    SCOPED_TRACE(bad.problem.name + ": " + bad.message);
    ASSERT_EQ(bad.variant, broken);
    ASSERT_EQ(seed.variant, "seed");
    EXPECT_EQ(bad.verdict, Verdict::kFail);
    // grad_out: the whole n = 0 slice; x: element hw = 0 of every (n, c).
    const uint64_t changed =
        whole_first_item ? uint64_t{s.channels} * s.spatial : uint64_t{s.batch} * s.channels;
    EXPECT_EQ(bad.message, "wrote into input " + input + ": " + std::to_string(changed) + " of " +
                               std::to_string(s.elements()) +
                               " elements changed, first at (n=0, c=0, hw=0), " + when);
    EXPECT_EQ(seed.verdict, Verdict::kPass) << seed.message;
  }
}

TEST(IsolatedVariants, AWriteIntoAnInputIsBlamedOnItsVariantAndUndone) {
  const auto problems = random_problems(15, 3);
  expect_blamed_and_isolated(run_isolated({"broken_writes_input", "seed"}, problems, false),
                             "broken_writes_input", "grad_out", true,
                             "during its verification runs");
}

TEST(IsolatedVariants, AWriteOnlyDuringTimingIsCaughtAfterTiming) {
  const auto problems = random_problems(16, 2);
  // Verification alone cannot see it: the kernel only writes when its output is not poisoned.
  const RunRecords untimed = run_isolated({"broken_writes_input_when_timed"}, problems, false);
  for (const auto& e : untimed.entries) EXPECT_EQ(e.verdict, Verdict::kPass) << e.message;
  expect_blamed_and_isolated(
      run_isolated({"broken_writes_input_when_timed", "seed"}, problems, true),
      "broken_writes_input_when_timed", "x", false, "during its timed runs");
}

// A "zero" scratch buffer is zero-filled before poisoned runs only, so a variant that leaves it
// non-zero would start its next hot sample from a stale count: an ERROR after its first run,
// timed or not, whatever its outputs; the variant after it is unaffected.
TEST(IsolatedVariants, ZeroFilledScratchLeftNonZeroIsAnError) {
  const auto problems = random_problems(18, 2);
  for (bool timed : {false, true}) {
    const RunRecords records = run_isolated({"broken_counter_kept", "seed"}, problems, timed);
    ASSERT_EQ(records.entries.size(), 4u);
    for (size_t i = 0; i < records.entries.size(); i += 2) {
      const EntryRecord& bad = records.entries[i];
      EXPECT_EQ(bad.variant, "broken_counter_kept");
      EXPECT_EQ(bad.verdict, Verdict::kError);
      EXPECT_EQ(bad.message,
                "scratch buffer 'counter' (\"zero\": true) is not zero after a run: a variant must "
                "leave its zero-filled scratch zero (docs/kernels.md)");
      EXPECT_EQ(records.entries[i + 1].verdict, Verdict::kPass) << records.entries[i + 1].message;
    }
  }
}

// An expectation covers output failures only: writing into an input is never an expected one.
TEST(IsolatedVariants, AnExpectationDoesNotCoverAnInputWrite) {
  const std::string all =
      R"({"kinds": ["error", "nonfinite", "unwritten"], "max_scaled": 1e30, "l2_rel": 1e30})";
  const auto problems = random_problems(
      17, 1,
      R"(, "expect": {"verdict": "fail", "variants": ["broken_writes_input"], "tensors": {"grad_input": )" +
          all + R"(, "grad_weight": )" + all + R"(, "grad_bias": )" + all + "}}");
  const RunRecords records = run_isolated({"broken_writes_input", "seed"}, problems, false);
  ASSERT_EQ(records.entries.size(), 2u);
  EXPECT_EQ(records.entries[0].verdict, Verdict::kFail) << records.entries[0].message;
  EXPECT_NE(records.entries[0].message.find("not the declared failure (it wrote into an input)"),
            std::string::npos)
      << records.entries[0].message;
}

}  // namespace
}  // namespace gnbench
