// The command line's wiring, generated from the registration itself: the subcommands and
// options that add_subcommands() declares (the list main() registers) are each checked
// against the built binary: listed by --help, and every usage error is one line, exit 2.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <iterator>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands/subcommands.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

using testing::run_gnbench;
using testing::RunResult;
using testing::RunSpec;

using testing::kDefaultConfig;

// What one subcommand registered, read back from CLI11.
struct Registered {
  std::string name, description;
  std::vector<std::string> help_names;     // as --help spells them: "configs", "-q,--quiet"
  std::vector<std::string> flags;          // long names of options without a value
  std::vector<std::string> value_options;  // long names of options that take one
  bool has_required = false;
};

// "-q,--quiet": short names first, as CLI11's help writes them.
std::string help_name(const CLI::Option& o) {
  if (!o.nonpositional()) return o.get_name(true);
  std::string s;
  for (const auto& n : o.get_snames()) s += (s.empty() ? "-" : ",-") + n;
  for (const auto& n : o.get_lnames()) s += (s.empty() ? "--" : ",--") + n;
  return s;
}

Registered read_back(const Subcommand& sub) {
  Registered r{sub.app->get_name(), sub.app->get_description(), {}, {}, {}, false};
  for (const CLI::Option* o : sub.app->get_options()) {
    r.help_names.push_back(help_name(*o));
    r.has_required = r.has_required || o->get_required();
    if (!o->nonpositional() || o->get_lnames().empty()) continue;
    const std::string name = "--" + o->get_lnames().front();
    (o->get_items_expected_min() == 0 ? r.flags : r.value_options).push_back(name);
  }
  return r;
}

// `name` starts a line of `help` (after the indent) and is followed by a space or the end.
bool lists(const std::string& help, const std::string& name) {
  for (size_t at = help.find("\n  " + name); at != std::string::npos;
       at = help.find("\n  " + name, at + 1)) {
    const size_t end = at + 3 + name.size();
    if (end == help.size() || help[end] == ' ' || help[end] == '\n') return true;
  }
  return false;
}

// Registered on an app of its own: the same functions as main(), nothing run.
const std::vector<Registered>& registered() {
  static const std::vector<Registered> all = [] {
    static std::atomic<bool> stop{false};
    CLI::App app;
    std::vector<Registered> out;
    for (const auto& sub : add_subcommands(app, Invocation{"gnbench", &stop}))
      out.push_back(read_back(sub));
    return out;
  }();
  return all;
}

using testing::gnbench;

// One line "gnbench: error: ... (see gnbench --help)" on stderr, nothing on stdout, exit 2.
void expect_parse_error(const RunResult& r, const std::string& mentions) {
  ASSERT_EQ(r.exit_code, 2) << r.describe();
  ASSERT_EQ(r.err_lines().size(), 1u) << r.describe();
  const std::string line = r.err_lines()[0];
  EXPECT_EQ(line.rfind("gnbench: error: ", 0), 0u) << line;
  EXPECT_NE(line.find(mentions), std::string::npos) << mentions << "\n" << line;
  EXPECT_TRUE(line.ends_with(" (see gnbench --help)")) << line;
  EXPECT_TRUE(r.out.empty()) << r.describe();
}

std::vector<std::string> subcommand_names() {
  std::vector<std::string> names;
  for (const auto& r : registered()) names.push_back(r.name);
  return names;
}

const Registered& find_registered(const std::string& name) {
  for (const auto& r : registered())
    if (r.name == name) return r;
  throw std::runtime_error("no subcommand " + name);
}

TEST(CliWiring, TopLevelHelpListsExactlyTheRegisteredSubcommands) {
  const RunResult r = gnbench({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::vector<std::string> listed;
  const size_t section = r.out.find("\nSubcommands:\n");
  ASSERT_NE(section, std::string::npos) << r.out;
  std::istringstream lines(r.out.substr(section + 14));
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    const auto cells = testing::table_cells(line.substr(line.find_first_not_of(' ')));
    listed.push_back(cells.at(0));
    EXPECT_EQ(cells.at(1), find_registered(cells.at(0)).description) << line;
  }
  EXPECT_EQ(listed, subcommand_names());  // and in registration order
}

TEST(CliWiring, VersionExitsZero) {
  const RunResult r = gnbench({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find(GNBENCH_VERSION), std::string::npos) << r.describe();
}

TEST(CliWiring, NoOrUnknownSubcommandIsOneLineExitTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, {"no-such-subcommand"}, {"--no-such-option"}})
    expect_parse_error(gnbench(args), "A subcommand is required");
}

// Every subcommand's options as --help names them: an option lost (or a new one) in a change
// of the wiring shows here; a deliberate change updates this list.
TEST(CliWiring, EachSubcommandRegistersItsOptions) {
  const std::map<std::string, std::string> expected = {
      {"run",
       "configs -h,--help --coverage --kernels --variant --table --problem --device "
       "--mixed-devices --validate --kernel-timeout --trials --shard -N,--batch -C,--channels "
       "--spatial -G,--groups --eps --seed --distribution --random --name --warmup --warmup-time "
       "--device-warmup --samples --min-samples --min-time --max-noise --timeout --mode --flush "
       "--stage-times --hot-batch --no-timing --copy-bandwidth --json --csv --md --dump "
       "--per-sample-rows "
       "--checkpoint "
       "--force -q,--quiet --show-skipped --list --pipeline-stats --baseline --update-baseline "
       "--threshold --ignore-device"},
      {"compare",
       "files -h,--help --variants --alpha --all --threshold --ignore-device --mode --json "
       "--force"},
      {"merge", "inputs -h,--help -o,--output --ignore-device --force"},
      {"show", "file -h,--help --problem --variant"},
      {"tune",
       "configs -h,--help --json --from --fill-from --mode --variant --problem --kernels --device "
       "--results --samples --min-time --max-noise --timeout --hot-batch --force -q,--quiet"},
      {"devices", "-h,--help --json"},
      {"kernels", "-h,--help --kernels --json --spirv --subgroup-size --force"},
  };
  ASSERT_EQ(registered().size(), expected.size());
  for (const auto& r : registered()) {
    ASSERT_EQ(expected.count(r.name), 1u) << r.name;
    std::istringstream want(expected.at(r.name));
    const std::set<std::string> wanted{std::istream_iterator<std::string>(want), {}};
    EXPECT_EQ(std::set<std::string>(r.help_names.begin(), r.help_names.end()), wanted) << r.name;
  }
}

class SubcommandWiring : public ::testing::TestWithParam<std::string> {
 protected:
  const Registered& sub() const { return find_registered(GetParam()); }
};

TEST_P(SubcommandWiring, HelpListsEveryRegisteredOption) {
  const RunResult r = gnbench({GetParam(), "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out.rfind(sub().description + "\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" " + GetParam() + " [OPTIONS]"), std::string::npos) << r.out;
  ASSERT_FALSE(sub().help_names.empty());
  for (const auto& name : sub().help_names)
    EXPECT_TRUE(lists(r.out, name)) << name << " not in\n" << r.out;
}

// CLI11 checks required options before it complains about extra arguments.
TEST_P(SubcommandWiring, UnknownOptionIsOneLineExitTwo) {
  expect_parse_error(gnbench({GetParam(), "--no-such-option"}),
                     sub().has_required ? " is required" : "--no-such-option");
}

// Every option that takes a value, given none: CLI11's error, one line, naming the option.
TEST_P(SubcommandWiring, EveryValueOptionWithoutItsValueIsOneLineExitTwo) {
  for (const auto& option : sub().value_options) {
    SCOPED_TRACE(GetParam() + " " + option);
    expect_parse_error(gnbench({GetParam(), option}), option);
  }
}

// A flag takes no value but true/false; anything else is CLI11's conversion error.
TEST_P(SubcommandWiring, EveryFlagWithAWrongValueIsOneLineExitTwo) {
  for (const auto& flag : sub().flags) {
    if (flag == "--help") continue;
    SCOPED_TRACE(GetParam() + " " + flag);
    expect_parse_error(gnbench({GetParam(), flag + "=maybe"}), flag);
  }
}

// Values CLI11 would take silently: a seed past 2^64-1 (read as 2^64-1) and empty strings
// (read as "not given").
TEST(CliWiring, OutOfRangeSeedsAndEmptyValuesAreRefused) {
  const std::vector<std::string> one_off = {"run",       "-N", "1",  "-C", "8",
                                            "--spatial", "4",  "-G", "2",  "--list"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--seed", "18446744073709551616"}, "--seed: '18446744073709551616' is not an integer"},
      {{"--seed", "99999999999999999999999"}, "--seed"},
      {{"--seed", "-1"}, "--seed"},
      {{"--seed", "1e3"}, "--seed"},
      {{"--shard", ""}, "--shard: must not be empty"},
      {{"--device", ""}, "--device: must not be empty"},
      {{"--name", ""}, "--name: must not be empty"},
      {{"--seed", "010"}, "--seed: '010'"},      // CLI11 would read it as octal 8
      {{"--name="}, "--name=: an empty value"},  // else the next argument became the name
      {{"--shard="}, "--shard=: an empty value"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = one_off;
    args.insert(args.end(), extra.begin(), extra.end());
    expect_parse_error(gnbench(args), message);
  }
  expect_parse_error(gnbench({"tune", kDefaultConfig, "--json", "t.json", "--device", ""}),
                     "--device");
  const RunResult top = gnbench({"run", "-N", "1", "-C", "8", "--spatial", "4", "-G", "2", "--seed",
                                 "18446744073709551615", "--list"});
  EXPECT_EQ(top.exit_code, 0) << top.describe();
  EXPECT_NE(top.out.find("seed18446744073709551615"), std::string::npos) << top.out;
}

INSTANTIATE_TEST_SUITE_P(Registered, SubcommandWiring, ::testing::ValuesIn(subcommand_names()),
                         [](const auto& info) { return info.param; });

// The checks a subcommand makes after parsing (one option against another, a list, a value
// CLI11 cannot judge): still one line and exit 2, without the --help hint.
struct AfterParse {
  std::vector<std::string> args;
  std::string message;
};

const std::vector<AfterParse> kAfterParse = {
    {{"run", "--variant", "best"}, "--variant best needs --table FILE (from gnbench tune)"},
    {{"run", "--variant", ","}, "--variant ','"},
    {{"run", "--problem", ""}, "--problem"},
    {{"run", "--copy-bandwidth", "x"}, "--copy-bandwidth 'x': expected GB/s > 0"},
    {{"run", "--random", "3", "--distribution", "nope"}, "--distribution 'nope': unknown"},
    {{"run", "-N", "1", "-C", "1", "--spatial", "1", "-G", "1", "--distribution", "nope"},
     "--distribution 'nope': unknown"},
    {{"run", "-N", "1", "-C", "1", "--spatial", "1", "-G", "1", "--name", "a b"}, "--name"},
    {{"tune", "--json", "t.json"}, "tune: no problems: give config files, or --from RESULTS"},
    {{"tune", "--json", "t.json", "--from", kDefaultConfig, kDefaultConfig},
     "tune: give config files or --from RESULTS, not both"},
    {{"show", "results.json", "--problem", ","}, "--problem ',': empty name in the list"},
    {{"show", "results.json", "--variant", ""}, "--variant"},
    {{"compare", "a.json", "b.json", "--json", ""}, "--json '': an empty path"},
    {{"merge", "a.json", "-o", ""}, "--output '': an empty path"},
    {{"kernels", "--spirv", ""}, "--spirv ''"},
};

void PrintTo(const AfterParse& c, std::ostream* os) {
  *os << "gnbench";
  for (const auto& a : c.args) *os << " '" << a << "'";
}

class AfterParseError : public ::testing::TestWithParam<AfterParse> {};

TEST_P(AfterParseError, OneLineExitTwo) {
  const RunResult r = gnbench(GetParam().args);
  ASSERT_EQ(r.exit_code, 2) << r.describe();
  ASSERT_EQ(r.err_lines().size(), 1u) << r.describe();
  EXPECT_EQ(r.err_lines()[0].rfind("gnbench: error: " + GetParam().message, 0), 0u) << r.describe();
  EXPECT_EQ(r.err.find("see gnbench --help"), std::string::npos) << r.describe();
}

INSTANTIATE_TEST_SUITE_P(Cases, AfterParseError, ::testing::ValuesIn(kAfterParse),
                         [](const auto& info) {
                           return info.param.args.at(0) + std::to_string(info.index);
                         });

// So that a new subcommand gets its cases too; devices has nothing to check after parsing.
TEST(CliWiring, EverySubcommandButDevicesHasAnAfterParseCase) {
  std::set<std::string> covered;
  for (const auto& c : kAfterParse) covered.insert(c.args.at(0));
  for (const auto& name : subcommand_names())
    EXPECT_EQ(covered.count(name), name == "devices" ? 0u : 1u) << name;
}

}  // namespace
}  // namespace gnbench
