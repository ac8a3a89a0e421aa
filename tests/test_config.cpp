// Config loading: every rejection rule names the field and the offending value, valid files
// get defaults merged, axes expand in a fixed order (files on disk: test_config_files.cpp).
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

const std::string kConfigName = "test.json";
const std::string kBase = R"("name": "p", "batch": 2, "channels": 8, "spatial": 16, "groups": 4)";

// One problem built from kBase plus extra fields.
std::string doc(const std::string& extra = "", const std::string& top = "") {
  return "{" + top + R"("problems": [{)" + kBase + extra + "}]}";
}

// kBase with one shape field's value replaced, e.g. with_field("batch", "\"8\"").
std::string with_field(const std::string& field, const std::string& value) {
  std::string body = kBase;
  size_t at = body.find("\"" + field + "\": ");
  EXPECT_NE(at, std::string::npos) << field;
  size_t start = at + field.size() + 4;
  size_t end = body.find(',', start);
  if (end == std::string::npos) end = body.size();
  body.replace(start, end - start, value);
  return R"({"problems": [{)" + body + "}]}";
}

std::string config_error_of(const std::string& text, const std::string& source = kConfigName) {
  try {
    parse_config_text(text, source);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for: " << text;
  return "";
}

// The message must be one line, start with the source and contain every piece.
void expect_config_error(const std::string& text, std::initializer_list<std::string> pieces) {
  std::string msg = config_error_of(text);
  SCOPED_TRACE("message: " + msg + "\ninput: " + text);
  EXPECT_EQ(msg.rfind(kConfigName + ":", 0), 0u);
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  for (const auto& piece : pieces) EXPECT_NE(msg.find(piece), std::string::npos) << piece;
}

Problem parse_one(const std::string& text) {
  auto problems = parse_config_text(text, kConfigName);
  EXPECT_EQ(problems.size(), 1u);
  return problems.at(0);
}

// ---- malformed JSON ----

TEST(ConfigJson, MalformedReportsLineAndColumn) {
  // The second comma on line 3 sits at column 30.
  expect_config_error("{\n  \"problems\": [\n    {\"name\": \"p\", \"batch\": 2,,\n",
                      {"test.json:3:30:", "malformed JSON", "line 3, column 30"});
  // Truncated: the error is where the input ends.
  expect_config_error(R"({"problems": [)", {"test.json:1:15:", "malformed JSON", "end of input"});
  expect_config_error("{\n  \"problems\": [\n", {"test.json:3:1:", "malformed JSON"});
  expect_config_error("", {"test.json:1:1:", "malformed JSON"});
  expect_config_error(doc() + " trailing", {"malformed JSON", "1:"});
  expect_config_error("{\n  // comment\n  \"problems\": []}", {"test.json:2:3:", "malformed JSON"});
}

TEST(ConfigJson, NanAndInfinityAreExplained) {
  std::string nan_text = "{\"problems\": [{" + kBase + ",\n \"eps\": NaN}]}";
  expect_config_error(nan_text, {"test.json:2:9:", "NaN and Infinity are not valid JSON"});
  expect_config_error(doc(R"(, "eps": Infinity)"), {"NaN and Infinity are not valid JSON"});
  expect_config_error(doc(R"(, "eps": -Infinity)"), {"NaN and Infinity are not valid JSON"});
  expect_config_error(doc(R"(, "eps": nan)"), {"NaN and Infinity are not valid JSON"});
  // Not a NaN: no misleading hint.
  EXPECT_EQ(config_error_of(doc(R"(, "eps": nope)")).find("NaN"), std::string::npos);
}

TEST(ConfigJson, DuplicateKeysAreRejected) {
  expect_config_error(
      R"({"problems": [{"name": "p", "batch": 2, "batch": 4, "channels": 8, "spatial": 16, "groups": 4}]})",
      {"duplicate key \"batch\""});
  expect_config_error(doc("", R"("description": "a", "description": "b", )"),
                      {"duplicate key \"description\""});
  // The same key in sibling objects is fine.
  EXPECT_NO_THROW(parse_config_text(
      R"({"problems": [{"name": "a", "batch": 1, "channels": 4, "spatial": 4, "groups": 2},
                       {"name": "b", "batch": 1, "channels": 4, "spatial": 4, "groups": 2}]})",
      kConfigName));
}

TEST(ConfigJson, TopLevelMustBeObject) {
  expect_config_error("[]", {"top level must be a JSON object", "an array"});
  expect_config_error("42", {"top level must be a JSON object", "a number"});
  expect_config_error("\"x\"", {"top level must be a JSON object", "a string"});
}

// ---- structure ----

TEST(ConfigStructure, UnknownFieldsListAllowedOnes) {
  expect_config_error(
      doc("", R"("problem": 1, )"),
      {"unknown field 'problem'", "allowed: description, defaults, problems, axes"});
  expect_config_error(doc(R"(, "bach": 3)"),
                      {"problem 'p'", "unknown field 'bach'", "allowed: name, batch"});
  expect_config_error(
      doc("", R"("defaults": {"epsilon": 1e-5}, )"),
      {"unknown field 'epsilon' in 'defaults'", "allowed: eps, seed, distribution, tolerances"});
  expect_config_error(
      doc(R"(, "tolerances": {"grad_in": {}})"),
      {"unknown field 'grad_in' in 'tolerances'", "allowed: grad_input, grad_weight, grad_bias"});
  expect_config_error(
      doc(R"(, "tolerances": {"grad_input": {"l2": 1}})"),
      {"unknown field 'l2' in 'tolerances.grad_input'", "allowed: l2_rel, max_scaled"});
  expect_config_error(doc(R"(, "distribution": {"kind": "normal", "std": 2})"),
                      {"unknown field 'std' in 'distribution'", "allowed: kind, param"});
  expect_config_error(
      doc(R"(, "expect": {"verdict": "fail", "why": "x"})"),
      {"unknown field 'why' in 'expect'", "allowed: verdict, reason, variants, tensors"});
  expect_config_error(
      R"({"axes": [{"batch": 1, "channels": 4, "spatial": 4, "groups": 2, "name": "x"}]})",
      {"axes[0]", "unknown field 'name'", "allowed: prefix, batch"});
}

TEST(ConfigStructure, WrongContainerTypes) {
  expect_config_error(R"({"problems": {"name": "p"}})",
                      {"field 'problems'", "must be a list", "an object"});
  expect_config_error(R"({"problems": [42]})", {"problems[0]", "must be an object", "a number"});
  expect_config_error(doc("", R"("description": 5, )"),
                      {"field 'description' = 5", "must be a string"});
  expect_config_error(doc("", R"("defaults": [], )"),
                      {"field 'defaults' = []", "must be an object"});
  expect_config_error(R"({"axes": 3})", {"field 'axes' = 3", "must be a list"});
  expect_config_error(R"({"axes": [3]})", {"axes[0]", "must be an object"});
}

TEST(ConfigStructure, MissingRequiredFields) {
  expect_config_error(R"({"problems": [{"batch": 2, "channels": 8, "spatial": 16, "groups": 4}]})",
                      {"problems[0]", "field 'name'", "missing"});
  for (const char* field : {"batch", "channels", "spatial", "groups"}) {
    std::string body = kBase;
    size_t at = body.find(std::string(", \"") + field + "\"");
    size_t end = body.find(',', at + 2);
    body.erase(at, (end == std::string::npos ? body.size() : end) - at);
    expect_config_error(R"({"problems": [{)" + body + "}]}",
                        {"problem 'p'", std::string("field '") + field + "'", "missing"});
  }
  // The unnamed problem is named by its index.
  expect_config_error(
      R"({"problems": [{"name": "a", "batch": 1, "channels": 4, "spatial": 4, "groups": 2},
                                {"batch": 1}]})",
      {"problems[1]", "field 'name'", "missing"});
}

TEST(ConfigStructure, EmptyListsAreRejected) {
  expect_config_error(R"({"problems": []})", {"no problems"});
  expect_config_error(R"({"description": "x"})", {"no problems"});
  expect_config_error(R"({"problems": [], "axes": []})", {"no problems"});
  expect_config_error(R"({"axes": [{"batch": [], "channels": 4, "spatial": 4, "groups": 2}]})",
                      {"axes[0]", "field 'batch' = []", "empty list"});
  expect_config_error(R"({"axes": [{"batch": 1, "channels": 4, "spatial": 4}]})",
                      {"axes[0]", "field 'groups'", "missing"});
  // Problems may be empty when axes generate some, and axes may be empty when problems exist.
  EXPECT_EQ(
      parse_config_text(
          R"({"problems": [], "axes": [{"batch": 1, "channels": 4, "spatial": 4, "groups": 2}]})",
          kConfigName)
          .size(),
      1u);
  EXPECT_EQ(
      parse_config_text(R"({"problems": [{)" + kBase + R"(}], "axes": []})", kConfigName).size(),
      1u);
}

// ---- integers ----

TEST(ConfigIntegers, WrongTypesNameFieldAndValue) {
  expect_config_error(with_field("batch", "\"8\""),
                      {"problem 'p'", "field 'batch' = \"8\"", "must be an integer", "a string"});
  expect_config_error(with_field("batch", "8.5"), {"field 'batch' = 8.5", "must be an integer"});
  expect_config_error(with_field("batch", "true"),
                      {"field 'batch' = true", "must be an integer", "a boolean"});
  expect_config_error(with_field("batch", "null"), {"field 'batch' = null", "must be an integer"});
  expect_config_error(with_field("channels", "[8]"),
                      {"field 'channels' = [8]", "must be an integer", "an array"});
  expect_config_error(with_field("spatial", "{}"),
                      {"field 'spatial' = {}", "must be an integer", "an object"});
}

TEST(ConfigIntegers, RangeIsOneToU32Max) {
  expect_config_error(with_field("batch", "0"), {"field 'batch' = 0", "[1, 4294967295]"});
  expect_config_error(with_field("batch", "-2"), {"field 'batch' = -2", "[1, 4294967295]"});
  expect_config_error(with_field("groups", "-4"), {"field 'groups' = -4"});
  expect_config_error(with_field("spatial", "4294967296"),
                      {"field 'spatial' = 4294967296", "[1, 4294967295]"});
  expect_config_error(with_field("batch", "1e300"), {"field 'batch' = 1e+300", "[1, 4294967295]"});
  expect_config_error(with_field("batch", "1e400"),
                      {"test.json:1:38: field 'batch' = 1e400", "too large for a double"});
  expect_config_error(with_field("batch", "99999999999999999999999"),
                      {"field 'batch' = 9.99", "[1, 4294967295]"});
  // Integral values written as floats are integers.
  EXPECT_EQ(parse_one(with_field("batch", "8.0")).shape.batch, 8u);
  EXPECT_EQ(parse_one(with_field("batch", "1e1")).shape.batch, 10u);
  // The u32 maximum itself is allowed when the product still fits.
  auto p = parse_one(
      R"({"problems": [{"name": "p", "batch": 4294967295, "channels": 1, "spatial": 1, "groups": 1}]})");
  EXPECT_EQ(p.shape.batch, 4294967295u);
}

TEST(ConfigShape, ChannelsDivisibleByGroups) {
  expect_config_error(with_field("groups", "3"),
                      {"problem 'p'", "field 'channels' = 8", "divisible by groups (3)"});
  expect_config_error(with_field("groups", "16"),
                      {"field 'channels' = 8", "divisible by groups (16)"});
}

TEST(ConfigShape, ElementCountBelow2To32) {
  expect_config_error(
      R"({"problems": [{"name": "big", "batch": 65536, "channels": 256, "spatial": 256, "groups": 1}]})",
      {"problem 'big'", "field 'batch*channels*spatial' = 4294967296", "65536*256*256",
       "< 2^32 = 4294967296", "u32"});
  // 65535 * 65537 = 2^32 - 1 is the largest allowed.
  auto p = parse_one(
      R"({"problems": [{"name": "p", "batch": 65535, "channels": 65537, "spatial": 1, "groups": 65537}]})");
  EXPECT_EQ(p.shape.elements(), 4294967295u);
}

// ---- eps, seed, distribution, tolerances, expect ----

TEST(ConfigEps, Rules) {
  expect_config_error(doc(R"(, "eps": 0)"), {"problem 'p'", "field 'eps' = 0", "must be > 0"});
  expect_config_error(doc(R"(, "eps": -1e-5)"), {"field 'eps' = -1e-05", "must be > 0"});
  expect_config_error(doc(R"(, "eps": 1e-40)"), {"field 'eps' = 1e-40", "FLT_MIN", "float32"});
  expect_config_error(doc(R"(, "eps": 2)"), {"field 'eps' = 2", "<= 1"});
  expect_config_error(doc(R"(, "eps": 1e400)"),
                      {"field 'eps' = 1e400", "too large for a double", "finite"});
  expect_config_error(doc(R"(, "eps": "1e-5")"), {"field 'eps' = \"1e-5\"", "must be a number"});
  expect_config_error(doc(R"(, "eps": true)"), {"field 'eps' = true", "must be a number"});
  expect_config_error(doc("", R"("defaults": {"eps": 0}, )"),
                      {"field 'defaults.eps' = 0", "must be > 0"});
  EXPECT_EQ(parse_one(doc(R"(, "eps": 1)")).eps, 1.0f);
  EXPECT_EQ(parse_one(doc(R"(, "eps": 1.1754943508222875e-38)")).eps, FLT_MIN);
  EXPECT_EQ(parse_one(doc(R"(, "eps": 1e-3)")).eps, 1e-3f);
}

TEST(ConfigEps, DirectValidation) {
  EXPECT_NO_THROW(validate_eps(1e-5, kConfigName, "p"));
  for (double bad : {0.0, -1.0, 1e-39, 1.5, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    try {
      validate_eps(bad, kConfigName, "p");
      ADD_FAILURE() << bad;
    } catch (const ConfigError& e) {
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind("test.json: problem 'p': field 'eps' = ", 0), 0u) << msg;
    }
  }
}

TEST(ConfigSeed, Rules) {
  expect_config_error(doc(R"(, "seed": -1)"),
                      {"field 'seed' = -1", "must be an integer in [0, 18446744073709551615]"});
  expect_config_error(doc(R"(, "seed": 1.5)"), {"field 'seed' = 1.5", "must be an integer"});
  expect_config_error(doc(R"(, "seed": "1")"), {"field 'seed' = \"1\"", "must be an integer"});
  expect_config_error(doc(R"(, "seed": 1e300)"), {"field 'seed' = 1e+300"});
  EXPECT_EQ(parse_one(doc(R"(, "seed": 0)")).seed, 0u);
  EXPECT_EQ(parse_one(doc(R"(, "seed": 18446744073709551615)")).seed, 18446744073709551615u);
}

TEST(ConfigDistribution, Rules) {
  expect_config_error(
      doc(R"(, "distribution": "gaussian")"),
      {"field 'distribution' = \"gaussian\"", "unknown distribution kind",
       "normal, uniform, large_mean, near_constant, weight_zeros, heavy_tail, grad_scale"});
  expect_config_error(
      doc(R"(, "distribution": {"kind": "lognormal"})"),
      {"field 'distribution.kind' = \"lognormal\"", "unknown distribution kind", "large_mean"});
  expect_config_error(doc(R"(, "distribution": {"kind": "large_mean", "param": -10})"),
                      {"field 'distribution.param' = -10", ">= 0"});
  expect_config_error(doc(R"(, "distribution": {"kind": "large_mean", "param": 1e400})"),
                      {"field 'param' = 1e400", "too large for a double"});
  expect_config_error(doc(R"(, "distribution": {"kind": "large_mean", "param": "big"})"),
                      {"field 'distribution.param' = \"big\"", "must be a number"});
  expect_config_error(doc(R"(, "distribution": {"param": 10})"),
                      {"field 'distribution.kind'", "missing"});
  expect_config_error(doc(R"(, "distribution": 3)"), {"field 'distribution' = 3", "a number"});
  expect_config_error(doc(R"(, "distribution": {"kind": 3})"),
                      {"field 'distribution.kind' = 3", "must be a string"});
  auto p = parse_one(doc(R"(, "distribution": {"kind": "large_mean", "param": 1e3})"));
  EXPECT_EQ(p.distribution.kind, "large_mean");
  EXPECT_EQ(p.distribution.param, 1e3);
  p = parse_one(doc(R"(, "distribution": "uniform")"));
  EXPECT_EQ(p.distribution.kind, "uniform");
  EXPECT_EQ(p.distribution.param, 0.0);
}

TEST(ConfigTolerances, Rules) {
  expect_config_error(doc(R"(, "tolerances": {"grad_bias": {"max_scaled": 0}})"),
                      {"field 'tolerances.grad_bias.max_scaled' = 0", "must be > 0"});
  expect_config_error(doc(R"(, "tolerances": {"grad_weight": {"l2_rel": -1e-4}})"),
                      {"field 'tolerances.grad_weight.l2_rel' = -0.0001", "must be > 0"});
  expect_config_error(doc(R"(, "tolerances": {"grad_input": {"l2_rel": "tight"}})"),
                      {"field 'tolerances.grad_input.l2_rel' = \"tight\"", "must be a number"});
  expect_config_error(doc(R"(, "tolerances": {"grad_input": {"l2_rel": 1e999}})"),
                      {"field 'l2_rel' = 1e999", "too large for a double"});
  expect_config_error(doc(R"(, "tolerances": {"grad_input": 1e-4})"),
                      {"field 'tolerances.grad_input' = 0.0001", "must be an object"});
  expect_config_error(doc(R"(, "tolerances": 1)"), {"field 'tolerances' = 1", "must be an object"});
}

TEST(ConfigExpect, Rules) {
  const std::string gi = R"(, "tensors": {"grad_input": {"kinds": ["unwritten"]}})";
  expect_config_error(doc(R"(, "expect": {"verdict": "xfail"})"),
                      {"field 'expect.verdict' = \"xfail\"", "\"fail\", \"may_fail\" or \"pass\""});
  expect_config_error(doc(R"(, "expect": {"reason": "x"})"), {"field 'expect.verdict'", "missing"});
  expect_config_error(doc(R"(, "expect": {"verdict": "fail", "variants": [1])" + gi + "}"),
                      {"field 'expect.variants[0]' = 1", "must be a string"});
  expect_config_error(doc(R"(, "expect": {"verdict": "fail", "variants": 1)" + gi + "}"),
                      {"field 'expect.variants' = 1"});
  expect_config_error(doc(R"(, "expect": {"verdict": "fail", "reason": 2)" + gi + "}"),
                      {"field 'expect.reason' = 2"});
  expect_config_error(doc(R"(, "expect": "fail")"),
                      {"field 'expect' = \"fail\"", "must be an object"});

  auto p = parse_one(doc(
      R"(, "expect": {"verdict": "fail", "reason": "cancels", "variants": ["seed"])" + gi + "}"));
  EXPECT_EQ(p.expect.outcome, Expectation::Outcome::kFail);
  EXPECT_EQ(p.expect.reason, "cancels");
  EXPECT_EQ(p.expect.variants, std::vector<std::string>{"seed"});
  EXPECT_TRUE(p.expect.applies_to("seed"));
  EXPECT_FALSE(p.expect.applies_to("welford"));
  p = parse_one(doc(R"(, "expect": {"verdict": "pass"})"));
  EXPECT_FALSE(p.expect.declared());
  p = parse_one(doc(R"(, "expect": {"verdict": "may_fail", "variants": ["seed"])" + gi + "}"));
  EXPECT_EQ(p.expect.outcome, Expectation::Outcome::kMayFail);
  EXPECT_TRUE(p.expect.applies_to("seed"));
  p = parse_one(doc(R"(, "expect": {"verdict": "fail")" + gi + "}"));
  EXPECT_TRUE(p.expect.applies_to("anything"));  // no variants = all variants
  EXPECT_FALSE(parse_one(doc()).expect.declared());
}

// expect.tensors: what may fail, how and how far. Required with fail/may_fail, so no
// expectation accepts any failure; every bad field is named with its value and the rule.
TEST(ConfigExpect, Tensors) {
  auto with = [](const std::string& tensors, const std::string& verdict = "fail") {
    return doc(R"(, "expect": {"verdict": ")" + verdict + R"(", "tensors": )" + tensors + "}");
  };
  expect_config_error(doc(R"(, "expect": {"verdict": "fail"})"),
                      {"field 'expect.tensors'", "missing (required with verdict \"fail\""});
  expect_config_error(doc(R"(, "expect": {"verdict": "may_fail", "reason": "r"})"),
                      {"field 'expect.tensors'", "may_fail"});
  expect_config_error(with("{}"), {"field 'expect.tensors' = {}", "at least one tensor"});
  expect_config_error(with("[]"), {"field 'expect.tensors' = []", "must be an object"});
  expect_config_error(
      with(R"({"grad_x": {"kinds": ["error"]}})"),
      {"unknown field 'grad_x' in 'expect.tensors'", "grad_input, grad_weight, grad_bias"});
  expect_config_error(with(R"({"grad_input": {}})"),
                      {"field 'expect.tensors.grad_input.kinds'", "missing"});
  expect_config_error(with(R"({"grad_input": {"kinds": []}})"),
                      {"field 'expect.tensors.grad_input.kinds' = []", "non-empty list"});
  expect_config_error(
      with(R"({"grad_input": {"kinds": ["nan"]}})"),
      {"field 'expect.tensors.grad_input.kinds[0]' = \"nan\"", "error, nonfinite, unwritten"});
  expect_config_error(
      with(R"({"grad_bias": {"kinds": ["error"]}})"),
      {"field 'expect.tensors.grad_bias'", "needs a bound: max_scaled and/or l2_rel"});
  expect_config_error(
      with(R"({"grad_weight": {"kinds": ["nonfinite"], "max_scaled": 1}})"),
      {"field 'expect.tensors.grad_weight.max_scaled' = 1", "needs kind \"error\""});
  expect_config_error(with(R"({"grad_input": {"kinds": ["error"], "max_scaled": 1e-3}})"),
                      {"field 'expect.tensors.grad_input.max_scaled' = 0.001",
                       "above the tolerance it extends (0.001)"});
  expect_config_error(with(R"({"grad_input": {"kinds": ["error"], "l2_rel": "big"}})"),
                      {"field 'expect.tensors.grad_input.l2_rel' = \"big\"", "must be a number"});
  expect_config_error(with(R"({"grad_input": {"kinds": ["error"], "l2_rel": 1, "max": 2}})"),
                      {"unknown field 'max' in 'expect.tensors.grad_input'"});
  expect_config_error(with(R"({"grad_input": {"kinds": ["unwritten"]}})", "pass"),
                      {"field 'expect.tensors'", "only with verdict \"fail\" or \"may_fail\""});
  // The bound is checked against the problem's own tolerance, not the built-in one.
  expect_config_error(
      doc(R"(, "tolerances": {"grad_input": {"max_scaled": 0.5}}, "expect": {"verdict":
                   "fail", "tensors": {"grad_input": {"kinds": ["error"], "max_scaled": 0.4}}})"),
      {"max_scaled' = 0.4", "(0.5)"});

  const Problem p = parse_one(with(
      R"({"grad_input": {"kinds": ["error", "nonfinite"], "max_scaled": 2, "l2_rel": 0.1},
          "grad_weight": {"kinds": ["unwritten"]}})"));
  ASSERT_EQ(p.expect.tensors.size(), 2u);
  const TensorFailure& f = p.expect.tensors.at("grad_input");
  EXPECT_TRUE(f.error && f.nonfinite && !f.unwritten);
  EXPECT_EQ(f.max_scaled, 2.0);
  EXPECT_EQ(f.l2_rel, 0.1);
  const TensorFailure& w = p.expect.tensors.at("grad_weight");
  EXPECT_TRUE(!w.error && !w.nonfinite && w.unwritten && !w.max_scaled && !w.l2_rel);
}

// ---- names ----

TEST(ConfigNames, CharactersAndDuplicates) {
  for (const char* bad : {"a/b", "a b", "", "..", ".", "caf\u00e9", "x\\y"}) {
    std::string text = with_field("name", nlohmann::json(bad).dump());
    expect_config_error(text, {"problems[0]", "field 'name' = " + nlohmann::json(bad).dump()});
  }
  expect_config_error(with_field("name", "7"), {"field 'name' = 7", "must be a string"});
  expect_config_error(with_field("name", std::string("\"") + std::string(300, 'a') + "\""),
                      {"field 'name'", "at most 255"});
  EXPECT_EQ(parse_one(with_field("name", "\"Ok-1.2_x\"")).name, "Ok-1.2_x");

  expect_config_error(R"({"problems": [{)" + kBase + "}, {" + kBase + "}]}",
                      {"problem 'p'", "field 'name' = \"p\"", "duplicate problem name",
                       "problems[0] and problems[1]"});
  // A generated name colliding with an explicit one.
  expect_config_error(
      R"({"problems": [{"name": "axes_n1_c4_hw4_g2", "batch": 1, "channels": 4, "spatial": 4, "groups": 2}],
                   "axes": [{"batch": 1, "channels": 4, "spatial": 4, "groups": 2}]})",
      {"field 'name' = \"axes_n1_c4_hw4_g2\"", "duplicate", "problems[0] and axes[0]"});
  // Repeated axis values generate the same name twice.
  expect_config_error(
      R"({"axes": [{"batch": [2, 2], "channels": 4, "spatial": 4, "groups": 2}]})",
      {"field 'name' = \"axes_n2_c4_hw4_g2\"", "duplicate", "generated twice by axes[0]"});
  // Two axes objects with the same default prefix overlap.
  expect_config_error(R"({"axes": [{"batch": [1, 2], "channels": 4, "spatial": 4, "groups": 2},
                            {"batch": 2, "channels": 4, "spatial": 4, "groups": 2, "eps": 1e-3}]})",
                      {"axes_n2_c4_hw4_g2", "duplicate", "axes[0] and axes[1]"});
  expect_config_error(
      R"({"axes": [{"prefix": "my sweep", "batch": 1, "channels": 4, "spatial": 4, "groups": 2}]})",
      {"axes[0]", "field 'prefix' = \"my sweep\"", "[A-Za-z0-9_.-]*"});
  // A prefix within the name rule whose generated names are not.
  const std::string long_prefix(240, 'p');
  expect_config_error(
      R"({"axes": [{"prefix": ")" + long_prefix +
          R"(", "batch": 1, "channels": [4, 40000], "spatial": 4, "groups": 2}]})",
      {"axes[0]", "field 'prefix'", "with '_n1_c40000_hw4_g2' appended makes a name of 257",
       "at most 255 characters"});
}

// ---- valid files ----

TEST(ConfigValid, DefaultsAppliedAndPartialTolerancesMerged) {
  auto problems = parse_config_text(R"({
    "description": "demo",
    "defaults": {"eps": 1e-6, "seed": 7, "distribution": {"kind": "large_mean", "param": 100},
                 "tolerances": {"grad_input": {"l2_rel": 2e-4}, "grad_bias": {"max_scaled": 5e-3}}},
    "problems": [
      {"name": "plain", "batch": 2, "channels": 8, "spatial": 16, "groups": 4},
      {"name": "custom", "batch": 1, "channels": 6, "spatial": 5, "groups": 3, "eps": 1e-3, "seed": 9,
       "distribution": "uniform",
       "tolerances": {"grad_input": {"max_scaled": 1e-2}, "grad_weight": {"l2_rel": 3e-4}}}
    ]})",
                                    kConfigName);
  ASSERT_EQ(problems.size(), 2u);
  const Problem& a = problems[0];
  EXPECT_EQ(a.name, "plain");
  EXPECT_EQ(a.shape.batch, 2u);
  EXPECT_EQ(a.shape.channels, 8u);
  EXPECT_EQ(a.shape.spatial, 16u);
  EXPECT_EQ(a.shape.groups, 4u);
  EXPECT_EQ(a.eps, 1e-6f);
  EXPECT_EQ(a.seed, 7u);
  EXPECT_EQ(a.distribution.kind, "large_mean");
  EXPECT_EQ(a.distribution.param, 100.0);
  EXPECT_EQ(a.tolerances.grad_input.l2_rel, 2e-4);
  EXPECT_EQ(a.tolerances.grad_input.max_scaled, TensorTolerance{}.max_scaled);
  EXPECT_EQ(a.tolerances.grad_weight.l2_rel, TensorTolerance{}.l2_rel);
  EXPECT_EQ(a.tolerances.grad_bias.max_scaled, 5e-3);
  EXPECT_EQ(a.tolerances.grad_bias.l2_rel, TensorTolerance{}.l2_rel);

  const Problem& b = problems[1];
  EXPECT_EQ(b.eps, 1e-3f);
  EXPECT_EQ(b.seed, 9u);
  EXPECT_EQ(b.distribution.kind, "uniform");
  EXPECT_EQ(b.distribution.param, 0.0);  // a replaced distribution does not inherit the param
  EXPECT_EQ(b.tolerances.grad_input.l2_rel, 2e-4);      // from defaults
  EXPECT_EQ(b.tolerances.grad_input.max_scaled, 1e-2);  // own
  EXPECT_EQ(b.tolerances.grad_weight.l2_rel, 3e-4);
  EXPECT_EQ(b.tolerances.grad_bias.max_scaled, 5e-3);
}

TEST(ConfigValid, BuiltInDefaultsWithoutDefaultsSection) {
  Problem p = parse_one(doc());
  EXPECT_EQ(p.eps, Problem{}.eps);
  EXPECT_EQ(p.seed, Problem{}.seed);
  EXPECT_EQ(p.distribution.kind, "normal");
  EXPECT_EQ(p.tolerances.grad_weight.max_scaled, TensorTolerance{}.max_scaled);
}

TEST(ConfigValid, ParseConfigFromJson) {
  auto problems = parse_config(nlohmann::json::parse(doc()), "mem");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].name, "p");
  try {
    parse_config(nlohmann::json::array(), "mem");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("mem: top level", 0), 0u);
  }
}

TEST(ConfigAxes, ExpansionCountNamesAndOrder) {
  auto problems = parse_config_text(R"({
    "defaults": {"seed": 3},
    "problems": [{"name": "first", "batch": 1, "channels": 4, "spatial": 4, "groups": 2}],
    "axes": [
      {"prefix": "sweep", "batch": [2, 8], "channels": [64, 320], "spatial": 1024, "groups": [32],
       "eps": 1e-4, "distribution": "uniform", "tolerances": {"grad_bias": {"l2_rel": 1e-3}},
       "expect": {"verdict": "fail", "reason": "r", "variants": ["seed"],
                  "tensors": {"grad_input": {"kinds": ["nonfinite"]}}}},
      {"batch": 1, "channels": [4, 8], "spatial": [3, 5], "groups": 1}
    ]})",
                                    kConfigName);
  std::vector<std::string> names;
  for (const auto& p : problems) names.push_back(p.name);
  std::vector<std::string> expected = {
      "first",
      "sweep_n2_c64_hw1024_g32",
      "sweep_n2_c320_hw1024_g32",
      "sweep_n8_c64_hw1024_g32",
      "sweep_n8_c320_hw1024_g32",
      "axes_n1_c4_hw3_g1",
      "axes_n1_c4_hw5_g1",
      "axes_n1_c8_hw3_g1",
      "axes_n1_c8_hw5_g1",
  };
  EXPECT_EQ(names, expected);
  const Problem& s = problems[4];
  EXPECT_EQ(s.shape.batch, 8u);
  EXPECT_EQ(s.shape.channels, 320u);
  EXPECT_EQ(s.shape.spatial, 1024u);
  EXPECT_EQ(s.shape.groups, 32u);
  EXPECT_EQ(s.eps, 1e-4f);
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.distribution.kind, "uniform");
  EXPECT_EQ(s.tolerances.grad_bias.l2_rel, 1e-3);
  EXPECT_TRUE(s.expect.applies_to("seed"));
  EXPECT_FALSE(problems[5].expect.declared());
  EXPECT_EQ(problems[5].eps, 1e-5f);
}

TEST(ConfigAxes, BadAxisValuesNameTheElement) {
  expect_config_error(R"({"axes": [{"batch": [1, -2], "channels": 4, "spatial": 4, "groups": 2}]})",
                      {"axes[0]", "field 'batch[1]' = -2", "[1, 4294967295]"});
  expect_config_error(
      R"({"axes": [{"batch": 1, "channels": [4, "8"], "spatial": 4, "groups": 2}]})",
      {"field 'channels[1]' = \"8\""});
  expect_config_error(
      R"({"axes": [{"batch": 1, "channels": [4, 6], "spatial": 4, "groups": 4}]})",
      {"problem 'axes_n1_c6_hw4_g4' (axes[0])", "field 'channels' = 6", "divisible by groups (4)"});
  expect_config_error(
      R"({"axes": [{"batch": 1, "channels": 4, "spatial": 4, "groups": 2, "eps": -1}]})",
      {"axes[0]", "field 'eps' = -1"});
  // 20 * 20 * 20 * 13 = 104000 generated problems: over the limit before any is built.
  auto list = [](int n) {
    std::string out = "[";
    for (int i = 1; i <= n; ++i) out += (i > 1 ? ", " : "") + std::to_string(i);
    return out + "]";
  };
  expect_config_error(R"({"axes": [{"batch": )" + list(20) + R"(, "channels": )" + list(20) +
                          R"(, "spatial": )" + list(20) + R"(, "groups": )" + list(13) + "}]}",
                      {"axes[0]", "expands to 104000 problems", "limit"});
}

}  // namespace
}  // namespace gnbench
