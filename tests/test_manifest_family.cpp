// Kernel families (kernels/runtime/manifest_family.hpp): random axis value sets expand to their
// product in order with every placeholder substituted; nested axes, `let` defaults, null and
// whole-value placeholders; and every mistake in a family is a one-line ConfigError that names
// the file, the family (and build), the field and the bad value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ManifestFamily : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("gnbench_family_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ofstream(dir / "k.comp") << "#version 450\nvoid main() {}\n";
  }
  void TearDown() override { fs::remove_all(dir); }

  std::vector<VariantSpec> load(const json& doc) {
    return load_manifest_text(doc.dump(), dir / "f.json");
  }
  // The message of the ConfigError `doc` is rejected with, checked to be one line about f.json.
  std::string error(const json& doc) {
    try {
      load(doc);
    } catch (const ConfigError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind((dir / "f.json").string() + ": ", 0), 0u) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      return msg;
    }
    ADD_FAILURE() << "no ConfigError for " << doc.dump();
    return "";
  }

  // A valid variant template over the placeholder `wg`.
  static json tpl() {
    return json::parse(R"({
      "name": "fam_${wg}", "description": "wg ${wg}",
      "buffers": {"x": {"tensor": "x"}, "gi": {"tensor": "grad_input"},
                  "gwb": {"packed": ["grad_weight", "grad_bias"]}},
      "stages": [{"name": "s", "shader": "k.comp", "workgroup_size": "${wg}",
                  "dispatch": ["N * G"], "bindings": ["x", "gi", "gwb", "params"]}]})");
  }
  static json family(json axes, json variant = tpl()) {
    return {{"family", "fam"}, {"axes", std::move(axes)}, {"variant", std::move(variant)}};
  }
  fs::path dir;
};

void expect_has(const std::string& msg, const std::vector<std::string>& pieces) {
  for (const auto& p : pieces) EXPECT_NE(msg.find(p), std::string::npos) << p << "\n in: " << msg;
}

// Random axes (1 to 3, of 1 to 4 distinct values, written either way an axis can be written),
// and a template that uses every placeholder in every kind of field: the loader gives one
// variant per combination, first axis outermost, with each field substituted.
TEST_F(ManifestFamily, RandomAxesExpandToTheirProductInOrder) {
  for (uint32_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const size_t n_axes = 1 + rng() % 3;
    std::vector<std::vector<int>> values(n_axes);
    json axes = json::array();
    json variant = tpl();
    std::string name = "fam", description = "d", when, scratch = "4";
    for (size_t a = 0; a < n_axes; ++a) {
      std::set<int> distinct;
      const size_t n = 1 + rng() % 4;
      while (distinct.size() < n) distinct.insert(1 + static_cast<int>(rng() % 64));
      values[a].assign(distinct.begin(), distinct.end());
      std::shuffle(values[a].begin(), values[a].end(), rng);
      const std::string p = "p" + std::to_string(a), q = "q" + std::to_string(a);
      if (rng() % 2) {  // {"pA": [v...]}
        axes.push_back({{p, values[a]}});
      } else {  // [{"pA": v, "qA": "tv"}...]: two placeholders bound together
        json list = json::array();
        for (int v : values[a]) list.push_back({{p, v}, {q, "t" + std::to_string(v)}});
        axes.push_back(list);
        description += " ${" + q + "}";
      }
      name += "_${" + p + "}";
      when += (a ? " && N > ${" : "N > ${") + p + "}";
      scratch += " * ${" + p + "}";
      variant["stages"][0]["defines"]["D" + std::to_string(a)] = "${" + p + "}";
    }
    variant["name"] = name;
    variant["description"] = description;
    variant["when"] = when;
    variant["traffic_bytes"] = "${p0} * E";
    variant["params"] = {"${lp}"};
    variant["buffers"]["scratch"] = {{"scratch_bytes", scratch}};
    variant["stages"][0]["workgroup_size"] = "${p0}";
    variant["stages"][0]["dispatch"] = {"N * ${p0}", "${p" + std::to_string(n_axes - 1) + "}", 1};
    json doc = family(axes, variant);
    doc["let"] = {{"lp", "${p0} + 1"}};

    const std::vector<VariantSpec> got =
        load(rng() % 2 ? json{{"variants", json::array({doc})}} : doc);
    size_t expected_count = 1;
    for (const auto& v : values) expected_count *= v.size();
    ASSERT_EQ(got.size(), expected_count);
    std::vector<size_t> at(n_axes, 0);  // an odometer over the axes, the last one fastest
    for (const VariantSpec& v : got) {
      auto value = [&](size_t a) { return std::to_string(values[a][at[a]]); };
      std::string want_name = "fam", want_description = "d", want_when, want_scratch = "4";
      for (size_t a = 0; a < n_axes; ++a) {
        want_name += "_" + value(a);
        if (axes[a].is_array()) want_description += " t" + value(a);
        want_when += (a ? " && N > " : "N > ") + value(a);
        want_scratch += " * " + value(a);
        EXPECT_EQ(v.stages[0].defines.at("D" + std::to_string(a)), value(a));
      }
      EXPECT_EQ(v.name, want_name);
      EXPECT_EQ(v.description, want_description);
      EXPECT_EQ(v.manifest, dir / "f.json");
      ASSERT_TRUE(v.when);
      EXPECT_EQ(v.when->text(), want_when);
      EXPECT_EQ(v.traffic_bytes->text(), value(0) + " * E");
      ASSERT_EQ(v.params.size(), 1u);
      EXPECT_EQ(v.params[0].text(), value(0) + " + 1");
      EXPECT_EQ(v.buffer("scratch")->scratch_bytes->text(), want_scratch);
      EXPECT_EQ(v.stages[0].workgroup_size, static_cast<uint32_t>(values[0][at[0]]));
      EXPECT_EQ(v.stages[0].dispatch[0].text(), "N * " + value(0));
      EXPECT_EQ(v.stages[0].dispatch[1].text(), value(n_axes - 1));
      EXPECT_EQ(v.stages[0].shader, dir / "k.comp");
      for (size_t a = n_axes; a-- > 0;) {
        if (++at[a] < values[a].size()) break;
        at[a] = 0;
      }
    }
  }
}

// A value with its own axes crosses them with itself only (different rows per vec width);
// `let` defaults may be rebound by a value and may use any placeholder of the build.
TEST_F(ManifestFamily, NestedAxesAndLetDefaults) {
  json variant = tpl();
  variant["name"] = "fam${v}_${wg}x${slots}";
  variant["description"] = "${kind}${note}";
  variant["when"] = "${fit} <= ${wg} * ${slots}";
  json doc = family(json::parse(R"j([[
      {"kind": "scalar", "v": "", "hw": "HW", "axes": [[
        {"wg": 64, "slots": 8, "note": " (small)"}, {"wg": 256, "slots": 16}]]},
      {"kind": "vec4", "v": "_v4", "hw": "(HW / 4)", "axes": [[{"wg": 128, "slots": 2}]]}]])j"),
                    variant);
  doc["let"] = {{"fit", "ceil_div(${hw}, 32)"}, {"note", ""}};
  const auto got = load(doc);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].name, "fam_64x8");
  EXPECT_EQ(got[0].description, "scalar (small)");
  EXPECT_EQ(got[0].when->text(), "ceil_div(HW, 32) <= 64 * 8");
  EXPECT_EQ(got[1].name, "fam_256x16");
  EXPECT_EQ(got[1].description, "scalar");
  EXPECT_EQ(got[2].name, "fam_v4_128x2");
  EXPECT_EQ(got[2].when->text(), "ceil_div((HW / 4), 32) <= 128 * 2");
  EXPECT_EQ(got[2].stages[0].workgroup_size, 128u);
}

// "${x}" alone takes x's JSON value: null drops the member or list entry, an object or a
// list is substituted in turn; keys take placeholders too, and "$$" is a literal '$'.
TEST_F(ManifestFamily, WholeValuesNullAndKeys) {
  json variant = tpl();
  variant["description"] = "costs $$${wg}";
  variant["when"] = "${when}";
  variant["stages"][0]["defines"] = {{"ENTRY_${entry}", 1}, {"EXTRA", "${extra}"}};
  variant["stages"][0]["bindings"] = "${bindings}";
  variant["stages"].push_back("${second}");
  json doc = family(json::parse(R"([[
      {"wg": 64, "entry": "A", "extra": null, "when": null, "second": null,
       "bindings": ["x", "gi", "gwb"]},
      {"wg": 32, "entry": "B", "extra": 3, "when": "N > ${wg}", "bindings": ["x", "gi", "gwb"],
       "second": {"name": "t", "shader": "k.comp", "workgroup_size": "${wg}", "dispatch": [1],
                  "bindings": ["params"]}}]])"),
                    variant);
  const auto got = load(doc);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].description, "costs $64");
  EXPECT_FALSE(got[0].when);
  EXPECT_EQ(got[0].stages.size(), 1u);
  EXPECT_EQ(got[0].stages[0].defines, (std::map<std::string, std::string>{{"ENTRY_A", "1"}}));
  EXPECT_EQ(got[0].stages[0].bindings, (std::vector<std::string>{"x", "gi", "gwb"}));
  EXPECT_EQ(got[1].when->text(), "N > 32");
  EXPECT_EQ(got[1].stages[0].defines,
            (std::map<std::string, std::string>{{"ENTRY_B", "1"}, {"EXTRA", "3"}}));
  ASSERT_EQ(got[1].stages.size(), 2u);
  EXPECT_EQ(got[1].stages[1].name, "t");
  EXPECT_EQ(got[1].stages[1].workgroup_size, 32u);
}

// Families and plain variants mix in one list, in order; a folder of both loads as before.
TEST_F(ManifestFamily, FamiliesAndPlainVariantsKeepTheirOrder) {
  json plain = tpl();
  plain["name"] = "plain";
  plain["stages"][0]["workgroup_size"] = 8;
  json last = plain;
  last["name"] = "last";
  const json doc = {{"variants", json::array({plain, family({{{"wg", {4, 2}}}}), last})}};
  std::ofstream(dir / "a.json") << doc.dump(2);
  std::ofstream(dir / "b.json") << family({{{"wg", {1}}}}).dump();  // a family alone in a file
  const auto got = load_manifests({dir});
  std::vector<std::string> names;
  for (const auto& v : got) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"plain", "fam_4", "fam_2", "last", "fam_1"}));
  EXPECT_EQ(got[4].manifest, dir / "b.json");
}

TEST_F(ManifestFamily, UnknownPlaceholder) {
  json variant = tpl();
  variant["when"] = "N > ${slotz}";
  expect_has(error(family({{{"wg", {64}}}}, variant)),
             {"family 'fam': variant 'fam_64': field 'variant.when'",
              "unknown placeholder '${slotz}'", "binds: wg", "\"N > ${slotz}\""});
}

TEST_F(ManifestFamily, AxisWithNoValues) {
  expect_has(error(family({{{"wg", {64}}}, json::array()})),
             {"family 'fam': field 'axes[1]'", "at least one value", "[]"});
  expect_has(error(family({{{"wg", json::array()}}})),
             {"field 'axes[0].wg'", "at least one value"});
  expect_has(error(family(json::array())), {"field 'axes'", "non-empty list of axes"});
  json doc = family({});
  doc.erase("axes");
  expect_has(error(doc), {"field 'axes'", "missing"});
  expect_has(error(family({{1, 2}})), {"field 'axes[0][0]'", "must be an object", "got 1"});
  expect_has(error(family({"wg"})), {"field 'axes[0]'", "an axis is a list", "\"wg\""});
}

TEST_F(ManifestFamily, TwoBuildsWithOneName) {
  json variant = tpl();
  variant["description"] = "${b}";
  expect_has(error(family({{{"wg", {64}}}, {{"b", {"x", "y"}}}}, variant)),
             {"family 'fam': field 'variant.name'", "'fam_64' is the name of two builds",
              "(axes[0].wg[0], axes[1].b[0]) and (axes[0].wg[0], axes[1].b[1])"});
}

TEST_F(ManifestFamily, MalformedPlaceholders) {
  json variant = tpl();
  variant["description"] = "wg ${wg";
  expect_has(error(family({{{"wg", {64}}}}, variant)),
             {"variant 'fam_64': field 'variant.description'", "unterminated placeholder '${wg'"});
  variant["description"] = "${w g}";
  expect_has(error(family({{{"wg", {64}}}}, variant)), {"'${w g}' is not a placeholder"});
  variant["description"] = "${axes}";
  expect_has(error(family({{{"wg", {64}}}}, variant)), {"'${axes}' is not a placeholder"});
  expect_has(error(family({{{"w-g", {64}}}})),
             {"field 'axes[0].w-g[0]'", "'w-g' is not a placeholder name"});
}

TEST_F(ManifestFamily, NonTextValueInsideText) {
  json variant = tpl();
  variant["description"] = "on ${list}";
  expect_has(error(family({{{"wg", {64}}}, {{"list", {json::array({1, 2})}}}}, variant)),
             {"field 'variant.description'", "'${list}' is a list", "only a string or an integer"});
  variant["description"] = "on ${gone}";
  expect_has(error(family({{{"wg", {64}}}, {{"gone", {nullptr}}}}, variant)), {"is null"});
}

TEST_F(ManifestFamily, PlaceholderCycleAndDepth) {
  json variant = tpl();
  variant["description"] = "${a}";
  json doc = family({{{"wg", {64}}}}, variant);
  doc["let"] = {{"a", "x${b}"}, {"b", "${a}"}};
  expect_has(error(doc), {"field 'let.b'", "'${a}' uses itself: a -> b -> a"});
  doc["let"] = json::object();
  for (int i = 0; i < 20; ++i)
    doc["let"]["a" + std::to_string(i)] = i == 19 ? "end" : "${a" + std::to_string(i + 1) + "}";
  variant["description"] = "${a0}";
  doc["variant"] = variant;
  expect_has(error(doc), {"more than 16 deep"});
}

TEST_F(ManifestFamily, BindingUsedByNoBuild) {
  expect_has(error(family({{{{"wg", 64}, {"nte", "typo"}}}})),
             {"family 'fam': field 'axes[0][0].nte'", "placeholder 'nte' is used by no build"});
  json doc = family({{{"wg", {64}}}});
  doc["let"] = {{"wg", 32}};  // a default every build rebinds
  expect_has(error(doc), {"field 'let.wg'", "used by no build"});
}

TEST_F(ManifestFamily, TwoAxesBindOneName) {
  expect_has(error(family({{{"wg", {64}}}, {{"wg", {32}}}})),
             {"field 'axes[1].wg[0]'", "'wg' is already bound by axes[0].wg[0]"});
  expect_has(error(family(json::parse(R"([[{"wg": 1, "axes": [{"wg": [2]}]}]])"))),
             {"field 'axes[0][0].axes[0].wg[0]'", "already bound by axes[0][0].wg"});
}

TEST_F(ManifestFamily, FamilyFields) {
  json doc = family({{{"wg", {64}}}});
  doc["axis"] = 1;
  expect_has(error(doc), {"family 'fam': field 'axis'", "unknown field", "variant"});
  doc = family({{{"wg", {64}}}});
  doc.erase("variant");
  expect_has(error(doc), {"field 'variant'", "variant template"});
  doc = family({{{"wg", {64}}}});
  doc["family"] = 7;
  expect_has(error(doc), {"field 'family'", "non-empty string", "got 7"});
  doc = family({{{"wg", {64}}}});
  doc["let"] = {1};
  expect_has(error(doc), {"field 'let'", "must be an object"});
}

TEST_F(ManifestFamily, DuplicateKeyAfterSubstitution) {
  json variant = tpl();
  variant["stages"][0]["defines"] = {{"D_${wg}", 1}, {"D_64", 2}};
  expect_has(error(family({{{"wg", {64}}}}, variant)),
             {"field 'variant.stages[0].defines.D_64'", "two members are named 'D_64'"});
}

TEST_F(ManifestFamily, ExpansionIsBounded) {
  json axes = json::array();
  for (int a = 0; a < 13; ++a) axes.push_back({{"p" + std::to_string(a), {0, 1}}});
  expect_has(error(family(axes)), {"field 'axes[12]'", "more than 4096 builds"});
  json variant = tpl();
  variant["description"] = "${s12}";
  json doc = family({{{"wg", {64}}}}, variant);
  doc["let"] = {{"s0", "abcdefgh"}};
  for (int i = 1; i <= 12; ++i) {
    const std::string prev = "${s" + std::to_string(i - 1) + "}";
    doc["let"]["s" + std::to_string(i)] = prev + prev + prev + prev;
  }
  expect_has(error(doc), {"expands to more than"});
}

// A build that expands but breaks a rule of the plain format is reported like a plain
// variant, with the family named too.
TEST_F(ManifestFamily, ExpandedBuildIsValidatedLikeAPlainVariant) {
  expect_has(error(family({{{"wg", {64, 2000}}}})),
             {"family 'fam': variant 'fam_2000': field 'stages.s.workgroup_size'", "got 2000"});
  expect_has(error(family({{{"wg", {"64"}}}})),
             {"variant 'fam_64': field 'stages.s.workgroup_size'", "got \"64\""});
}

}  // namespace
}  // namespace gnbench
