// libFuzzer target: kernel manifest parsing (load_manifest_text) and the evaluation of every
// expression of an accepted manifest on a few shapes. Shader paths resolve against the shipped
// kernels folder, so a manifest naming glsl/seed.comp passes every check. Any input may be
// rejected with a ConfigError; anything else is a bug. Built and run by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/errors.hpp"
#include "kernels/runtime/manifest.hpp"

namespace {

void evaluate(const gnbench::Expression& e, const gnbench::Variables& vars) {
  try {
    e.evaluate(vars);
  } catch (const gnbench::ConfigError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gnbench;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<VariantSpec> variants;
  try {
    variants = load_manifest_text(text, std::string(GNBENCH_SOURCE_KERNELS_DIR) + "/fuzz.json");
  } catch (const ConfigError&) {
    return 0;
  }
  const Shape shapes[] = {
      {1, 1, 1, 1}, {2, 64, 256, 8}, {4294967295u, 4294967295u, 4294967295u, 1}};
  for (const Shape& shape : shapes)
    for (uint32_t subgroup : {0u, 32u}) {
      const Variables vars = problem_variables(shape, subgroup);
      for (const auto& v : variants) {
        if (v.when) evaluate(*v.when, vars);
        if (v.traffic_bytes) evaluate(*v.traffic_bytes, vars);
        for (const auto& p : v.params) evaluate(p, vars);
        for (const auto& b : v.buffers)
          if (b.scratch_bytes) evaluate(*b.scratch_bytes, vars);
        for (const auto& s : v.stages)
          for (const auto& d : s.dispatch) evaluate(d, vars);
      }
    }
  return 0;
}
