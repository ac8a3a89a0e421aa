// The disk cache of compiled shaders (kernels/runtime/spirv_cache.hpp): a hit returns what was
// stored, anything but a complete file is a miss, a changed include or define is a miss, the
// compile path really takes hits, and a cache that is off or cannot be written changes nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kernels/runtime/shader_compiler.hpp"
#include "kernels/runtime/spirv_cache.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

// Sets GNBENCH_SHADER_CACHE for one test and puts the old value back.
class CacheEnv {
 public:
  explicit CacheEnv(const std::string& value) {
    if (const char* old = std::getenv("GNBENCH_SHADER_CACHE")) old_ = old;
    ::setenv("GNBENCH_SHADER_CACHE", value.c_str(), 1);
  }
  ~CacheEnv() {
    if (old_) {
      ::setenv("GNBENCH_SHADER_CACHE", old_->c_str(), 1);
    } else {
      ::unsetenv("GNBENCH_SHADER_CACHE");
    }
  }

 private:
  std::optional<std::string> old_;
};

size_t cache_files_in(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// A shader whose include (and the include's include) supplies the value it writes, so that a
// changed include changes the module.
void write_shader(const TempDir& dir, const std::string& value, const std::string& offset = "1.0") {
  std::filesystem::create_directories(dir.path() / "inner");
  std::ofstream(dir / "inner/offset.glsl") << "const float kOffset = " << offset << ";\n";
  std::ofstream(dir / "value.glsl") << "#include <inner/offset.glsl>\n"
                                    << "const float kValue = " << value << " + kOffset;\n";
  std::ofstream(dir / "main.comp")
      << "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
         "#include \"value.glsl\"\nlayout(local_size_x = 1) in;\n"
         "layout(std430, binding = 0) buffer B { float b[]; };\n"
         "void main() { b[0] = kValue * float(SCALE); }\n";
}

TEST(SpirvCache, StoredModulesComeBackAndOtherKeysMiss) {
  TempDir dir("spvcache");
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) {
    std::vector<uint32_t> words(1 + rng() % 300);
    for (auto& w : words) w = rng();
    words[0] = 0x07230203u;
    const std::string key = "key " + std::to_string(i) + std::string(rng() % 5000, 'k');
    store_cached_spirv(dir.path(), key, words);
    const auto back = load_cached_spirv(dir.path(), key);
    ASSERT_TRUE(back.has_value()) << i;
    EXPECT_EQ(*back, words) << i;
    EXPECT_FALSE(load_cached_spirv(dir.path(), key + " ")) << i;
  }
  EXPECT_EQ(cache_files_in(dir.path()), 20u);  // and no temporary files left behind
}

TEST(SpirvCache, IncompleteOrForeignFilesAreMisses) {
  TempDir dir("spvcache");
  const std::vector<uint32_t> words = {0x07230203u, 1, 2, 3, 4, 5};
  store_cached_spirv(dir.path(), "k", words);
  const fs::path path = cached_spirv_path(dir.path(), "k");
  std::ifstream in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(whole.size(), words.size() * 4);
  // Every truncation, and the whole file with bytes appended, a flipped tag byte, or a module
  // that is not SPIR-V.
  std::vector<std::string> bad;
  for (size_t n = 0; n < whole.size(); ++n) bad.push_back(whole.substr(0, n));
  bad.push_back(whole + "x");
  bad.push_back(whole + std::string(4, '\0'));
  std::string tag = whole;
  tag[0] ^= 1;
  bad.push_back(tag);
  std::string magic = whole;
  magic[whole.size() - words.size() * 4] ^= 1;
  bad.push_back(magic);
  for (const std::string& b : bad) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << b;
    EXPECT_FALSE(load_cached_spirv(dir.path(), "k")) << b.size() << " bytes";
  }
  fs::remove(path);
  fs::create_directory(path);  // not a regular file
  EXPECT_FALSE(load_cached_spirv(dir.path(), "k"));
}

TEST(SpirvCache, CompilesTakeHitsAndChangedSourcesMiss) {
  TempDir src("spvsrc"), cache("spvcache");
  CacheEnv env(cache.path().string());
  write_shader(src, "2.0");
  const fs::path shader = src.path() / "main.comp";
  const auto first = compile_glsl(shader, {{"SCALE", "3"}});
  ASSERT_EQ(cache_files_in(cache.path()), 1u);
  EXPECT_EQ(compile_glsl(shader, {{"SCALE", "3"}}), first);
  EXPECT_EQ(cache_files_in(cache.path()), 1u);
  // Another define, another include: new modules, new files.
  const auto scaled = compile_glsl(shader, {{"SCALE", "5"}});
  EXPECT_NE(scaled, first);
  EXPECT_EQ(cache_files_in(cache.path()), 2u);
  write_shader(src, "7.0");
  const auto changed = compile_glsl(shader, {{"SCALE", "3"}});
  EXPECT_NE(changed, first);
  EXPECT_EQ(cache_files_in(cache.path()), 3u);
  write_shader(src, "7.0", "4.0");  // a file that an include includes
  EXPECT_NE(compile_glsl(shader, {{"SCALE", "3"}}), changed);
  EXPECT_EQ(cache_files_in(cache.path()), 4u);
  // The compile path reads the cache: another module under the entry's name stands in for
  // the compile.
  for (const auto& e : fs::directory_iterator(cache.path())) fs::remove(e.path());
  write_shader(src, "2.0");
  EXPECT_EQ(compile_glsl(shader, {{"SCALE", "3"}}), first);
  ASSERT_EQ(cache_files_in(cache.path()), 1u);
  const fs::path entry = fs::directory_iterator(cache.path())->path();
  store_cached_spirv(cache.path(), "other", scaled);
  fs::rename(cached_spirv_path(cache.path(), "other"), entry);
  EXPECT_EQ(compile_glsl(shader, {{"SCALE", "3"}}), scaled);
}

TEST(SpirvCache, OffOrUnwritableChangesNothing) {
  TempDir src("spvsrc"), cache("spvcache");
  write_shader(src, "2.0");
  const fs::path shader = src.path() / "main.comp";
  std::vector<uint32_t> plain;
  {
    CacheEnv env("off");
    plain = compile_glsl(shader, {{"SCALE", "3"}});
    EXPECT_TRUE(spirv_cache_folder().empty());
  }
  EXPECT_EQ(cache_files_in(cache.path()), 0u);
  // A folder below a regular file cannot be created: the compile goes on without it.
  std::ofstream(cache / "file") << "x";
  CacheEnv env((cache.path() / "file" / "spirv").string());
  EXPECT_EQ(compile_glsl(shader, {{"SCALE", "3"}}), plain);
  EXPECT_EQ(cache_files_in(cache.path()), 1u);
}

}  // namespace
}  // namespace gnbench
