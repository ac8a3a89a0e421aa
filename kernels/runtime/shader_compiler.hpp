// GLSL -> SPIR-V at run time with shaderc. Compile errors become ConfigError with the
// shader's file and line; #include "..." resolves against the including file's folder.
// Compiled modules are kept in the disk cache of spirv_cache.hpp (GNBENCH_SHADER_CACHE=off:
// none), keyed on the options, the defines and the text of the shader and of every file it
// may include.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gnbench {

std::vector<uint32_t> compile_glsl(const std::filesystem::path& shader,
                                   const std::map<std::string, std::string>& defines);

}  // namespace gnbench
