// A disk cache of compiled shaders. Every gnbench process compiles each stage it runs, and
// shaderc takes tens of seconds for all the shipped variants on two cores: the same modules
// in every run of a sweep, a test suite or the verification suite. A module is stored under a
// 128-bit hash of its key (shader_compiler.cpp's: the compile options, the defines and the
// text of the shader and of every file it may include), so any change to a shader, an include
// or a define is a miss. A cache that cannot be read or written is passed over: it never fails or
// changes a compile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace gnbench {

// GNBENCH_SHADER_CACHE (a folder, or "off"); else $XDG_CACHE_HOME/gnbench/spirv, else
// $HOME/.cache/gnbench/spirv; empty when off or when there is no home.
std::filesystem::path spirv_cache_folder();

// The module stored under `key`, if a complete one is there.
std::optional<std::vector<uint32_t>> load_cached_spirv(const std::filesystem::path& folder,
                                                       std::string_view key);
// Stores it (atomically: readers see no file or the whole one); errors are ignored.
void store_cached_spirv(const std::filesystem::path& folder, std::string_view key,
                        std::span<const uint32_t> spirv);

// The file a key is stored in (for tests).
std::filesystem::path cached_spirv_path(const std::filesystem::path& folder, std::string_view key);

}  // namespace gnbench
