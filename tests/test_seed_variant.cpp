// The seed variant, end to end through BenchRunner (verification only, no timing): it passes
// every problem of configs/default.json and configs/edge.json, with all three tensors measured,
// nothing left unwritten and two runs bitwise identical. edge.json's N*G > 65535 problem
// exercises dispatch folding, checked separately against an unfolded dispatch.
//
// Known exception: edge_fold_ng65568 has 65568 groups of only 4 elements, and a few of them
// have |mean| / std ~ 160, where the seed's float32 E[x^2] - mean^2 variance loses ~3 digits
// (the weakness numerics.json declares for large means). Its grad_input then misses the 1e-3
// tolerance in that group, folded or not. The test accepts exactly that failure, after
// checking from the inputs that the worst group really is such a group.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/inputs/input_generator.hpp"
#include "cli/verify/metrics.hpp"
#include "kernels/runtime/variant_runner.hpp"
#include "kernels/runtime/vulkan_context.hpp"
#include "reference/group_norm.hpp"
#include "shared_fixtures.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kSourceDir;

// Problems where the seed's float32 variance may legitimately cancel (see the top comment).
const std::set<std::string> kVarianceCancellation{"edge_fold_ng65568"};
// |mean| / std above which E[x^2] - mean^2 in float32 keeps fewer than ~3 correct digits of a
// 4-element group's variance. Ordinary N(0, 1) groups sit around 1.
constexpr double kCancellingRatio = 50;

BenchOptions seed_options() {
  BenchOptions o;
  o.kernel_folders = {kSourceDir + "/kernels"};
  o.variants = {"seed"};
  o.timing = false;
  o.measure_copy_bandwidth = false;
  return o;
}

using testing::kQuiet;

// |mean| / std (float64) of x over the (n, group) holding grad_input element `at`.
double mean_over_std(const Problem& p, const ElementLocation& at) {
  const Inputs in = generate_inputs(p.shape, p.distribution, p.seed);
  const uint64_t cpg = p.shape.channels_per_group();
  const uint64_t group = static_cast<uint64_t>(at.c) / cpg;
  const uint64_t start =
      (static_cast<uint64_t>(at.n) * p.shape.channels + group * cpg) * p.shape.spatial;
  const Eigen::ArrayXd x = in.x.segment(start, p.shape.group_size()).cast<double>();
  const double mean = x.mean();
  const double stddev = std::sqrt((x - mean).square().mean());
  return std::abs(mean) / stddev;
}

// grad_input misses its tolerance only in a group where the float32 variance cancels; nothing
// else is wrong.
void expect_only_variance_cancellation(const Problem& p, const EntryRecord& e) {
  const TensorMetrics& gi = e.verification.tensors.at(0);
  EXPECT_TRUE(e.verdict == Verdict::kFail || e.verdict == Verdict::kXFail) << e.message;
  EXPECT_FALSE(gi.pass);
  EXPECT_EQ(gi.unwritten, 0u);
  EXPECT_EQ(gi.nonfinite, 0u);
  EXPECT_TRUE(e.verification.tensors.at(1).pass) << e.verification.tensors.at(1).failure;
  EXPECT_TRUE(e.verification.tensors.at(2).pass) << e.verification.tensors.at(2).failure;
  EXPECT_TRUE(e.invariants.pass) << e.invariants.failure;
  EXPECT_EQ(e.bitwise_reproducible, true);
  const double ratio = mean_over_std(p, gi.worst);
  EXPECT_GT(ratio, kCancellingRatio) << "worst element " << gi.worst.str() << ": " << gi.failure;
  std::printf("[   info   ] %s: seed %s; |mean|/std = %.0f in that group\n", p.name.c_str(),
              gi.failure.c_str(), ratio);
}

// Runs the seed on every problem of `config`, one problem per run() so each one's wall time
// can be reported, and checks every entry.
void expect_seed_passes(const std::string& config) {
  const std::vector<Problem> problems = load_config_file(kSourceDir + "/configs/" + config);
  ASSERT_FALSE(problems.empty());
  BenchRunner runner(seed_options());
  ASSERT_EQ(runner.variants().size(), 1u);
  runner.check_problems(problems, config);

  for (const Problem& problem : problems) {
    SCOPED_TRACE(config + ": " + problem.name);
    const auto start = std::chrono::steady_clock::now();
    RunRecords records = runner.run({problem}, kQuiet, nullptr);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[   info   ] %s %-26s %6.2f s\n", config.c_str(), problem.name.c_str(), seconds);

    EXPECT_TRUE(records.context.complete);
    EXPECT_EQ(records.context.timing_mode, "none");
    ASSERT_EQ(records.entries.size(), 1u);
    const EntryRecord& e = records.entries[0];
    EXPECT_EQ(e.variant, "seed");
    EXPECT_EQ(e.problem.name, problem.name);
    EXPECT_EQ(e.trials, 1u);
    EXPECT_FALSE(e.cold);
    EXPECT_FALSE(e.hot);

    const char* names[] = {"grad_input", "grad_weight", "grad_bias"};
    const uint64_t sizes[] = {problem.shape.elements(), problem.shape.channels,
                              problem.shape.channels};
    ASSERT_EQ(e.verification.tensors.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      const TensorMetrics& t = e.verification.tensors[i];
      EXPECT_EQ(t.tensor, names[i]);
      EXPECT_EQ(t.elements, sizes[i]) << t.tensor;
      EXPECT_EQ(t.unwritten, 0u) << t.tensor;
      EXPECT_EQ(t.nonfinite, 0u) << t.tensor;
    }
    if (e.verdict != Verdict::kPass && kVarianceCancellation.count(problem.name)) {
      expect_only_variance_cancellation(problem, e);
      continue;
    }

    EXPECT_EQ(verdict_name(e.verdict), "PASS") << e.message;
    EXPECT_TRUE(e.verification.pass) << e.verification.summary();
    EXPECT_TRUE(e.invariants.pass) << e.invariants.failure;
    ASSERT_TRUE(e.bitwise_reproducible.has_value());
    EXPECT_TRUE(*e.bitwise_reproducible);
    const TensorTolerance tolerances[] = {problem.tolerances.grad_input,
                                          problem.tolerances.grad_weight,
                                          problem.tolerances.grad_bias};
    for (int i = 0; i < 3; ++i) {
      const TensorMetrics& t = e.verification.tensors[i];
      EXPECT_TRUE(t.pass) << t.failure;
      EXPECT_LE(t.max_scaled, tolerances[i].max_scaled) << t.tensor;
      EXPECT_LE(t.l2_rel, tolerances[i].l2_rel) << t.tensor;
    }
  }
}

TEST(SeedVariant, PassesDefaultConfig) { expect_seed_passes("default.json"); }

TEST(SeedVariant, PassesEdgeConfig) { expect_seed_passes("edge.json"); }

// edge_fold_ng65568 needs more workgroups along x than the device allows: the runner folds the
// grad_input dispatch into y and the seed linearises the workgroup index. Checked directly on
// VariantRunner, against the same kernel on the largest prefix of the batch that needs no
// folding: every (n, group) both compute must come out bit for bit the same, and the batch
// items only the folded run computes must verify.
TEST(SeedVariant, FoldedDispatchMatchesUnfolded) {
  const std::vector<Problem> problems = load_config_file(kSourceDir + "/configs/edge.json");
  const Problem* found = nullptr;
  for (const auto& p : problems)
    if (p.name == "edge_fold_ng65568") found = &p;
  ASSERT_NE(found, nullptr) << "edge.json lost its folding problem";
  const Problem& fold = *found;
  const Shape& s = fold.shape;
  const uint64_t workgroups = uint64_t{s.batch} * s.groups;
  EXPECT_GT(workgroups, 65535u);

  ContextOptions options;
  VulkanContext ctx(options);
  const uint32_t max_x = ctx.info().limits.max_workgroup_count[0];
  if (workgroups <= max_x)
    GTEST_SKIP() << "maxComputeWorkGroupCount[0] = " << max_x << " >= " << workgroups
                 << ": nothing to fold on this device";

  const auto variants = load_manifests({kSourceDir + "/kernels"});
  const VariantSpec* seed = nullptr;
  for (const auto& v : variants)
    if (v.name == "seed") seed = &v;
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(not_applicable_reason(*seed, s, ctx.info()), "");
  const CompiledVariant compiled = compile_variant(ctx, *seed);
  Transfer transfer(ctx);

  // The folded run.
  const Inputs inputs = generate_inputs(s, fold.distribution, fold.seed);
  const DeviceInputs device_inputs(ctx, transfer, inputs);
  VariantRunner folded(ctx, transfer, compiled, fold, device_inputs);
  const auto& d = folded.dispatches();
  ASSERT_EQ(d.size(), 2u);
  // grad_input: N*G workgroups folded into rows of at most max_x that cover them all.
  EXPECT_GT(d[0][1], 1u);
  EXPECT_LE(d[0][0], max_x);
  EXPECT_EQ(d[0][2], 1u);
  EXPECT_GE(uint64_t{d[0][0]} * d[0][1], workgroups);
  EXPECT_LT(uint64_t{d[0][0]} * (d[0][1] - 1), workgroups);  // no row entirely idle
  // grad_weight_bias: C workgroups, nothing to fold.
  EXPECT_EQ(d[1], (std::array<uint32_t, 3>{s.channels, 1, 1}));
  const GpuOutputs out = folded.run_once();

  // The unfolded run on the first batch items, same inputs.
  Problem prefix = fold;
  prefix.shape.batch = max_x / s.groups;
  ASSERT_GT(prefix.shape.batch, 0u);
  ASSERT_LT(prefix.shape.batch, s.batch);
  const Eigen::Index head = static_cast<Eigen::Index>(prefix.shape.elements());
  const Inputs prefix_inputs{inputs.x.head(head), inputs.grad_out.head(head), inputs.weight};
  const DeviceInputs prefix_device(ctx, transfer, prefix_inputs);
  VariantRunner unfolded(ctx, transfer, compiled, prefix, prefix_device);
  ASSERT_EQ(unfolded.dispatches()[0][1], 1u);
  const GpuOutputs ref_out = unfolded.run_once();

  // Bit for bit over the shared batch items (these span both rows of the folded dispatch).
  EXPECT_GT(uint64_t{prefix.shape.batch} * s.groups, d[0][0]);
  EXPECT_EQ(std::memcmp(out.grad_input.data(), ref_out.grad_input.data(), head * sizeof(float)), 0);

  // Nothing left unwritten; the batch items only the folded run computed verify; the
  // per-channel outputs (one workgroup per channel, no folding) verify over the whole batch.
  const ReferenceOutputs ref = reference::backward(s, inputs, fold.eps);
  const VerificationResult check = verify(s, out, ref, fold.tolerances);
  for (const auto& t : check.tensors) EXPECT_EQ(t.unwritten, 0u) << t.tensor;
  EXPECT_TRUE(check.tensors[1].pass) << check.tensors[1].failure;
  EXPECT_TRUE(check.tensors[2].pass) << check.tensors[2].failure;
  Shape tail_shape = s;
  tail_shape.batch = s.batch - prefix.shape.batch;
  const Eigen::Index tail = static_cast<Eigen::Index>(tail_shape.elements());
  const TensorMetrics tail_check =
      measure_tensor("grad_input", tail_shape, out.grad_input.tail(tail), ref.grad_input.tail(tail),
                     fold.tolerances.grad_input);
  EXPECT_TRUE(tail_check.pass) << tail_check.failure;
  EXPECT_EQ(tail_check.unwritten, 0u);
}

}  // namespace
}  // namespace gnbench
