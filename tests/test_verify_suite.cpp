// configs/verify.json, the verification suite: on this device it lets every variant run in
// every regime its `when` allows; alone it catches the broken kernels written for the gap
// classes (eps fixed, > 128 channels, > 64 channels per group, the dispatch fold) while the
// seed passes it; a failing random problem prints commands that rerun it and its shrunk form.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "base/format.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/report/coverage.hpp"
#include "kernels/runtime/variant_runner.hpp"
#include "kernels/runtime/vulkan_context.hpp"
#include "shared_fixtures.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kBrokenKernelsDir;
using testing::kSourceDir;
const std::string kSuite = kSourceDir + "/configs/verify.json";
using testing::kQuiet;

BenchOptions verify_only(const std::vector<std::string>& variants) {
  BenchOptions o;
  o.kernel_folders = {kSourceDir + "/kernels", kBrokenKernelsDir};
  o.variants = variants;
  o.timing = false;
  o.measure_copy_bandwidth = false;
  return o;
}

// Static: every (problem, variant) the suite would run counts as passed; what remains a gap
// is a regime no problem of the suite reaches for that variant. (CI's verify-suite script
// runs the suite for real and checks the same report with real verdicts.) The suite is
// verify.json for every variant, and the fold runs of scripts/verify-suite.sh on
// verify_fold.json: the families that pack groups or rows on its fold_* problems (millions of
// groups) and gn_onchip_* on its onchip_fold_* problems (at N < 24, hundreds of thousands of
// channels), too large to run every variant on.
TEST(VerifySuite, ReachesEveryRegimeEveryVariantAllows) {
  const auto variants = load_manifests({kSourceDir + "/kernels"});
  std::vector<std::string> names;
  for (const auto& v : variants) names.push_back(v.name);
  const auto suite = load_config_file(kSuite);
  const auto fold = load_config_file(kSourceDir + "/configs/verify_fold.json");
  std::vector<std::string> fold_names;
  for (const Problem& p : fold) fold_names.push_back(p.name);
  const std::vector<std::pair<std::vector<std::string>, std::string>> fold_runs = {
      {{"gn_flat_*", "gn_sgroup_*", "gn_team_*"}, "fold_*"}, {{"gn_onchip_*"}, "onchip_fold_*"}};
  std::vector<std::vector<Problem>> problems(variants.size(), suite);
  for (const auto& [families, pattern] : fold_runs) {
    const auto chosen = select_by_patterns(fold_names, {pattern}, "--problem", "problems");
    for (size_t i : select_by_patterns(names, families, "--variant", "variants"))
      for (size_t j : chosen) problems[i].push_back(fold[j]);
  }
  VulkanContext ctx(ContextOptions{});
  RunRecords records;
  std::vector<const VariantSpec*> selected;
  for (size_t i = 0; i < variants.size(); ++i) {
    const VariantSpec& v = variants[i];
    selected.push_back(&v);
    for (const Problem& p : problems[i]) {
      EntryRecord e;
      e.problem = p;
      e.variant = v.name;
      e.verdict = not_applicable_reason(v, p.shape, ctx.info()).empty() ? Verdict::kPass
                                                                        : Verdict::kSkipped;
      records.entries.push_back(e);
    }
  }
  const CoverageReport report = compute_coverage(records, selected, ctx.info());
  for (const auto& v : report.variants)
    for (size_t i = 0; i < regimes().size(); ++i)
      EXPECT_NE(v.cells[i], CoverageCell::kGap)
          << v.variant << " never runs in " << regimes()[i].id << ", e.g. "
          << shape_label(v.example[i]->shape) << " eps " << v.example[i]->eps;
  EXPECT_GT(report.count(CoverageCell::kVerified), variants.size() * 10);
}

// Each gap-class bug fails on some problem of the suite that the seed passes, so the problem
// is fine and the kernel is wrong. Problems run in suite order and each variant stops at the
// first such problem (scripts/verify-suite.sh runs every variant, the seed included, on all).
TEST(VerifySuite, CatchesTheGapClassKernelsAlone) {
  const auto problems = load_config_file(kSuite);
  for (const std::string variant :
       {"broken_eps_fixed", "broken_weight_c128", "broken_weight_cpg64", "broken_fold_stride"}) {
    BenchRunner broken(verify_only({variant}));
    BenchRunner control(verify_only({"seed"}));
    const Problem* caught = nullptr;
    for (const Problem& p : problems) {
      if (!not_applicable_reason(*broken.variants()[0], p.shape, broken.context().info()).empty())
        continue;
      const RunRecords r = broken.run({p}, kQuiet, nullptr);
      ASSERT_EQ(r.entries.size(), 1u);
      EXPECT_NE(r.entries[0].verdict, Verdict::kError) << r.entries[0].message;
      if (r.entries[0].verdict != Verdict::kFail) continue;
      // Counts only where the seed passes: a problem the seed fails too says nothing about
      // this bug (scripts/verify-suite.sh reports such seed failures as failures).
      const RunRecords seed = control.run({p}, kQuiet, nullptr);
      if (seed.entries.at(0).verdict != Verdict::kPass) continue;
      caught = &p;
      break;
    }
    EXPECT_NE(caught, nullptr) << variant
                               << " passed every problem of verify.json that the seed passes";
  }
}

}  // namespace
}  // namespace gnbench
