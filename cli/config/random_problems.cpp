// Only integer arithmetic on a fully specified engine (mt19937_64) decides the shapes, so a
// seed gives the same shapes everywhere; eps goes through pow() but is then rounded to 3
// significant digits in decimal text, which absorbs any last-bit difference between libms.
#include "cli/config/random_problems.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "base/deterministic_random.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/path_name.hpp"
#include "cli/config/seed_defects.hpp"
#include "cli/inputs/input_generator.hpp"

namespace gnbench {
namespace {

using nlohmann::json;

// A dispatch's x count above this needs the fold into y (maxComputeWorkGroupCount[0] is
// 65535 on the devices we know; Vulkan guarantees no more).
constexpr uint64_t kFoldAbove = 65535;
constexpr uint32_t kMaxCount = 100000;

class Draw : public PortableRandom {
 public:
  explicit Draw(uint64_t seed) : PortableRandom(seed) {}
  // Log-uniform by binary order of magnitude in [lo, hi] (1 <= lo; hi < lo means lo).
  uint64_t size(uint64_t lo, uint64_t hi) {
    if (hi <= lo) return lo;
    const int b_lo = std::bit_width(lo), b_hi = std::bit_width(hi);
    const int b = b_lo + static_cast<int>(below(static_cast<uint64_t>(b_hi - b_lo + 1)));
    const uint64_t a = std::max(lo, uint64_t{1} << (b - 1));
    const uint64_t z = std::min(hi, (uint64_t{1} << b) - 1);
    return a + below(z - a + 1);
  }
};

uint64_t divisor_of(uint64_t c, Draw& d) {
  std::vector<uint64_t> divisors;
  for (uint64_t i = 1; i * i <= c; ++i)
    if (c % i == 0) {
      divisors.push_back(i);
      if (i * i != c) divisors.push_back(c / i);
    }
  std::sort(divisors.begin(), divisors.end());
  return divisors[d.below(divisors.size())];
}

float draw_eps(const RandomSpec& s, Draw& d) {
  const double lo = std::log10(s.eps[0]), hi = std::log10(s.eps[1]);
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", std::pow(10.0, lo + (hi - lo) * d.uniform01()));
  const double eps = std::clamp(std::strtod(text, nullptr), s.eps[0], s.eps[1]);
  return static_cast<float>(eps);
}

// N, C and HW in a random order, each bounded by the cap given the ones drawn before.
Shape draw_plain(const RandomSpec& s, Draw& d) {
  const uint32_t* ranges[3] = {s.batch, s.channels, s.spatial};
  uint64_t value[3] = {0, 0, 0};
  int order[3] = {0, 1, 2};
  for (int i = 2; i > 0; --i) std::swap(order[i], order[d.below(static_cast<uint64_t>(i) + 1)]);
  for (int k : order) {
    uint64_t rest = 1;  // drawn values, and the lower bounds of the others
    for (int j = 0; j < 3; ++j)
      if (j != k) rest *= value[j] ? value[j] : ranges[j][0];
    value[k] = d.size(ranges[k][0], std::min<uint64_t>(ranges[k][1], s.max_elements / rest));
  }
  const auto c = static_cast<uint32_t>(value[1]);
  return {static_cast<uint32_t>(value[0]), c, static_cast<uint32_t>(value[2]),
          static_cast<uint32_t>(divisor_of(c, d))};
}

// N*G > 65535: G first, N from it, then channels per group and HW within what the cap leaves.
bool draw_fold(const RandomSpec& s, Draw& d, Shape& out) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    const uint64_t g = d.size(1, s.channels[1]);
    uint64_t n = (kFoldAbove + g) / g;
    n += d.below(n / 8 + 1);
    const uint64_t budget = s.max_elements / (n * g);
    const uint64_t cpg_lo = std::max<uint64_t>(1, (s.channels[0] + g - 1) / g);
    const uint64_t cpg_hi = std::min<uint64_t>(s.channels[1] / g, budget);
    if (n > UINT32_MAX || cpg_lo > cpg_hi || budget / cpg_lo < s.spatial[0]) continue;
    const uint64_t cpg = d.size(cpg_lo, cpg_hi);
    const uint64_t hw = d.size(s.spatial[0], std::min<uint64_t>(s.spatial[1], budget / cpg));
    if (hw * cpg > budget) continue;
    out = {static_cast<uint32_t>(n), static_cast<uint32_t>(g * cpg), static_cast<uint32_t>(hw),
           static_cast<uint32_t>(g)};
    return true;
  }
  return false;
}

// The config's field standard (base/json_fields.hpp), under "random.".
[[noreturn]] void bad(const std::string& source, const std::string& field, const json& v,
                      const std::string& rule) {
  JsonPlace{source, "", "random."}.fail_field(field, &v, rule);
}

uint64_t read_uint(const json& v, const std::string& source, const std::string& field, uint64_t lo,
                   uint64_t hi) {
  return get_uint(v, JsonPlace{source, "", "random."}, field, lo, hi);
}

void read_range(const json& v, const std::string& source, const std::string& field, uint32_t* out) {
  if (!v.is_array() || v.size() != 2) bad(source, field, v, "must be [min, max]");
  for (size_t i = 0; i < 2; ++i)
    out[i] = static_cast<uint32_t>(
        read_uint(v[i], source, field + "[" + std::to_string(i) + "]", 1, UINT32_MAX));
  if (out[0] > out[1]) bad(source, field, v, "min must be <= max");
}

void read_eps(const json& v, const std::string& source, double* out) {
  const std::string rule = "must be [min, max] with FLT_MIN <= min <= max <= 1";
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    bad(source, "eps", v, rule);
  out[0] = v[0].get<double>();
  out[1] = v[1].get<double>();
  if (!(out[0] >= FLT_MIN && out[0] <= out[1] && out[1] <= 1)) bad(source, "eps", v, rule);
}

void read_distributions(const json& v, const std::string& source, std::vector<std::string>& out) {
  if (!v.is_array() || v.empty()) bad(source, "distributions", v, "must be a non-empty list");
  out.clear();
  for (const json& k : v) {
    if (!k.is_string() || !is_distribution_kind(k.get<std::string>()))
      bad(source, "distributions", k,
          "must be a distribution kind name (each at its default param; see gnbench --help)");
    out.push_back(k.get<std::string>());
  }
}

}  // namespace

std::string float32_text(float value) {
  char text[32];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(text, sizeof text, "%.*g", p, static_cast<double>(value));
    if (std::strtof(text, nullptr) == value) break;
  }
  return text;
}

std::string random_problem_name(const std::string& prefix, const Problem& p) {
  const Shape& s = p.shape;
  return prefix + "_n" + std::to_string(s.batch) + "_c" + std::to_string(s.channels) + "_hw" +
         std::to_string(s.spatial) + "_g" + std::to_string(s.groups) + "_eps" +
         float32_text(p.eps) + "_" + p.distribution.kind + "_s" + std::to_string(p.seed);
}

std::vector<std::string> all_distribution_kinds() {
  std::vector<std::string> names;
  for (const auto& k : distribution_kinds()) names.push_back(k.kind);
  return names;
}

std::vector<Problem> generate_random_problems(const RandomSpec& spec) {
  std::vector<Problem> out;
  std::set<std::string> names;
  for (uint32_t i = 0; i < spec.count; ++i) {
    // Problem i depends on (seed, i) only: --random 10 gives the first ten of --random 50.
    Draw d(mix64(mix64(spec.seed) + i));
    Problem p;
    p.random = true;
    if (!(d.uniform01() < spec.fold_fraction && draw_fold(spec, d, p.shape)))
      p.shape = draw_plain(spec, d);
    p.eps = draw_eps(spec, d);
    p.distribution.kind = spec.distributions[d.below(spec.distributions.size())];
    p.seed = mix64(spec.seed ^ (uint64_t{i} << 32)) >> 32;  // short enough to type
    p.name = random_problem_name(spec.prefix, p);
    if (!names.insert(p.name).second) p.name += "_" + std::to_string(i);
    p.expect = seed_known_defects(p.tolerances);
    out.push_back(std::move(p));
  }
  return out;
}

RandomSpec parse_random_spec(const json& block, const std::string& source) {
  RandomSpec s;
  if (!block.is_object()) bad(source, "", block, "must be an object");
  for (const auto& [key, v] : block.items()) {
    if (key == "count") {
      s.count = static_cast<uint32_t>(read_uint(v, source, key, 1, kMaxCount));
    } else if (key == "seed") {
      s.seed = read_uint(v, source, key, 0, UINT64_MAX);
    } else if (key == "prefix") {
      if (!v.is_string()) bad(source, key, v, "must be a string");
      const std::string text = v.get<std::string>();
      // The one name rule (problem names become directory names), and short enough that the
      // generated names stay readable.
      if (const std::string rule = path_name_problem(text); !rule.empty())
        bad(source, key, v, rule);
      if (text.size() > 64) bad(source, key, v, "must be at most 64 characters");
      s.prefix = text;
    } else if (key == "batch" || key == "channels" || key == "spatial") {
      read_range(v, source, key,
                 key == "batch"      ? s.batch
                 : key == "channels" ? s.channels
                                     : s.spatial);
    } else if (key == "eps") {
      read_eps(v, source, s.eps);
    } else if (key == "distributions") {
      read_distributions(v, source, s.distributions);
    } else if (key == "max_elements") {
      s.max_elements = read_uint(v, source, key, 1, UINT32_MAX);
    } else if (key == "fold_fraction") {
      if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 1))
        bad(source, key, v, "must be a number in [0, 1]");
      s.fold_fraction = v.get<double>();
    } else if (key == "expect") {
      // Read by the config loader, which holds the expectation rules: it applies to every drawn
      // problem (a variant's known failure on a whole region of the ranges).
    } else {
      throw ConfigError(source + ": unknown field '" + key +
                        "' in 'random' (allowed: count, seed, prefix, batch, channels, spatial, "
                        "eps, distributions, max_elements, fold_fraction, expect)");
    }
  }
  const uint64_t least = uint64_t{s.batch[0]} * s.channels[0] * s.spatial[0];
  if (least > s.max_elements)
    bad(source, "max_elements", json(s.max_elements),
        "smaller than the smallest problem the ranges allow (" + std::to_string(least) + ")");
  return s;
}

}  // namespace gnbench
