// The bad-input corpus at the CLI level (issue 7): the built binary is run on every kind of bad
// input (tests/data/cli_bad/ and files made here: FIFOs, directories, /dev/zero). Each must give
// exactly one line on stderr, "gnbench: error: ...", naming the file/field/value/rule; exit
// code 2; no signal; no hang; and leave the --json output file alone (absent, or unchanged).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "results_schema.hpp"
#include "run_binary.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using testing::RunResult;
using testing::RunSpec;
using testing::TempDir;

const std::string kData = std::string(GNBENCH_TEST_DATA_DIR) + "/cli_bad";

// What a case needs beyond the corpus files, made in its temporary folder.
enum class Setup {
  kNone,
  kFifo,              // {tmp}/fifo.json: a FIFO nobody writes (opening it for reading blocks)
  kDirectory,         // {tmp}/dir.json: a directory
  kExistingJson,      // {tmp}/out.json exists: the run must refuse it and leave it as it was
  kKernelsEmpty,      // {tmp}/kernels: an empty folder
  kKernelsFifo,       // {tmp}/kernels/x.json: a FIFO
  kKernelsDirectory,  // {tmp}/kernels/x.json: a directory
  kSymlinkLoop,       // {tmp}/loop.json -> {tmp}/loop2.json -> {tmp}/loop.json
};

struct BadCase {
  std::string name;
  std::vector<std::string> args;    // {data}: tests/data/cli_bad, {tmp}: the case's folder
  std::vector<std::string> pieces;  // each must appear in the error line
  Setup setup = Setup::kNone;
  bool own_output = false;  // the case sets --json itself (or the subcommand has none)
};

// A problem small enough for any device; one-off flags.
const std::vector<std::string> kOneOff{"--batch",   "2",  "--channels", "8",
                                       "--spatial", "16", "--groups",   "4"};

// `run` with the one-off flags; a flag of kOneOff given in `extra` replaces its value.
std::vector<std::string> one_off(std::vector<std::string> extra) {
  std::vector<std::string> args{"run"};
  args.insert(args.end(), kOneOff.begin(), kOneOff.end());
  for (size_t i = 0; i + 1 < extra.size(); i += 2) {
    auto it = std::find(args.begin(), args.end(), extra[i]);
    if (it != args.end()) {
      *(it + 1) = extra[i + 1];
    } else {
      args.push_back(extra[i]);
      args.push_back(extra[i + 1]);
    }
  }
  return args;
}

const std::vector<BadCase> kCases = {
    // --- config files: JSON and values ---
    {"malformed_json", {"run", "{data}/malformed.json"}, {"malformed.json:1:", "malformed JSON"}},
    {"truncated_json", {"run", "{data}/truncated.json"}, {"truncated.json:", "malformed JSON"}},
    {"empty_file", {"run", "{data}/empty.json"}, {"empty.json", "malformed JSON"}},
    {"invalid_utf8", {"run", "{data}/invalid_utf8.json"}, {"invalid_utf8.json", "malformed JSON"}},
    {"top_level_array",
     {"run", "{data}/top_level_array.json"},
     {"top level must be a JSON object"}},
    {"wrong_type",
     {"run", "{data}/wrong_type.json"},
     {"wrong_type.json", "field 'batch' = \"2\"", "integer"}},
    {"huge_exponent",
     {"run", "{data}/huge_exponent.json"},
     {"huge_exponent.json", "1e400", "too large"}},
    {"huge_integer",
     {"run", "{data}/huge_integer.json"},
     {"huge_integer.json", "field 'batch'", "must be an integer in [1, 4294967295]"}},
    {"negative_size", {"run", "{data}/negative.json"}, {"negative.json", "field 'spatial' = -16"}},
    {"nan_literal",
     {"run", "{data}/nan.json"},
     {"nan.json", "NaN and Infinity are not valid JSON"}},
    {"infinity_literal",
     {"run", "{data}/inf.json"},
     {"inf.json", "NaN and Infinity are not valid JSON"}},
    {"zero_tolerance",
     {"run", "{data}/zero_tolerance.json"},
     {"field 'tolerances.grad_input.l2_rel' = 0", "must be > 0"}},
    {"empty_problems",
     {"run", "{data}/empty_problems.json"},
     {"empty_problems.json", "no problems"}},
    {"empty_axis_list",
     {"run", "{data}/empty_axis_list.json"},
     {"empty_axis_list.json", "field 'batch'", "must not be an empty list"}},
    {"duplicate_problem_names",
     {"run", "{data}/duplicate_names.json"},
     {"duplicate_names.json", "problem 'p'", "duplicate problem name"}},
    {"duplicate_problem_across_files",
     {"run", "{data}/good.json", "{data}/good.json"},
     {"problem 'p'", "appears twice"}},
    {"duplicate_key",
     {"run", "{data}/duplicate_key.json"},
     {"duplicate_key.json", "duplicate key \"eps\""}},
    {"deep_nesting_value",
     {"run", "{data}/deep_nesting_value.json"},
     {"deep_nesting_value.json", "nested deeper than 64 levels"}},
    {"deep_nesting_unclosed",
     {"run", "{data}/deep_nesting_unclosed.json"},
     {"deep_nesting_unclosed.json", "nested deeper than 64 levels"}},
    {"expect_missing_tensors",
     {"run", "{data}/expect_missing_tensors.json"},
     {"expect_missing_tensors.json", "problem 'p'", "field 'expect.tensors'", "missing"}},
    {"expect_bad_kind",
     {"run", "{data}/expect_bad_kind.json"},
     {"expect_bad_kind.json", "field 'expect.tensors.grad_input.kinds[1]' = \"nan\"",
      "error, nonfinite, unwritten"}},
    {"expect_bound_below_tolerance",
     {"run", "{data}/expect_bound_below_tolerance.json"},
     {"expect_bound_below_tolerance.json", "field 'expect.tensors.grad_input.l2_rel' = 1e-05",
      "above the tolerance it extends (0.0001)"}},
    {"config_too_large_for_device",
     {"run", "{data}/too_large_for_device.json"},
     {"too_large_for_device.json", "problem 'p'", "tensor x is 160000000 bytes",
      "maxStorageBufferRange"}},
    // --- config files: missing and unreadable ---
    {"config_missing", {"run", "{tmp}/missing.json"}, {"missing.json"}},
    {"config_path_through_file", {"run", "{data}/good.json/x.json"}, {"good.json/x.json"}},
    {"config_is_directory",
     {"run", "{tmp}/dir.json"},
     {"dir.json", "it is a directory"},
     Setup::kDirectory},
    {"config_is_fifo", {"run", "{tmp}/fifo.json"}, {"fifo.json", "malformed JSON"}, Setup::kFifo},
    {"config_is_dev_zero", {"run", "/dev/zero"}, {"/dev/zero", "device"}},
    {"config_symlink_loop",
     {"run", "{tmp}/loop.json"},
     {"loop.json", "symbolic links"},
     Setup::kSymlinkLoop},
    {"config_nul_then_garbage",
     {"run", "{data}/nul_then_garbage.json"},
     {"nul_then_garbage.json:1:", "NUL byte"}},
    {"config_inexact_integer_float",
     {"run", "{data}/inexact_seed.json"},
     {"inexact_seed.json", "field 'seed'", "inexact"}},
    {"config_control_characters_in_key",
     {"run", "{data}/control_char_key.json"},
     {"control_char_key.json", "ev\\x1b[2Jil\\x0akey"}},
    // --- issue 19: overflowing products, refused at once and naming the config ---
    {"one_off_product_wraps_2_64",
     one_off(
         {"--batch", "769546", "--channels", "494770", "--spatial", "48448661", "--groups", "1"}),
     {"command line", "problem 'n769546_c494770_hw48448661_g1'", "N*C*HW"}},
    {"one_off_product_exactly_2_64",
     one_off(
         {"--batch", "4194304", "--channels", "2097152", "--spatial", "2097152", "--groups", "1"}),
     {"command line", "over 2^64"}},
    {"one_off_seed_negative",
     one_off({"--seed", "-1"}),
     {"--seed", "not an integer in [0, 2^64-1]"}},
    {"json_empty_path",
     {"run", "{data}/good.json", "--json", ""},
     {"--json", "empty path"},
     Setup::kNone,
     true},
    {"json_and_csv_same_path",
     {"run", "{data}/good.json", "--json", "{tmp}/out.json", "--csv", "{tmp}/./out.json"},
     {"--json and --csv", "same file"},
     Setup::kNone,
     true},
    {"dump_is_a_file",
     {"run", "{data}/good.json", "--dump", "{data}/good.json"},
     {"--dump", "not a directory"}},
    // --- issue 19: every manifest expression checked for every problem before the first entry
    {"manifest_dispatch_zero",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_dispatch_zero", "--variant",
      "kernels_dispatch_zero"},
     {"variant 'kernels_dispatch_zero'", "dispatch[0]", "N - N", "= 0", "problem 'p'"}},
    {"manifest_dispatch_negative",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_dispatch_negative", "--variant",
      "kernels_dispatch_negative"},
     {"variant 'kernels_dispatch_negative'", "= -4"}},
    {"manifest_dispatch_huge",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_dispatch_huge", "--variant",
      "kernels_dispatch_huge"},
     {"variant 'kernels_dispatch_huge'", "= 8589934592", "[1, 4294967295]"}},
    {"manifest_params_bad_on_second_problem",
     {"run", "{data}/two_problems.json", "--kernels", "{data}/kernels_params_second_problem",
      "--variant", "seed,kernels_params_second_problem"},
     {"variant 'kernels_params_second_problem'", "params[0]", "problem 'q'"}},
    {"manifest_traffic_overflow",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_traffic_overflow", "--variant",
      "kernels_traffic_overflow"},
     {"variant 'kernels_traffic_overflow'", "traffic_bytes", "overflow"}},
    {"manifest_variant_named_reference",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_name_reference"},
     {"kernels_name_reference/variant.json", "field 'name'", "reference"}},
    {"manifest_variant_named_dotdot",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_name_dotdot"},
     {"kernels_name_dotdot/variant.json", "field 'name'"}},
    {"manifest_duplicate_key",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_duplicate_key"},
     {"kernels_duplicate_key/variant.json", "duplicate key", "deterministic"}},
    // --- issue 19: results files read with the configs' standard (exit 2, the file named) ---
    {"compare_with_dev_zero",
     {"compare", "{data}/results_good.json", "/dev/zero"},
     {"/dev/zero", "device"},
     Setup::kNone,
     true},
    {"compare_with_fifo",
     {"compare", "{data}/results_good.json", "{tmp}/fifo.json"},
     {"fifo.json", "malformed JSON"},
     Setup::kFifo,
     true},
    {"compare_benchmarks_object",
     {"compare", "{data}/results_good.json", "{data}/results_benchmarks_object.json"},
     {"results_benchmarks_object.json", "benchmarks", "must be a list"},
     Setup::kNone,
     true},
    {"compare_schema_version_string",
     {"compare", "{data}/results_schema_string.json", "{data}/results_good.json"},
     {"results_schema_string.json", "schema_version"},
     Setup::kNone,
     true},
    {"compare_1e400",
     {"compare", "{data}/results_good.json", "{data}/results_1e400.json"},
     {"results_1e400.json:", "mhz_per_cpu", "1e400"},
     Setup::kNone,
     true},
    {"compare_negative_trials",
     {"compare", "{data}/results_good.json", "{data}/results_negative_trials.json"},
     {"results_negative_trials.json", "trials = -1"},
     Setup::kNone,
     true},
    {"merge_zero_batch",
     {"merge", "{data}/results_good.json", "{data}/results_zero_batch.json", "-o", "{tmp}/m.json"},
     {"results_zero_batch.json", "problem.batch = 0"},
     Setup::kNone,
     true},
    {"no_problems", {"run"}, {"no problems"}},
    // --- variants and manifests (--kernels DIR) ---
    {"unknown_variant",
     {"run", "{data}/good.json", "--variant", "nope"},
     {"--variant 'nope'", "matches none of the variants", "seed"}},
    {"variant_glob_matching_nothing",
     {"run", "{data}/good.json", "--variant", "seed,gn_nothing_*"},
     {"--variant 'gn_nothing_*'", "matches none of the variants"}},
    {"empty_variant_name",
     {"run", "{data}/good.json", "--variant", "seed,,x"},
     {"--variant 'seed,,x'", "empty name"}},
    {"variant_list_of_commas", {"run", "{data}/good.json", "--variant", ","}, {"empty name"}},
    {"unknown_problem",
     {"run", "{data}/good.json", "--problem", "typo"},
     {"--problem 'typo'", "matches none of the problems"}},
    {"empty_problem_name",
     {"run", "{data}/good.json", "--problem", ""},
     {"--problem", "empty name"}},
    {"manifest_bad_expression",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_bad_expression"},
     {"kernels_bad_expression/variant.json", "dispatch[0]", "N * (G +"}},
    {"manifest_bad_expression_kernels_command",
     {"kernels", "--kernels", "{data}/kernels_bad_expression"},
     {"kernels_bad_expression/variant.json", "dispatch[0]"},
     Setup::kNone,
     true},
    {"manifest_division_by_zero",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_eval_error", "--variant",
      "kernels_eval_error"},
     {"kernels_eval_error/variant.json", "N * G / (C - C)", "division by zero"}},
    {"manifest_scratch_overflow",
     {"run", "{data}/good.json", "--kernels", "{data}/kernels_scratch_overflow", "--variant",
      "kernels_scratch_overflow"},
     {"kernels_scratch_overflow/variant.json", "scratch_bytes", "overflow"}},
    {"shader_does_not_compile",
     {"run", "{data}/good.json", "--no-timing", "--kernels", "{data}/kernels_compile_error",
      "--variant", "kernels_compile_error"},
     {"kernels_compile_error/broken.comp:5: shader compile error", "undeclared_name",
      "variant 'kernels_compile_error'"}},
    {"shader_binding_without_buffer",
     {"run", "{data}/good.json", "--no-timing", "--kernels", "{data}/kernels_binding_count",
      "--variant", "kernels_binding_count"},
     {"kernels_binding_count/k.comp", "shader binding 5", "has no buffer"}},
    {"shader_binding_wrong_type",
     {"run", "{data}/good.json", "--no-timing", "--kernels", "{data}/kernels_binding_type",
      "--variant", "kernels_binding_type"},
     {"kernels_binding_type/k.comp", "shader binding 5", "uniform buffer in the shader",
      "'grad_out'"}},
    {"kernels_not_a_directory",
     {"run", "{data}/good.json", "--kernels", "{data}/good.json"},
     {"good.json"}},
    {"kernels_empty_folder",
     {"run", "{data}/good.json", "--kernels", "{tmp}/kernels"},
     {"no *.json kernel manifests"},
     Setup::kKernelsEmpty},
    {"manifest_is_fifo",
     {"run", "{data}/good.json", "--kernels", "{tmp}/kernels"},
     {"kernels/x.json", "malformed JSON"},
     Setup::kKernelsFifo},
    {"manifest_is_directory",
     {"run", "{data}/good.json", "--kernels", "{tmp}/kernels"},
     {"kernels/x.json", "it is a directory"},
     Setup::kKernelsDirectory},
    // --- command-line values ---
    {"samples_zero", {"run", "{data}/good.json", "--samples", "0"}, {"--samples", "0"}},
    {"trials_negative", {"run", "{data}/good.json", "--trials", "-1"}, {"--trials", "-1"}},
    {"trials_zero", {"run", "{data}/good.json", "--trials", "0"}, {"--trials"}},
    {"max_noise_nan",
     {"run", "{data}/good.json", "--max-noise", "nan"},
     {"--max-noise", "not a finite number"}},
    {"max_noise_inf",
     {"run", "{data}/good.json", "--max-noise", "inf"},
     {"--max-noise", "not a finite number"}},
    {"min_time_nan",
     {"run", "{data}/good.json", "--min-time", "nan"},
     {"--min-time", "not a finite number"}},
    {"timeout_nan",
     {"run", "{data}/good.json", "--timeout", "nan"},
     {"--timeout", "not a finite number"}},
    {"threshold_nan",
     {"run", "{data}/good.json", "--baseline", "{data}/good.json", "--threshold", "nan"},
     {"--threshold", "not a finite number"}},
    {"compare_threshold_inf",
     {"compare", "{data}/good.json", "{data}/good.json", "--threshold", "inf"},
     {"--threshold", "not a finite number"}},
    {"kernel_timeout_nan",
     {"run", "{data}/good.json", "--kernel-timeout", "nan"},
     {"--kernel-timeout", "not a finite number"}},
    {"kernel_timeout_huge",
     {"run", "{data}/good.json", "--kernel-timeout", "1e300"},
     {"--kernel-timeout"}},
    {"kernel_timeout_zero",
     {"run", "{data}/good.json", "--kernel-timeout", "0"},
     {"--kernel-timeout"}},
    {"shard_out_of_range", {"run", "{data}/good.json", "--shard", "3/2"}, {"--shard '3/2'"}},
    {"shard_garbage", {"run", "{data}/good.json", "--shard", "x"}, {"--shard 'x'"}},
    {"mode_unknown", {"run", "{data}/good.json", "--mode", "warm"}, {"--mode", "warm"}},
    {"device_unknown",
     {"run", "{data}/good.json", "--device", "7"},
     {"--device '7'", "no such device"}},
    {"device_index_overflow",
     {"run", "{data}/good.json", "--device", "99999999999999999999"},
     {"--device '99999999999999999999'", "no such device"}},
    {"unknown_flag", {"run", "{data}/good.json", "--frobnicate"}, {"--frobnicate"}},
    {"no_subcommand", {}, {"subcommand"}, Setup::kNone, true},
    {"one_off_incomplete", {"run", "--batch", "2", "--channels", "8"}, {"--batch"}},
    {"one_off_negative", one_off({"--spatial", "-5"}), {"--spatial"}},
    {"one_off_zero", one_off({"--spatial", "0"}), {"field 'spatial' = 0"}},
    {"one_off_u32_overflow", one_off({"--batch", "99999999999"}), {"--batch"}},
    {"one_off_not_divisible",
     one_off({"--groups", "3"}),
     {"field 'channels' = 8", "divisible by groups (3)"}},
    {"one_off_eps_nan", one_off({"--eps", "nan"}), {"field 'eps' = nan", "must be finite"}},
    {"one_off_eps_negative", one_off({"--eps", "-1"}), {"field 'eps' = -1", "must be > 0"}},
    {"one_off_distribution_unknown",
     one_off({"--distribution", "bogus"}),
     {"--distribution 'bogus'"}},
    // The brief's example: over lavapipe's maxStorageBufferRange (2^27), refused before allocation.
    {"one_off_too_large_lavapipe",
     {"run", "--batch", "1", "--channels", "1", "--spatial", "40000000", "--groups", "1"},
     {"command line", "problem 'n1_c1_hw40000000_g1'", "tensor x is 160000000 bytes",
      "maxStorageBufferRange"}},
    // 8 GB per tensor: over any device's maxStorageBufferRange (at most 2^32 - 1).
    {"one_off_too_large_any_device",
     {"run", "--batch", "1", "--channels", "1", "--spatial", "2000000000", "--groups", "1"},
     {"tensor x is 8000000000 bytes", "maxStorageBufferRange"}},
    // --- output files ---
    {"json_is_directory",
     {"run", "{data}/good.json", "--json", "{tmp}"},
     {"is a directory"},
     Setup::kNone,
     true},
    {"json_parent_missing",
     {"run", "{data}/good.json", "--json", "{tmp}/no/such/out.json"},
     {"no/such/out.json", "does not exist"},
     Setup::kNone,
     true},
    {"json_exists_without_force",
     {"run", "{data}/good.json"},
     {"out.json", "exists; pass --force"},
     Setup::kExistingJson},
};

std::string expand(std::string s, const std::string& tmp) {
  for (auto [key, value] : {std::pair<std::string, std::string>{"{data}", kData}, {"{tmp}", tmp}})
    for (size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  return s;
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, OneErrorLineExitTwoOutputUntouched) {
  const BadCase& c = GetParam();
  TempDir tmp("bad_" + c.name);
  const std::string out_json = tmp / "out.json";
  const std::string kept = "{\"kept\": true}\n";
  switch (c.setup) {
    case Setup::kFifo: ASSERT_EQ(::mkfifo((tmp / "fifo.json").c_str(), 0644), 0); break;
    case Setup::kDirectory: fs::create_directories(tmp / "dir.json"); break;
    case Setup::kExistingJson: std::ofstream(out_json) << kept; break;
    case Setup::kKernelsEmpty: fs::create_directories(tmp / "kernels"); break;
    case Setup::kKernelsFifo:
      fs::create_directories(tmp / "kernels");
      ASSERT_EQ(::mkfifo((tmp / "kernels/x.json").c_str(), 0644), 0);
      break;
    case Setup::kKernelsDirectory: fs::create_directories(tmp / "kernels/x.json"); break;
    case Setup::kSymlinkLoop:
      fs::create_symlink(tmp / "loop2.json", tmp / "loop.json");
      fs::create_symlink(tmp / "loop.json", tmp / "loop2.json");
      break;
    case Setup::kNone: break;
  }
  RunSpec spec;
  for (const auto& a : c.args) spec.args.push_back(expand(a, tmp.path().string()));
  if (!c.own_output) spec.args.insert(spec.args.end(), {"--json", out_json, "--quiet"});
  spec.timeout_s = 60;
  RunResult r = testing::run_gnbench(spec);
  SCOPED_TRACE(r.describe());

  EXPECT_FALSE(r.timed_out) << "hung";
  EXPECT_EQ(r.signal, 0) << "crashed";
  EXPECT_EQ(r.exit_code, 2);
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << "expected exactly one line on stderr";
  EXPECT_EQ(lines[0].rfind("gnbench: error: ", 0), 0u) << lines[0];
  for (const auto& piece : c.pieces)
    EXPECT_NE(lines[0].find(expand(piece, tmp.path().string())), std::string::npos)
        << "missing: " << piece;
  if (c.setup == Setup::kExistingJson)
    EXPECT_EQ(testing::slurp(out_json), kept) << "the existing --json file was modified";
  else
    EXPECT_FALSE(fs::exists(out_json)) << "the --json file was created";
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           return info.param.name;
                         });

// The harness itself: the good config runs, exits 0 and writes the --json file.
TEST(BadInputHarness, GoodConfigRuns) {
  TempDir tmp("good");
  RunResult r = testing::run_gnbench({{"run", kData + "/good.json", "--no-timing", "--quiet",
                                       "--variant", "seed", "--json", tmp / "out.json"},
                                      120,
                                      std::nullopt,
                                      {}});
  SCOPED_TRACE(r.describe());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(fs::exists(tmp / "out.json"));
  testing::expect_valid_results({tmp / "out.json"});
  EXPECT_TRUE(r.err_lines().empty());
}

}  // namespace
}  // namespace gnbench
