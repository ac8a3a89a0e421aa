#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "cli/config/name_patterns.hpp"

namespace gnbench {
namespace {

const std::vector<std::string> kNames{"seed", "gn_fused", "gn_fused_v4", "gn_onchip2_256"};

TEST(SplitList, SplitsOnCommas) {
  EXPECT_EQ(split_list("a", "--x"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(split_list("a,b*,c", "--x"), (std::vector<std::string>{"a", "b*", "c"}));
}

TEST(SplitList, EmptyNamesAreErrors) {
  for (const char* text : {"", ",", "a,", ",a", "a,,b"}) {
    SCOPED_TRACE(text);
    try {
      split_list(text, "--variant");
      ADD_FAILURE() << "no error";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("--variant '" + std::string(text) + "'"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(SelectByPatterns, NamesAndGlobsInPatternOrderEachOnce) {
  EXPECT_EQ(select_by_patterns(kNames, {"gn_fused"}, "--variant", "variants"),
            (std::vector<size_t>{1}));
  EXPECT_EQ(select_by_patterns(kNames, {"seed", "gn_*"}, "--variant", "variants"),
            (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(select_by_patterns(kNames, {"gn_onchip2_*", "gn_fused*", "gn_fused"}, "--variant",
                               "variants"),
            (std::vector<size_t>{3, 1, 2}));
  EXPECT_EQ(select_by_patterns(kNames, {"gn_fused_v?"}, "--variant", "variants"),
            (std::vector<size_t>{2}));
}

TEST(SelectByPatterns, APatternMatchingNothingNamesItAndTheChoices) {
  try {
    select_by_patterns(kNames, {"seed", "gn_fuse"}, "--variant", "variants");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--variant 'gn_fuse'"), std::string::npos) << what;
    EXPECT_NE(what.find("gn_onchip2_256"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gnbench
