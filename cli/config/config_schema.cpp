#include "cli/config/config_schema.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <map>

#include "base/errors.hpp"
#include "base/path_name.hpp"
#include "cli/inputs/input_generator.hpp"

namespace gnbench::config_schema {
namespace {

using nlohmann::json;

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kIndexLimit = uint64_t{1} << 32;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

std::string name_rule(const std::string& name) { return path_name_problem(name); }

namespace {

void check_name(const json& v, const JsonPlace& ctx, const std::string& field) {
  std::string rule = name_rule(get_string(v, ctx, field));
  if (!rule.empty()) ctx.fail_field(field, &v, rule);
}

Distribution parse_distribution(const json& v, const JsonPlace& ctx) {
  Distribution d;
  const json* kind_value = &v;
  if (v.is_string()) {
    d.kind = v.get<std::string>();
  } else if (v.is_object()) {
    check_keys(v, {"kind", "param"}, ctx, "distribution");
    if (!v.contains("kind")) ctx.fail_field("distribution.kind", nullptr, "missing (required)");
    kind_value = &v.at("kind");
    d.kind = get_string(*kind_value, ctx, "distribution.kind");
    if (v.contains("param")) {
      const json& p = v.at("param");
      d.param = get_number(p, ctx, "distribution.param");
      if (d.param < 0)
        ctx.fail_field("distribution.param", &p, "must be >= 0 (0 = the kind's default)");
    }
  } else {
    ctx.fail_field(
        "distribution", &v,
        "must be a kind name or {\"kind\": ..., \"param\": ...}, got " + json_type_name(v));
  }
  if (!is_distribution_kind(d.kind)) {
    std::vector<std::string> kinds;
    for (const auto& info : distribution_kinds()) kinds.push_back(info.kind);
    ctx.fail_field(v.is_string() ? "distribution" : "distribution.kind", kind_value,
                   "unknown distribution kind (valid: " + join(kinds) + ")");
  }
  // The param rules live with the generator; checked here so a bad one fails at load time.
  try {
    validate_distribution(d);
  } catch (const std::invalid_argument& e) {
    const bool has_param = v.is_object() && v.contains("param");
    ctx.fail_field(has_param ? "distribution.param" : "distribution",
                   has_param ? &v.at("param") : &v, e.what());
  }
  return d;
}

void parse_tolerance(const json& v, const JsonPlace& ctx, const std::string& field,
                     TensorTolerance& t) {
  require_object(v, ctx, field);
  check_keys(v, {"l2_rel", "max_scaled"}, ctx, field);
  auto read = [&](const char* key, double& out) {
    if (!v.contains(key)) return;  // partial: keep the inherited value
    const json& x = v.at(key);
    std::string f = field + "." + key;
    out = get_number(x, ctx, f);
    if (out <= 0) ctx.fail_field(f, &x, "must be > 0");
  };
  read("l2_rel", t.l2_rel);
  read("max_scaled", t.max_scaled);
}

void parse_tolerances(const json& v, const JsonPlace& ctx, Tolerances& t) {
  require_object(v, ctx, "tolerances");
  check_keys(v, {"grad_input", "grad_weight", "grad_bias"}, ctx, "tolerances");
  if (v.contains("grad_input"))
    parse_tolerance(v.at("grad_input"), ctx, "tolerances.grad_input", t.grad_input);
  if (v.contains("grad_weight"))
    parse_tolerance(v.at("grad_weight"), ctx, "tolerances.grad_weight", t.grad_weight);
  if (v.contains("grad_bias"))
    parse_tolerance(v.at("grad_bias"), ctx, "tolerances.grad_bias", t.grad_bias);
}

// One entry of expect.tensors: {"kinds": [...], "max_scaled": x, "l2_rel": y}; the bounds
// only with kind "error" (at least one of them then) and above the tolerance they extend.
TensorFailure parse_tensor_failure(const json& v, const JsonPlace& ctx, const std::string& field,
                                   const TensorTolerance& tolerance) {
  require_object(v, ctx, field);
  check_keys(v, {"kinds", "max_scaled", "l2_rel"}, ctx, field);
  if (!v.contains("kinds"))
    ctx.fail_field(field + ".kinds", nullptr,
                   "missing (required: a list of error, nonfinite, unwritten)");
  const json& kinds = v.at("kinds");
  if (!kinds.is_array() || kinds.empty())
    ctx.fail_field(field + ".kinds", &kinds,
                   "must be a non-empty list of error, nonfinite, unwritten");
  TensorFailure f;
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string k = get_string(kinds[i], ctx, field + ".kinds[" + std::to_string(i) + "]");
    bool* flag = k == "error"       ? &f.error
                 : k == "nonfinite" ? &f.nonfinite
                 : k == "unwritten" ? &f.unwritten
                                    : nullptr;
    if (flag == nullptr)
      ctx.fail_field(field + ".kinds[" + std::to_string(i) + "]", &kinds[i],
                     "must be one of error, nonfinite, unwritten");
    *flag = true;
  }
  auto bound = [&](const char* key, double tol, std::optional<double>& out) {
    if (!v.contains(key)) return;
    const json& b = v.at(key);
    const std::string f_name = field + "." + key;
    if (!f.error) ctx.fail_field(f_name, &b, "a bound on the error needs kind \"error\" in kinds");
    out = get_number(b, ctx, f_name);
    if (*out <= tol)
      ctx.fail_field(f_name, &b,
                     "must be above the tolerance it extends (" + shortest_double_text(tol) + ")");
  };
  bound("max_scaled", tolerance.max_scaled, f.max_scaled);
  bound("l2_rel", tolerance.l2_rel, f.l2_rel);
  if (f.error && !f.max_scaled && !f.l2_rel)
    ctx.fail_field(field, &v, "kind \"error\" needs a bound: max_scaled and/or l2_rel");
  return f;
}

std::map<std::string, TensorFailure> parse_expected_tensors(const json& v, const JsonPlace& ctx,
                                                            const Tolerances& tolerances) {
  require_object(v, ctx, "expect.tensors");
  check_keys(v, {"grad_input", "grad_weight", "grad_bias"}, ctx, "expect.tensors");
  if (v.empty()) ctx.fail_field("expect.tensors", &v, "must name at least one tensor");
  const std::pair<const char*, const TensorTolerance*> known[] = {
      {"grad_input", &tolerances.grad_input},
      {"grad_weight", &tolerances.grad_weight},
      {"grad_bias", &tolerances.grad_bias}};
  std::map<std::string, TensorFailure> out;
  for (const auto& [name, tol] : known)
    if (v.contains(name))
      out[name] =
          parse_tensor_failure(v.at(name), ctx, std::string("expect.tensors.") + name, *tol);
  return out;
}

}  // namespace

Expectation parse_expect(const json& v, const JsonPlace& ctx, const Tolerances& tolerances) {
  require_object(v, ctx, "expect");
  check_keys(v, {"verdict", "reason", "variants", "tensors"}, ctx, "expect");
  Expectation e;
  if (!v.contains("verdict"))
    ctx.fail_field("expect.verdict", nullptr,
                   "missing (required: \"fail\", \"may_fail\" or \"pass\")");
  const json& verdict = v.at("verdict");
  const std::string s = get_string(verdict, ctx, "expect.verdict");
  const auto outcome = expectation_outcome(s);
  if (!outcome)
    ctx.fail_field("expect.verdict", &verdict, "must be \"fail\", \"may_fail\" or \"pass\"");
  e.outcome = *outcome;
  if (v.contains("reason")) e.reason = get_string(v.at("reason"), ctx, "expect.reason");
  if (v.contains("variants")) {
    const json& vs = v.at("variants");
    if (vs.is_string()) {
      e.variants.push_back(vs.get<std::string>());
    } else if (vs.is_array()) {
      for (size_t i = 0; i < vs.size(); ++i)
        e.variants.push_back(get_string(vs[i], ctx, "expect.variants[" + std::to_string(i) + "]"));
    } else {
      ctx.fail_field("expect.variants", &vs,
                     "must be a list of variant names, got " + json_type_name(vs));
    }
    for (size_t i = 0; i < e.variants.size(); ++i)
      if (e.variants[i].empty())
        ctx.fail_field("expect.variants[" + std::to_string(i) + "]", &vs, "must not be empty");
  }
  if (e.declared() && !v.contains("tensors"))
    ctx.fail_field(
        "expect.tensors", nullptr,
        "missing (required with verdict \"" + s + "\": which tensors may fail, how and how far)");
  if (v.contains("tensors")) {
    if (!e.declared())
      ctx.fail_field("expect.tensors", &v.at("tensors"),
                     "only with verdict \"fail\" or \"may_fail\"");
    e.tensors = parse_expected_tensors(v.at("tensors"), ctx, tolerances);
  }
  return e;
}

void validate_eps_in(double eps, const json* value, const JsonPlace& ctx,
                     const std::string& field) {
  json shown = value != nullptr ? *value : json(eps);
  if (!std::isfinite(eps)) ctx.fail_field(field, &shown, "must be finite");
  if (eps <= 0) ctx.fail_field(field, &shown, "must be > 0");
  // The kernels see eps as float32: below FLT_MIN it is a denormal or flushes to 0.
  if (eps < FLT_MIN)
    ctx.fail_field(
        field, &shown,
        "must be >= FLT_MIN (" + shortest_double_text(FLT_MIN) + ", eps is stored as float32)");
  if (eps > 1) ctx.fail_field(field, &shown, "must be <= 1");
}

// Reads the optional overridable fields present in `obj` over `s`.
void parse_settings(const json& obj, const JsonPlace& ctx, Settings& s, bool allow_expect) {
  if (obj.contains("eps")) {
    const json& v = obj.at("eps");
    if (!v.is_number()) ctx.fail_field("eps", &v, "must be a number, got " + json_type_name(v));
    s.eps = v.get<double>();
    validate_eps_in(s.eps, &v, ctx, "eps");
  }
  if (obj.contains("seed"))
    s.seed = get_uint(obj.at("seed"), ctx, "seed", 0, std::numeric_limits<uint64_t>::max());
  if (obj.contains("distribution"))
    s.distribution = parse_distribution(obj.at("distribution"), ctx);
  if (obj.contains("tolerances")) parse_tolerances(obj.at("tolerances"), ctx, s.tolerances);
  if (allow_expect && obj.contains("expect"))
    s.expect = parse_expect(obj.at("expect"), ctx, s.tolerances);
}

void validate_shape_in(const Shape& shape, const JsonPlace& ctx) {
  const std::pair<const char*, uint32_t> sizes[] = {{"batch", shape.batch},
                                                    {"channels", shape.channels},
                                                    {"spatial", shape.spatial},
                                                    {"groups", shape.groups}};
  for (const auto& [field, value] : sizes) {
    json v = value;
    if (value == 0) ctx.fail_field(field, &v, "must be an integer in [1, 4294967295]");
  }
  if (shape.channels % shape.groups != 0) {
    json v = shape.channels;
    ctx.fail_field("channels", &v,
                   "must be divisible by groups (" + std::to_string(shape.groups) + ")");
  }
  if (shape.elements() >= kIndexLimit) {
    // elements() saturates: a product past 2^64 shows as that, never as a wrapped value.
    json v = shape.elements() == UINT64_MAX ? json("over 2^64") : json(shape.elements());
    ctx.fail_field("batch*channels*spatial", &v,
                   "N*C*HW = " + std::to_string(shape.batch) + "*" +
                       std::to_string(shape.channels) + "*" + std::to_string(shape.spatial) +
                       " must be < 2^32 = " + std::to_string(kIndexLimit) +
                       " (kernels index elements with u32)");
  }
}

namespace {

const std::vector<std::string> kProblemKeys = {"name",       "batch",  "channels",   "spatial",
                                               "groups",     "eps",    "seed",       "distribution",
                                               "tolerances", "expect", "description"};
const std::vector<std::string> kAxesKeys = {"prefix",     "batch", "channels", "spatial",
                                            "groups",     "eps",   "seed",     "distribution",
                                            "tolerances", "expect"};
const char* const kShapeKeys[] = {"batch", "channels", "spatial", "groups"};

Problem make_problem(const std::string& name, const Shape& shape, const Settings& s) {
  Problem p;
  p.name = name;
  p.shape = shape;
  p.eps = static_cast<float>(s.eps);
  p.seed = s.seed;
  p.distribution = s.distribution;
  p.tolerances = s.tolerances;
  p.expect = s.expect;
  return p;
}

}  // namespace

const std::vector<std::string> kDefaultsKeys = {"eps", "seed", "distribution", "tolerances"};
const std::vector<std::string> kTopKeys = {"description", "defaults", "problems", "axes", "random"};

Problem parse_problem(const json& v, size_t index, const Settings& defaults,
                      const JsonPlace& file) {
  JsonPlace ctx{file.source, "problems[" + std::to_string(index) + "]", ""};
  if (!v.is_object()) ctx.fail("must be an object, got " + json_type_name(v));
  // Unknown fields are reported first (a misspelt "name" explains a missing name), under
  // the problem's name when it is already usable.
  const bool named = v.contains("name") && v.at("name").is_string() &&
                     name_rule(v.at("name").get<std::string>()).empty();
  if (named) ctx.label = "problem '" + v.at("name").get<std::string>() + "'";
  check_keys(v, kProblemKeys, ctx, "");
  if (!v.contains("name"))
    ctx.fail_field("name", nullptr,
                   "missing (required fields: name, batch, channels, spatial, groups)");
  check_name(v.at("name"), ctx, "name");
  std::string name = v.at("name").get<std::string>();
  ctx.label = "problem '" + name + "'";

  Shape shape;
  uint32_t* dims[] = {&shape.batch, &shape.channels, &shape.spatial, &shape.groups};
  for (size_t i = 0; i < 4; ++i) {
    if (!v.contains(kShapeKeys[i]))
      ctx.fail_field(kShapeKeys[i], nullptr,
                     "missing (required fields: name, batch, channels, spatial, groups)");
    *dims[i] = static_cast<uint32_t>(get_uint(v.at(kShapeKeys[i]), ctx, kShapeKeys[i], 1, kMaxU32));
  }
  // Free text (e.g. the architecture a shape comes from); only its type is checked.
  if (v.contains("description")) get_string(v.at("description"), ctx, "description");
  Settings s = defaults;
  parse_settings(v, ctx, s, true);
  validate_shape_in(shape, ctx);
  return make_problem(name, shape, s);
}

// Expands one axes object to the cartesian product of its lists, batch outermost.
void expand_axes(const json& v, size_t index, const Settings& defaults, const JsonPlace& file,
                 std::vector<Problem>& out, std::vector<std::string>& origins) {
  std::string origin = "axes[" + std::to_string(index) + "]";
  JsonPlace ctx{file.source, origin, ""};
  if (!v.is_object()) ctx.fail("must be an object, got " + json_type_name(v));
  check_keys(v, kAxesKeys, ctx, "");
  std::string prefix = "axes";
  if (v.contains("prefix")) {
    check_name(v.at("prefix"), ctx, "prefix");
    prefix = v.at("prefix").get<std::string>();
  }
  std::vector<uint32_t> lists[4];
  for (size_t i = 0; i < 4; ++i) {
    const char* key = kShapeKeys[i];
    if (!v.contains(key))
      ctx.fail_field(key, nullptr, "missing (required axes: batch, channels, spatial, groups)");
    const json& list = v.at(key);
    if (list.is_array()) {
      if (list.empty()) ctx.fail_field(key, &list, "must not be an empty list");
      for (size_t j = 0; j < list.size(); ++j)
        lists[i].push_back(static_cast<uint32_t>(
            get_uint(list[j], ctx, std::string(key) + "[" + std::to_string(j) + "]", 1, kMaxU32)));
    } else {
      lists[i].push_back(static_cast<uint32_t>(get_uint(list, ctx, key, 1, kMaxU32)));
    }
  }
  Settings s = defaults;
  parse_settings(v, ctx, s, true);

  uint64_t count = 1;
  for (const auto& l : lists) count *= l.size();
  if (out.size() + count > kMaxProblems)
    ctx.fail("expands to " + std::to_string(count) + " problems, over the limit of " +
             std::to_string(kMaxProblems) + " in one config");
  for (uint32_t n : lists[0])
    for (uint32_t c : lists[1])
      for (uint32_t hw : lists[2])
        for (uint32_t g : lists[3]) {
          Shape shape{n, c, hw, g};
          std::string name = prefix + "_n" + std::to_string(n) + "_c" + std::to_string(c) + "_hw" +
                             std::to_string(hw) + "_g" + std::to_string(g);
          // The prefix passed the name rule; with the shape appended the name may not.
          if (const std::string rule = name_rule(name); !rule.empty())
            ctx.fail_field("prefix", v.contains("prefix") ? &v.at("prefix") : nullptr,
                           "with '" + name.substr(prefix.size()) + "' appended makes a name of " +
                               std::to_string(name.size()) + " characters: " + rule);
          JsonPlace pctx{file.source, "problem '" + name + "' (" + origin + ")", ""};
          validate_shape_in(shape, pctx);
          out.push_back(make_problem(name, shape, s));
          origins.push_back(origin);
        }
}

}  // namespace gnbench::config_schema
