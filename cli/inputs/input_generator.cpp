// Input generation that is bit-identical on every platform. std::mt19937_64 is fully
// specified by the standard, but std::*_distribution and libm's log/exp/sin are not, so every
// transform below uses only IEEE-754 + - * / and sqrt (correctly rounded everywhere) and the
// exact frexp/ldexp. Assumes FLT_EVAL_METHOD == 0 (SSE2 / any 64-bit target).
#include "cli/inputs/input_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/parallel_for.hpp"
#include "cli/inputs/input_rng.hpp"

// After every other include: it turns contraction off for this file's own code only.
#include "cli/inputs/exact_float.hpp"

namespace gnbench {
namespace {

// ---- Distributions ---------------------------------------------------------------------

enum class Kind {
  kNormal,
  kUniform,
  kLargeMean,
  kNearConstant,
  kWeightZeros,
  kHeavyTail,
  kGradScale
};

struct KindEntry {
  Kind kind;
  DistributionInfo info;
  bool has_param;
};

const std::vector<KindEntry>& kind_table() {
  static const std::vector<KindEntry> table = {
      {Kind::kNormal,
       {"normal", "x, grad_out ~ N(0,1); weight ~ N(1, 0.5). No param.", 0.0},
       false},
      {Kind::kUniform,
       {"uniform", "x, grad_out ~ U(-1,1); weight ~ U(0.5, 1.5). No param.", 0.0},
       false},
      {Kind::kLargeMean,
       {"large_mean",
        "each (n, group) has std s (log-uniform in [0.1, 10]) and mean +-param*s; "
        "param = |mean|/std, meaningful 1e1..1e4",
        1e3},
       true},
      {Kind::kNearConstant,
       {"near_constant",
        "per batch item every 4th group exactly constant, half the groups a random constant "
        "plus noise of std param*1e-3 (variance far below eps), the rest N(0,1) (with G = 1 "
        "the pattern runs over the batch); grad_out ~ N(0,1)",
        1e-3},
       true},
      {Kind::kWeightZeros,
       {"weight_zeros",
        "as normal, but a fraction param of the weights exactly 0 and the rest of mixed sign",
        0.25},
       true},
      {Kind::kHeavyTail,
       {"heavy_tail",
        "x, grad_out ~ Student-t with param >= 0.1 degrees of freedom (|value| <= 1e8); "
        "weight ~ N(1, 0.5)",
        2.0},
       true},
      {Kind::kGradScale,
       {"grad_scale", "as normal, but grad_out multiplied by param (e.g. 1e-6 or 1e6)", 1e-6},
       true},
  };
  return table;
}

const KindEntry& find_kind(const std::string& kind) {
  for (const auto& entry : kind_table())
    if (entry.info.kind == kind) return entry;
  std::string known;
  for (const auto& entry : kind_table()) known += (known.empty() ? "" : ", ") + entry.info.kind;
  throw std::invalid_argument("unknown distribution kind '" + kind + "' (known: " + known + ")");
}

std::string format_param(double param) {
  std::ostringstream out;
  out << param;
  return out.str();
}

// Scale-like params (large_mean's |mean|/std, near_constant's noise, grad_scale's factor)
// above this would overflow float32 in some draw; 1e30 leaves room for std up to 10 and for
// normal draws of any practical size.
constexpr double kMaxScaleParam = 1e30;
// Below this many degrees of freedom nearly every Student-t draw lies beyond the 1e8 cap (or
// overflows) and is redrawn, so generating the inputs would take practically forever.
constexpr double kMinHeavyTailDof = 0.1;
// grad_out = N(0,1) * param stays a normal float32 (>= 1.2e-38) for draws down to 1e-8.
constexpr double kMinGradScale = 1e-30;

// The param a draw actually uses: the default for 0, else validated for the kind.
double resolve_param(const KindEntry& entry, double param) {
  const std::string& name = entry.info.kind;
  if (!std::isfinite(param))
    throw std::invalid_argument("distribution '" + name + "': param must be finite");
  if (!entry.has_param) {
    if (param != 0.0)
      throw std::invalid_argument("distribution '" + name + "' takes no param (got " +
                                  format_param(param) + ")");
    return 0.0;
  }
  if (param == 0.0) return entry.info.default_param;
  if (param < 0.0)
    throw std::invalid_argument("distribution '" + name + "': param must be positive");
  if (entry.kind == Kind::kWeightZeros && param >= 1.0)
    throw std::invalid_argument("distribution 'weight_zeros': param (zero fraction) must be < 1");
  const bool scale = entry.kind == Kind::kLargeMean || entry.kind == Kind::kNearConstant ||
                     entry.kind == Kind::kGradScale;
  if (scale && param > kMaxScaleParam)
    throw std::invalid_argument("distribution '" + name +
                                "': param must be <= 1e30 (larger values overflow float32)");
  if (entry.kind == Kind::kGradScale && param < kMinGradScale)
    throw std::invalid_argument(
        "distribution 'grad_scale': param must be >= 1e-30 (smaller values turn grad_out into "
        "float32 zeros and subnormals, and every kernel passes on zeros)");
  if (entry.kind == Kind::kHeavyTail && param < kMinHeavyTailDof)
    throw std::invalid_argument(
        "distribution 'heavy_tail': param (degrees of freedom) must be >= 0.1 (below it nearly "
        "every draw exceeds the 1e8 cap and is redrawn)");
  return param;
}

constexpr double kHeavyTailLimit = 1e8;

// Large tensors are drawn in fixed chunks, each from its own generator seeded by the chunk
// index, so the result does not depend on how many threads ran or in which order.
constexpr Eigen::Index kChunk = Eigen::Index{1} << 16;

// a[i] = draw(i, rng), rng being the generator of i's chunk.
template <typename Draw>
void fill_chunked(Eigen::ArrayXf& a, uint64_t seed, const Draw& draw) {
  const Eigen::Index size = a.size();
  const Eigen::Index chunks = (size + kChunk - 1) / kChunk;
  parallel_for(chunks, static_cast<uint64_t>(size), [&](int64_t j) {
    Rng rng(mix64(seed + static_cast<uint64_t>(j) * kGolden));
    const Eigen::Index end = std::min(size, (j + 1) * kChunk);
    for (Eigen::Index i = j * kChunk; i < end; ++i) a[i] = static_cast<float>(draw(i, rng));
  });
}

// Turns normal's weights into weight_zeros': a fraction `zero_fraction` of the channels (chosen
// by a shuffle) become 0 and the rest alternate in sign, keeping their magnitudes. With >= 3
// channels there is always at least one zero, one positive and one negative weight.
void apply_weight_zeros(Eigen::ArrayXf& weight, Rng& rng, double zero_fraction) {
  const Eigen::Index c = weight.size();
  std::vector<Eigen::Index> order(static_cast<size_t>(c));
  for (Eigen::Index i = 0; i < c; ++i) order[static_cast<size_t>(i)] = i;
  for (Eigen::Index i = c - 1; i > 0; --i)  // Fisher-Yates; std::shuffle is not portable
    std::swap(order[static_cast<size_t>(i)],
              order[static_cast<size_t>(rng.below(static_cast<uint64_t>(i) + 1))]);
  auto zeros = static_cast<Eigen::Index>(std::floor(zero_fraction * static_cast<double>(c) + 0.5));
  if (c >= 3) zeros = std::clamp<Eigen::Index>(zeros, 1, c - 2);
  for (Eigen::Index i = 0; i < c; ++i) {
    float& w = weight[order[static_cast<size_t>(i)]];
    if (i < zeros)
      w = 0.0f;
    else
      w = (i - zeros) % 2 == 0 ? std::abs(w) : -std::abs(w);
  }
}

// Equal weights on two channels hide a kernel that reads the wrong channel's weight, and
// float32 draws collide (C = 4096 normal weights share a value about one time in three), so
// each repeat moves up to the next float above its predecessor in sorted order: a 1-ulp change.
void make_distinct(Eigen::ArrayXf& weight) {
  std::vector<Eigen::Index> order(static_cast<size_t>(weight.size()));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Eigen::Index>(i);
  std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return weight[a] < weight[b] || (weight[a] == weight[b] && a < b);
  });
  for (size_t i = 1; i < order.size(); ++i)
    if (weight[order[i]] <= weight[order[i - 1]])
      weight[order[i]] = std::nextafter(weight[order[i - 1]], HUGE_VALF);
}

}  // namespace

const std::vector<DistributionInfo>& distribution_kinds() {
  static const std::vector<DistributionInfo> kinds = [] {
    std::vector<DistributionInfo> out;
    for (const auto& entry : kind_table()) out.push_back(entry.info);
    return out;
  }();
  return kinds;
}

bool is_distribution_kind(const std::string& kind) {
  for (const auto& entry : kind_table())
    if (entry.info.kind == kind) return true;
  return false;
}

uint64_t trial_seed(uint64_t problem_seed, uint32_t trial) {
  if (trial == 0) return problem_seed;
  // mix64 is a bijection and trial * kGolden is distinct for every trial, so the trials of
  // one problem never share a seed.
  return mix64(problem_seed + uint64_t{trial} * kGolden);
}

void validate_distribution(const Distribution& distribution) {
  resolve_param(find_kind(distribution.kind), distribution.param);
}

namespace {

double draw_normal(Eigen::Index, Rng& rng) { return rng.normal(); }
double draw_uniform(Eigen::Index, Rng& rng) { return rng.symmetric(); }

// x. The "as normal" kinds share normal's draws, so for one seed they differ from "normal"
// only in what the kind changes.
void draw_x(Eigen::ArrayXf& x, const Shape& shape, const KindEntry& entry, double param,
            uint64_t seed) {
  const uint64_t x_seed = stream_seed(seed, Stream::kX);
  const auto group_size = static_cast<Eigen::Index>(shape.group_size());
  const Eigen::Index group_count = Eigen::Index{shape.batch} * shape.groups;
  Rng group_rng(stream_seed(seed, Stream::kGroupParams));
  switch (entry.kind) {
    case Kind::kUniform: fill_chunked(x, x_seed, draw_uniform); break;
    case Kind::kLargeMean: {
      Eigen::ArrayXd mean(group_count), stddev(group_count);
      for (Eigen::Index k = 0; k < group_count; ++k) {
        stddev[k] = det_exp(det_log(0.1) + group_rng.uniform01() * det_log(100.0));
        mean[k] = (group_rng.coin() ? param : -param) * stddev[k];
      }
      fill_chunked(x, x_seed, [&](Eigen::Index i, Rng& rng) {
        const Eigen::Index k = i / group_size;
        return mean[k] + stddev[k] * rng.normal();
      });
      break;
    }
    case Kind::kNearConstant: {
      // Group pattern r % 4: 0 exactly constant, 1 and 3 a constant plus tiny noise, 2
      // ordinary. r runs along the groups of each batch item, so each has a constant group;
      // with G = 1 along the batch as n ^ 1, so a single item is the noisy kind.
      Eigen::ArrayXd level(group_count);
      for (Eigen::Index k = 0; k < group_count; ++k) level[k] = group_rng.normal();
      const double noise = param * 1e-3;
      fill_chunked(x, x_seed, [&](Eigen::Index i, Rng& rng) {
        const Eigen::Index k = i / group_size;
        const Eigen::Index r = shape.groups > 1 ? k % shape.groups : k ^ 1;
        if (r % 4 == 0) return level[k];
        if (r % 2 == 1) return level[k] + noise * rng.normal();
        return rng.normal();
      });
      break;
    }
    case Kind::kHeavyTail:
      fill_chunked(x, x_seed, [param](Eigen::Index, Rng& rng) {
        return rng.student_t(param, kHeavyTailLimit);
      });
      break;
    default: fill_chunked(x, x_seed, draw_normal);
  }
}

void draw_grad_out(Eigen::ArrayXf& grad_out, const KindEntry& entry, double param, uint64_t seed) {
  const uint64_t grad_seed = stream_seed(seed, Stream::kGradOut);
  switch (entry.kind) {
    case Kind::kUniform: fill_chunked(grad_out, grad_seed, draw_uniform); break;
    case Kind::kHeavyTail:
      fill_chunked(grad_out, grad_seed, [param](Eigen::Index, Rng& rng) {
        return rng.student_t(param, kHeavyTailLimit);
      });
      break;
    case Kind::kGradScale:
      fill_chunked(grad_out, grad_seed,
                   [param](Eigen::Index, Rng& rng) { return param * rng.normal(); });
      break;
    default: fill_chunked(grad_out, grad_seed, draw_normal);
  }
}

// weight: [C] is small, one sequential stream.
void draw_weight(Eigen::ArrayXf& weight, const KindEntry& entry, double param, uint64_t seed) {
  Rng weight_rng(stream_seed(seed, Stream::kWeight));
  for (Eigen::Index c = 0; c < weight.size(); ++c) {
    const double w = entry.kind == Kind::kUniform ? weight_rng.uniform(0.5, 1.5)
                                                  : 1.0 + 0.5 * weight_rng.normal();
    weight[c] = static_cast<float>(w);
  }
  make_distinct(weight);
  if (entry.kind == Kind::kWeightZeros) apply_weight_zeros(weight, weight_rng, param);
}

}  // namespace

Inputs generate_inputs(const Shape& shape, const Distribution& distribution, uint64_t seed) {
  // The same checks as validate_distribution(), keeping the resolved param.
  const KindEntry& entry = find_kind(distribution.kind);
  const double param = resolve_param(entry, distribution.param);
  if (shape.groups == 0 || shape.channels % shape.groups != 0)
    throw std::invalid_argument("channels (" + std::to_string(shape.channels) +
                                ") must be a multiple of groups (" + std::to_string(shape.groups) +
                                ")");
  Inputs in;
  in.x.resize(static_cast<Eigen::Index>(shape.elements()));
  in.grad_out.resize(in.x.size());
  in.weight.resize(shape.channels);
  draw_x(in.x, shape, entry, param, seed);
  draw_grad_out(in.grad_out, entry, param, seed);
  draw_weight(in.weight, entry, param, seed);
  if (!in.x.allFinite() || !in.grad_out.allFinite() || !in.weight.allFinite())
    throw std::invalid_argument("distribution '" + entry.info.kind + "' with param " +
                                format_param(param) + " overflows float32");
  return in;
}

}  // namespace gnbench
