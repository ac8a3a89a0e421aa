// Random problems: valid by construction over many generated specs, reproducible from the
// seed, names that say everything needed to rerun them, and the config block's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/random_problems.hpp"

namespace gnbench {
namespace {

// A spec with random ranges, drawn from `rng` (specs themselves are generated cases).
RandomSpec random_spec(std::mt19937_64& rng) {
  auto pick = [&](uint32_t lo, uint32_t hi) {
    return static_cast<uint32_t>(lo + rng() % (uint64_t{hi} - lo + 1));
  };
  RandomSpec s;
  s.count = pick(1, 40);
  s.seed = rng();
  for (uint32_t* r : {s.batch, s.channels, s.spatial}) {
    r[0] = pick(1, 8);
    r[1] = r[0] + pick(0, 5000);
  }
  s.max_elements = std::min<uint64_t>(
      uint64_t{s.batch[0]} * s.channels[0] * s.spatial[0] * pick(1, 100000), UINT32_MAX);
  s.fold_fraction = (rng() % 4) / 3.0;
  s.eps[0] = 1e-12 * pick(1, 1000);
  s.eps[1] = s.eps[0] * pick(1, 1000000);
  s.distributions = {"normal", "uniform", "heavy_tail"};
  return s;
}

TEST(RandomProblems, EveryProblemRespectsItsSpec) {
  std::mt19937_64 rng(2026);
  size_t folded = 0;
  for (int round = 0; round < 300; ++round) {
    const RandomSpec spec = random_spec(rng);
    const auto problems = generate_random_problems(spec);
    ASSERT_EQ(problems.size(), spec.count);
    std::set<std::string> names;
    for (const Problem& p : problems) {
      SCOPED_TRACE(p.name);
      const Shape& s = p.shape;
      EXPECT_TRUE(p.random);
      EXPECT_TRUE(names.insert(p.name).second);
      EXPECT_NO_THROW(validate_shape(s, "test", p.name));
      EXPECT_EQ(s.channels % s.groups, 0u);
      EXPECT_LE(s.elements(), spec.max_elements);
      EXPECT_GE(s.channels, spec.channels[0]);
      EXPECT_LE(s.channels, spec.channels[1]);
      EXPECT_GE(s.spatial, spec.spatial[0]);
      EXPECT_LE(s.spatial, spec.spatial[1]);
      const bool fold = uint64_t{s.batch} * s.groups > 65535;
      folded += fold;
      if (!fold) {
        EXPECT_GE(s.batch, spec.batch[0]);
        EXPECT_LE(s.batch, spec.batch[1]);
      }
      EXPECT_GE(p.eps, static_cast<float>(spec.eps[0]));
      EXPECT_LE(p.eps, static_cast<float>(spec.eps[1]));
      EXPECT_NE(
          std::find(spec.distributions.begin(), spec.distributions.end(), p.distribution.kind),
          spec.distributions.end());
    }
  }
  EXPECT_GT(folded, 0u);  // the fold path is drawn when the cap allows it
}

// The name carries shape, eps (as float32 text that reads back exactly), kind and seed.
TEST(RandomProblems, NamesRerunExactly) {
  RandomSpec spec;
  spec.count = 200;
  spec.distributions = {"normal", "heavy_tail"};
  for (const Problem& p : generate_random_problems(spec)) {
    unsigned n = 0, c = 0, hw = 0, g = 0;
    char eps[32] = {}, rest[64] = {};
    ASSERT_EQ(std::sscanf(p.name.c_str(), "rnd_n%u_c%u_hw%u_g%u_eps%31[^_]_%63s", &n, &c, &hw, &g,
                          eps, rest),
              6)
        << p.name;
    EXPECT_EQ(n, p.shape.batch);
    EXPECT_EQ(c, p.shape.channels);
    EXPECT_EQ(hw, p.shape.spatial);
    EXPECT_EQ(g, p.shape.groups);
    EXPECT_EQ(std::strtof(eps, nullptr), p.eps) << eps;
    EXPECT_EQ(std::string(rest), p.distribution.kind + "_s" + std::to_string(p.seed));
  }
}

TEST(RandomProblems, SameSeedSameProblemsAndCountOnlyExtends) {
  RandomSpec spec;
  spec.count = 50;
  spec.seed = 99;
  const auto a = generate_random_problems(spec);
  const auto b = generate_random_problems(spec);
  spec.count = 10;
  const auto prefix = generate_random_problems(spec);
  spec.seed = 100;
  const auto other = generate_random_problems(spec);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].name, b[i].name);
  for (size_t i = 0; i < prefix.size(); ++i) EXPECT_EQ(prefix[i].name, a[i].name);
  size_t same = 0;
  for (size_t i = 0; i < other.size(); ++i) same += other[i].name == a[i].name;
  EXPECT_EQ(same, 0u);
}

// By default every input kind is drawn (the hard ones are where kernels break) and batches
// reach 64.
TEST(RandomProblems, DefaultsDrawEveryKindAndLargeBatches) {
  RandomSpec spec;
  spec.count = 400;
  std::set<std::string> kinds;
  size_t mid_batches = 0;  // 8 < N <= 64, off the fold path (where N follows from G)
  for (const Problem& p : generate_random_problems(spec)) {
    kinds.insert(p.distribution.kind);
    mid_batches += p.shape.batch > 8 && p.shape.batch <= 64;
  }
  const auto all = all_distribution_kinds();
  EXPECT_EQ(kinds, std::set<std::string>(all.begin(), all.end()));
  EXPECT_GE(all.size(), 7u);
  EXPECT_GT(mid_batches, 20u);
}

// eps covers its log range: every decade from 1e-12 to 1e-1 is drawn.
TEST(RandomProblems, EpsIsLogUniform) {
  RandomSpec spec;
  spec.count = 400;
  std::set<int> decades;
  for (const Problem& p : generate_random_problems(spec))
    decades.insert(static_cast<int>(std::floor(std::log10(p.eps))));
  for (int d = -12; d <= -2; ++d) EXPECT_TRUE(decades.count(d)) << d;
}

TEST(RandomProblems, Float32TextRoundTrips) {
  std::mt19937 rng(5);
  for (int i = 0; i < 20000; ++i) {
    uint32_t bits = rng() & 0x7f7fffffu;
    float f;
    std::memcpy(&f, &bits, 4);
    if (!std::isfinite(f)) continue;
    const std::string t = float32_text(f);
    EXPECT_EQ(std::strtof(t.c_str(), nullptr), f) << t;
  }
  EXPECT_EQ(float32_text(0.1f), "0.1");
  EXPECT_EQ(float32_text(1e-5f), "1e-05");
}

TEST(RandomProblems, ConfigBlockAddsProblems) {
  const std::string text = R"({"problems": [{"name": "p", "batch": 1, "channels": 4,
    "spatial": 4, "groups": 2}], "random": {"count": 5, "seed": 3, "channels": [8, 64],
    "distributions": ["uniform"], "prefix": "r"}})";
  const auto problems = parse_config_text(text, "t.json");
  ASSERT_EQ(problems.size(), 6u);
  EXPECT_FALSE(problems[0].random);
  for (size_t i = 1; i < 6; ++i) {
    EXPECT_TRUE(problems[i].random);
    EXPECT_EQ(problems[i].name.rfind("r_n", 0), 0u);
    EXPECT_EQ(problems[i].distribution.kind, "uniform");
  }
}

TEST(RandomProblems, BadBlocksNameTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"count": 0})", "field 'random.count' = 0: must be an integer in [1, 100000]"},
      {R"({"batch": [4, 2]})", "field 'random.batch' = [4,2]: min must be <= max"},
      {R"({"channels": [0, 2]})", "field 'random.channels[0]' = 0"},
      {R"({"eps": [0, 1]})", "field 'random.eps' = [0,1]"},
      {R"({"distributions": ["gauss"]})", "field 'random.distributions' = \"gauss\""},
      {R"({"max_elements": 10, "channels": [64, 64]})", "field 'random.max_elements' = 10"},
      {R"({"fold_fraction": 2})", "field 'random.fold_fraction' = 2"},
      {R"({"colour": 1})", "unknown field 'colour' in 'random'"},
      {R"({"prefix": "a b"})", "field 'random.prefix'"},
  };
  for (const auto& [block, want] : cases) {
    try {
      parse_config_text(R"({"random": )" + block + "}", "t.json");
      ADD_FAILURE() << block << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("t.json: ", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace gnbench
