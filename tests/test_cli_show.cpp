// `gnbench show` and `gnbench compare` on stored results files (results/**, some .json.gz):
// no Vulkan device needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::kResultsDir;
const std::string kLavapipe = kResultsDir + "lavapipe/seed_vs_gn_hot.json.gz";

using testing::gnbench;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CliShow, PrintsTheStoredRunAsItsTable) {
  const auto all = gnbench({"show", kLavapipe});
  ASSERT_EQ(all.exit_code, 0) << all.describe();
  EXPECT_NE(all.out.find("median us"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("llvmpipe"), std::string::npos) << all.out;  // the run's header
  EXPECT_GE(count(all.out, "gn_onchip2_256 "), 1u) << all.out;
  const auto seed = gnbench({"show", kLavapipe, "--variant", "seed", "--problem", "small_*,sd_*"});
  ASSERT_EQ(seed.exit_code, 0) << seed.describe();
  EXPECT_EQ(count(seed.out, "gn_onchip2"), 0u) << seed.out;
  EXPECT_EQ(count(seed.out, "resnet50gn"), 0u) << seed.out;
  EXPECT_GE(count(seed.out, " seed "), 6u) << seed.out;
}

TEST(CliShow, BadFiltersAndFilesAreUsageErrors) {
  const auto typo = gnbench({"show", kLavapipe, "--variant", "sed"});
  EXPECT_EQ(typo.exit_code, 2) << typo.describe();
  EXPECT_NE(typo.err.find("--variant 'sed'"), std::string::npos) << typo.err;
  const auto missing = gnbench({"show", kResultsDir + "nope.json"});
  EXPECT_EQ(missing.exit_code, 2) << missing.describe();
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;
}

TEST(CliCompareFiles, VariantsWithinOneFile) {
  testing::TempDir dir("variants");
  // Both variants skip many problems there: SKIP -> SKIP rows to collapse.
  const auto r = gnbench({"compare", "--variants", "gn_onchip2_512", "gn_onchip2_256", kLavapipe,
                          "--json", dir / "cmp.json"});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3 || r.exit_code == 4) << r.describe();
  EXPECT_NE(r.out.find("gn_onchip2_256 vs gn_onchip2_512"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SKIP -> SKIP not shown"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(testing::slurp(dir / "cmp.json"));
  EXPECT_EQ(j["variants"], (nlohmann::json{"gn_onchip2_512", "gn_onchip2_256"}));
  EXPECT_EQ(j["entries"].size(), 16u);
  // --all lists the SKIP -> SKIP rows.
  const auto all =
      gnbench({"compare", "--all", "--variants", "gn_onchip2_512", "gn_onchip2_256", kLavapipe});
  EXPECT_GT(count(all.out, "SKIP -> SKIP"), count(r.out, "SKIP -> SKIP")) << all.out;
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"compare", "--variants", "seed", "nope", kLavapipe},
           {"compare", "--variants", "seed", "gn_onchip2_256", kLavapipe, kLavapipe},
           {"compare", kLavapipe},
           {"compare", kLavapipe, kLavapipe, kLavapipe}}) {
    const auto e = gnbench(bad);
    EXPECT_EQ(e.exit_code, 2) << e.describe();
  }
}

TEST(CliCompareFiles, StoredH200RunsCompressed) {
  // Two stored H200 runs, as they are (.json.gz, with per-sample rows): read, compared, with
  // the interval, p and the geometric mean in the report.
  const auto r = gnbench({"compare", kResultsDir + "h200/run19_h200.json.gz",
                          kResultsDir + "h200/run20_h200.json.gz", "--mode", "hot"});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3 || r.exit_code == 4) << r.describe();
  EXPECT_NE(r.out.find("geometric mean of the median ratios"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("]%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("only in current"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gnbench
