// Kernel families on generated shapes: every build of a family over the range its `when`
// admits at the device's subgroup size, with hard input distributions, against the float64
// reference (what the fixed problems of configs/verify.json cannot cover alone).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <tuple>

#include "kernels/runtime/manifest.hpp"
#include "random_shapes.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

using nlohmann::json;
using testing::run_gnbench;
using testing::RunSpec;
using testing::TempDir;

uint32_t device_subgroup_size() {
  auto r = run_gnbench(RunSpec({"devices", "--json"}, 60));
  const json j = json::parse(r.out, nullptr, false);
  if (j.is_array() && !j.empty()) return j[0].value("subgroup_size", 0u);
  if (j.is_object()) return j.value("subgroup_size", 0u);
  return 0;
}

const char* kHardDistributions[] = {"\"normal\"", R"({"kind": "large_mean", "param": 1000})",
                                    R"({"kind": "near_constant", "param": 0})",
                                    R"({"kind": "heavy_tail", "param": 0})", "\"weight_zeros\""};

json generated_problem(std::mt19937& rng, const std::string& name, uint32_t n, uint32_t cpg,
                       uint32_t hw, uint32_t g) {
  json p = json::parse("{\"distribution\": " + std::string(kHardDistributions[rng() % 5]) + "}");
  p.update({{"name", name}, {"batch", n}, {"channels", cpg * g}, {"spatial", hw}, {"groups", g}});
  return p;
}

// A whole number in [lo, max(lo, hi)].
uint32_t draw(std::mt19937& rng, uint32_t lo, uint32_t hi) {
  return std::uniform_int_distribution<uint32_t>(lo, std::max(lo, hi))(rng);
}

// Runs `variants` on the generated problems against the float64 reference: everything that
// runs passes, and every build in `builds` ran on at least one of them (some build, when empty).
void expect_every_build_passes(const json& problems, const std::string& variants,
                               const std::vector<std::string>& builds, const std::string& tag,
                               const std::string& kernels = "") {
  TempDir dir(tag);
  std::ofstream(dir / "c.json") << json{{"problems", problems}}.dump();
  std::vector<std::string> args = {"run",         dir / "c.json", "--variant",    variants,
                                   "--no-timing", "--json",       dir / "r.json", "-q"};
  if (!kernels.empty()) {
    args.push_back("--kernels");
    args.push_back(kernels);
  }
  auto r = run_gnbench(RunSpec(args, 180));
  ASSERT_EQ(r.exit_code, 0) << problems.dump() << "\n" << r.describe();
  std::ifstream in(dir / "r.json");
  std::set<std::string> passed;
  const json results = json::parse(in);
  for (const auto& b : results["benchmarks"])
    if (b.contains("gnbench") && b["gnbench"]["verdict"] == "PASS")
      passed.insert(b["gnbench"]["variant"]);
  for (const auto& v : builds)
    EXPECT_TRUE(passed.count(v)) << v << " never ran: " << problems.dump();
  if (builds.empty()) {
    EXPECT_FALSE(passed.empty()) << "no variant ran: " << problems.dump();
  }
}

// A group of m elements as (CPG, HW) with HW a random divisor of m, m a multiple of `step`.
// Not m = 2: a two-element group's exact grad_input is 0 but for eps, so the reference is
// rounding noise and the group-scaled error reads 1 for every variant, the seed too.
// With `rem`: m % step == rem instead.
std::pair<uint32_t, uint32_t> random_group(std::mt19937& rng, uint32_t lo, uint32_t hi,
                                           uint32_t step = 1, uint32_t rem = 0) {
  uint32_t m = 2;
  while (m == 2)
    m = std::uniform_int_distribution<uint32_t>((lo - rem + step - 1) / step,
                                                (hi - rem) / step)(rng) *
            step +
        rem;
  std::vector<uint32_t> divisors;
  for (uint32_t d = 1; d <= m; ++d)
    if (m % d == 0) divisors.push_back(d);
  const uint32_t hw = divisors[rng() % divisors.size()];
  return {m / hw, hw};
}

// Every gn_sgroup build on generated shapes across its range of M at the device's subgroup
// size (any C, HW, G; hard distributions), against the float64 reference. The vec4 builds'
// ranges draw M % 4 == 0 (any HW: a vec4 may span rows, a row may start mid-vec4), the vec2
// builds' M % 4 == 2.
TEST(SgroupFamily, GeneratedShapesOverEveryBuildsRangePass) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  // (lo, hi, step of M, M % step)
  const std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> ranges = {
      {1, 16, 1, 0},
      {1, sg * 2, 1, 0},
      {sg * 2 + 1, sg * 8, 1, 0},
      {sg * 8 + 1, sg * 16, 1, 0},
      {sg * 16 + 1, sg * 24, 1, 0},
      {sg * 24 + 1, sg * 32, 1, 0},
      {sg * 2 + 1, sg * 8, 4, 0},
      {sg * 8 + 1, sg * 16, 4, 0},
      {sg * 16 + 1, sg * 32, 4, 0},
      {sg * 2 + 1, sg * 8, 4, 2},
      {sg * 8 + 1, sg * 16, 4, 2},
      {sg * 16 + 1, sg * 24, 4, 2},
      {sg * 24 + 1, sg * 32, 4, 2}};
  std::mt19937 rng(std::random_device{}());
  json problems = json::array();
  int k = 0;
  for (auto [lo, hi, step, rem] : ranges)
    for (int t = 0; t < 3; ++t) {
      const auto [cpg, hw] = random_group(rng, lo, hi, step, rem);
      const uint32_t n = std::vector<uint32_t>{1, 3, 40, 700}[rng() % 4];
      problems.push_back(
          generated_problem(rng, "s" + std::to_string(k++), n, cpg, hw, 1 + rng() % 6));
    }
  // The workgroup builds: groups past one subgroup's 32 slots, of short rows (HW <= 6 subgroups'
  // width) and CPG > 1, up to each build's capacity; rows drawn first, so the channels per
  // group (up to a few hundred) come out of M.
  const uint32_t hw_max = sg * 6;
  const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> wg_ranges = {
      {1536, 4, 0}, {2048, 4, 0}, {2048, 1, 0}, {3072, 1, 0}, {2048, 4, 2}, {3072, 4, 2}};
  for (auto [cap, step, rem] : wg_ranges)
    for (int t = 0; t < 3; ++t) {
      uint32_t cpg = 0, hw = 0;
      while (cpg < 2 || cpg * hw <= sg * 32 || cpg * hw > cap || (cpg * hw) % step != rem) {
        hw = draw(rng, 1, hw_max);
        cpg = draw(rng, 2, cap / hw);
      }
      const uint32_t n = std::vector<uint32_t>{1, 3, 40}[rng() % 3];
      problems.push_back(
          generated_problem(rng, "s" + std::to_string(k++), n, cpg, hw, 1 + rng() % 4));
    }
  expect_every_build_passes(
      problems, "gn_sgroup_*",
      {"gn_sgroup_lane16", "gn_sgroup_2", "gn_sgroup_8", "gn_sgroup_16", "gn_sgroup_24",
       "gn_sgroup_32", "gn_sgroup_v4_2", "gn_sgroup_v4_4", "gn_sgroup_v4_8", "gn_sgroup_wg64_v4x6",
       "gn_sgroup_wg128_v4x4", "gn_sgroup_wg128x16", "gn_sgroup_wg256x12", "gn_sgroup_v2_4",
       "gn_sgroup_v2_8", "gn_sgroup_v2_12", "gn_sgroup_v2_16", "gn_sgroup_wg128_v2x8",
       "gn_sgroup_wg256_v2x6"},
      "sgroup");
}

// Every gn_gmajor build on generated shapes across its range at the device's subgroup size:
// the subgroup-per-sample builds over their M ranges and batches that give a subgroup one or
// several samples (the prefetch path); the batch-1 workgroup builds with rows of any length
// (vec4 where HW % 4 == 0) on both sides of the 256/1024-invocation boundary; the batch-2
// builds (two samples at once) from one chunk per sample to their capacity.
TEST(GmajorFamily, GeneratedShapesOverEveryBuildsRangePass) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  std::mt19937 rng(std::random_device{}());
  auto pick = [&](uint32_t lo, uint32_t hi) { return draw(rng, lo, hi); };
  json problems = json::array();
  int k = 0;
  auto add = [&](uint32_t n, uint32_t cpg, uint32_t hw) {
    problems.push_back(generated_problem(rng, "g" + std::to_string(k++), n, cpg, hw, pick(1, 5)));
  };
  // gn_gmajor_sg2 / sg8 / sg32, at most 8 / 4 / 2 samples per subgroup and CPG <= 2 * sg.
  const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> sg_ranges = {
      {1, sg * 2, 1024 / sg * 8},
      {sg * 2 + 1, sg * 8, 256 / sg * 4},
      {sg * 8 + 1, sg * 32, 64 / sg * 2}};
  for (auto [lo, hi, most_n] : sg_ranges)
    for (uint32_t n : {1u, 2u, pick(3, most_n)}) {
      auto group = random_group(rng, lo, hi);
      while (group.first > 2 * sg) group = random_group(rng, lo, hi);
      add(n, group.first, group.second);
    }
  // Batch 1: chunks of `sg` vec4 (HW = 4 * sg * a) or odd rows (scalar).
  const uint32_t small_v4 = 256 / sg * 4, large_v4 = 1024 / sg * 7;
  for (int t = 0; t < 2; ++t) {
    const uint32_t a = pick(1, 4);
    add(1, pick(1, small_v4 / a), 4 * sg * a);                                  // gn_gmajor_v4_256
    add(1, pick(small_v4 / a + 1, std::min(1024u, large_v4 / a)), 4 * sg * a);  // gn_gmajor_v4_1024
    const uint32_t hw = 2 * pick(1, 2 * sg) + 1;
    add(1, pick(1, 256 / sg * 16 / ((hw + sg - 1) / sg)), hw);  // gn_gmajor_256
  }
  // Batch 2, one sample per half workgroup: per half, 128 / sg * 8 and 256 / sg * 16 scalar
  // chunks (any row length), 128 / sg * 4 and 256 / sg * 6 vec4 chunks.
  for (auto [half, scalar_slots, vec4_slots] :
       {std::tuple{128u, 8u, 4u}, std::tuple{256u, 16u, 6u}}) {
    const uint32_t hw = pick(1, 3 * sg);
    add(2, pick(1, half / sg * scalar_slots / ((hw + sg - 1) / sg)), hw);  // x2_256, x2_512
    const uint32_t a = pick(1, 2);
    add(2, pick(1, half / sg * vec4_slots / a), 4 * sg * a);  // v4_x2_256, v4_x2_512
  }
  expect_every_build_passes(problems, "gn_gmajor_*",
                            {"gn_gmajor_sg2", "gn_gmajor_sg8", "gn_gmajor_sg32", "gn_gmajor_256",
                             "gn_gmajor_v4_256", "gn_gmajor_v4_1024", "gn_gmajor_x2_256",
                             "gn_gmajor_x2_512", "gn_gmajor_v4_x2_256", "gn_gmajor_v4_x2_512"},
                            "gmajor");
}

// Two shapes drawn at random inside the `when` of every variant of `folder` whose name starts
// with one of `prefixes`, at subgroup size `sg`: log-uniform N, CPG, HW (any alignment) and G,
// hard distributions. Appends the variants' names to `builds`.
json shapes_inside_every_when(const std::filesystem::path& folder,
                              const std::vector<std::string>& prefixes, uint32_t sg,
                              std::vector<std::string>& builds,
                              const testing::ShapeRange& range = {}) {
  std::mt19937 rng(std::random_device{}());
  json problems = json::array();
  for (const auto& v : load_manifests({folder})) {
    if (std::none_of(prefixes.begin(), prefixes.end(),
                     [&](const std::string& p) { return v.name.rfind(p, 0) == 0; }))
      continue;
    builds.push_back(v.name);
    for (int found = 0; found < 2; ++found) {
      const auto s = testing::shape_inside_when(v, sg, range, rng);
      if (!s) break;  // the build then never runs, which expect_every_build_passes reports
      problems.push_back(generated_problem(rng, v.name + "_" + std::to_string(found), s->batch,
                                           s->channels / s->groups, s->spatial, s->groups));
    }
  }
  return problems;
}

// Every build of the register-resident families (gn_onchip2, its few-invocation and many-slot
// builds included, gn_regx, and gn_team's row teams) on shapes drawn at random inside its own
// `when` at the device's subgroup size: log-uniform CPG, HW, any alignment, hard distributions. The
// shapes come from the manifests' conditions, so a build's band is tested wherever it moves.
TEST(RegisterFamilies, GeneratedShapesInsideEveryBuildsWhenPass) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  std::vector<std::string> builds;
  const json problems =
      shapes_inside_every_when(std::filesystem::path(GNBENCH_SOURCE_DIR) / "kernels",
                               {"gn_onchip2", "gn_regx", "gn_team"}, sg, builds);
  ASSERT_GT(builds.size(), 10u);
  expect_every_build_passes(problems, "gn_onchip2*,gn_regx*,gn_team*", builds, "register");
}

// Masked on-chip builds with more than 8 slots (gn_masked.glsl's second mask word), which no
// shipped build has yet: kernels/gn_onchip2.json copied to a temporary folder under another
// family name, with 9-16-slot builds added to its masked axis (grad_out slots in shared
// memory or not), on odd rows drawn inside each new build's `when`.
TEST(MaskedWideSlots, GeneratedOddRowsInsideEveryBuildsWhenPass) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  const std::filesystem::path kernels = std::filesystem::path(GNBENCH_SOURCE_DIR) / "kernels";
  json m = json::parse(std::ifstream(kernels / "gn_onchip2.json"));
  json& fam = m["variants"][0];
  fam["family"] = "gn_wide";
  fam["variant"]["name"] = "gn_wide${v}_${wg}${sfx}";
  for (auto& stage : fam["variant"]["stages"])
    stage["shader"] = (kernels / stage["shader"].get<std::string>()).string();
  bool found = false;
  for (auto& axis : fam["axes"][0])
    if (axis["v"] == "_m4") {
      found = true;
      for (const json& build : {json{{"wg", 64}, {"slots", 16}, {"sfx", "w16"}, {"above", ""}},
                                json{{"wg", 128},
                                     {"slots", 13},
                                     {"sfx", "w13d4"},
                                     {"lo", "128 / SUBGROUP * 4"},
                                     {"dy_shared", 4}},
                                json{{"wg", 128},
                                     {"slots", 9},
                                     {"sfx", "w9d9"},
                                     {"lo", "128 / SUBGROUP * 4"},
                                     {"dy_shared", 9}}})
        axis["axes"][0].push_back(build);
    }
  ASSERT_TRUE(found) << "no masked axis in gn_onchip2.json";
  m["variants"] = json::array({fam});  // the file's other families stay out
  TempDir dir("wide");
  const std::filesystem::path folder = dir.path() / "kernels";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "wide.json") << m.dump(1);
  const std::vector<std::string> wide = {"gn_wide_m4_64w16", "gn_wide_m4_128w13d4",
                                         "gn_wide_m4_128w9d9"};
  std::vector<std::string> builds;
  const json problems = shapes_inside_every_when(folder, wide, sg, builds);
  ASSERT_EQ(builds.size(), 3u);
  expect_every_build_passes(problems, "gn_wide_m4_64w16,gn_wide_m4_128w13d4,gn_wide_m4_128w9d9",
                            builds, "wide", folder.string());
}

// The split on-chip builds (gn_split.glsl's join) write the same bits whichever part finishes
// which rows. Two copies of the split family in a temporary folder: one whose parts never wait
// (SPLIT_SPINS 0: every part but the last gives its rows up), one whose parts run side by side
// here (SPLIT_STRIDED: lavapipe gives each thread a contiguous range of workgroups, so the
// shipped order runs a group's parts one after another) and wait long, so most finish their own
// rows. On shapes drawn inside each shipped split build's `when` (groups of up to 1024 rows, at
// most 16 parts):
// everything passes, and every output of each copy equals the shipped build's bit for bit.
TEST(SplitBuilds, PartsThatGiveUpOrWaitWriteTheSameBits) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  const std::filesystem::path kernels = std::filesystem::path(GNBENCH_SOURCE_DIR) / "kernels";
  const json m = json::parse(std::ifstream(kernels / "gn_onchip2.json"));
  json split;
  for (const json& f : m["variants"])
    if (f.value("family", "") == "gn_onchip2_split") split = f;
  ASSERT_FALSE(split.is_null()) << "no gn_onchip2_split family in gn_onchip2.json";
  json copies = json::array();
  for (const auto& [name, defines] :
       {std::pair<std::string, json>{"gn_giveup", {{"SPLIT_SPINS", 0}}},
        std::pair<std::string, json>{"gn_together",
                                     {{"SPLIT_SPINS", 1 << 22}, {"SPLIT_STRIDED", 1}}}}) {
    json f = split;
    f["family"] = name;
    std::string v = f["variant"]["name"];
    f["variant"]["name"] = name + v.substr(std::string("gn_onchip2").size());
    for (auto& stage : f["variant"]["stages"]) {
      stage["shader"] = (kernels / stage["shader"].get<std::string>()).string();
      stage["defines"].update(defines);
    }
    copies.push_back(f);
  }
  TempDir dir("split");
  const std::filesystem::path folder = dir.path() / "kernels";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "copies.json") << json{{"variants", copies}}.dump(1);

  std::vector<std::string> builds;
  std::vector<std::string> shipped;
  for (const auto& v : load_manifests({kernels}))
    if (v.name.rfind("gn_onchip2", 0) == 0 && v.name.back() == 's') shipped.push_back(v.name);
  ASSERT_GE(shipped.size(), 1u);
  // Up to 1024 rows per group (the `when` keeps a group to at most 16 parts).
  testing::ShapeRange range;
  range.cpg_max = 1024;
  range.max_elements = 3000000;
  const json problems = shapes_inside_every_when(kernels, shipped, sg, builds, range);
  std::string selected;
  for (const std::string& b : shipped)
    for (const std::string& prefix :
         {std::string("gn_onchip2"), std::string("gn_giveup"), std::string("gn_together")})
      selected += (selected.empty() ? "" : ",") + prefix + b.substr(10);
  std::ofstream(dir / "c.json") << json{{"problems", problems}}.dump();
  auto r = run_gnbench(RunSpec({"run", dir / "c.json", "--kernels", folder.string(), "--variant",
                                selected, "--no-timing", "--dump", dir / "dump", "-q"},
                               300));
  ASSERT_EQ(r.exit_code, 0) << problems.dump() << "\n" << r.describe();
  auto bytes = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  size_t compared = 0;
  for (const auto& problem : std::filesystem::directory_iterator(dir / "dump"))
    for (const std::string& b : shipped) {
      if (!std::filesystem::exists(problem.path() / b)) continue;
      for (const char* copy : {"gn_giveup", "gn_together"})
        for (const char* t : {"grad_input.npy", "grad_weight.npy", "grad_bias.npy"}) {
          const std::filesystem::path mine = problem.path() / (copy + b.substr(10)) / t;
          ASSERT_TRUE(std::filesystem::exists(mine)) << mine;
          EXPECT_EQ(bytes(mine), bytes(problem.path() / b / t))
              << mine << " differs from " << b << " on " << problem.path().filename();
          ++compared;
        }
    }
  EXPECT_GE(compared, shipped.size() * 2 * 3) << problems.dump();
}

// gn_fused_rp: long rows with HW % 4 != 0 (one row per tile: CPG == 1, or rows longer than
// about two tiles of 4092 / sg chunks), several pieces per row, rows and the tensor ending
// inside a vec4; and its one-row-per-tile builds for shorter rows in groups of several rows
// (_row64: 257-1020 elements, _row128: 1021-2044; one row per subgroup: _sg4 up to 16 vec4
// per lane, _sg8 up to 32).
TEST(FusedRpFamily, GeneratedOddLongRowsPass) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  std::mt19937 rng(std::random_device{}());
  auto pick = [&](uint32_t lo, uint32_t hi) { return draw(rng, lo, hi); };
  const uint32_t long_row = 2 * (4092 / sg) * sg + 1;  // over two tiles' chunks: one row per tile
  json problems = json::array();
  for (int k = 0; k < 6; ++k) {
    const bool one_channel = k % 2 == 0;
    uint32_t hw = one_channel ? pick(3, 20000) : pick(long_row, long_row + 12000);
    if (hw % 4 == 0) ++hw;
    problems.push_back(generated_problem(rng, "r" + std::to_string(k), pick(1, 3),
                                         one_channel ? 1 : pick(2, 4), hw, pick(1, 3)));
  }
  for (int k = 0; k < 10; ++k) {
    const uint32_t bands[][2] = {
        {257, 1019}, {1021, 2039}, {sg * 4 + 1, sg * 16 - 5}, {sg * 16 - 3, sg * 32 - 5}};
    uint32_t hw = pick(bands[k % 4][0], bands[k % 4][1]);
    if (hw % 4 == 0) ++hw;
    problems.push_back(
        generated_problem(rng, "s" + std::to_string(k), pick(1, 3), pick(2, 6), hw, pick(1, 3)));
  }
  expect_every_build_passes(problems, "gn_fused_rp*",
                            {"gn_fused_rp", "gn_fused_rp_row64", "gn_fused_rp_row128",
                             "gn_fused_rp_sg4", "gn_fused_rp_sg8"},
                            "fused_rp");
}

// The `expected` shipped builds whose names start with `prefix`, each on shapes drawn inside
// its own `when` at the device's subgroup size.
void expect_builds_pass_inside_their_when(const std::string& prefix, size_t expected,
                                          const std::string& tag,
                                          const testing::ShapeRange& range = {}) {
  const uint32_t sg = device_subgroup_size();
  ASSERT_GT(sg, 0u);
  std::vector<std::string> builds;
  const json problems = shapes_inside_every_when(
      std::filesystem::path(GNBENCH_SOURCE_DIR) / "kernels", {prefix}, sg, builds, range);
  ASSERT_EQ(builds.size(), expected);
  expect_every_build_passes(problems, prefix + "*", builds, tag);
}

// gn_fused_rp's row-per-team builds (_t1 / _t2 / _t4 / _t8: rows of up to 156 elements with
// HW % 4 != 0 in groups of several rows and more than 1024 elements) on shapes drawn inside
// each build's own `when` at the device's subgroup size, so the bands are tested wherever the
// manifest moves them.
TEST(FusedRpTeams, GeneratedShapesInsideEveryBuildsWhenPass) {
  expect_builds_pass_inside_their_when("gn_fused_rp_t", 4, "rp_teams");
}

// gn_flat (flattened features: spatial 1, groups of 65-16384 channels, one workgroup per
// (n, g) or per 4 or 8 samples of a group, partials or REREAD) and gn_flatap (statistics,
// then grad_input with the dw/db partials in one re-read): every build on shapes drawn inside
// its `when`, batch 1-11 (one row of partials or several, the dwdb stage off or on), any CPG
// alignment for the scalar builds.
TEST(FlatFamily, GeneratedFlatShapesInsideEveryBuildsWhenPass) {
  testing::ShapeRange flat;
  flat.batch_hi = 11;
  flat.hw_max = 1;
  flat.cpg_max = 16384;
  flat.groups_max = 3;
  expect_builds_pass_inside_their_when("gn_flat", 55, "flat", flat);
}

// The shipped builds whose names start with `prefix` and end in `suffix`.
std::vector<std::string> flat_builds(const std::string& suffix,
                                     const std::string& prefix = "gn_flat") {
  std::vector<std::string> builds;
  for (const auto& v : load_manifests({std::filesystem::path(GNBENCH_SOURCE_DIR) / "kernels"}))
    if (v.name.rfind(prefix, 0) == 0 && v.name.size() > suffix.size() &&
        v.name.compare(v.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      builds.push_back(v.name);
  return builds;
}

// One random spatial-1 shape per band of groups of more than `above` channels (the narrowest
// bands of the builds; any CPG, and one the vec4 builds take), 1 to `max_groups` groups, with
// the batch drawn by `batch`.
template <typename Batch>
json flat_band_shapes(std::mt19937& rng, const std::string& tag, Batch batch, uint32_t above = 0,
                      uint32_t max_groups = 2) {
  json problems = json::array();
  const uint32_t bands[][2] = {{64, 256},    {256, 512},   {512, 1024},  {1024, 2048},
                               {2048, 4096}, {4096, 8192}, {8192, 16384}};
  for (const auto& band : bands)
    for (const uint32_t step : {1u, 4u}) {
      if (band[0] < above) continue;
      const uint32_t m = draw(rng, band[0] / step + 1, band[1] / step) * step;
      problems.push_back(generated_problem(rng, tag + std::to_string(problems.size()), batch(), m,
                                           1, draw(rng, 1, max_groups)));
    }
  return problems;
}

// The 4- and 8-sample builds where the batch is not a multiple of their samples and over
// them (several rows of partials, the last block short, the dwdb stage on): every one must run
// and pass.
TEST(FlatFamily, MultiSampleBuildsWithAShortLastBlockPass) {
  std::mt19937 rng(std::random_device{}());
  for (const uint32_t s : {4u, 8u}) {
    const json problems = flat_band_shapes(rng, "s" + std::to_string(s) + "_", [&] {
      uint32_t n = draw(rng, s + 1, 3 * s - 1);
      return n % s == 0 ? n + 1 : n;
    });
    const std::string suffix = "_s" + std::to_string(s);
    const std::vector<std::string> builds = flat_builds(suffix);
    ASSERT_EQ(builds.size(), s == 4 ? 18u : 6u);
    expect_every_build_passes(problems, "gn_flat*" + suffix, builds, "flat" + suffix);
  }
}

// The REREAD builds (no partials: the dwdb stage forms the products from x, grad_out and
// each (n, g)'s statistics) past 256 samples, where the dwdb stage splits the rows into
// chunks that the last one merges: every one must run and pass, on the hard distributions
// (large_mean: the shift K of the group stage must be the dwdb stage's too).
TEST(FlatFamily, RereadBuildsWithChunkedSamplesPass) {
  std::mt19937 rng(std::random_device{}());
  // The bands the REREAD builds take (over 4096 channels), one group: tensors of at most 26 MB.
  const json problems = flat_band_shapes(
      rng, "rr_", [&] { return draw(rng, 257, 400); }, 4096, 1);
  const std::vector<std::string> builds = flat_builds("_rr");
  ASSERT_EQ(builds.size(), 6u);
  expect_every_build_passes(problems, "gn_flat*_rr", builds, "flat_rr");
}

// The gn_flatap builds past 256 samples, where the apply stage splits the rows into chunks of
// 256 that the last one merges (and a chunk's channel block can span two groups): every one
// must run and pass.
TEST(FlatFamily, ApplyPassBuildsWithChunkedSamplesPass) {
  std::mt19937 rng(std::random_device{}());
  // The bands the gn_flatap builds take (over 4096 channels), 1-2 groups.
  const json problems = flat_band_shapes(
      rng, "ap_", [&] { return draw(rng, 257, 400); }, 4096, 2);
  const std::vector<std::string> builds = flat_builds("", "gn_flatap");
  ASSERT_EQ(builds.size(), 4u);
  expect_every_build_passes(problems, "gn_flatap*", builds, "flatap");
}

// gn_fused_rp2*, gn_fused_rp2t* and gn_fused_rp2s*: gn_fused_rp's partials, then one dispatch
// whose blocks merge their own group's piece records (gn_apply_rpmerge.comp) and whose first
// blocks reduce grad_weight / grad_bias from per-(n, g) statistics of their own; or (rp2t) whose
// blocks of each (n, g) leave shares that the last of the N sums (DW_TAIL; at batch 1 they are
// the answer); or (rp2s) the partials' workgroup that completes a group merging it
// (gn_rowpiece.comp LAST_WG; with rows per subgroup or team, a workgroup's rows may lie in
// several groups) for the blocks to read: every build on shapes drawn inside its `when`.
TEST(FusedRp2, GeneratedShapesInsideEveryBuildsWhenPass) {
  expect_builds_pass_inside_their_when("gn_fused_rp2", 27, "rp2");
}

// gn_fused_rp2t*'s grad_weight / grad_bias (DW_TAIL) down both of its paths: at batch 1 the
// blocks write them from their own group's statistics, past it the last of the N blocks of a
// chunk sums the shares in n order; with more chunks of 256 channels than blocks per group
// (rows of 1-3 elements) a block holds several. Shapes drawn where the build's `when` holds
// (the grad_weight blocks would need over 4 rounds of record loads at any subgroup size).
TEST(FusedRp2, TailsWriteGradWeightAtBatchOneAndSumSharesPastIt) {
  std::mt19937 rng(std::random_device{}());
  json problems = json::array();
  for (int k = 0; k < 2; ++k) {
    const std::string i = std::to_string(k);
    problems.push_back(
        generated_problem(rng, "b1_" + i, 1, draw(rng, 2100, 4000), draw(rng, 13, 27), 1));
    problems.push_back(generated_problem(rng, "bn_" + i, draw(rng, 3, 6), draw(rng, 600, 1500),
                                         draw(rng, 29, 59), draw(rng, 1, 3)));
    problems.push_back(generated_problem(rng, "short_" + i, draw(rng, 3, 4), draw(rng, 3000, 8000),
                                         draw(rng, 1, 3), 1));
  }
  expect_every_build_passes(problems, "gn_fused_rp2t*",
                            {"gn_fused_rp2t_t1", "gn_fused_rp2t_t2", "gn_fused_rp2t_t4"}, "rp2t");
}

// gn_fused_rp2s's one-row-per-team builds count each workgroup's rows to every group they lie
// in (LAST_WG): groups of just over 1024 elements in rows of 1-28, so that a workgroup of 128
// or 256 rows holds rows of several groups and the group a workgroup completes may be any of
// them.
TEST(FusedRp2, LastWorkgroupCountsItsRowsOfSeveralGroups) {
  std::mt19937 rng(std::random_device{}());
  json problems = json::array();
  for (int k = 0; k < 3; ++k) {
    const std::string i = std::to_string(k);
    const uint32_t hw1 = draw(rng, 2, 12), hw2 = draw(rng, 13, 28);
    problems.push_back(generated_problem(rng, "t1_" + i, draw(rng, 2, 4),
                                         draw(rng, 1025 / hw1 + 1, 1400 / hw1), hw1,
                                         draw(rng, 4, 16)));
    problems.push_back(generated_problem(rng, "t2_" + i, draw(rng, 2, 4),
                                         draw(rng, 1025 / hw2 + 1, 1400 / hw2), hw2,
                                         draw(rng, 4, 16)));
  }
  expect_every_build_passes(problems, "gn_fused_rp2s_t*", {"gn_fused_rp2s_t1", "gn_fused_rp2s_t2"},
                            "rp2s_teams");
}

// gn_apply_rpmerge.comp's grad_weight blocks take the (mean, rstd) of the (n, g) pairs their
// channels touch in one of two ways, whichever needs fewer rounds of record loads: one group of
// hundreds of short rows at batch 1 (the whole workgroup merges its tiles) and many pairs of a
// few rows each (a subgroup per pair). Drawn at random on both sides, short rows of any length
// (the one-row-per-team and per-subgroup builds) and long ones.
TEST(FusedRp2, GradWeightBlocksMergeFewPairsOfManyTilesAndManyPairsOfFew) {
  std::mt19937 rng(std::random_device{}());
  auto pick = [&](uint32_t lo, uint32_t hi) { return draw(rng, lo, hi); };
  json problems = json::array();
  for (int k = 0; k < 3; ++k) {
    const uint32_t hw = k == 2 ? pick(1100, 1900) : pick(60, 200);
    problems.push_back(generated_problem(rng, "few" + std::to_string(k), 1, pick(250, 600), hw, 1));
    const uint32_t g = pick(16, 40);
    problems.push_back(
        generated_problem(rng, "many" + std::to_string(k), pick(2, 3), pick(2, 12), hw, g));
  }
  expect_every_build_passes(problems, "gn_fused_rp2*", {}, "rp2_pairs");
}

// gn_fused1: batch 1, groups of at most 16 tiles (a tile holds 4096 elements), rows of any
// length (vec4 where HW % 4 == 0), from one block per group to many.
TEST(Fused1Family, GeneratedBatch1ShapesPass) {
  std::mt19937 rng(std::random_device{}());
  auto pick = [&](uint32_t lo, uint32_t hi) { return draw(rng, lo, hi); };
  json problems = json::array();
  for (int k = 0; k < 6; ++k) {
    const uint32_t cpg = pick(1, 16);
    uint32_t hw = pick(1, 16 * 4096 / cpg / 4);
    if (k % 2 == 0) hw = 4 * std::max(1u, hw / 4);
    problems.push_back(generated_problem(rng, "b" + std::to_string(k), 1, cpg, hw, pick(1, 4)));
  }
  expect_every_build_passes(problems, "gn_fused1*", {"gn_fused1", "gn_fused1_v4"}, "fused1");
}

// The group merges of gn_combine.glsl (gn_fused* combine and last workgroup, in batches of
// records per invocation; fused1's apply blocks one at a time) and gn_piece_merge.glsl
// (gn_fused_rp2*, past its first MREC records a plain loop): groups of more tiles and more rows
// than one round of the workgroup holds (hundreds of rows of one or several pieces; long rows
// cut into pieces), so every merge loop takes several rounds, some with a partial last one.
TEST(FusedMerge, GroupsOfSeveralRecordBatchesPass) {
  std::mt19937 rng(std::random_device{}());
  auto pick = [&](uint32_t lo, uint32_t hi) { return draw(rng, lo, hi); };
  json problems = json::array();
  for (int k = 0; k < 2; ++k) {
    const std::string i = std::to_string(k);
    uint32_t hw = pick(1100, 4200);
    if (k == 0) hw = 4 * (hw / 4);
    problems.push_back(generated_problem(rng, "rows" + i, pick(1, 2), pick(520, 700), hw, 1));
    problems.push_back(
        generated_problem(rng, "row128_" + i, 1, pick(520, 1000), 4 * pick(276, 510), 1));
  }
  problems.push_back(generated_problem(rng, "pieces", 1, pick(200, 260), pick(18000, 20000), 1));
  expect_every_build_passes(problems, "gn_fused*",
                            {"gn_fused", "gn_fused_v4", "gn_fused2", "gn_fused2_v4",
                             "gn_fused_rp2s", "gn_fused_rp2s_row128"},
                            "merge_batches");
}

}  // namespace
}  // namespace gnbench
