// The gnbench command line end to end: the built binary run as a child process in a temporary
// directory, its stdout, stderr and exit code checked (0 ok, 1 verification failed, 2 usage or
// configuration error), and the files it writes read back.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/npy_writer.hpp"
#include "cli/config/config_loader.hpp"
#include "reference/group_norm.hpp"
#include "results_schema.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::kDefaultConfig;
using testing::kSourceDir;
const char* const kCompareScript = "/usr/share/benchmark/compare.py";

struct Result {
  int code = -1;
  std::string out, err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::vector<std::string> cells(const std::string& line) { return testing::table_cells(line); }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    root =
        fs::temp_directory_path() / ("gnbench_cli_test_" + std::to_string(std::random_device{}()));
    work = root / "work";
    fs::create_directories(work);
  }
  void TearDown() override { fs::remove_all(root); }

  // Runs `command` (a shell command line) in the work directory.
  Result shell(const std::string& command) const {
    const fs::path out = root / "stdout.txt", err = root / "stderr.txt";
    const std::string line = "cd " + quote(work.string()) + " && " + command + " >" +
                             quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
    const int status = std::system(line.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
  }
  // gnbench with the built-in kernels found next to the binary, whatever the environment says.
  Result gnbench(const std::string& args) const {
    return shell("env -u GNBENCH_KERNELS " + quote(GNBENCH_BINARY) + " " + args);
  }

  fs::path root, work;
};

std::string describe(const Result& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

// ---- help, devices, kernels ----

TEST_F(Cli, Help) {
  const Result r = gnbench("--help");
  EXPECT_EQ(r.code, 0) << describe(r);
  for (const char* word : {"run", "devices", "kernels"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << describe(r);
  const Result run_help = gnbench("run --help");
  EXPECT_EQ(run_help.code, 0) << describe(run_help);
  for (const char* flag : {"--variant", "--json", "--dump", "--force", "--kernels", "--samples"})
    EXPECT_NE(run_help.out.find(flag), std::string::npos) << flag;
}

TEST_F(Cli, NoSubcommandIsAUsageError) {
  const Result r = gnbench("");
  EXPECT_EQ(r.code, 2) << describe(r);
  const Result bad = gnbench("run --no-such-flag");
  EXPECT_EQ(bad.code, 2) << describe(bad);
}

TEST_F(Cli, DevicesListsLlvmpipe) {
  const Result r = gnbench("devices");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("llvmpipe"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("maxComputeWorkGroupCount"), std::string::npos) << describe(r);
  const Result j = gnbench("devices --json");
  ASSERT_EQ(j.code, 0) << describe(j);
  const json devices = json::parse(j.out);
  ASSERT_TRUE(devices.is_array());
  ASSERT_FALSE(devices.empty());
  EXPECT_NE(devices.dump().find("llvmpipe"), std::string::npos);
}

TEST_F(Cli, KernelsListsSeed) {
  const Result r = gnbench("kernels");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("seed  ("), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("grad_input [256]"), std::string::npos) << describe(r);
  const Result j =
      gnbench("kernels --json --kernels " + quote(std::string(GNBENCH_BROKEN_KERNELS_DIR)));
  ASSERT_EQ(j.code, 0) << describe(j);
  std::vector<std::string> names;
  for (const auto& v : json::parse(j.out)) names.push_back(v.at("name"));
  EXPECT_NE(std::find(names.begin(), names.end(), "seed"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "broken_skip_tail"), names.end());
}

// --spirv writes one SPIR-V module per stage (the modules pipelines are built from), and
// refuses to replace them without --force.
TEST_F(Cli, KernelsWritesSpirvPerStage) {
  const auto dir = root / "spirv";  // per test: concurrent test runs must not share it
  const Result j = gnbench("kernels --json");
  ASSERT_EQ(j.code, 0) << describe(j);
  size_t stages = 0;
  for (const auto& v : json::parse(j.out)) stages += v.at("stages").size();
  const Result r = gnbench("kernels --spirv " + quote(dir.string()) + " --subgroup-size 8");
  ASSERT_EQ(r.code, 0) << describe(r);
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    std::ifstream in(e.path(), std::ios::binary);
    uint32_t magic = 0;
    in.read(reinterpret_cast<char*>(&magic), sizeof magic);
    EXPECT_EQ(magic, 0x07230203u) << e.path();
  }
  EXPECT_EQ(files, stages);
  const Result again = gnbench("kernels --spirv " + quote(dir.string()));
  EXPECT_EQ(again.code, 2) << describe(again);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << describe(again);
  EXPECT_EQ(gnbench("kernels --spirv " + quote(dir.string()) + " --force").code, 0);
}

// ---- run: table, results file, --force, compare.py ----

TEST_F(Cli, RunWritesTableAndResultsFile) {
  const std::vector<Problem> problems = load_config_file(kDefaultConfig);
  const std::string args =
      "run " + quote(kDefaultConfig) + " --variant seed --samples 3 --warmup 1 -q --json out.json";
  const Result r = gnbench(args);
  ASSERT_EQ(r.code, 0) << describe(r);

  // The table: a header row, then one PASS row per problem with a median time.
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> titles;
  std::map<std::string, std::map<std::string, std::string>> rows;  // problem -> title -> cell
  while (std::getline(lines, line)) {
    const auto c = cells(line);
    if (titles.empty()) {
      if (std::find(c.begin(), c.end(), "problem") != c.end()) titles = c;
      continue;
    }
    if (c.size() != titles.size()) continue;
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < c.size(); ++i) row[titles[i]] = c[i];
    rows[row["problem"]] = row;
  }
  ASSERT_FALSE(titles.empty()) << "no header row\n" << describe(r);
  for (const char* t : {"problem", "variant", "verdict", "median us"})
    EXPECT_NE(std::find(titles.begin(), titles.end(), t), titles.end()) << t;
  EXPECT_EQ(rows.size(), problems.size()) << describe(r);
  for (const Problem& p : problems) {
    SCOPED_TRACE(p.name);
    ASSERT_TRUE(rows.count(p.name)) << describe(r);
    auto& row = rows[p.name];
    EXPECT_EQ(row["variant"], "seed");
    EXPECT_EQ(row["verdict"], "PASS");
    EXPECT_GT(std::atof(row["median us"].c_str()), 0.0) << row["median us"];
  }

  // The results file: Google Benchmark's layout with gnbench's record on the median.
  const fs::path out = work / "out.json";
  ASSERT_TRUE(fs::is_regular_file(out));
  const std::string original = read_file(out);
  const json doc = json::parse(original);
  const json& g = doc.at("context").at("gnbench");
  EXPECT_TRUE(g.at("device").at("name").is_string());
  EXPECT_NE(g.at("device").at("name").get<std::string>().find("llvmpipe"), std::string::npos);
  EXPECT_TRUE(g.at("git_revision").is_string());
  EXPECT_FALSE(g.at("git_revision").get<std::string>().empty());
  EXPECT_EQ(g.at("timing_mode"), "cold");
  ASSERT_TRUE(doc.at("benchmarks").is_array());
  std::map<std::string, int> iterations;
  std::map<std::string, const json*> medians;
  for (const json& b : doc.at("benchmarks")) {
    ASSERT_TRUE(b.at("name").is_string());
    ASSERT_TRUE(b.at("real_time").is_number()) << b.dump();
    EXPECT_EQ(b.at("time_unit"), "us");
    const std::string run_type = b.at("run_type");
    if (run_type == "iteration") {
      ++iterations[b.at("run_name")];
    } else {
      ASSERT_EQ(run_type, "aggregate");
    }
    if (b.value("aggregate_name", "") == "median") medians[b.at("run_name")] = &b;
  }
  for (const Problem& p : problems) {
    const std::string name = p.name + "/seed";
    SCOPED_TRACE(name);
    EXPECT_EQ(iterations[name], 0);  // samples as one array in the record, rows on request
    ASSERT_TRUE(medians.count(name));
    const json& m = *medians[name];
    EXPECT_EQ(m.at("name"), name + "_median");
    EXPECT_GT(m.at("real_time").get<double>(), 0.0);
    const json& rec = m.at("gnbench");
    EXPECT_EQ(rec.at("verdict"), "PASS");
    EXPECT_EQ(rec.at("variant"), "seed");
    EXPECT_EQ(rec.at("problem").at("name"), p.name);
    ASSERT_EQ(rec.at("verification").at("tensors").size(), 3u);
    EXPECT_EQ(rec.at("verification").at("tensors")[0].at("tensor"), "grad_input");
    EXPECT_EQ(rec.at("verification").at("tensors")[2].at("tensor"), "grad_bias");
    EXPECT_EQ(rec.at("bitwise_reproducible"), true);
    EXPECT_EQ(rec.at("cold").at("samples_ns").size(), 3u);
  }
  testing::expect_valid_results({out});

  // An existing results file is never overwritten silently.
  const Result again = gnbench(args);
  EXPECT_EQ(again.code, 2) << describe(again);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << describe(again);
  EXPECT_NE(again.err.find("out.json"), std::string::npos) << describe(again);
  EXPECT_EQ(read_file(out), original);

  // ...but --force replaces it: a second timed run, which also gives compare.py two files
  // (this one with a Google Benchmark row per sample as well).
  fs::copy_file(out, work / "first.json");
  const Result forced = gnbench(args + " --force --per-sample-rows");
  EXPECT_EQ(forced.code, 0) << describe(forced);
  const std::string second = read_file(out);
  EXPECT_NE(second, original);
  const json replaced = json::parse(second);
  EXPECT_NE(
      replaced.at("context").at("gnbench").at("command_line").get<std::string>().find("--force"),
      std::string::npos);
  EXPECT_EQ(replaced.at("benchmarks").size(), doc.at("benchmarks").size() + 3 * problems.size());
  testing::expect_valid_results({out});

  // Google Benchmark's own compare.py reads both files and reports every problem.
  if (!fs::exists(kCompareScript)) {
    std::printf("[   note   ] %s not installed: compare.py not checked\n", kCompareScript);
    return;
  }
  // compare.py imports scipy.stats (gbench/report.py) and numpy: Debian's python3-scipy.
  if (shell("/usr/bin/python3 -c 'import scipy.stats, numpy'").code != 0) {
    std::printf("[   note   ] /usr/bin/python3 lacks scipy: compare.py not checked\n");
    return;
  }
  const Result compared =
      shell(std::string("/usr/bin/python3 ") + kCompareScript + " benchmarks first.json out.json");
  EXPECT_EQ(compared.code, 0) << describe(compared);
  EXPECT_EQ(compared.err.find("Traceback"), std::string::npos) << describe(compared);
  for (const Problem& p : problems)
    EXPECT_NE(compared.out.find(p.name + "/seed"), std::string::npos) << p.name << "\n"
                                                                      << describe(compared);
}

// Totals are stamped at the start and end of a sample; per-stage stamps only on request.
// The copy probe runs before and after the entries, and the higher reading counts.
TEST_F(Cli, StageTimesOnlyOnRequest) {
  const std::string base =
      "run --batch 2 --channels 8 --spatial 16 --groups 4 --variant gn_fused --mode hot "
      "--samples 3 --warmup 1 -q --json ";
  auto record = [](const json& doc) -> const json& {
    for (const json& b : doc.at("benchmarks"))
      if (b.contains("gnbench")) return b.at("gnbench");
    throw std::runtime_error("no gnbench record");
  };

  Result r = gnbench(base + "plain.json");
  ASSERT_EQ(r.code, 0) << describe(r);
  json doc = json::parse(read_file(work / "plain.json"));
  const json& g = doc.at("context").at("gnbench");
  EXPECT_EQ(g.at("timing_mode"), "hot");
  const json& probes = g.at("copy_bandwidth").at("probes_gbps");
  ASSERT_EQ(probes.size(), 2u) << g.dump();
  EXPECT_DOUBLE_EQ(g.at("copy_bandwidth").at("gbps").get<double>(),
                   std::max(probes[0].get<double>(), probes[1].get<double>()));
  // Each probe's reading is the fastest of its buffer pairs (one on a CPU device).
  const json& pairs = g.at("copy_bandwidth").at("pairs_gbps");
  ASSERT_EQ(pairs.size(), 2u) << g.dump();
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(pairs[i].size(), 1u) << g.dump();
    EXPECT_DOUBLE_EQ(pairs[i][0].get<double>(), probes[i].get<double>());
  }
  EXPECT_TRUE(record(doc).at("hot").at("stages").empty());
  EXPECT_GT(record(doc).at("hot").at("ns").at("median").get<double>(), 0.0);

  r = gnbench(base + "stages.json --stage-times");
  ASSERT_EQ(r.code, 0) << describe(r);
  doc = json::parse(read_file(work / "stages.json"));
  testing::expect_valid_results({work / "plain.json", work / "stages.json"});
  EXPECT_EQ(doc.at("context").at("gnbench").at("timing_mode"), "hot+stage-times");
  const json& stages = record(doc).at("hot").at("stages");
  ASSERT_EQ(stages.size(), 3u) << stages.dump();
  const char* names[] = {"partials", "combine", "apply"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(stages[i].at("name"), names[i]);
    EXPECT_GT(stages[i].at("ns").at("median").get<double>(), 0.0);
  }
}

// ---- run: errors ----

TEST_F(Cli, UnknownVariantListsVariants) {
  const Result r = gnbench("run " + quote(kDefaultConfig) + " --variant nope --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("'nope'"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("seed"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out, "");  // nothing ran
}

TEST_F(Cli, ProblemAndVariantGlobsSelectTheRun) {
  const Result r = gnbench("run " + quote(kDefaultConfig) +
                           " --problem 'small_n2_*' --variant 'seed,gn_fused*' --no-timing -q");
  EXPECT_EQ(r.code, 0) << describe(r);
  std::set<std::string> problems, variants;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto c = cells(line);
    if (c.size() > 4 && (c[4] == "PASS" || c[4] == "SKIP")) {
      problems.insert(c[0]);
      variants.insert(c[3]);
    }
  }
  EXPECT_EQ(problems, (std::set<std::string>{"small_n2_c64_hw256_g8", "small_n2_c96_hw100_g12"}))
      << describe(r);
  // Every variant that ran matches a glob (which gn_fused* builds apply is the manifests'
  // business); the ones that apply to any shape are among them.
  for (const auto& v : variants)
    EXPECT_TRUE(v == "seed" || v.rfind("gn_fused", 0) == 0) << v << "\n" << describe(r);
  for (const char* v : {"seed", "gn_fused", "gn_fused2"}) EXPECT_EQ(variants.count(v), 1u) << v;
}

TEST_F(Cli, UnknownDeviceListsDevices) {
  const Result r =
      gnbench("run " + quote(kDefaultConfig) + " --variant seed --device 99 --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("--device '99'"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("llvmpipe"), std::string::npos) << describe(r);
}

TEST_F(Cli, MalformedConfigNamesTheFile) {
  const fs::path bad = work / "broken.json";
  std::ofstream(bad) << "{\"problems\": [}\n";
  Result r = gnbench("run " + quote(bad.string()) + " --variant seed --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find(bad.string()), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("malformed JSON"), std::string::npos) << describe(r);
  // A missing file is a usage error too.
  r = gnbench("run no_such_config.json --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("no_such_config.json"), std::string::npos) << describe(r);
}

TEST_F(Cli, OneOffProblemFromFlags) {
  Result r =
      gnbench("run --batch 2 --channels 8 --spatial 16 --groups 4 --variant seed --no-timing -q");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("n2_c8_hw16_g4 "), std::string::npos) << describe(r);

  r = gnbench("run --batch 2 --channels 9 --spatial 16 --groups 4 --variant seed --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("divisible"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("channels"), std::string::npos) << describe(r);

  // The shape flags need each other.
  r = gnbench("run --batch 2 --channels 8 --variant seed --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
  // No problem at all.
  r = gnbench("run --variant seed --no-timing");
  EXPECT_EQ(r.code, 2) << describe(r);
}

TEST_F(Cli, PipelineStatsOnRequest) {
  const std::string one_off = "run --batch 2 --channels 8 --spatial 16 --groups 4 --variant seed";
  Result r = gnbench(one_off + " --no-timing -q");
  EXPECT_EQ(r.out.find("pipeline statistics"), std::string::npos) << describe(r);
  r = gnbench(one_off + " --no-timing -q --pipeline-stats");
  EXPECT_EQ(r.code, 0) << describe(r);
  // lavapipe 22 reports none; a driver that does gets one line per stage.
  EXPECT_TRUE(r.out.find("pipeline statistics: the device reports none") != std::string::npos ||
              r.out.find("  seed / ") != std::string::npos)
      << describe(r);
}

TEST_F(Cli, BrokenKernelExitsOne) {
  const Result r = gnbench("run " + quote(kDefaultConfig) + " --kernels " +
                           quote(std::string(GNBENCH_BROKEN_KERNELS_DIR)) +
                           " --variant broken_skip_tail --no-timing -q");
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("unwritten"), std::string::npos) << describe(r);
}

// A declared "fail" that passes is reported as an unexpected pass (XPASS, not a failure of the
// run); "may_fail" (a failure that depends on the device) is XFAIL when it fails and PASS when
// it passes; a failure other than the declared one is FAIL.
TEST_F(Cli, ExpectationsJudgeVerdicts) {
  auto config = [&](const std::string& verdict) {
    const fs::path path = work / (verdict + ".json");
    std::ofstream(path) << R"({"problems": [{"name": "p", "batch": 2, "channels": 8, "spatial": 16,
        "groups": 4, "expect": {"verdict": ")"
                        << verdict
                        << R"(", "reason": "test", "variants": ["seed", "broken_skip_tail",
        "broken_off_by_one"], "tensors": {"grad_input": {"kinds": ["unwritten"]}}}}]})";
    return quote(path.string());
  };
  auto verdict_of = [](const Result& r, const std::string& variant) {
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      const auto c = cells(line);
      if (c.size() > 4 && c[0] == "p" && c[3] == variant) return c[4];
    }
    return std::string("(no row)");
  };
  const std::string broken = " --kernels " + quote(std::string(GNBENCH_BROKEN_KERNELS_DIR));
  Result r = gnbench("run " + config("fail") + " --variant seed --no-timing -q");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(verdict_of(r, "seed"), "XPASS") << describe(r);
  r = gnbench("run " + config("may_fail") + " --variant seed --no-timing -q");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(verdict_of(r, "seed"), "PASS") << describe(r);
  r = gnbench("run " + config("may_fail") + broken + " --variant broken_skip_tail --no-timing -q");
  EXPECT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(verdict_of(r, "broken_skip_tail"), "XFAIL") << describe(r);
  // Another failure on the same problem is not the declared one: FAIL, exit 1.
  r = gnbench("run " + config("fail") + broken + " --variant broken_off_by_one --no-timing -q");
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_EQ(verdict_of(r, "broken_off_by_one"), "FAIL") << describe(r);
  EXPECT_NE(r.out.find("not the declared failure (grad_weight failed but is not declared)"),
            std::string::npos)
      << describe(r);
}

// ---- run --dump ----

TEST_F(Cli, DumpWritesInputsReferenceAndOutputs) {
  const std::vector<Problem> problems = load_config_file(kDefaultConfig);
  const Result r =
      gnbench("run " + quote(kDefaultConfig) + " --variant seed --no-timing -q --dump dump");
  ASSERT_EQ(r.code, 0) << describe(r);

  for (const Problem& p : problems) {
    SCOPED_TRACE(p.name);
    const Shape& s = p.shape;
    const std::vector<uint64_t> nchw{s.batch, s.channels, s.spatial}, c{s.channels};
    const fs::path dir = work / "dump" / p.name;
    auto check = [&](const fs::path& file, const std::string& dtype,
                     const std::vector<uint64_t>& shape) {
      SCOPED_TRACE(file.string());
      ASSERT_TRUE(fs::is_regular_file(file));
      const NpyArray a = read_npy(file);
      EXPECT_EQ(a.dtype, dtype);
      EXPECT_EQ(a.shape, shape);
      EXPECT_FALSE(a.fortran_order);
    };
    check(dir / "x.npy", "<f4", nchw);
    check(dir / "grad_out.npy", "<f4", nchw);
    check(dir / "weight.npy", "<f4", c);
    check(dir / "reference" / "grad_input.npy", "<f8", nchw);
    check(dir / "reference" / "grad_weight.npy", "<f8", c);
    check(dir / "reference" / "grad_bias.npy", "<f8", c);
    check(dir / "seed" / "grad_input.npy", "<f4", nchw);
    check(dir / "seed" / "grad_weight.npy", "<f4", c);
    check(dir / "seed" / "grad_bias.npy", "<f4", c);
  }

  // The dumped reference is the float64 backward of the dumped inputs, bit for bit, and the
  // dumped seed output is close to it.
  const Problem& p = problems.front();
  const fs::path dir = work / "dump" / p.name;
  Inputs in{read_npy(dir / "x.npy").as_float32(), read_npy(dir / "grad_out.npy").as_float32(),
            read_npy(dir / "weight.npy").as_float32()};
  const ReferenceOutputs ref = reference::backward(p.shape, in, p.eps);
  EXPECT_TRUE(
      (read_npy(dir / "reference" / "grad_input.npy").as_float64() == ref.grad_input).all());
  EXPECT_TRUE((read_npy(dir / "reference" / "grad_bias.npy").as_float64() == ref.grad_bias).all());
  const Eigen::ArrayXd gpu = read_npy(dir / "seed" / "grad_input.npy").as_float32().cast<double>();
  EXPECT_LT((gpu - ref.grad_input).matrix().norm() / ref.grad_input.matrix().norm(), 1e-4);

  // A non-empty dump folder is not written into without --force.
  const Result again =
      gnbench("run " + quote(kDefaultConfig) + " --variant seed --no-timing -q --dump dump");
  EXPECT_EQ(again.code, 2) << describe(again);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << describe(again);
}

}  // namespace
}  // namespace gnbench
