#include "kernels/runtime/spirv_bindings.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace gnbench {

namespace {

// Opcodes, decorations and storage classes from the SPIR-V specification.
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kOpName = 5;
constexpr uint32_t kOpTypeArray = 28;
constexpr uint32_t kOpTypeRuntimeArray = 29;
constexpr uint32_t kOpTypePointer = 32;
constexpr uint32_t kOpConstant = 43;
constexpr uint32_t kOpVariable = 59;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kDecorationBlock = 2;
constexpr uint32_t kDecorationBufferBlock = 3;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniform = 2;
constexpr uint32_t kStoragePushConstant = 9;
constexpr uint32_t kStorageStorageBuffer = 12;

std::string literal_string(const uint32_t* words, size_t count) {
  std::string s;
  for (size_t i = 0; i < count; ++i)
    for (int b = 0; b < 4; ++b) {
      char ch = static_cast<char>((words[i] >> (8 * b)) & 0xff);
      if (ch == 0) return s;
      s += ch;
    }
  return s;
}

}  // namespace

const char* to_string(SpirvBinding::Kind kind) {
  switch (kind) {
    case SpirvBinding::Kind::kStorageBuffer: return "a storage buffer";
    case SpirvBinding::Kind::kUniformBuffer: return "a uniform buffer";
    default: return "an image, sampler or other descriptor";
  }
}

SpirvInterface reflect_spirv(const std::vector<uint32_t>& words) {
  if (words.size() < 5 || words[0] != kMagic) throw std::runtime_error("not a SPIR-V module");
  struct Pointer {
    uint32_t storage, pointee;
  };
  std::map<uint32_t, Pointer> pointers;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> arrays;  // id -> (element, length id or 0)
  std::map<uint32_t, uint32_t> constants;
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, std::set<uint32_t>> flags;         // id -> Block/BufferBlock
  std::map<uint32_t, uint32_t> binding, set;            // id -> value
  std::vector<std::pair<uint32_t, Pointer>> variables;  // result id, (storage, pointer type)

  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, op = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      throw std::runtime_error("truncated SPIR-V module");
    const uint32_t* w = &words[at];
    if (op == kOpName && count >= 3) {
      names[w[1]] = literal_string(w + 2, count - 2);
    } else if (op == kOpDecorate && count >= 3) {
      if (w[2] == kDecorationBlock || w[2] == kDecorationBufferBlock) flags[w[1]].insert(w[2]);
      if (w[2] == kDecorationBinding && count >= 4) binding[w[1]] = w[3];
      if (w[2] == kDecorationDescriptorSet && count >= 4) set[w[1]] = w[3];
    } else if (op == kOpTypePointer && count >= 4) {
      pointers[w[1]] = {w[2], w[3]};
    } else if (op == kOpTypeArray && count >= 4) {
      arrays[w[1]] = {w[2], w[3]};
    } else if (op == kOpTypeRuntimeArray && count >= 3) {
      arrays[w[1]] = {w[2], 0};
    } else if (op == kOpConstant && count >= 4) {
      constants[w[2]] = w[3];
    } else if (op == kOpVariable && count >= 4) {
      variables.push_back({w[2], {w[3], w[1]}});
    }
    at += count;
  }

  SpirvInterface out;
  for (const auto& [id, var] : variables) {
    if (var.storage == kStoragePushConstant) out.push_constants = true;
    if (!binding.count(id) && !set.count(id)) continue;
    SpirvBinding b;
    b.set = set.count(id) ? set[id] : 0;
    b.binding = binding.count(id) ? binding[id] : 0;
    uint32_t type = pointers.count(var.pointee) ? pointers[var.pointee].pointee : 0;
    if (arrays.count(type)) {  // an array of descriptors
      auto [element, length] = arrays[type];
      b.array_size = length == 0 ? 0 : (constants.count(length) ? constants[length] : 2);
      type = element;
    }
    const auto& f = flags[type];
    if (var.storage == kStorageStorageBuffer ||
        (var.storage == kStorageUniform && f.count(kDecorationBufferBlock)))
      b.kind = SpirvBinding::Kind::kStorageBuffer;
    else if (var.storage == kStorageUniform && f.count(kDecorationBlock))
      b.kind = SpirvBinding::Kind::kUniformBuffer;
    b.name = names.count(id) && !names[id].empty() ? names[id] : names[type];
    out.bindings.push_back(b);
  }
  std::sort(out.bindings.begin(), out.bindings.end(),
            [](const SpirvBinding& a, const SpirvBinding& b) {
              return std::tie(a.set, a.binding) < std::tie(b.set, b.binding);
            });
  return out;
}

}  // namespace gnbench
