#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("gnbench_atomic_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string error_of(const fs::path& p, bool overwrite) const {
    try {
      ensure_writable_target(p, overwrite, "--force");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir;
};

TEST_F(AtomicFile, WritesNewFile) {
  const std::string contents("binary\0data\n", 12);
  write_file_atomically(dir / "out.bin", contents);
  EXPECT_EQ(slurp(dir / "out.bin"), contents);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFile, ReplacesExistingFile) {
  std::ofstream(dir / "out.txt") << "old contents, longer than the new ones";
  write_file_atomically(dir / "out.txt", "new");
  EXPECT_EQ(slurp(dir / "out.txt"), "new");
  write_file_atomically(dir / "out.txt", "");
  EXPECT_EQ(slurp(dir / "out.txt"), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
}

TEST_F(AtomicFile, ManyWritesLeaveNoTempFiles) {
  for (int i = 0; i < 20; ++i) write_file_atomically(dir / "x.json", std::to_string(i));
  EXPECT_EQ(slurp(dir / "x.json"), "19");
  EXPECT_EQ(entries(), std::vector<std::string>{"x.json"});
}

TEST_F(AtomicFile, PermissionsFollowUmaskLikeOrdinaryFiles) {
  std::ofstream(dir / "plain") << "x";
  write_file_atomically(dir / "atomic", "x");
  EXPECT_EQ(fs::status(dir / "atomic").permissions(), fs::status(dir / "plain").permissions());
}

TEST_F(AtomicFile, MissingParentThrowsNamingPath) {
  const fs::path target = dir / "no_such_dir" / "out.txt";
  try {
    write_file_atomically(target, "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFile, DirectoryTargetThrowsAndCleansUp) {
  fs::create_directory(dir / "sub");
  std::ofstream(dir / "sub" / "keep") << "x";  // non-empty, so rename cannot replace it
  try {
    write_file_atomically(dir / "sub", "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "sub").string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"sub"});
  EXPECT_TRUE(fs::is_directory(dir / "sub"));
}

TEST_F(AtomicFile, EnsureWritableTarget) {
  EXPECT_EQ(error_of(dir / "new.json", false), "");

  std::ofstream(dir / "old.json") << "{}";
  EXPECT_EQ(error_of(dir / "old.json", false),
            (dir / "old.json").string() + ": exists; pass --force to replace it");
  EXPECT_EQ(error_of(dir / "old.json", true), "");

  fs::create_directory(dir / "sub");
  EXPECT_NE(error_of(dir / "sub", true).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of(dir / "sub", false).find("is a directory"), std::string::npos);

  const std::string missing = error_of(dir / "nope" / "x.json", true);
  EXPECT_EQ(missing.rfind((dir / "nope" / "x.json").string() + ": ", 0), 0u) << missing;
  EXPECT_NE(missing.find("does not exist"), std::string::npos) << missing;

  EXPECT_NE(error_of(dir / "old.json" / "x.json", true).find("not a directory"), std::string::npos);

  // A path without a directory part is relative to the working directory, which exists.
  EXPECT_EQ(error_of("gnbench_surely_absent_file.json", false), "");
}

}  // namespace
}  // namespace gnbench
