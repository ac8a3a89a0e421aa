// Coverage regimes and the per-variant report, on a described device (no GPU needed): which
// regimes hold for which problems, which a `when` excludes, and how entries turn into cells.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include "cli/report/coverage.hpp"
#include "kernels/runtime/variant_runner.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kSourceDir;

DeviceInfo lavapipe_device() {
  DeviceInfo d;
  d.limits.max_storage_buffer_range = uint64_t{1} << 27;
  d.limits.max_memory_allocation_size = uint64_t{1} << 31;
  d.limits.device_local_memory = uint64_t{1} << 33;
  d.limits.max_workgroup_count = {65535, 65535, 65535};
  d.limits.max_shared_memory = 32768;
  d.limits.subgroup_size = 8;
  d.subgroup_arithmetic = true;
  return d;
}

size_t regime_index(const std::string& id) {
  for (size_t i = 0; i < regimes().size(); ++i)
    if (regimes()[i].id == id) return i;
  ADD_FAILURE() << "no regime " << id;
  return 0;
}

std::set<std::string> regimes_of(const Problem& p) {
  std::set<std::string> out;
  for (const Regime& r : regimes())
    if (r.holds(p, lavapipe_device().limits)) out.insert(r.id);
  return out;
}

Problem problem(uint32_t n, uint32_t c, uint32_t hw, uint32_t g, float eps = 1e-5f,
                const std::string& kind = "normal") {
  Problem p;
  p.name = "p";
  p.shape = {n, c, hw, g};
  p.eps = eps;
  p.distribution.kind = kind;
  return p;
}

TEST(Coverage, RegimesOfKnownProblems) {
  EXPECT_EQ(regimes_of(problem(1, 1, 1, 1, 1e-10f)),
            (std::set<std::string>{"cpg1", "G=1", "G=C", "HW=1", "HW<SG", "HW%4", "eps<1e-9",
                                   "w-distinct"}));
  EXPECT_EQ(regimes_of(problem(2, 2048, 49, 1, 0.05f, "weight_zeros")),
            (std::set<std::string>{"cpg>=1024", "C>128", "C>1024", "G=1", "HW%4", "eps>=1e-3"}));
  EXPECT_EQ(regimes_of(problem(3, 320, 64, 32, 1e-7f)),
            (std::set<std::string>{"cpg2-63", "C>128", "1<G<C", "eps<1e-6", "w-distinct"}));
  EXPECT_EQ(regimes_of(problem(2049, 64, 4, 32, 1e-4f)),
            (std::set<std::string>{"cpg2-63", "1<G<C", "HW<SG", "fold", "eps<1e-3", "w-distinct"}));
  EXPECT_TRUE(regimes_of(problem(1, 64, 13, 1)).count("HWprime"));
  EXPECT_FALSE(regimes_of(problem(1, 64, 15, 1)).count("HWprime"));
  EXPECT_TRUE(regimes_of(problem(1, 64, 2048, 1)).count("cpg64-1023"));
}

// Every problem is in exactly one channels-per-group, group-count and eps regime.
TEST(Coverage, PartitionsArePartitions) {
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t g = 1 + rng() % 64, cpg = 1 + rng() % 2048;
    const float eps = std::pow(10.0f, -12.0f + 11.0f * (rng() % 1000) / 1000.0f);
    const auto r = regimes_of(problem(1 + rng() % 4, g * cpg, 1 + rng() % 100, g, eps));
    auto count = [&](std::initializer_list<const char*> ids) {
      size_t n = 0;
      for (const char* id : ids) n += r.count(id);
      return n;
    };
    EXPECT_EQ(count({"cpg1", "cpg2-63", "cpg64-1023", "cpg>=1024"}), 1u);
    EXPECT_EQ(count({"eps<1e-9", "eps<1e-6", "eps<1e-3", "eps>=1e-3"}), 1u);
    EXPECT_GE(count({"G=1", "1<G<C", "G=C"}), 1u);
  }
}

const VariantSpec& shipped_variant(const std::string& name) {
  static const auto variants = load_manifests({kSourceDir + "/kernels"});
  for (const auto& v : variants)
    if (v.name == name) return v;
  throw std::runtime_error("no variant " + name);
}

// The seed runs everywhere; a v4 variant never on HW not a multiple of 4; a small on-chip
// band never with 1024 channels per group. Examples lie in the regime and satisfy `when`.
TEST(Coverage, ExamplesRespectWhen) {
  const DeviceInfo d = lavapipe_device();
  for (const Regime& r : regimes()) {
    const auto e = find_example(r, shipped_variant("seed"), d);
    ASSERT_TRUE(e) << r.id;
    EXPECT_TRUE(r.holds(*e, d.limits)) << r.id;
  }
  const VariantSpec& v4 = shipped_variant("gn_fused_v4");
  for (const char* id : {"HW=1", "HW%4", "HWprime"})
    EXPECT_FALSE(find_example(regimes()[regime_index(id)], v4, d)) << id;
  const auto fold = find_example(regimes()[regime_index("fold")], v4, d);
  ASSERT_TRUE(fold);
  EXPECT_TRUE(not_applicable_reason(v4, fold->shape, d).empty());
  EXPECT_EQ(fold->shape.spatial % 4, 0u);
  EXPECT_FALSE(
      find_example(regimes()[regime_index("cpg>=1024")], shipped_variant("gn_onchip_64x8"), d));
}

// The fold regime counts for a variant only where its own dispatch folds: generated shapes with
// N*G above the limit fold a workgroup-per-group kernel (gn_onchip2_256), never one that takes
// 32 or more one-channel rows per workgroup (gn_team at subgroup 8); below it neither folds.
TEST(Coverage, FoldIsTheVariantsOwnDispatch) {
  const DeviceInfo d = lavapipe_device();
  const Regime& fold = regimes()[regime_index("fold")];
  const VariantSpec& per_group = shipped_variant("gn_onchip2_256");
  const auto variants = load_manifests({kSourceDir + "/kernels"});
  std::mt19937 rng(11);
  int folded = 0;
  for (int i = 0; i < 200; ++i) {
    const uint32_t c = 1 + rng() % 3000, n = 1 + rng() % 200, hw = 1 + rng() % 60;
    const Problem p = problem(n, c, hw, c);
    const bool over = uint64_t{n} * c > 65535;
    EXPECT_EQ(fold.holds(p, d.limits), over);
    for (const auto& v : variants) {
      if (v.name.rfind("gn_team", 0) == 0) {
        EXPECT_FALSE(fold.holds_for_variant(p, v, d.limits));
      }
    }
    EXPECT_EQ(fold.holds_for_variant(p, per_group, d.limits), over);
    folded += over;
  }
  EXPECT_GT(folded, 20);
}

TEST(Coverage, CellsFromEntries) {
  const DeviceInfo d = lavapipe_device();
  const VariantSpec& seed = shipped_variant("seed");
  const VariantSpec& v4 = shipped_variant("gn_fused_v4");
  RunRecords records;
  auto add = [&](const std::string& variant, const Problem& p, Verdict v) {
    EntryRecord e;
    e.problem = p;
    e.variant = variant;
    e.verdict = v;
    records.entries.push_back(e);
  };
  add("seed", problem(1, 8, 1, 8, 1e-10f), Verdict::kPass);    // cpg1, HW=1, eps<1e-9
  add("seed", problem(1, 256, 1, 1, 1e-5f), Verdict::kFail);   // cpg64-1023, G=1
  add("gn_fused_v4", problem(1, 8, 1, 8), Verdict::kSkipped);  // a skip covers nothing
  const CoverageReport r = compute_coverage(records, {&seed, &v4}, d);
  ASSERT_EQ(r.variants.size(), 2u);
  const auto& s = r.variants[0].cells;
  EXPECT_EQ(s[regime_index("cpg1")], CoverageCell::kVerified);
  EXPECT_EQ(s[regime_index("HW=1")], CoverageCell::kVerified);
  EXPECT_EQ(s[regime_index("cpg64-1023")], CoverageCell::kFailed);
  EXPECT_EQ(s[regime_index("G=1")], CoverageCell::kFailed);
  EXPECT_EQ(s[regime_index("fold")], CoverageCell::kGap);
  ASSERT_TRUE(r.variants[0].example[regime_index("fold")]);
  const auto& v = r.variants[1].cells;
  EXPECT_EQ(v[regime_index("HW=1")], CoverageCell::kNotApplicable);
  EXPECT_EQ(v[regime_index("cpg1")], CoverageCell::kGap);
  // cpg1 G=C HW=1 HW<SG HW%4 eps<1e-9 w-distinct; failed: cpg64-1023 C>128 G=1 eps<1e-3
  EXPECT_EQ(r.count(CoverageCell::kVerified), 7u);
  EXPECT_EQ(r.count(CoverageCell::kFailed), 4u);
}

}  // namespace
}  // namespace gnbench
