#include "cli/bench/shrinker.hpp"

#include <algorithm>

#include "kernels/runtime/variant_runner.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {
namespace {

// 1, v/2, 3v/4, 7v/8, v-1: the distinct values below v, largest cut first.
std::vector<uint32_t> smaller_values(uint32_t v) {
  std::vector<uint32_t> out;
  for (uint64_t x :
       {uint64_t{1}, uint64_t{v} / 2, uint64_t{v} * 3 / 4, uint64_t{v} * 7 / 8, uint64_t{v} - 1})
    if (x >= 1 && x < v && std::find(out.begin(), out.end(), x) == out.end())
      out.push_back(static_cast<uint32_t>(x));
  return out;
}

}  // namespace

std::string failure_signature(const EntryRecord& e) {
  return verdict_name(e.verdict) + " " + e.message.substr(0, e.message.find(':'));
}

std::vector<Shape> shrink_candidates(const Shape& s) {
  const uint32_t cpg = s.channels_per_group();
  std::vector<Shape> out;
  auto add = [&](Shape c) {
    if (c.batch && c.channels && c.spatial && c.groups) out.push_back(c);
  };
  for (uint32_t n : smaller_values(s.batch)) add({n, s.channels, s.spatial, s.groups});
  for (uint32_t hw : smaller_values(s.spatial)) add({s.batch, s.channels, hw, s.groups});
  for (uint32_t c : smaller_values(cpg)) add({s.batch, c * s.groups, s.spatial, s.groups});
  for (uint32_t g : smaller_values(s.groups)) add({s.batch, cpg * g, s.spatial, g});
  return out;
}

ShrinkOutcome shrink_failure(BenchRunner& runner, const EntryRecord& failing, uint32_t max_attempts,
                             const std::atomic<bool>* stop) {
  const std::string want = failure_signature(failing);
  const VariantSpec& spec = *runner.variants().at(0);
  const Progress quiet = [](const std::string&, size_t, size_t) {};
  ShrinkOutcome out{failing.problem, failing.message, 0, 0};
  bool progressed = true;
  while (progressed && out.attempts < max_attempts) {
    progressed = false;
    for (const Shape& shape : shrink_candidates(out.smallest.shape)) {
      if (out.attempts >= max_attempts || (stop && *stop)) return out;
      if (!not_applicable_reason(spec, shape, runner.context().info()).empty()) continue;
      Problem p = out.smallest;
      p.shape = shape;
      p.name = "shrink_" + std::to_string(out.attempts);
      ++out.attempts;
      try {
        runner.check_problems({p}, "shrink");
      } catch (const std::exception&) {
        continue;  // too large for the device: cannot be smaller than what failed
      }
      const RunRecords r = runner.run({p}, quiet, stop);
      if (r.entries.size() != 1 || failure_signature(r.entries[0]) != want) continue;
      out.smallest = p;
      out.message = r.entries[0].message;
      ++out.steps;
      progressed = true;
      break;
    }
  }
  return out;
}

}  // namespace gnbench
