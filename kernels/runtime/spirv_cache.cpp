#include "kernels/runtime/spirv_cache.hpp"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "base/atomic_file.hpp"
#include "base/read_file.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

// File layout: this tag, the module's byte count (8 bytes, little endian as written by this
// machine), the module. A file of any other length or tag is a miss.
constexpr std::string_view kTag = "gnbspv1\n";
constexpr size_t kMaxModuleBytes = size_t{16} << 20;
constexpr uint32_t kSpirvMagic = 0x07230203u;

// FNV-1a, 128 bits: not for adversaries, but a chance collision between two keys is out of reach.
std::string hash128_hex(std::string_view key) {
  using u128 = unsigned __int128;
  const u128 prime = (u128{1} << 88) + 0x13b;
  u128 h = (u128{0x6c62272e07bb0142ull} << 64) | 0x62b821756295c58dull;
  for (const unsigned char c : key) {
    h ^= c;
    h *= prime;
  }
  static const char* digits = "0123456789abcdef";
  std::string hex(32, '0');
  for (int i = 31; i >= 0; --i, h >>= 4) hex[i] = digits[static_cast<unsigned>(h & 0xf)];
  return hex;
}

}  // namespace

fs::path spirv_cache_folder() {
  if (const char* env = std::getenv("GNBENCH_SHADER_CACHE"); env && *env)
    return std::string_view(env) == "off" ? fs::path() : fs::path(env);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "gnbench" / "spirv";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "gnbench" / "spirv";
  return {};
}

fs::path cached_spirv_path(const fs::path& folder, std::string_view key) {
  return folder / (hash128_hex(key) + ".spv");
}

std::optional<std::vector<uint32_t>> load_cached_spirv(const fs::path& folder,
                                                       std::string_view key) {
  if (folder.empty()) return std::nullopt;
  const fs::path path = cached_spirv_path(folder, key);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::string bytes;
  try {
    bytes = read_input_file(path, "cached shader", kTag.size() + 8 + kMaxModuleBytes);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (bytes.size() < kTag.size() + 8 || std::string_view(bytes).substr(0, kTag.size()) != kTag)
    return std::nullopt;
  uint64_t count = 0;
  std::memcpy(&count, bytes.data() + kTag.size(), sizeof count);
  const size_t body = kTag.size() + 8;
  if (count == 0 || count % 4 != 0 || bytes.size() - body != count) return std::nullopt;
  std::vector<uint32_t> words(count / 4);
  std::memcpy(words.data(), bytes.data() + body, count);
  if (words.front() != kSpirvMagic) return std::nullopt;
  return words;
}

void store_cached_spirv(const fs::path& folder, std::string_view key,
                        std::span<const uint32_t> spirv) {
  if (folder.empty() || spirv.empty() || spirv.size_bytes() > kMaxModuleBytes) return;
  std::string bytes(kTag);
  const uint64_t count = spirv.size_bytes();
  bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
  bytes.append(reinterpret_cast<const char*>(spirv.data()), spirv.size_bytes());
  try {
    std::error_code ec;
    fs::create_directories(folder, ec);
    write_file_atomically(cached_spirv_path(folder, key), bytes);
  } catch (const std::exception&) {
    // A cache that cannot be written is no cache: the module was compiled all the same.
  }
}

}  // namespace gnbench
