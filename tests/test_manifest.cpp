// Kernel manifests (kernels/runtime/manifest.hpp): the shipped kernels folder loads, and every
// manifest in the broken corpus tests/data/manifests/bad/<case>/ is rejected with a one-line
// ConfigError that starts with the offending file and names the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/shader_compiler.hpp"
#include "kernels/runtime/spirv_bindings.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

using testing::kKernelsDir;
const fs::path kManifests = fs::path(GNBENCH_TEST_DATA_DIR) / "manifests";

std::string manifest_error_of(const std::vector<fs::path>& folders) {
  try {
    load_manifests(folders);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no ConfigError";
}

const VariantSpec& find_variant(const std::vector<VariantSpec>& variants, const std::string& name) {
  auto it = std::find_if(variants.begin(), variants.end(),
                         [&](const VariantSpec& v) { return v.name == name; });
  if (it == variants.end()) throw std::runtime_error("no variant " + name);
  return *it;
}

// ---- the shipped kernels ----

TEST(Manifest, ShippedKernelsLoad) {
  const auto variants = load_manifests({kKernelsDir});
  ASSERT_FALSE(variants.empty());
  std::set<std::string> names;
  for (const auto& v : variants) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_FALSE(v.stages.empty()) << v.name;
    for (const auto& s : v.stages) EXPECT_TRUE(fs::is_regular_file(s.shader)) << s.shader;
  }
  EXPECT_TRUE(names.count("seed"));
}

// Every gn_* stage that writes grad_input keeps w*dy a product of its own (a `precise` one,
// SPIR-V NoContraction): fused into an FMA with the subtraction of mean(w*dy), one-element
// groups get rounding error instead of 0 (the H200, GPU-host run 19). lavapipe does not
// fuse, so the outputs alone cannot guard this here; the compiled module can. A stage is
// exempt only when its module declares no buffer where the manifest binds grad_input (it
// cannot write it: gn_flatap's statistics stage).
TEST(Manifest, GradInputStagesKeepTheirProductUnfused) {
  auto has_no_contraction = [](const std::vector<uint32_t>& spirv) {
    constexpr uint32_t kOpDecorate = 71, kNoContraction = 42;
    for (size_t i = 5; i < spirv.size(); i += spirv[i] >> 16) {
      if ((spirv[i] >> 16) == 0) return false;  // malformed: stop rather than loop
      if ((spirv[i] & 0xffff) == kOpDecorate && spirv[i + 2] == kNoContraction) return true;
    }
    return false;
  };
  std::set<std::pair<fs::path, std::map<std::string, std::string>>> seen;
  size_t exempt = 0;
  for (const auto& v : load_manifests({kKernelsDir})) {
    if (v.name == "seed") continue;  // the seed keeps its own arithmetic (edge.json: may_fail)
    for (const auto& stage : v.stages) {
      const auto slot = std::find(stage.bindings.begin(), stage.bindings.end(), "grad_input");
      if (slot == stage.bindings.end()) continue;
      auto defines = stage.defines;
      defines["WG_SIZE"] = std::to_string(stage.workgroup_size);
      defines["SUBGROUP_SIZE"] = "32";
      if (!seen.insert({stage.shader, defines}).second) continue;
      const std::vector<uint32_t> spirv = compile_glsl(stage.shader, defines);
      const auto declared = reflect_spirv(spirv).bindings;
      const uint32_t at = static_cast<uint32_t>(slot - stage.bindings.begin());
      if (std::none_of(declared.begin(), declared.end(),
                       [&](const SpirvBinding& b) { return b.binding == at; })) {
        ++exempt;
        continue;
      }
      EXPECT_TRUE(has_no_contraction(spirv)) << v.name << " stage " << stage.name;
    }
  }
  EXPECT_GT(seen.size(), 5u);
  EXPECT_LT(exempt, seen.size() / 4);  // the exemption stays the exception
}

// Every variant meets hard inputs: some problem of the verification configs satisfies its
// `when` on lavapipe (8-wide subgroups, what CI runs) and on 32-wide subgroups (the H200,
// where numerics_standard.json joins them), so no build is only ever timed.
TEST(Manifest, EveryVariantRunsOnTheVerificationConfigs) {
  const fs::path configs = fs::path(GNBENCH_SOURCE_DIR) / "configs";
  for (const uint32_t subgroup : {8u, 32u}) {
    std::vector<std::string> files = {"default.json", "edge.json", "numerics.json"};
    if (subgroup == 32) files.push_back("numerics_standard.json");
    std::vector<Problem> problems;
    for (const auto& f : files)
      for (auto& p : load_config_file(configs / f)) problems.push_back(std::move(p));
    for (const auto& v : load_manifests({kKernelsDir})) {
      const bool runs = std::any_of(problems.begin(), problems.end(), [&](const Problem& p) {
        return !v.when || v.when->evaluate(problem_variables(p.shape, subgroup)) != 0;
      });
      EXPECT_TRUE(runs) << v.name << " runs on no verification problem with subgroup size "
                        << subgroup;
    }
  }
}

TEST(Manifest, SeedHasTwoStages) {
  const auto variants = load_manifests({kKernelsDir});
  const VariantSpec& seed = find_variant(variants, "seed");
  EXPECT_EQ(seed.manifest, kKernelsDir / "seed.json");
  EXPECT_TRUE(seed.deterministic);
  EXPECT_TRUE(seed.requires_features.empty());
  EXPECT_FALSE(seed.when);
  ASSERT_EQ(seed.stages.size(), 2u);
  EXPECT_EQ(seed.stages[0].name, "grad_input");
  EXPECT_EQ(seed.stages[1].name, "grad_weight_bias");
  EXPECT_EQ(seed.stages[0].defines.at("ENTRY_GRAD_INPUT"), "1");
  EXPECT_EQ(seed.stages[1].defines.at("ENTRY_GRAD_WEIGHT_BIAS"), "1");

  const Shape shape{2, 64, 256, 8};
  const Variables vars = problem_variables(shape, 32);
  for (const auto& stage : seed.stages) {
    EXPECT_EQ(stage.shader, kKernelsDir / "glsl" / "seed.comp");
    EXPECT_TRUE(fs::is_regular_file(stage.shader));
    EXPECT_EQ(stage.workgroup_size, 256u);
    EXPECT_TRUE(stage.foldable);
    ASSERT_EQ(stage.bindings.size(), 5u);
    EXPECT_EQ(stage.bindings.back(), "params");
    EXPECT_EQ(stage.dispatch[1].evaluate(vars), 1);
    EXPECT_EQ(stage.dispatch[2].evaluate(vars), 1);
  }
  EXPECT_EQ(seed.stages[0].dispatch[0].evaluate(vars), 2 * 8);  // N * G
  EXPECT_EQ(seed.stages[1].dispatch[0].evaluate(vars), 64);     // C

  ASSERT_NE(seed.buffer("grad_weight_bias"), nullptr);
  EXPECT_EQ(seed.buffer("grad_weight_bias")->kind, BufferSpec::Kind::kPacked);
  EXPECT_EQ(seed.buffer("grad_weight_bias")->tensors,
            (std::vector<std::string>{"grad_weight", "grad_bias"}));
  ASSERT_NE(seed.buffer("grad_input"), nullptr);
  EXPECT_EQ(seed.buffer("grad_input")->kind, BufferSpec::Kind::kTensor);
  EXPECT_EQ(seed.buffer("nope"), nullptr);

  ASSERT_TRUE(seed.traffic_bytes);
  const int64_t E = 2 * 64 * 256, C = 64, N = 2, M = 8 * 256;
  EXPECT_EQ(seed.traffic_bytes->evaluate(vars), 4 * (6 * E + C) + 4 * (2 * E + N * C * M) + 8 * C);
}

TEST(Manifest, ProblemVariables) {
  const Variables v = problem_variables(Shape{3, 60, 49, 6}, 32);
  EXPECT_EQ(v, (Variables{{"N", 3},
                          {"C", 60},
                          {"HW", 49},
                          {"G", 6},
                          {"CPG", 10},
                          {"M", 490},
                          {"E", 3 * 60 * 49},
                          {"SUBGROUP", 32}}));
}

TEST(Manifest, DefaultKernelsFolderHoldsTheSeed) {
  EXPECT_TRUE(fs::is_regular_file(default_kernels_folder() / "seed.json"));
}

// ---- folders ----

class ManifestFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("gnbench_manifest_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ofstream(dir / "k.comp") << "#version 450\nvoid main() {}\n";
  }
  void TearDown() override { fs::remove_all(dir); }

  static std::string variant(const std::string& name) {
    return R"({"name": ")" + name + R"(",
      "buffers": {"x": {"tensor": "x"}, "gi": {"tensor": "grad_input"},
                  "gwb": {"packed": ["grad_weight", "grad_bias"]},
                  "scratch": {"scratch_bytes": "4 * N * G", "zero": true}},
      "stages": [{"name": "s", "shader": "k.comp", "dispatch": ["N * G"],
                  "bindings": ["x", "gi", "gwb", "scratch", "params"]}]})";
  }
  fs::path dir;
};

TEST_F(ManifestFolder, GoodCorpusLoads) {
  const auto variants = load_manifests({kManifests / "good"});
  ASSERT_EQ(variants.size(), 1u);
  EXPECT_EQ(variants[0].name, "base");
  EXPECT_EQ(variants[0].stages[0].shader, kManifests / "good" / "k.comp");
  // Folders stack: built-in first, then the extra one.
  const auto both = load_manifests({kKernelsDir, kManifests / "good"});
  EXPECT_EQ(both.size(), load_manifests({kKernelsDir}).size() + 1);
  EXPECT_EQ(both.back().name, "base");
}

TEST_F(ManifestFolder, VariantsListAndDefaults) {
  std::ofstream(dir / "b.json") << R"({"variants": [)" << variant("two") << ", " << variant("three")
                                << "]}";
  std::ofstream(dir / "a.json") << variant("one");
  std::ofstream(dir / "notes.txt") << "not a manifest";
  const auto variants = load_manifests({dir});
  ASSERT_EQ(variants.size(), 3u);  // files in name order, variants in list order
  EXPECT_EQ(variants[0].name, "one");
  EXPECT_EQ(variants[1].name, "two");
  EXPECT_EQ(variants[2].name, "three");
  const VariantSpec& v = variants[0];
  EXPECT_EQ(v.manifest, dir / "a.json");
  EXPECT_TRUE(v.deterministic);
  EXPECT_EQ(v.stages[0].workgroup_size, 256u);  // the default
  EXPECT_FALSE(v.stages[0].foldable);
  EXPECT_EQ(v.stages[0].dispatch[0].evaluate({{"N", 2}, {"G", 4}}), 8);
  EXPECT_EQ(v.stages[0].dispatch[1].evaluate({}), 1);  // missing entries are 1
  EXPECT_EQ(v.stages[0].dispatch[2].evaluate({}), 1);
  ASSERT_NE(v.buffer("scratch"), nullptr);
  EXPECT_EQ(v.buffer("scratch")->kind, BufferSpec::Kind::kScratch);
  EXPECT_TRUE(v.buffer("scratch")->zero_fill);
  EXPECT_EQ(v.buffer("scratch")->scratch_bytes->evaluate({{"N", 2}, {"G", 4}}), 32);
}

TEST_F(ManifestFolder, VariantsMustBeTheOnlyTopLevelField) {
  std::ofstream(dir / "a.json") << R"({"variants": [)" << variant("one") << R"(], "name": "x"})";
  const std::string msg = manifest_error_of({dir});
  EXPECT_EQ(msg.rfind((dir / "a.json").string() + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("'variants'"), std::string::npos) << msg;
}

TEST_F(ManifestFolder, MissingOrEmptyFolder) {
  std::string msg = manifest_error_of({dir / "nope"});
  EXPECT_EQ(msg.rfind((dir / "nope").string() + ": not a kernels folder", 0), 0u) << msg;
  fs::create_directories(dir / "empty");
  msg = manifest_error_of({dir / "empty"});
  EXPECT_EQ(msg.rfind((dir / "empty").string() + ": no *.json", 0), 0u) << msg;
}

TEST_F(ManifestFolder, SameFolderTwiceDuplicatesEveryName) {
  std::ofstream(dir / "a.json") << variant("one");
  const std::string msg = manifest_error_of({dir, dir});
  EXPECT_EQ(msg.rfind((dir / "a.json").string() + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("variant 'one'"), std::string::npos) << msg;
}

TEST_F(ManifestFolder, ShippedNameCannotBeRedefined) {
  std::ofstream(dir / "mine.json") << variant("seed");
  const std::string msg = manifest_error_of({kKernelsDir, dir});
  EXPECT_EQ(msg.rfind((dir / "mine.json").string() + ": variant 'seed'", 0), 0u) << msg;
  EXPECT_NE(msg.find("field 'name'"), std::string::npos) << msg;
  EXPECT_NE(msg.find((kKernelsDir / "seed.json").string()), std::string::npos) << msg;
}

// ---- the broken corpus ----

struct BadCase {
  std::string file;                 // the file the message must start with
  std::vector<std::string> pieces;  // field and rule
};

const std::map<std::string, BadCase>& bad_cases() {
  static const std::map<std::string, BadCase> cases{
      // The configs' reader: "<file>:<line>:<column>: malformed JSON at line L, column C: ...".
      {"malformed_json", {"manifest.json", {": malformed JSON at line ", ", column "}}},
      {"unknown_field",
       {"manifest.json", {"variant 'unknown_field'", "field 'workgroups'", "unknown field"}}},
      {"unknown_stage_field",
       {"manifest.json", {"field 'stages[0].entry'", "unknown field", "bindings"}}},
      {"missing_stages", {"manifest.json", {"field 'stages'", "non-empty list"}}},
      {"empty_stages", {"manifest.json", {"field 'stages'", "non-empty list"}}},
      {"unknown_tensor", {"manifest.json", {"field 'buffers.x'", "unknown tensor 'input'"}}},
      {"output_in_no_buffer",
       {"manifest.json", {"field 'buffers'", "output tensor 'grad_bias'", "found in 0"}}},
      {"output_in_two_buffers",
       {"manifest.json", {"field 'buffers'", "output tensor 'grad_weight'", "found in 2"}}},
      {"input_in_two_buffers",
       {"manifest.json", {"field 'buffers'", "input tensor 'x'", "more than one buffer"}}},
      {"packed_input_tensor",
       {"manifest.json",
        {"field 'buffers.grad_weight_bias.packed'", "only output tensors", "'x'"}}},
      {"binding_unknown_buffer",
       {"manifest.json", {"field 'stages.main.bindings'", "unknown buffer 'input'"}}},
      {"missing_shader_file",
       {"manifest.json", {"field 'stages.main.shader'", "no such file", "glsl/missing.comp"}}},
      {"stage_when_malformed",
       {"manifest.json", {"field 'stages.main.when'", "expression 'N > (1'", "expected ')'"}}},
      {"bad_expression",
       {"manifest.json",
        {"field 'stages.main.dispatch[0]'", "expression 'N * (G + 1'", "expected ')'",
         "at column 11"}}},
      {"bad_expression_function",
       {"manifest.json", {"field 'when'", "unknown function 'sqrt'", "at column 1"}}},
      {"expression_not_integer",
       {"manifest.json",
        {"field 'stages.main.dispatch[1]'", "expression string or integer", "1.5"}}},
      {"workgroup_size_zero",
       {"manifest.json", {"field 'stages.main.workgroup_size'", "1..1024", "got 0"}}},
      {"workgroup_size_2000",
       {"manifest.json", {"field 'stages.main.workgroup_size'", "1..1024", "got 2000"}}},
      {"dispatch_four_entries",
       {"manifest.json", {"field 'stages.main.dispatch'", "1 to 3 expressions"}}},
      {"params_buffer_name", {"manifest.json", {"field 'buffers.params'", "reserved"}}},
      {"zero_on_tensor_buffer",
       {"manifest.json", {"field 'buffers.grad_input.zero'", "only scratch buffers"}}},
      {"unknown_feature",
       {"manifest.json", {"field 'requires'", "tensor_cores", "subgroup_arithmetic"}}},
      {"name_with_slash", {"manifest.json", {"field 'name'", "'seed/fast'", "[A-Za-z0-9_.-]*"}}},
      // Files load in name order, so b.json is the second definition; the first is named too.
      {"duplicate_variant_name", {"b.json", {"variant 'dup'", "field 'name'", "a.json"}}},
  };
  return cases;
}

std::vector<std::string> corpus_folders() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kManifests / "bad"))
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(BadManifestCorpus, EveryFolderHasAnExpectation) {
  const auto folders = corpus_folders();
  EXPECT_GE(folders.size(), 20u);
  for (const auto& name : folders) EXPECT_TRUE(bad_cases().count(name)) << name;
  for (const auto& [name, expected] : bad_cases())
    EXPECT_TRUE(fs::is_directory(kManifests / "bad" / name)) << name;
}

class BadManifest : public ::testing::TestWithParam<std::string> {};

TEST_P(BadManifest, IsRejectedNamingFileAndField) {
  const std::string& name = GetParam();
  auto it = bad_cases().find(name);
  ASSERT_NE(it, bad_cases().end()) << "add " << name << " to bad_cases()";
  const fs::path folder = kManifests / "bad" / name;
  const std::string msg = manifest_error_of({folder});
  SCOPED_TRACE("message: " + msg);
  const std::string file = (folder / it->second.file).string();
  EXPECT_EQ(msg.rfind(file + ":", 0), 0u);  // "<file>: " or "<file>:<line>:<column>: "
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  for (const auto& piece : it->second.pieces)
    EXPECT_NE(msg.find(piece), std::string::npos) << piece;
  // The same corpus folder after the shipped kernels fails the same way.
  EXPECT_EQ(manifest_error_of({kKernelsDir, folder}), msg);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadManifest, ::testing::ValuesIn(corpus_folders()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace gnbench
