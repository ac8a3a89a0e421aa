// A GroupNorm-backward problem: the shape, the inputs to draw and how to judge the outputs.
// Pure data: parsed by config_loader, consumed by everything downstream.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gnbench {

// NCHW with H*W flattened: element (n, c, hw) lives at (n * channels + c) * spatial + hw.
struct Shape {
  uint32_t batch = 0;
  uint32_t channels = 0;
  uint32_t spatial = 0;
  uint32_t groups = 0;

  // Saturating (UINT64_MAX when the true value does not fit), so that an unvalidated huge shape
  // can only look too large, never wrap into a small one (N*C*HW can reach 2^96).
  uint64_t elements() const { return saturating_mul(uint64_t{batch} * channels, spatial); }
  uint32_t channels_per_group() const { return channels / groups; }
  uint64_t group_size() const { return uint64_t{channels_per_group()} * spatial; }
  uint64_t tensor_bytes() const { return saturating_mul(elements(), sizeof(float)); }

  static uint64_t saturating_mul(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
  }
  friend bool operator==(const Shape&, const Shape&) = default;
};

// How the three inputs are drawn. `kind` is one of distribution_kinds() (inputs/);
// `param` is the kind's one knob (e.g. |mean|/std for "large_mean"), 0 = its default.
struct Distribution {
  std::string kind = "normal";
  double param = 0.0;
};

// Errors are judged relative to the reference's own scale, so an all-zeros or constant
// output cannot pass: see verify/metrics.hpp for the exact definitions.
struct TensorTolerance {
  double l2_rel = 1e-4;      // ||gpu - ref|| / ||ref||
  double max_scaled = 1e-3;  // max |gpu - ref| / scale, scale = rms of ref over the element's group
};

struct Tolerances {
  TensorTolerance grad_input;
  TensorTolerance grad_weight;
  TensorTolerance grad_bias;
};

// How one output tensor may fail under an expectation: which kinds of failure, and for
// "error" (finite, written, above tolerance) the largest error it may reach.
struct TensorFailure {
  bool error = false;                        // above tolerance, within the bounds below
  bool nonfinite = false;                    // NaN/Inf written
  bool unwritten = false;                    // poison left
  std::optional<double> max_scaled, l2_rel;  // bounds on the error; absent = not bounded
};

// A declared expected failure: this problem is known to break the listed variants
// (all variants when empty). Reported as XFAIL, not as a regression. kMayFail is for
// failures that depend on the device (such as a compiler fusing a*b - c into one FMA): a
// failure is XFAIL and a pass is PASS, where kFail calls the pass unexpected (XPASS).
// `tensors` says exactly what may fail; any other failure is FAIL (verify/expectation_match).
struct Expectation {
  enum class Outcome { kPass, kFail, kMayFail };
  Outcome outcome = Outcome::kPass;
  std::string reason;
  std::vector<std::string> variants;
  std::map<std::string, TensorFailure> tensors;  // "grad_input", "grad_weight", "grad_bias"

  bool declared() const { return outcome != Outcome::kPass; }
  bool applies_to(const std::string& variant) const {
    if (!declared()) return false;
    if (variants.empty()) return true;
    for (const auto& v : variants)
      if (v == variant) return true;
    return false;
  }
};

// The config and results-file spelling of an outcome: "pass", "fail", "may_fail".
inline const char* outcome_name(Expectation::Outcome o) {
  switch (o) {
    case Expectation::Outcome::kPass: return "pass";
    case Expectation::Outcome::kFail: return "fail";
    case Expectation::Outcome::kMayFail: return "may_fail";
  }
  return "?";
}

inline std::optional<Expectation::Outcome> expectation_outcome(const std::string& name) {
  for (auto o :
       {Expectation::Outcome::kPass, Expectation::Outcome::kFail, Expectation::Outcome::kMayFail})
    if (name == outcome_name(o)) return o;
  return std::nullopt;
}

struct Problem {
  std::string name;
  Shape shape;
  float eps = 1e-5f;  // float32, exactly what the kernels see; the reference widens it
  uint64_t seed = 0;
  Distribution distribution;
  Tolerances tolerances;
  Expectation expect;
  bool random = false;  // drawn from a random block or --random: shrunk when it fails
};

}  // namespace gnbench
