// Every file of the fuzzing corpus (tests/fuzz/corpus/{config,manifest}/: the shipped configs
// and manifests, bad inputs, and the inputs that once crashed a parser, kept as regression
// inputs) goes through the parser it was found for: a ConfigError is fine, anything else
// (another exception, a crash, a sanitizer report in the asan build) fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"
#include "kernels/runtime/manifest.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(GNBENCH_SOURCE_DIR) / "tests/fuzz/corpus";

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzCorpus, ConfigParserRejectsOrAccepts) {
  const auto files = files_in(kCorpus / "config");
  ASSERT_FALSE(files.empty());
  size_t accepted = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    try {
      parse_config_text(testing::slurp(f), f.filename().string());
      ++accepted;
    } catch (const ConfigError&) {
    }
  }
  EXPECT_GT(accepted, 0u) << "the shipped configs are in the corpus and load";
}

TEST(FuzzCorpus, ManifestParserRejectsOrAccepts) {
  const auto files = files_in(kCorpus / "manifest");
  ASSERT_FALSE(files.empty());
  size_t accepted = 0;
  const Shape shapes[] = {
      {1, 1, 1, 1}, {2, 64, 256, 8}, {4294967295u, 4294967295u, 4294967295u, 1}};
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::vector<VariantSpec> variants;
    try {
      // As the fuzzer does: shader paths resolve against the shipped kernels folder.
      variants =
          load_manifest_text(testing::slurp(f), fs::path(GNBENCH_SOURCE_KERNELS_DIR) / "fuzz.json");
      ++accepted;
    } catch (const ConfigError&) {
      continue;
    }
    for (const Shape& shape : shapes)
      for (const auto& v : variants) {
        const Variables vars = problem_variables(shape, 32);
        std::vector<const Expression*> all;
        if (v.when) all.push_back(&*v.when);
        if (v.traffic_bytes) all.push_back(&*v.traffic_bytes);
        for (const auto& p : v.params) all.push_back(&p);
        for (const auto& b : v.buffers)
          if (b.scratch_bytes) all.push_back(&*b.scratch_bytes);
        for (const auto& s : v.stages)
          for (const auto& d : s.dispatch) all.push_back(&d);
        for (const Expression* e : all) try {
            e->evaluate(vars);
          } catch (const ConfigError&) {
          }
      }
  }
  EXPECT_GT(accepted, 0u) << "the shipped manifests are in the corpus and load";
}

}  // namespace
}  // namespace gnbench
