// Kernel manifests: the declarative description of each variant (stages, shaders, defines,
// workgroup sizes, dispatch sizes, buffers and bindings). Adding a variant, in the repo or
// in a user's --kernels DIR, needs a JSON file and GLSL, no C++. A family entry declares many
// builds of one kernel at once (manifest_family.hpp). Format: docs/kernels.md.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "kernels/runtime/expression.hpp"

namespace gnbench {

inline const std::vector<std::string>& tensor_names() {
  static const std::vector<std::string> names{"x",          "grad_out",    "weight",
                                              "grad_input", "grad_weight", "grad_bias"};
  return names;
}
inline bool is_output_tensor(const std::string& t) {
  return t == "grad_input" || t == "grad_weight" || t == "grad_bias";
}

struct BufferSpec {
  enum class Kind { kTensor, kPacked, kScratch };
  std::string name;
  Kind kind = Kind::kTensor;
  std::vector<std::string> tensors;         // kTensor: one name; kPacked: several, in order
  std::optional<Expression> scratch_bytes;  // kScratch only
  bool zero_fill = false;                   // kScratch: zero before every run, else poison
};

struct StageSpec {
  std::string name;
  std::filesystem::path shader;                // resolved against the manifest's folder
  std::map<std::string, std::string> defines;  // passed to the GLSL preprocessor
  uint32_t workgroup_size = 256;               // becomes the define WG_SIZE
  std::array<Expression, 3> dispatch;          // workgroup counts
  std::optional<Expression> when;  // dispatched only where non-zero (else no dispatch, no barrier)
  bool foldable = false;           // shader linearises gl_WorkGroupID, so x may fold into y
  std::vector<std::string> bindings;  // binding i = buffer name, or "params"
};

// One of gnbench's own tool kernels (kernels/glsl/tools/NAME.comp: the copy probe, the cache
// flush): 256 invocations, one workgroup dispatched unless the caller records its own count.
inline StageSpec tool_stage(const std::filesystem::path& kernels_folder, const std::string& name,
                            std::vector<std::string> bindings) {
  return StageSpec{.name = name,
                   .shader = kernels_folder / "glsl" / "tools" / (name + ".comp"),
                   .defines = {},
                   .workgroup_size = 256,
                   .dispatch = {Expression("1", ""), Expression("1", ""), Expression("1", "")},
                   .when = std::nullopt,
                   .foldable = false,
                   .bindings = std::move(bindings)};
}

struct VariantSpec {
  std::string name;
  std::string description;
  std::filesystem::path manifest;
  bool deterministic = true;                   // false for float-atomic variants
  std::vector<std::string> requires_features;  // see DeviceFeatures::has()
  std::optional<Expression> when;              // applies only where this is non-zero
  std::optional<Expression> traffic_bytes;     // the variant's own DRAM traffic model
  std::vector<Expression> params;              // extra u32 params (aux[0..7])
  std::vector<BufferSpec> buffers;
  std::vector<StageSpec> stages;

  const BufferSpec* buffer(const std::string& name) const;
};

// Variables every manifest expression may use.
Variables problem_variables(const Shape& shape, uint32_t subgroup_size);

// Whether a stage runs on a problem: no `when`, or a non-zero one.
bool stage_runs(const StageSpec& stage, const Variables& vars);

// Loads every *.json manifest in each folder (sorted by file name), families expanded in place,
// validating structure, expressions and names; throws ConfigError naming file, variant (and
// family) and field.
std::vector<VariantSpec> load_manifests(const std::vector<std::filesystem::path>& folders);

// One manifest file's variants from its text; `file` names it in messages and its folder
// resolves the shader paths. Validates like load_manifests but does not check names across files.
std::vector<VariantSpec> load_manifest_text(const std::string& text,
                                            const std::filesystem::path& file);

// The built-in kernels folder: $GNBENCH_KERNELS, <exe>/../kernels, ./kernels, the source tree.
std::filesystem::path default_kernels_folder();

}  // namespace gnbench
