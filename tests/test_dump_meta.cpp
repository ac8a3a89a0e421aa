// --dump's meta.json and the reference's statistics (issue 23): a PyTorch user rebuilds the
// problem from meta.json and calls native_group_norm_backward with the dumped mean and rstd.
// Random shapes, eps, seeds and distributions; the statistics are checked against a direct
// long-double computation from the dumped x.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "base/npy_writer.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

TEST(DumpMeta, MetaAndStatisticsDescribeTheDumpedProblem) {
  std::mt19937 rng(20261201);
  const char* distributions[] = {"normal", "uniform", "large_mean"};
  for (int round = 0; round < 2; ++round) {
    testing::TempDir tmp("dump_meta");
    const uint32_t groups = 1 + rng() % 6, cpg = 1 + rng() % 5;
    const uint32_t n = 1 + rng() % 3, hw = 1 + rng() % 300, seed = rng() % 100000;
    const double eps = std::pow(10.0, -1.0 - double(rng() % 6));
    const std::string dist = distributions[rng() % 3];
    SCOPED_TRACE("N=" + std::to_string(n) + " G=" + std::to_string(groups) +
                 " C/G=" + std::to_string(cpg) + " HW=" + std::to_string(hw) + " " + dist);
    const testing::RunResult r = testing::run_gnbench({{"run",
                                                        "--batch",
                                                        std::to_string(n),
                                                        "--channels",
                                                        std::to_string(groups * cpg),
                                                        "--spatial",
                                                        std::to_string(hw),
                                                        "--groups",
                                                        std::to_string(groups),
                                                        "--eps",
                                                        std::to_string(eps),
                                                        "--seed",
                                                        std::to_string(seed),
                                                        "--distribution",
                                                        dist,
                                                        "--name",
                                                        "cli",
                                                        "--variant",
                                                        "seed,gn_fused",
                                                        "--no-timing",
                                                        "-q",
                                                        "--dump",
                                                        tmp / "d"}});
    // 1: a variant failed verification (large_mean is hard for some); the dump is written anyway.
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.describe();
    const fs::path dir = tmp.path() / "d" / "cli";

    const auto meta = nlohmann::json::parse(std::ifstream(dir / "meta.json"));
    EXPECT_EQ(meta.at("shape").at("batch"), n);
    EXPECT_EQ(meta.at("shape").at("channels"), groups * cpg);
    EXPECT_EQ(meta.at("shape").at("spatial"), hw);
    EXPECT_EQ(meta.at("groups"), groups);
    EXPECT_FLOAT_EQ(meta.at("eps").get<float>(), float(eps));
    EXPECT_EQ(meta.at("seed"), seed);
    EXPECT_EQ(meta.at("distribution").at("kind"), dist);
    EXPECT_EQ(meta.at("gnbench_version"), GNBENCH_VERSION);
    // Every variant listed has its outputs next to the reference.
    ASSERT_FALSE(meta.at("variants").empty());
    for (const auto& v : meta.at("variants"))
      EXPECT_TRUE(fs::exists(dir / v.get<std::string>() / "grad_input.npy")) << v;

    const NpyArray x = read_npy(dir / "x.npy"), mean = read_npy(dir / "mean.npy"),
                   rstd = read_npy(dir / "rstd.npy");
    EXPECT_EQ(mean.dtype, "<f8");
    EXPECT_EQ(mean.shape, (std::vector<uint64_t>{n, groups}));
    EXPECT_EQ(rstd.shape, (std::vector<uint64_t>{n, groups}));
    const Eigen::ArrayXf xs = x.as_float32();
    const Eigen::ArrayXd m = mean.as_float64(), s = rstd.as_float64();
    const float eps_f = meta.at("eps").get<float>();
    for (uint32_t b = 0; b < n; ++b)
      for (uint32_t g = 0; g < groups; ++g) {
        long double sum = 0, sq = 0;
        const size_t begin = (size_t(b) * groups + g) * cpg * hw, count = size_t(cpg) * hw;
        for (size_t i = 0; i < count; ++i) sum += xs[begin + i];
        const long double mu = sum / count;
        for (size_t i = 0; i < count; ++i) sq += (xs[begin + i] - mu) * (xs[begin + i] - mu);
        const long double expect_rstd = 1 / std::sqrt(sq / count + eps_f);
        const size_t k = size_t(b) * groups + g;
        EXPECT_NEAR(m[k], double(mu), 1e-12 * (1 + std::fabs(double(mu)))) << k;
        EXPECT_NEAR(s[k], double(expect_rstd), 1e-9 * double(expect_rstd)) << k;
      }
  }
}

}  // namespace
}  // namespace gnbench
