// Just enough SPIR-V reflection to check a shader's descriptor bindings against its manifest
// before a pipeline is built: a shader that reads a binding the manifest does not provide, or
// expects a uniform where the manifest binds a storage buffer, is undefined behaviour in
// Vulkan (drivers may crash or silently read garbage), so it is rejected up front.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gnbench {

struct SpirvBinding {
  enum class Kind { kStorageBuffer, kUniformBuffer, kOther };
  uint32_t set = 0;
  uint32_t binding = 0;
  Kind kind = Kind::kOther;
  uint32_t array_size = 1;  // 1 unless the shader declares an array of descriptors (0: runtime)
  std::string name;         // the variable's or block's name when the module keeps names
};

struct SpirvInterface {
  std::vector<SpirvBinding> bindings;  // every variable with a DescriptorSet/Binding decoration
  bool push_constants = false;         // the module declares a push-constant block
};

// Throws std::runtime_error when `words` is not a well-formed SPIR-V module header/stream.
SpirvInterface reflect_spirv(const std::vector<uint32_t>& words);

const char* to_string(SpirvBinding::Kind kind);

}  // namespace gnbench
