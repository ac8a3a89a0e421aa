// A distribution param the input generator would reject is a ConfigError when the config
// loads (naming file, problem and field), not a failure halfway through a run.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/inputs/input_generator.hpp"

namespace gnbench {
namespace {

const Shape kTiny{1, 4, 1, 2};

std::string load_error(const std::string& distribution, const std::string& defaults = "") {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "{" + temporary.
  std::string text = "{";
  if (!defaults.empty()) text += R"("defaults": {"distribution": )" + defaults + "}, ";
  text += R"("problems": [{"name": "p", "batch": 2, "channels": 8, "spatial": 16, "groups": 4)";
  if (!distribution.empty()) text += R"(, "distribution": )" + distribution;
  text += "}]}";
  try {
    parse_config_text(text, "cfg.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no ConfigError for " + text;
}

TEST(ValidateDistribution, AgreesWithTheGenerator) {
  struct Case {
    Distribution d;
    bool ok;
  };
  const Case cases[] = {
      {{"normal", 0}, true},
      {{"normal", 5}, false},
      {{"uniform", 1}, false},
      {{"large_mean", 0}, true},
      {{"large_mean", 1e3}, true},
      {{"large_mean", -1}, false},
      {{"weight_zeros", 0.5}, true},
      {{"weight_zeros", 0.999}, true},
      {{"weight_zeros", 1}, false},
      {{"weight_zeros", 2.5}, false},
      {{"heavy_tail", 3}, true},
      {{"grad_scale", 1e6}, true},
      {{"gaussian", 0}, false},
      {{"grad_scale", std::numeric_limits<double>::infinity()}, false},
      {{"near_constant", 1e-3}, true},
      // Bounds that keep float32 finite and the heavy-tail sampler fast.
      {{"large_mean", 1e30}, true},
      {{"large_mean", 1e38}, false},
      {{"grad_scale", 1e31}, false},
      {{"grad_scale", 1e-30}, true},
      {{"grad_scale", 1e-31}, false},  // grad_out would be float32 zeros and subnormals
      {{"grad_scale", 1e-300}, false},
      {{"near_constant", 1e35}, false},
      {{"heavy_tail", 0.1}, true},
      {{"heavy_tail", 1e-3}, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.d.kind + " " + std::to_string(c.d.param));
    bool validated = true, generated = true;
    try {
      validate_distribution(c.d);
    } catch (const std::invalid_argument&) {
      validated = false;
    }
    try {
      generate_inputs(kTiny, c.d, 1);
    } catch (const std::invalid_argument&) {
      generated = false;
    }
    EXPECT_EQ(validated, c.ok);
    EXPECT_EQ(generated, c.ok);
  }
}

TEST(ValidateDistribution, ConfigLoaderRejectsAtLoadTime) {
  std::string msg = load_error(R"({"kind": "normal", "param": 5})");
  EXPECT_EQ(msg.rfind("cfg.json: problem 'p': field 'distribution.param' = 5: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("takes no param"), std::string::npos) << msg;

  msg = load_error(R"({"kind": "weight_zeros", "param": 1})");
  EXPECT_EQ(msg.rfind("cfg.json: problem 'p': field 'distribution.param' = 1: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("must be < 1"), std::string::npos) << msg;

  msg = load_error("", R"({"kind": "weight_zeros", "param": 2.5})");
  EXPECT_EQ(msg.rfind("cfg.json: field 'defaults.distribution.param' = 2.5: ", 0), 0u) << msg;

  // Params that would overflow float32 or stall the sampler fail here, not at run time.
  msg = load_error(R"({"kind": "large_mean", "param": 1e38})");
  EXPECT_EQ(msg.rfind("cfg.json: problem 'p': field 'distribution.param' = ", 0), 0u) << msg;
  EXPECT_NE(msg.find("must be <= 1e30"), std::string::npos) << msg;
  msg = load_error(R"({"kind": "heavy_tail", "param": 0.001})");
  EXPECT_NE(msg.find("must be >= 0.1"), std::string::npos) << msg;

  // Accepted params still load.
  EXPECT_EQ(parse_config_text(
                R"({"problems": [{"name": "p", "batch": 2, "channels": 8, "spatial": 16,
                    "groups": 4, "distribution": {"kind": "weight_zeros", "param": 0.5}}]})",
                "cfg.json")[0]
                .distribution.param,
            0.5);
}

TEST(ValidateDistribution, CorpusFilesAreRejected) {
  for (const char* name : {"distribution_param_for_kind_without_param.json",
                           "distribution_weight_zeros_param_one.json",
                           "distribution_defaults_param_out_of_range.json"}) {
    const std::string path = std::string(GNBENCH_TEST_DATA_DIR) + "/configs/bad/" + name;
    try {
      load_config_file(path);
      ADD_FAILURE() << path << " was accepted";
    } catch (const ConfigError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
      EXPECT_NE(msg.find("distribution.param"), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace gnbench
