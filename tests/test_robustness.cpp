// Issue 7, "nothing lost" and resources: SIGINT mid-run still writes a valid results file of
// the finished problems marked incomplete (exit 130); --json never replaces a file without
// --force; a kernel that outlives --kernel-timeout is an ERROR entry and the run goes on; and
// the seed and every shipped variant run clean under the Khronos validation layer.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/report/results_json.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/vulkan_context.hpp"
#include "results_schema.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using testing::RunResult;
using testing::TempDir;

using testing::kSourceDir;

// A run a stop signal ended: exit 130 (not killed, not past its limit) and its --json file
// written, marked incomplete; the file's records, or none when it is missing.
RunRecords records_of_stopped_run(const RunResult& r, const std::string& out) {
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 130);
  if (!fs::exists(out)) {
    ADD_FAILURE() << out << " not written";
    return {};
  }
  RunRecords records = read_results_file(out);
  EXPECT_FALSE(records.context.complete);
  return records;
}

// SIGTERM and SIGHUP (timeout, CI cancellation, Slurm) are handled like SIGINT.
class Interrupt : public ::testing::TestWithParam<int> {};

TEST_P(Interrupt, SignalWritesTheFinishedProblemsMarkedIncomplete) {
  TempDir tmp("sigint");
  // 192 problems of up to a few million elements: far more than the run gets through in 2 s.
  const std::string long_config = testing::write_long_config(tmp.path());
  const std::string out = tmp / "out.json";
  // SIGINT after 2 s; on a loaded machine start-up may take longer than that, so a run that had
  // finished nothing yet is tried again with a later signal.
  RunResult r;
  RunRecords records;
  for (double delay : {2.0, 5.0, 15.0}) {
    fs::remove(out);
    testing::RunSpec spec(
        {"run", long_config, "--variant", "seed", "--no-timing", "--quiet", "--json", out}, 120,
        delay);
    spec.signal = GetParam();
    r = testing::run_gnbench(spec);
    if (!fs::exists(out)) break;
    records = read_results_file(out);  // valid JSON, a results file gnbench reads back
    if (!records.entries.empty()) break;
  }
  SCOPED_TRACE(r.describe());
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 130);
  ASSERT_TRUE(fs::exists(out));
  EXPECT_FALSE(records.context.complete);
  testing::expect_valid_results({out});
  EXPECT_GT(records.entries.size(), 0u) << "nothing finished before the SIGINT";
  EXPECT_LT(records.entries.size(), 192u) << "the run finished before the SIGINT";
  for (const auto& e : records.entries)
    EXPECT_EQ(e.verdict, Verdict::kPass) << e.name() << ": " << e.message;
  // Written atomically: no temporary file left next to it.
  for (const auto& entry : fs::directory_iterator(tmp.path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupt, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGINT    ? "SIGINT"
                                              : info.param == SIGTERM ? "SIGTERM"
                                                                      : "SIGHUP");
                         });

// Stopped between trials: an entry that passed the trials it ran is no PASS (it is left out,
// the run marked incomplete); every recorded entry ran all the trials asked for or failed.
TEST(StopSignals, AStopBetweenTrialsRecordsNoPartialPass) {
  TempDir tmp("sigtrials");
  std::ofstream(tmp / "one.json") << R"({"problems": [
      {"name": "a", "batch": 2, "channels": 64, "spatial": 4096, "groups": 8},
      {"name": "b", "batch": 3, "channels": 32, "spatial": 1000, "groups": 4}]})";
  const std::string out = tmp / "out.json";
  // 1000 trials of a half-million-element problem: minutes on lavapipe, stopped after 3 s.
  RunResult r = testing::run_gnbench(
      testing::RunSpec({"run", tmp / "one.json", "--variant", "seed", "--trials", "1000",
                        "--no-timing", "--quiet", "--json", out},
                       120, 3.0));
  SCOPED_TRACE(r.describe());
  const RunRecords records = records_of_stopped_run(r, out);
  for (const auto& e : records.entries)
    EXPECT_TRUE(e.trials == 1000 || e.verdict != Verdict::kPass)
        << e.name() << ": " << verdict_name(e.verdict) << " after " << e.trials << " trials";
}

// SIGKILL (out of memory, Slurm past its grace time) cannot be handled: --checkpoint keeps
// the --json file of what finished up to date while the run goes on, so the kill loses at
// most the problems since the last write.
TEST(StopSignals, AKillKeepsTheLastCheckpoint) {
  TempDir tmp("sigkill_checkpoint");
  const std::string long_config = testing::write_long_config(tmp.path());
  for (const std::string name : {"out.json", "out.json.gz"}) {
    const std::string out = tmp / name;
    RunResult r;
    for (double kill_after : {5.0, 12.0, 30.0}) {  // a loaded machine may finish nothing in 5 s
      fs::remove(out);
      r = testing::run_gnbench(
          testing::RunSpec({"run", long_config, "--variant", "seed", "--no-timing", "--quiet",
                            "--checkpoint", "0", "--json", out},
                           kill_after));
      if (fs::exists(out)) break;
    }
    SCOPED_TRACE(r.describe());
    EXPECT_TRUE(r.timed_out);  // killed with SIGKILL by the test, nothing handled
    ASSERT_TRUE(fs::exists(out));
    const RunRecords records = read_results_file(out);
    EXPECT_FALSE(records.context.complete);
    EXPECT_GT(records.entries.size(), 0u);
    EXPECT_LT(records.entries.size(), 192u);
    for (const auto& e : records.entries) EXPECT_EQ(e.verdict, Verdict::kPass) << e.name();
  }
  // (A kill during a checkpoint's write may leave its temporary file; the results file is
  // then the previous checkpoint, whole.)
}

// GNU timeout signals its child and then the child's process group: one stop request can
// arrive twice within milliseconds. That is one stop, not a kill: the results are written.
TEST(StopSignals, TheSameSignalTwiceAtOnceIsOneStop) {
  TempDir tmp("sigtwice");
  const std::string long_config = testing::write_long_config(tmp.path());
  const std::string out = tmp / "out.json";
  testing::RunSpec spec(
      {"run", long_config, "--variant", "seed", "--no-timing", "--quiet", "--json", out}, 120, 3.0);
  spec.signal = SIGTERM;
  spec.repeat_after_s = 0.01;
  RunResult r = testing::run_gnbench(spec);
  SCOPED_TRACE(r.describe());
  records_of_stopped_run(r, out);
}

// Every shipped variant compiles before the first problem runs (seconds to tens of seconds on
// lavapipe); a stop then is looked at before each variant's compile, not after all of them.
TEST(StopSignals, AStopDuringShaderCompilationEndsTheRunAtOnce) {
  TempDir tmp("sigcompile");
  const std::string out = tmp / "out.json";
  const double signal_at = 1.0;
  testing::RunSpec spec({"run", kSourceDir + "/configs/default.json", "--problem", "small_n8*",
                         "--no-timing", "--quiet", "--json", out},
                        120, signal_at);
  const auto start = std::chrono::steady_clock::now();
  RunResult r = testing::run_gnbench(spec);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  SCOPED_TRACE(r.describe());
  const RunRecords records = records_of_stopped_run(r, out);
  // No entry ran: the stop came while the shaders compiled (else the test shows nothing).
  EXPECT_TRUE(records.entries.empty()) << records.entries.size() << " entries ran";
  // Before: the rest of the compilation first, 7-8 s here on 2 cores; now one variant's at most.
  EXPECT_LT(seconds, signal_at + 3.0);
}

// A stop repeated seconds later is a kill: the way out of a kernel that hangs within a long
// --kernel-timeout (tests/kernels_hang spins for about 14 CPU-seconds where N == 1).
TEST(StopSignals, TheSameSignalAgainAfterTwoSecondsKills) {
  TempDir tmp("sigkill");
  std::ofstream(tmp / "one.json")
      << R"({"problems": [{"name": "one", "batch": 1, "channels": 8, "spatial": 64, "groups": 4}]})";
  RunResult r;
  // The first signal must come while the hang runs; a run that stopped before it started
  // (a slow start-up) exits 130 and is tried again with a later signal.
  for (double delay : {3.0, 8.0}) {
    testing::RunSpec spec(
        {"run", tmp / "one.json", "--kernels", kSourceDir + "/tests/kernels_hang", "--variant",
         "hang", "--no-timing", "--quiet", "--kernel-timeout", "1000"},
        300, delay);
    spec.signal = SIGTERM;
    spec.repeat_after_s = 2.5;
    r = testing::run_gnbench(spec);
    if (r.exit_code != 130) break;
  }
  SCOPED_TRACE(r.describe());
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, SIGTERM);
}

// --json - is standard output (the table moves to stderr); a device is written through and
// stays a device even with --force; a --dump write that fails is reported as such, the run
// goes on and the results are written (exit 2: an output asked for is incomplete).
TEST(Outputs, StdoutDevicesAndDumpFailures) {
  TempDir tmp("outputs");
  fs::create_directories(tmp / "dump");
  std::ofstream(tmp / "dump/p") << "a file where the problem's dump folder goes";
  RunResult r =
      testing::run_gnbench({{"run", kSourceDir + "/tests/data/cli_bad/good.json", "--variant",
                             "seed", "--no-timing", "--quiet", "--json", "-", "--csv", "/dev/null",
                             "--md", tmp / "out.md", "--dump", tmp / "dump", "--force"},
                            120});
  SCOPED_TRACE(r.describe());
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 2);
  const RunRecords records = results_from_json(nlohmann::json::parse(r.out), "stdout");
  ASSERT_EQ(records.entries.size(), 1u);
  EXPECT_EQ(records.entries[0].verdict, Verdict::kPass) << records.entries[0].message;
  EXPECT_NE(r.err.find("gnbench: error: --dump: "), std::string::npos);
  EXPECT_NE(r.err.find("the run goes on"), std::string::npos);
  EXPECT_NE(r.err.find("PASS"), std::string::npos) << "the table goes to stderr";
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_FALSE(fs::exists("-"));
  EXPECT_TRUE(fs::exists(tmp / "out.md"));
}

TEST(Outputs, JsonReplacedOnlyWithForce) {
  TempDir tmp("force");
  const std::string out = tmp / "baseline.json";
  const std::string kept = "{\"stored\": \"baseline\"}\n";
  std::ofstream(out) << kept;
  const std::vector<std::string> run{"run",         kSourceDir + "/tests/data/cli_bad/good.json",
                                     "--variant",   "seed",
                                     "--no-timing", "--quiet",
                                     "--json",      out};
  RunResult refused = testing::run_gnbench({run, 60});
  SCOPED_TRACE(refused.describe());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(testing::slurp(out), kept);

  auto forced_args = run;
  forced_args.push_back("--force");
  RunResult forced = testing::run_gnbench({forced_args, 120});
  SCOPED_TRACE(forced.describe());
  EXPECT_EQ(forced.exit_code, 0);
  EXPECT_TRUE(read_results_file(out).context.complete);
  testing::expect_valid_results({out});
}

// tests/kernels_hang/hang.json spins for many seconds (on lavapipe) where N == 1 and does not
// apply elsewhere. With --kernel-timeout 1 its entry is ERROR; the seed still runs on both
// problems, after the hung submission has drained (Vulkan cannot cancel it).
TEST(KernelTimeout, HungKernelIsAnErrorAndTheRunGoesOn) {
  TempDir tmp("hang");
  std::ofstream(tmp / "two.json") << R"({"problems": [
      {"name": "first", "batch": 1, "channels": 8, "spatial": 64, "groups": 4},
      {"name": "second", "batch": 2, "channels": 8, "spatial": 64, "groups": 4}]})";
  const std::string out = tmp / "out.json";
  RunResult r = testing::run_gnbench(
      {{"run", tmp / "two.json", "--kernels", kSourceDir + "/tests/kernels_hang", "--variant",
        "hang,seed", "--no-timing", "--quiet", "--kernel-timeout", "1", "--json", out},
       300});
  SCOPED_TRACE(r.describe());
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1);  // an ERROR entry fails the run
  ASSERT_TRUE(fs::exists(out));
  RunRecords records = read_results_file(out);
  EXPECT_TRUE(records.context.complete);
  testing::expect_valid_results({out});
  std::map<std::string, const EntryRecord*> by_name;
  for (const auto& e : records.entries) by_name[e.name()] = &e;
  ASSERT_TRUE(by_name.count("first/hang"));
  EXPECT_EQ(by_name["first/hang"]->verdict, Verdict::kError);
  EXPECT_NE(by_name["first/hang"]->message.find("did not finish within 1000 ms"), std::string::npos)
      << by_name["first/hang"]->message;
  for (const char* name : {"first/seed", "second/seed"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    EXPECT_EQ(by_name[name]->verdict, Verdict::kPass) << name << ": " << by_name[name]->message;
  }
  ASSERT_TRUE(by_name.count("second/hang"));
  EXPECT_EQ(by_name["second/hang"]->verdict, Verdict::kSkipped);
}

// A stop (here SIGTERM) while a kernel runs past --kernel-timeout used to wait for the kernel's
// end: now the finished problems are written, marked incomplete, and gnbench exits 130 at once.
TEST(KernelTimeout, StopWhileAKernelOverrunsSavesWhatFinished) {
  TempDir tmp("hangstop");
  std::ofstream(tmp / "two.json") << R"({"problems": [
      {"name": "first", "batch": 2, "channels": 8, "spatial": 64, "groups": 4},
      {"name": "second", "batch": 1, "channels": 8, "spatial": 64, "groups": 4}]})";
  const std::string out = tmp / "out.json";
  testing::RunSpec spec(
      {"run", tmp / "two.json", "--kernels", kSourceDir + "/tests/kernels_hang", "--variant",
       "hang,seed", "--no-timing", "--quiet", "--kernel-timeout", "1", "--json", out},
      300);
  spec.signal = SIGTERM;
  spec.signal_when_stderr_has = "did not finish within";
  RunResult r = testing::run_gnbench(spec);
  SCOPED_TRACE(r.describe());
  EXPECT_NE(r.err.find("saving what finished"), std::string::npos);
  const RunRecords records = records_of_stopped_run(r, out);
  ASSERT_EQ(records.entries.size(), 2u);  // the first problem: hang SKIP, seed PASS
  for (const auto& e : records.entries) EXPECT_EQ(e.problem.name, "first");
}

// Runs `variants` (empty: all) on `problems` with the validation layer (core + synchronization)
// on; with `timing`, 2 cold and 2 hot samples per entry (the sample loop's fills, flushes and
// barriers between samples) and the copy-bandwidth probe. Returns how many messages the layer
// reported, or -1 when the layer is not installed.
int64_t validation_messages(const std::vector<std::string>& variants,
                            const std::vector<Problem>& problems, bool timing) {
  BenchOptions o;
  o.kernel_folders = {default_kernels_folder()};
  o.variants = variants;
  o.context.validation = true;
  o.timing = timing;
  o.cold = o.hot = true;
  o.sampling.warmup = 0;
  o.sampling.fixed_samples = 2;
  o.measure_copy_bandwidth = timing;
  std::unique_ptr<BenchRunner> runner;
  try {
    runner = std::make_unique<BenchRunner>(o);
  } catch (const ConfigError& e) {
    if (std::string(e.what()).find("VK_LAYER_KHRONOS_validation") != std::string::npos) return -1;
    throw;
  }
  runner->check_problems(problems, "configs/default.json");
  RunRecords records = runner->run(
      problems, [](const std::string&, size_t, size_t) {}, nullptr);
  EXPECT_TRUE(records.context.validation);
  EXPECT_EQ(records.entries.size(), problems.size() * runner->variants().size());
  return static_cast<int64_t>(runner->context().validation_messages());
}

// The seed and every variant in kernels/*.json on configs/default.json: the validation layer
// must report nothing. Every problem runs verified (uploads, poisoning, dispatches, read-back);
// timing (cold and hot) runs on the first problem only: on lavapipe every cold sample first
// fills a cache-flush buffer of twice the host's last-level cache (1 GB on a 512 MB-L3 host),
// which would make the whole config take many minutes under the layer. When there are
// messages, each variant runs again on its own so that the failure names the ones concerned.
TEST(Validation, EveryShippedVariantIsClean) {
  // The loader unloads the layer when the instance goes; its process-lifetime allocations would
  // then show up in LeakSanitizer (asan build) with unknown frames that tests/sanitizers/lsan.supp
  // cannot match. Kept loaded, they are attributed to the layer and suppressed.
  dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE);
  const std::vector<Problem> problems = load_config_file(kSourceDir + "/configs/default.json");
  const std::vector<Problem> first(problems.begin(), problems.begin() + 1);
  const int64_t verified = validation_messages({}, problems, false);
  if (verified < 0) GTEST_SKIP() << "VK_LAYER_KHRONOS_validation is not installed";
  const int64_t timed = validation_messages({}, first, true);
  if (verified + timed == 0) return;
  std::string noisy;
  for (const auto& v : load_manifests({default_kernels_folder()})) {
    const int64_t n =
        validation_messages({v.name}, problems, false) + validation_messages({v.name}, first, true);
    if (n > 0) noisy += "\n  " + v.name + ": " + std::to_string(n) + " messages (printed above)";
  }
  ADD_FAILURE() << verified + timed << " validation messages in all; variants with messages:"
                << (noisy.empty() ? std::string(" none on their own (the copy-bandwidth probe?)")
                                  : noisy);
}

}  // namespace
}  // namespace gnbench
