#include "cli/report/coverage.hpp"

#include <algorithm>
#include <array>

#include "kernels/runtime/variant_runner.hpp"

namespace gnbench {
namespace {

uint64_t fold_limit(const DeviceLimits& l) {
  return l.max_workgroup_count[0] ? l.max_workgroup_count[0] : 65535;
}

bool is_prime(uint32_t n) {
  if (n < 2) return false;
  for (uint32_t d = 2; uint64_t{d} * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

uint32_t cpg(const Problem& p) { return p.shape.channels_per_group(); }

// The fold regime for one variant: N*G above the limit (where a workgroup per group folds) and
// one of the variant's own foldable stages dispatching more than the limit in x, so that its
// dispatch really folds into y. Kernels that take several groups or rows per workgroup fold
// only far above N*G > limit: the candidates below reach up to 256x the limit, and the regime
// does not apply only where no shape within the device's buffers makes the dispatch fold.
bool variant_folds(const Problem& p, const VariantSpec& v, const DeviceLimits& l) {
  if (uint64_t{p.shape.batch} * p.shape.groups <= fold_limit(l)) return false;
  const Variables vars = problem_variables(p.shape, l.subgroup_size);
  for (const auto& stage : v.stages)
    if (stage.foldable && stage_runs(stage, vars) &&
        static_cast<uint64_t>(std::max<int64_t>(0, stage.dispatch[0].evaluate(vars))) >
            fold_limit(l))
      return true;
  return false;
}

// Candidate shapes for examples: values at and around every boundary a regime or a
// manifest band draws (powers of two +-1, primes, the fold), smallest problems first.
const std::array<uint32_t, 33> kCpg = {1,   2,   3,   4,   5,   7,   8,    9,    15,   16,   17,
                                       31,  32,  33,  63,  64,  65,  100,  127,  128,  129,  255,
                                       256, 257, 320, 511, 512, 513, 1000, 1023, 1024, 1025, 2048};
const std::array<uint32_t, 14> kGroups = {1, 2, 3, 4, 7, 8, 16, 32, 33, 128, 129, 1024, 1025, 4096};
const std::array<uint32_t, 44> kSpatial = {
    1,   2,   3,   4,    5,    6,    7,    8,    9,    11,   12,   13,    16,    17,   23,
    24,  31,  32,  33,   49,   63,   64,   65,   97,   100,  127,  128,   196,   256,  257,
    289, 400, 784, 1024, 1031, 2048, 3136, 4096, 4100, 6144, 8192, 12288, 16384, 25088};

std::vector<Shape> candidate_shapes(const DeviceLimits& limits) {
  std::vector<Shape> out;
  const uint64_t max_elements = std::min<uint64_t>(limits.max_storage_buffer_range / 4, UINT32_MAX);
  for (uint32_t c : kCpg)
    for (uint32_t g : kGroups)
      for (uint32_t hw : kSpatial) {
        // N = 1, then the smallest N that folds N*G and 4x, 16x, ... 256x it: a variant that
        // packs k groups per workgroup folds its own dispatch only at N*G > k * limit.
        const uint64_t fold_n = fold_limit(limits) / g + 1;
        for (uint64_t n = 1; n <= 256 * fold_n; n = n == 1 ? fold_n : 4 * n) {
          const Shape s{static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX)), c * g, hw, g};
          if (n <= UINT32_MAX && s.elements() <= max_elements) out.push_back(s);
          if (fold_n == 1) break;
        }
      }
  std::stable_sort(out.begin(), out.end(),
                   [](const Shape& a, const Shape& b) { return a.elements() < b.elements(); });
  return out;
}

// A representative problem of a non-shape regime on `shape`.
Problem example_problem(const Regime& r, const Shape& shape, const DeviceLimits& limits) {
  Problem p;
  p.shape = shape;
  if (r.shape_only || r.holds(p, limits)) return p;
  for (float eps : {1e-10f, 1e-7f, 1e-4f, 1e-2f}) {
    p.eps = eps;
    if (r.holds(p, limits)) return p;
  }
  p.eps = 1e-5f;
  return p;
}

}  // namespace

const std::vector<Regime>& regimes() {
  using L = const DeviceLimits&;
  static const std::vector<Regime> list = {
      {"cpg1", "one channel per group", true, [](const Problem& p, L) { return cpg(p) == 1; }},
      {"cpg2-63", "2 to 63 channels per group", true,
       [](const Problem& p, L) { return cpg(p) >= 2 && cpg(p) <= 63; }},
      {"cpg64-1023", "64 to 1023 channels per group", true,
       [](const Problem& p, L) { return cpg(p) >= 64 && cpg(p) <= 1023; }},
      {"cpg>=1024", "1024 or more channels per group", true,
       [](const Problem& p, L) { return cpg(p) >= 1024; }},
      {"C>128", "more than 128 channels", true,
       [](const Problem& p, L) { return p.shape.channels > 128; }},
      {"C>1024", "more than 1024 channels", true,
       [](const Problem& p, L) { return p.shape.channels > 1024; }},
      {"G=1", "one group", true, [](const Problem& p, L) { return p.shape.groups == 1; }},
      {"1<G<C", "between 1 and C groups", true,
       [](const Problem& p, L) { return p.shape.groups > 1 && p.shape.groups < p.shape.channels; }},
      {"G=C", "one group per channel", true,
       [](const Problem& p, L) { return p.shape.groups == p.shape.channels; }},
      {"HW=1", "spatial size 1", true, [](const Problem& p, L) { return p.shape.spatial == 1; }},
      {"HW<SG", "spatial size below the subgroup size", true,
       [](const Problem& p, L l) { return p.shape.spatial < l.subgroup_size; }},
      {"HW%4", "spatial size not a multiple of 4", true,
       [](const Problem& p, L) { return p.shape.spatial % 4 != 0; }},
      {"HWprime", "prime spatial size", true,
       [](const Problem& p, L) { return is_prime(p.shape.spatial); }},
      // Per problem N*G above the limit; per variant, also its own dispatch (variant_folds).
      {"fold", "N*G above maxComputeWorkGroupCount[0], the variant's dispatch folding into y", true,
       [](const Problem& p, L l) {
         return uint64_t{p.shape.batch} * p.shape.groups > fold_limit(l);
       },
       variant_folds},
      {"eps<1e-9", "eps below 1e-9", false, [](const Problem& p, L) { return p.eps < 1e-9f; }},
      {"eps<1e-6", "eps in [1e-9, 1e-6)", false,
       [](const Problem& p, L) { return p.eps >= 1e-9f && p.eps < 1e-6f; }},
      {"eps<1e-3", "eps in [1e-6, 1e-3)", false,
       [](const Problem& p, L) { return p.eps >= 1e-6f && p.eps < 1e-3f; }},
      {"eps>=1e-3", "eps of 1e-3 or more", false,
       [](const Problem& p, L) { return p.eps >= 1e-3f; }},
      // Every kind but weight_zeros draws distinct weights (inputs/ guarantees it), so a kernel
      // that reads the wrong channel's weight cannot pass by luck.
      {"w-distinct", "all weights distinct", false,
       [](const Problem& p, L) { return p.distribution.kind != "weight_zeros"; }},
  };
  return list;
}

size_t CoverageReport::count(CoverageCell cell) const {
  size_t n = 0;
  for (const auto& v : variants) n += std::count(v.cells.begin(), v.cells.end(), cell);
  return n;
}

std::optional<Problem> find_example(const Regime& r, const VariantSpec& spec,
                                    const DeviceInfo& device) {
  static thread_local std::vector<Shape> shapes;
  static thread_local DeviceLimits cached{};
  if (shapes.empty() || cached.max_storage_buffer_range != device.limits.max_storage_buffer_range ||
      cached.max_workgroup_count != device.limits.max_workgroup_count) {
    shapes = candidate_shapes(device.limits);
    cached = device.limits;
  }
  for (const Shape& s : shapes) {
    Problem p = example_problem(r, s, device.limits);
    if (r.holds_for_variant(p, spec, device.limits) &&
        not_applicable_reason(spec, s, device).empty())
      return p;
  }
  return std::nullopt;
}

CoverageReport compute_coverage(const RunRecords& records,
                                const std::vector<const VariantSpec*>& variants,
                                const DeviceInfo& device) {
  CoverageReport report;
  const auto& list = regimes();
  for (const VariantSpec* spec : variants) {
    VariantCoverage vc;
    vc.variant = spec->name;
    for (const Regime& r : list) {
      bool passed = false, ran = false;
      for (const EntryRecord& e : records.entries) {
        if (e.variant != spec->name || e.verdict == Verdict::kSkipped) continue;
        if (!r.holds_for_variant(e.problem, *spec, device.limits)) continue;
        ran = true;
        passed = passed || e.verdict == Verdict::kPass || e.verdict == Verdict::kXPass;
      }
      std::optional<Problem> example;
      CoverageCell cell = passed ? CoverageCell::kVerified : CoverageCell::kFailed;
      if (!ran) {
        example = find_example(r, *spec, device);
        cell = example ? CoverageCell::kGap : CoverageCell::kNotApplicable;
      }
      vc.cells.push_back(cell);
      vc.example.push_back(example);
    }
    report.variants.push_back(std::move(vc));
  }
  return report;
}

}  // namespace gnbench
