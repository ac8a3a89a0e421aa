// Config files on disk and the shipped configs: unreadable paths named with their cause, every
// shipped config loads and holds what it promises, device limits, the bad-config corpus.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/device_fit.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

const std::string kFileName = "test.json";

// One valid problem.
std::string one_problem_doc() {
  return R"({"problems": [{"name": "p", "batch": 2, "channels": 8, "spatial": 16, "groups": 4}]})";
}

// ---- files ----

std::string read_error(const std::string& path) {
  try {
    load_config_file(path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for " << path;
  return "";
}

TEST(ConfigFile, MissingDirectoryAndUnreadable) {
  fs::path dir = fs::temp_directory_path() / ("gnbench_cfg_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string missing = (dir / "missing.json").string();
  std::string msg = read_error(missing);
  EXPECT_EQ(msg.rfind(missing + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;

  msg = read_error(dir.string());
  EXPECT_EQ(msg.rfind(dir.string() + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find("directory"), std::string::npos) << msg;

  std::string good = (dir / "good.json").string();
  std::ofstream(good) << one_problem_doc();
  EXPECT_EQ(load_config_file(good).size(), 1u);

  if (::geteuid() != 0) {  // root reads anything, so the case cannot be produced there
    ::chmod(good.c_str(), 0);
    msg = read_error(good);
    EXPECT_EQ(msg.rfind(good + ": cannot open", 0), 0u) << msg;
  }
  std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{\n\"problems\": [}\n";
  msg = read_error(bad);
  EXPECT_EQ(msg.rfind(bad + ":2:14: malformed JSON", 0), 0u) << msg;
  fs::remove_all(dir);
}

std::string shipped_config(const std::string& name) {
  return std::string(GNBENCH_SOURCE_DIR) + "/configs/" + name;
}

TEST(ShippedConfigs, AllLoad) {
  for (const char* name :
       {"default.json", "standard.json", "edge.json", "numerics.json", "numerics_standard.json"}) {
    SCOPED_TRACE(name);
    std::vector<Problem> problems;
    ASSERT_NO_THROW(problems = load_config_file(shipped_config(name)));
    EXPECT_FALSE(problems.empty());
    for (const auto& p : problems) EXPECT_EQ(p.eps, 1e-5f) << p.name;
  }
}

TEST(ShippedConfigs, StandardHasExactlyTheTenShapes) {
  struct Expected {
    const char* name;
    uint32_t n, c, hw, g;
  };
  const Expected expected[] = {
      {"sd_unet_320x64x64", 8, 320, 4096, 32},
      {"sd_unet_640x32x32", 8, 640, 1024, 32},
      {"sd_unet_1280x16x16", 8, 1280, 256, 32},
      {"sd_unet_1280x8x8", 8, 1280, 64, 32},
      {"sd_vae_512x128x128", 4, 512, 16384, 32},
      {"sd_vae_256x256x256", 2, 256, 65536, 32},
      {"resnet50gn_256x56x56", 32, 256, 3136, 32},
      {"resnet50gn_2048x7x7", 32, 2048, 49, 32},
      {"small_g1", 16, 64, 1024, 1},
      {"instancenorm_like", 16, 256, 4096, 256},
  };
  auto problems = load_config_file(shipped_config("standard.json"));
  ASSERT_EQ(problems.size(), std::size(expected));
  for (size_t i = 0; i < problems.size(); ++i) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(problems[i].name, expected[i].name);
    EXPECT_EQ(problems[i].shape.batch, expected[i].n);
    EXPECT_EQ(problems[i].shape.channels, expected[i].c);
    EXPECT_EQ(problems[i].shape.spatial, expected[i].hw);
    EXPECT_EQ(problems[i].shape.groups, expected[i].g);
    EXPECT_EQ(problems[i].distribution.kind, "normal");
    EXPECT_FALSE(problems[i].expect.declared());
  }
}

TEST(ShippedConfigs, DefaultAndEdgeStaySmallAndCoverTheEdges) {
  for (const auto& p : load_config_file(shipped_config("default.json")))
    EXPECT_LE(p.shape.elements(), 1u << 20) << p.name;
  auto edge = load_config_file(shipped_config("edge.json"));
  bool g1 = false, g_eq_c = false, hw1 = false, odd_hw = false, fold = false, big_group = false;
  for (const auto& p : edge) {
    const Shape& s = p.shape;
    EXPECT_LE(s.elements(), 2u << 20) << p.name;
    g1 |= s.groups == 1;
    g_eq_c |= s.groups == s.channels;
    hw1 |= s.spatial == 1;
    odd_hw |= s.spatial % 4 != 0 && s.spatial % 256 != 0;
    fold |= uint64_t{s.batch} * s.groups > 65535;
    big_group |= s.group_size() >= 64 * 1024;
  }
  EXPECT_TRUE(g1 && g_eq_c && hw1 && odd_hw && fold && big_group);
}

// The seed's E[x^2] - mean^2 variance is expected to fail large means and near-constant groups;
// every other distribution must pass for every variant.
TEST(ShippedConfigs, NumericsDeclaresSeedFailuresForLargeMeans) {
  auto problems = load_config_file(shipped_config("numerics.json"));
  std::set<std::string> kinds;
  for (const auto& p : problems) {
    kinds.insert(p.distribution.kind);
    if (p.distribution.kind == "large_mean" && p.distribution.param >= 1e3) {
      EXPECT_TRUE(p.expect.applies_to("seed")) << p.name;
    }
    if (p.distribution.kind == "near_constant") {
      EXPECT_TRUE(p.expect.applies_to("seed")) << p.name;
    }
    if (p.expect.declared()) {
      EXPECT_EQ(p.expect.variants, std::vector<std::string>{"seed"}) << p.name;
    }
    if (p.distribution.kind != "large_mean" && p.distribution.kind != "near_constant") {
      EXPECT_FALSE(p.expect.declared()) << p.name;
    }
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"large_mean", "near_constant", "weight_zeros",
                                          "heavy_tail", "grad_scale", "uniform"}));
}

// numerics_standard.json: every standard shape under each hard distribution, the seed's
// variance failures declared as in numerics.json.
TEST(ShippedConfigs, NumericsStandardCoversEveryStandardShape) {
  std::map<std::string, Shape> standard;
  for (const auto& p : load_config_file(shipped_config("standard.json")))
    standard[p.name] = p.shape;
  std::map<std::string, std::set<std::string>> kinds_per_shape;
  for (const auto& p : load_config_file(shipped_config("numerics_standard.json"))) {
    SCOPED_TRACE(p.name);
    const std::string base = p.name.substr(0, p.name.find("_" + p.distribution.kind));
    ASSERT_TRUE(standard.count(base));
    EXPECT_EQ(p.shape.elements(), standard[base].elements());
    EXPECT_EQ(p.shape.groups, standard[base].groups);
    EXPECT_EQ(p.shape.spatial, standard[base].spatial);
    kinds_per_shape[base].insert(p.distribution.kind);
    const bool cancels =
        p.distribution.kind == "large_mean" || p.distribution.kind == "near_constant";
    EXPECT_EQ(p.expect.applies_to("seed"), cancels);
    EXPECT_FALSE(p.expect.applies_to("gn_fused_v4"));
  }
  EXPECT_EQ(kinds_per_shape.size(), standard.size());
  for (const auto& [name, kinds] : kinds_per_shape)
    EXPECT_EQ(kinds, (std::set<std::string>{"large_mean", "near_constant", "heavy_tail"})) << name;
}

// ---- device limits ----

DeviceLimits lavapipe_limits() {
  DeviceLimits l;
  l.max_storage_buffer_range = 134217728;  // 2^27, what lavapipe reports
  l.max_memory_allocation_size = uint64_t{1} << 31;
  l.device_local_memory = uint64_t{8} << 30;
  l.max_workgroup_count = {65535, 65535, 65535};
  return l;
}

Problem config_problem_of(const std::string& name, Shape shape) {
  Problem p;
  p.name = name;
  p.shape = shape;
  return p;
}

std::string device_error(const Problem& p, const DeviceLimits& l, uint64_t extra = 0) {
  try {
    validate_against_device(p, l, extra, "configs/standard.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for " << p.name;
  return "";
}

TEST(DeviceLimitsCheck, StorageBufferRange) {
  DeviceLimits l = lavapipe_limits();
  Problem exact = config_problem_of("sd_vae_256x256x256", {2, 256, 65536, 32});
  ASSERT_EQ(exact.shape.tensor_bytes(), 134217728u);
  EXPECT_NO_THROW(validate_against_device(exact, l, 0, "configs/standard.json"));

  // One byte less of range: the same tensor no longer fits.
  l.max_storage_buffer_range = 134217727;
  EXPECT_EQ(
      device_error(exact, l),
      "configs/standard.json: problem 'sd_vae_256x256x256': tensor x is 134217728 bytes, over "
      "the device's maxStorageBufferRange 134217727");

  l = lavapipe_limits();
  Problem one_more = config_problem_of("x", {1, 1, 33554433, 1});  // 4 bytes over
  EXPECT_EQ(device_error(one_more, l),
            "configs/standard.json: problem 'x': tensor x is 134217732 bytes, over the device's "
            "maxStorageBufferRange 134217728");
  Problem larger = config_problem_of("x", {4, 256, 65536, 32});
  EXPECT_EQ(device_error(larger, l),
            "configs/standard.json: problem 'x': tensor x is 268435456 bytes, over the device's "
            "maxStorageBufferRange 134217728");
}

TEST(DeviceLimitsCheck, AllocationSizeAndTotalMemory) {
  DeviceLimits l = lavapipe_limits();
  Problem p = config_problem_of("p", {1, 1024, 1024, 32});  // 4 MiB per tensor
  l.max_memory_allocation_size = (4u << 20) - 1;
  std::string msg = device_error(p, l);
  EXPECT_NE(
      msg.find("tensor x is 4194304 bytes, over the device's maxMemoryAllocationSize 4194303"),
      std::string::npos)
      << msg;

  l = lavapipe_limits();
  const uint64_t need = 3 * (uint64_t{4} << 20) + 3 * 1024 * 4;
  l.device_local_memory = need;
  EXPECT_NO_THROW(validate_against_device(p, l, 0, "s"));
  msg = device_error(p, l, 1);
  EXPECT_NE(msg.find("needs " + std::to_string(need + 1) + " bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1 scratch"), std::string::npos) << msg;
  EXPECT_NE(msg.find("device-local heap " + std::to_string(need)), std::string::npos) << msg;
  // A huge scratch size must not wrap around into range.
  l.device_local_memory = std::numeric_limits<uint64_t>::max() - 1;
  msg = device_error(p, l, std::numeric_limits<uint64_t>::max());
  EXPECT_NE(msg.find("needs 18446744073709551615 bytes"), std::string::npos) << msg;
}

TEST(ShapeCheck, DirectValidation) {
  EXPECT_NO_THROW(validate_shape({2, 8, 16, 4}, kFileName, "p"));
  auto msg_of = [](Shape s) {
    try {
      validate_shape(s, kFileName, "p");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg_of({0, 8, 16, 4}).rfind("test.json: problem 'p': field 'batch' = 0", 0), 0u);
  EXPECT_EQ(msg_of({2, 8, 16, 0}).rfind("test.json: problem 'p': field 'groups' = 0", 0), 0u);
  EXPECT_EQ(msg_of({2, 8, 16, 5}).rfind("test.json: problem 'p': field 'channels' = 8", 0), 0u);
  EXPECT_NE(msg_of({65536, 65536, 1, 1}).find("4294967296"), std::string::npos);
}

// ---- the bad-config corpus: every file is rejected, naming the file first ----

std::vector<std::string> bad_configs() {
  std::vector<std::string> files;
  for (const auto& entry :
       fs::directory_iterator(std::string(GNBENCH_TEST_DATA_DIR) + "/configs/bad"))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

class BadConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(BadConfig, IsRejectedWithPathFirst) {
  const std::string& path = GetParam();
  try {
    load_config_file(path);
    FAIL() << path << " was accepted";
  } catch (const ConfigError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_GT(msg.size(), path.size() + 10) << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadConfig, ::testing::ValuesIn(bad_configs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(BadConfigCorpus, IsNotEmpty) { EXPECT_GE(bad_configs().size(), 40u); }

}  // namespace
}  // namespace gnbench
