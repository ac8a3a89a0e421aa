// A stage's `when` (kernels/runtime/manifest.hpp): where it is false the stage is neither
// dispatched nor fenced, and where it is true it runs. The shipped builds whose dwdb stage runs
// only for N > 1 (their first stage writes grad_weight / grad_bias itself at batch 1,
// kernels/glsl/gn_part.glsl) pass at batch 1 without it and at larger batches with it.
#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "cli/inputs/input_generator.hpp"
#include "cli/verify/metrics.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/variant_runner.hpp"
#include "kernels/runtime/vulkan_context.hpp"
#include "random_shapes.hpp"
#include "reference/group_norm.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kKernelsDir;

Problem problem_of(const Shape& s, uint64_t seed) {
  Problem p;
  p.name = "n" + std::to_string(s.batch) + "_c" + std::to_string(s.channels) + "_hw" +
           std::to_string(s.spatial) + "_g" + std::to_string(s.groups);
  p.shape = s;
  p.seed = seed;
  return p;
}

struct StagedRun {
  std::vector<std::array<uint32_t, 3>> dispatches;
  GpuOutputs out;
  VerificationResult check;
};

StagedRun run_variant(VulkanContext& ctx, const CompiledVariant& compiled, const Problem& p) {
  Transfer transfer(ctx);
  const Inputs inputs = generate_inputs(p.shape, p.distribution, p.seed);
  const DeviceInputs device_inputs(ctx, transfer, inputs);
  VariantRunner runner(ctx, transfer, compiled, p, device_inputs);
  StagedRun r{runner.dispatches(), runner.run_once(), {}};
  r.check = verify(p.shape, r.out, reference::backward(p.shape, inputs, p.eps), p.tolerances);
  return r;
}

// The seed with its grad_weight_bias stage given "when": "N > 1": at batch 1 that stage does
// not run, so grad_weight and grad_bias stay poisoned; at batch 2 it runs and they verify.
TEST(StageWhen, FalseStageIsNotDispatchedTrueStageRuns) {
  std::ifstream in(kKernelsDir / "seed.json");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json m = nlohmann::json::parse(text.str());
  m["name"] = "seed_when";
  m["stages"][1]["when"] = "N > 1";
  const auto specs = load_manifest_text(m.dump(), kKernelsDir / "seed_when.json");
  ASSERT_EQ(specs.size(), 1u);
  ContextOptions options;
  VulkanContext ctx(options);
  std::mt19937 rng(std::random_device{}());
  const uint32_t g = 1 + rng() % 4, c = g * (1 + rng() % 8), hw = 1 + rng() % 300;

  const CompiledVariant seed_when = compile_variant(ctx, specs[0]);
  const StagedRun one = run_variant(ctx, seed_when, problem_of({1, c, hw, g}, rng()));
  EXPECT_EQ(one.dispatches.at(1), (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(one.check.tensors.at(0).unwritten, 0u);
  EXPECT_TRUE(one.check.tensors.at(0).pass) << one.check.tensors.at(0).failure;
  EXPECT_EQ(one.check.tensors.at(1).unwritten, c);  // never written: still the poison
  EXPECT_EQ(one.check.tensors.at(2).unwritten, c);
  EXPECT_EQ(std::bit_cast<uint32_t>(one.out.grad_weight[0]), kPoisonBits);

  const StagedRun two = run_variant(ctx, seed_when, problem_of({2, c, hw, g}, rng()));
  EXPECT_EQ(two.dispatches.at(1), (std::array<uint32_t, 3>{c, 1, 1}));
  EXPECT_TRUE(two.check.pass) << two.check.tensors.at(1).failure;
}

// Every shipped build with a stage `when`, on a shape drawn inside its own `when` at batch 1
// (the stage off: the first stage's own grad_weight / grad_bias must verify) and at batch 2-9
// (the stage on, or off where its `when` says so, as for gn_flat's _s4 / _s8 builds up to
// batch 4 / 8).
// Log-uniform CPG and HW of any alignment.
TEST(StageWhen, ShippedBuildsPassWithTheirStageOffAndOn) {
  ContextOptions options;
  VulkanContext ctx(options);
  const uint32_t sg = ctx.info().limits.subgroup_size;
  std::mt19937 rng(std::random_device{}());
  size_t builds = 0;
  for (const auto& v : load_manifests({kKernelsDir})) {
    size_t staged = v.stages.size();
    for (size_t s = 0; s < v.stages.size(); ++s)
      if (v.stages[s].when) staged = s;
    if (staged == v.stages.size()) continue;
    ++builds;
    const CompiledVariant compiled = compile_variant(ctx, v);
    // gn_flat's groups are 65-16384 channels of spatial 1; its _s4 / _s8 builds run the
    // stage only past batch 4 / 8.
    const bool flat = v.name.rfind("gn_flat", 0) == 0;
    for (uint32_t batch : {1u, 2u + static_cast<uint32_t>(rng() % 8)}) {
      const testing::ShapeRange range{.batch_lo = batch,
                                      .batch_hi = batch,
                                      .hw_max = flat ? 1u : 4096u,
                                      .groups_max = 8,
                                      .cpg_max = flat ? 16384u : 128u,
                                      .max_elements = 200000};
      const auto s = testing::shape_inside_when(v, sg, range, rng, 100000);
      ASSERT_TRUE(s) << v.name << ": no shape inside its when at batch " << batch;
      const Problem p = problem_of(*s, rng());
      SCOPED_TRACE(v.name + " on " + p.name);
      const StagedRun r = run_variant(ctx, compiled, p);
      const bool on = stage_runs(v.stages[staged], problem_variables(*s, sg));
      EXPECT_EQ(r.dispatches.at(staged)[0] != 0, on);
      EXPECT_TRUE(r.check.pass) << r.check.tensors.at(0).failure << " "
                                << r.check.tensors.at(1).failure << " "
                                << r.check.tensors.at(2).failure;
    }
  }
  EXPECT_GT(builds, 50u);  // gn_onchip2, gn_sgroup, gn_team and gn_flat
}

}  // namespace
}  // namespace gnbench
