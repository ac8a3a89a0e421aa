// Issue 19, one class at a time and with generated cases rather than one example each:
// overflowing products, the shared strict JSON reader (configs, manifests, results files),
// names that would escape their dump folder, manifest expressions that evaluate out of range,
// output paths (stdout, devices, symlinks, exclusive creation, one path for two outputs),
// bounded messages, and GLSL include depth. The CLI-level cases are in test_bad_inputs.cpp and
// test_robustness.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/message_text.hpp"
#include "base/output_target.hpp"
#include "base/path_name.hpp"
#include "base/statistics.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/report/results_json.hpp"
#include "kernels/runtime/manifest.hpp"
#include "kernels/runtime/shader_compiler.hpp"
#include "kernels/runtime/variant_checks.hpp"
#include "run_binary.hpp"
#include "source_paths.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

using testing::kSourceDir;

// Runs `f`; returns the ConfigError's message, "" when nothing was thrown. Any other exception
// fails the test (only ConfigError may escape a reader).
template <typename F>
std::string config_error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ConfigError: " << e.what();
    return "other";
  }
  return "";
}

bool one_clean_line(const std::string& s) {
  for (unsigned char ch : s)
    if (ch < 0x20 || ch == 0x7f) return false;
  return true;
}

// ---- arithmetic overflow ----

// Random shapes over the whole u32 range of each size, biased to products near 2^32 and 2^64:
// validate_shape accepts exactly those whose true product (in 128 bits) is below 2^32.
TEST(Overflow, ShapeProductsAreCheckedExactly) {
  std::mt19937_64 rng(19);
  auto pick = [&] {
    switch (rng() % 4) {
      case 0: return static_cast<uint32_t>(rng() % 16 + 1);
      case 1: return static_cast<uint32_t>(uint64_t{1} << (rng() % 32));
      case 2: return static_cast<uint32_t>(UINT32_MAX - rng() % 4);
      default: return static_cast<uint32_t>(rng() % UINT32_MAX + 1);
    }
  };
  int accepted = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    Shape s{pick(), pick(), pick(), 1};
    const unsigned __int128 truth =
        static_cast<unsigned __int128>(s.batch) * s.channels * s.spatial;
    const std::string err = config_error_of([&] { validate_shape(s, "cfg.json", "p"); });
    if (truth < (uint64_t{1} << 32)) {
      EXPECT_EQ(err, "") << s.batch << "*" << s.channels << "*" << s.spatial;
      EXPECT_EQ(s.elements(), static_cast<uint64_t>(truth));
      ++accepted;
    } else {
      EXPECT_NE(err.find("cfg.json: problem 'p'"), std::string::npos) << err;
      // Never a wrapped value: too large stays too large.
      EXPECT_GE(s.elements(), uint64_t{1} << 32);
      ++refused;
    }
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 1000);
  // The issue's examples: 2^64 exactly, and a product that wraps to a small number.
  EXPECT_NE(config_error_of([] { validate_shape({4194304, 2097152, 2097152, 1}, "c", "p"); }), "");
  EXPECT_NE(config_error_of([] { validate_shape({769546, 494770, 48448661, 1}, "c", "p"); }), "");
  EXPECT_EQ((Shape{UINT32_MAX, UINT32_MAX, UINT32_MAX, 1}.tensor_bytes()), UINT64_MAX);
}

// A manifest folder with one variant whose expressions are given; the shader only has to exist.
struct Manifest {
  TempDir dir{"manifest"};
  fs::path write(const std::string& variant_json) const {
    std::ofstream(dir / "k.comp") << "#version 450\nvoid main() {}\n";
    std::ofstream(dir / "k.json") << variant_json;
    return dir.path() / "k.json";
  }
  std::vector<VariantSpec> load(const std::string& variant_json) const {
    const fs::path file = write(variant_json);
    return load_manifest_text(testing::slurp(file), file);
  }
};

std::string variant_with(const std::string& name, const std::string& dispatch,
                         const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", )" + extra +
         R"("buffers": {"x": {"tensor": "x"}, "gi": {"tensor": "grad_input"},
             "wb": {"packed": ["grad_weight", "grad_bias"]}},
  "stages": [{"name": "s", "shader": "k.comp", "dispatch": [)" +
         dispatch + R"(], "bindings": ["x", "gi", "wb"]}]})";
}

DeviceInfo test_device() {
  DeviceInfo d;
  d.limits.subgroup_size = 8;
  d.limits.max_workgroup_count = {65535, 65535, 65535};
  d.limits.max_storage_buffer_range = uint64_t{1} << 27;
  d.limits.max_memory_allocation_size = uint64_t{1} << 30;
  d.limits.device_local_memory = uint64_t{1} << 32;
  return d;
}

// Dispatches, params, traffic and scratch that evaluate to 0, negative, past u32/int64: each a
// ConfigError naming the manifest, the variant and the field, found before any entry runs.
TEST(Overflow, EveryManifestExpressionIsCheckedBeforeTheRun) {
  Manifest m;
  const Shape shape{2, 64, 1024, 8};
  const DeviceInfo device = test_device();
  struct Case {
    std::string dispatch, extra, field;
  };
  const std::vector<Case> cases = {
      {"\"N - N\"", "", "dispatch[0]"},
      {"\"0 - 1\"", "", "dispatch[0]"},
      {"\"E * E * E\"", "", "dispatch[0]"},  // int64 overflow in evaluation
      {"\"4294967296\"", "", "dispatch[0]"},
      {"1, \"-5\"", "", "dispatch[1]"},
      {"\"N * G\"", R"("params": ["C - 65"],)", "params[0]"},
      {"\"N * G\"", R"("params": ["E * E"],)", "params[0]"},
      {"\"N * G\"", R"("traffic_bytes": "0 - E",)", "traffic_bytes"},
      {"\"N * G\"", R"("traffic_bytes": "E * E * E * E",)", "traffic_bytes"},
  };
  for (const auto& c : cases) {
    const auto variants = m.load(variant_with("bad", c.dispatch, c.extra));
    const std::string err =
        config_error_of([&] { check_variant_expressions(variants.at(0), shape, device); });
    EXPECT_NE(err.find("k.json: variant 'bad'"), std::string::npos) << c.dispatch << " " << err;
    EXPECT_NE(err.find(c.field), std::string::npos) << err;
  }
  // A dispatch beyond the device's limits on a large problem stays a SKIP, not an error.
  const auto ok = m.load(variant_with("ok", "\"E\""));
  EXPECT_EQ(config_error_of([&] {
              check_variant_expressions(ok.at(0), {64, 64, 4096, 8}, device);
            }),
            "");
  // Random large products: never an exception other than ConfigError, never a wrapped pass.
  std::mt19937_64 rng(7);
  const auto mul = m.load(variant_with("mul", "\"N * C * HW * G * SUBGROUP\""));
  for (int i = 0; i < 2000; ++i) {
    Shape s{static_cast<uint32_t>(rng() % UINT32_MAX + 1), static_cast<uint32_t>(rng() % 4096 + 1),
            static_cast<uint32_t>(rng() % UINT32_MAX + 1), 1};
    const unsigned __int128 truth =
        static_cast<unsigned __int128>(s.batch) * s.channels * s.spatial * s.groups * 8;
    const std::string err = config_error_of([&] { check_variant_expressions(mul[0], s, device); });
    if (truth > UINT32_MAX) {
      EXPECT_NE(err, "") << s.batch << " " << s.channels << " " << s.spatial;
    }
  }
}

// ---- names that escape ----

TEST(Names, OneRuleForEveryNameThatBecomesAPath) {
  for (const char* bad : {"", ".", "..", "...", ".hidden", "reference", "x.npy", "a/b", "../x",
                          "a\\b", "a b", "a\nb", "\x01", "/"})
    EXPECT_NE(path_name_problem(bad), "") << bad;
  for (const char* good : {"seed", "gn_fused_v4", "a.b", "a-b", "reference2", "npy"})
    EXPECT_EQ(path_name_problem(good), "") << good;
  // Random names: whatever is accepted is one plain path component inside its folder.
  std::mt19937 rng(3);
  const std::string alphabet = "ab./_-\\\n\x7f reference.npy";
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string name;
    for (size_t n = rng() % 12; n > 0; --n) name += alphabet[rng() % alphabet.size()];
    if (!path_name_problem(name).empty()) continue;
    ++accepted;
    const fs::path p = fs::path("dump") / "problem" / name;
    EXPECT_EQ(p.lexically_normal().parent_path(), fs::path("dump/problem")) << name;
    EXPECT_NE(name.front(), '.');
    EXPECT_NE(name, "reference");
  }
  EXPECT_GT(accepted, 100);
  // Variants and problems use it.
  Manifest m;
  for (const char* name : {"..", "reference", ".x", "grad_input.npy"}) {
    const std::string err = config_error_of([&] { m.load(variant_with(name, "1")); });
    EXPECT_NE(err.find("field 'name'"), std::string::npos) << name << ": " << err;
  }
  EXPECT_NE(
      config_error_of([] {
        parse_config_text(
            R"({"problems": [{"name": ".x", "batch": 1, "channels": 4, "spatial": 4, "groups": 1}]})",
            "c.json");
      }),
      "");
}

// ---- the shared strict JSON reader ----

TEST(JsonReader, NulBytesTrailingGarbageAndDuplicateKeysAreRefusedWithLineAndColumn) {
  const std::string good = R"({"problems": [{"name": "a", "batch": 1, "channels": 4,
                                "spatial": 4, "groups": 1}]})";
  EXPECT_EQ(config_error_of([&] { parse_config_text(good, "c.json"); }), "");
  std::string nul = good + std::string("\0garbage", 8);
  std::string err = config_error_of([&] { parse_config_text(nul, "c.json"); });
  EXPECT_NE(err.find("c.json:2:"), std::string::npos) << err;
  EXPECT_NE(err.find("NUL"), std::string::npos) << err;
  err = config_error_of([&] { parse_config_text(good + " x", "c.json"); });
  EXPECT_NE(err.find("c.json:2:"), std::string::npos) << err;
  // Manifests: the same reader (duplicate keys were silently accepted there).
  Manifest m;
  const std::string dup = R"({"name": "a", "name": "b", )" + variant_with("a", "1").substr(14);
  err = config_error_of([&] { m.load(dup); });
  EXPECT_NE(err.find("duplicate key"), std::string::npos) << err;
  err = config_error_of([&] { m.load(variant_with("a", "1") + std::string("\0", 1)); });
  EXPECT_NE(err.find("NUL"), std::string::npos) << err;
}

// Random byte mutations of real configs, manifests and a results file: the readers throw only
// ConfigError, and every message is one line without control characters, bounded in length.
TEST(JsonReader, RandomMutationsGiveOneLineConfigErrors) {
  const std::string config = testing::slurp(kSourceDir + "/configs/default.json");
  const std::string manifest = testing::slurp(kSourceDir + "/kernels/seed.json");
  std::mt19937 rng(19);
  const std::string bytes = std::string("\0\n\r\x1b\"{}[],:-.0123456789eE", 25) + "\x80\xff";
  int errors = 0;
  for (int i = 0; i < 600; ++i) {
    for (const std::string* base : {&config, &manifest}) {
      std::string text = *base;
      for (int k = rng() % 3 + 1; k > 0; --k) {
        const size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0: text[at] = bytes[rng() % bytes.size()]; break;
          case 1: text.insert(at, 1, bytes[rng() % bytes.size()]); break;
          default: text.erase(at, rng() % 8 + 1);
        }
      }
      const std::string err = config_error_of([&] {
        if (base == &config)
          parse_config_text(text, "m.json");
        else
          load_manifest_text(text, kSourceDir + "/kernels/seed.json");
      });
      if (err.empty()) continue;
      ++errors;
      EXPECT_TRUE(one_clean_line(err)) << err;
      EXPECT_LT(err.size(), 1500u) << err;
    }
  }
  EXPECT_GT(errors, 300);
}

// A small valid results file, made by the writer itself.
nlohmann::json results_doc() {
  RunRecords r;
  EntryRecord e;
  e.problem.name = "p";
  e.problem.shape = {2, 8, 16, 4};
  e.variant = "seed";
  e.verdict = Verdict::kPass;
  e.trials = 1;
  e.verification.pass = true;
  e.invariants.pass = true;
  TensorMetrics m;
  m.tensor = "grad_input";
  m.elements = 256;
  m.pass = true;
  e.verification.tensors.push_back(m);
  TimingResult t;
  t.mode = "cold";
  t.samples_ns = {900, 1000, 1100};
  t.total = summarize(t.samples_ns);
  e.cold = t;
  r.entries.push_back(e);
  return results_to_json(r);
}

TEST(ResultsReader, EveryDamagedFieldIsAConfigErrorNamingTheFile) {
  const nlohmann::json good = results_doc();
  EXPECT_EQ(config_error_of([&] { validate_results_document(good, "r.json"); }), "");
  using Edit = std::function<void(nlohmann::json&)>;
  auto rec = [](nlohmann::json& d) -> nlohmann::json& {
    for (auto& b : d["benchmarks"])
      if (b.contains("gnbench")) return b["gnbench"];
    throw std::logic_error("no record");
  };
  const std::vector<std::pair<std::string, Edit>> edits = {
      {"benchmarks {}", [](auto& d) { d["benchmarks"] = nlohmann::json::object(); }},
      {"no benchmarks", [](auto& d) { d.erase("benchmarks"); }},
      {"empty benchmarks", [](auto& d) { d["benchmarks"] = nlohmann::json::array(); }},
      {"string schema", [](auto& d) { d["context"]["gnbench"]["schema_version"] = "1"; }},
      {"float schema", [](auto& d) { d["context"]["gnbench"]["schema_version"] = 1.5; }},
      {"trials 0", [&](auto& d) { rec(d)["trials"] = 0; }},
      {"trials -1", [&](auto& d) { rec(d)["trials"] = -1; }},
      {"trials 1.5", [&](auto& d) { rec(d)["trials"] = 1.5; }},
      {"batch 0", [&](auto& d) { rec(d)["problem"]["batch"] = 0; }},
      {"channels -8", [&](auto& d) { rec(d)["problem"]["channels"] = -8; }},
      {"groups not dividing", [&](auto& d) { rec(d)["problem"]["groups"] = 3; }},
      {"huge product",
       [&](auto& d) {
         rec(d)["problem"]["batch"] = 4294967295u;
         rec(d)["problem"]["spatial"] = 4294967295u;
       }},
      {"samples 0", [&](auto& d) { rec(d)["cold"]["ns"]["samples"] = 0; }},
      {"samples -3", [&](auto& d) { rec(d)["cold"]["ns"]["samples"] = -3; }},
      {"negative sample", [&](auto& d) { rec(d)["cold"]["samples_ns"][0] = -1.0; }},
      {"bytes -1", [&](auto& d) { rec(d)["required_bytes"] = -1; }},
      {"record not an object", [&](auto& d) { rec(d) = 3; }},
      // What compare judges on must be the run's own: no median, a median of 0, no or zero
      // samples, a count or a median the samples do not have.
      {"no median", [&](auto& d) { rec(d)["cold"]["ns"].erase("median"); }},
      {"median 0", [&](auto& d) { rec(d)["cold"]["ns"]["median"] = 0; }},
      {"median 10x", [&](auto& d) { rec(d)["cold"]["ns"]["median"] = 10000.0; }},
      {"median null", [&](auto& d) { rec(d)["cold"]["ns"]["median"] = nullptr; }},
      {"median string", [&](auto& d) { rec(d)["cold"]["ns"]["median"] = "1000"; }},
      {"no samples", [&](auto& d) { rec(d)["cold"]["samples_ns"] = nlohmann::json::array(); }},
      {"zero sample", [&](auto& d) { rec(d)["cold"]["samples_ns"][0] = 0; }},
      {"count 1 of 3", [&](auto& d) { rec(d)["cold"]["ns"]["samples"] = 1; }},
      {"count 300 of 3", [&](auto& d) { rec(d)["cold"]["ns"]["samples"] = 300; }},
      {"quartiles out of order", [&](auto& d) { rec(d)["cold"]["ns"]["q1"] = 1050.0; }},
      {"mode 1", [&](auto& d) { rec(d)["cold"]["mode"] = 1; }},
      {"wall_s string", [&](auto& d) { rec(d)["cold"]["wall_s"] = "1"; }},
      {"eps string", [&](auto& d) { rec(d)["problem"]["eps"] = "1e-5"; }},
      {"eps 1e300", [&](auto& d) { rec(d)["problem"]["eps"] = 1e300; }},
      {"eps missing", [&](auto& d) { rec(d)["problem"].erase("eps"); }},
      {"kind 3", [&](auto& d) { rec(d)["problem"]["distribution"]["kind"] = 3; }},
      {"no tolerances", [&](auto& d) { rec(d)["problem"].erase("tolerances"); }},
      {"expect 3", [&](auto& d) { rec(d)["problem"]["expect"] = 3; }},
      {"no message", [&](auto& d) { rec(d).erase("message"); }},
      {"verdict MAYBE", [&](auto& d) { rec(d)["verdict"] = "MAYBE"; }},
      {"no invariants", [&](auto& d) { rec(d).erase("invariants"); }},
      {"pass 1", [&](auto& d) { rec(d)["verification"]["pass"] = 1; }},
      {"no tensor name", [&](auto& d) { rec(d)["verification"]["tensors"][0].erase("tensor"); }},
      {"max_scaled string",
       [&](auto& d) { rec(d)["verification"]["tensors"][0]["max_scaled"] = "0"; }},
      {"no bitwise", [&](auto& d) { rec(d).erase("bitwise_reproducible"); }},
      {"checked_after_timing 0", [&](auto& d) { rec(d)["checked_after_timing"] = 0; }},
      {"duplicate entry",
       [&](auto& d) {
         for (auto& b : d["benchmarks"])
           if (b.contains("gnbench")) {
             d["benchmarks"].push_back(b);
             break;
           }
       }},
  };
  for (const auto& [what, edit] : edits) {
    nlohmann::json doc = good;
    edit(doc);
    const std::string err = config_error_of([&] {
      validate_results_document(doc, "r.json");
      results_from_json(doc, "r.json");
    });
    EXPECT_EQ(err.rfind("r.json: ", 0), 0u) << what << ": " << err;
    EXPECT_TRUE(one_clean_line(err)) << err;
    // Named by the checks (the field, and its value unless missing), never the JSON library.
    EXPECT_EQ(err.find("json.exception"), std::string::npos) << what << ": " << err;
  }
}

// Any node of a valid results document replaced by a value of another type: accepted, or one
// ConfigError line naming the file, and where the reader got to when the JSON library refused.
TEST(ResultsReader, GeneratedDamageIsAConfigErrorNamingWhere) {
  const nlohmann::json good = results_doc();
  std::vector<nlohmann::json::json_pointer> paths;
  std::function<void(const nlohmann::json&, const nlohmann::json::json_pointer&)> walk =
      [&](const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
        if (!at.empty()) paths.push_back(at);
        if (j.is_object())
          for (const auto& [k, v] : j.items()) walk(v, at / k);
        if (j.is_array())
          for (size_t i = 0; i < std::min<size_t>(j.size(), 3); ++i) walk(j[i], at / i);
      };
  walk(good, nlohmann::json::json_pointer());
  const std::vector<nlohmann::json> values = {nullptr,
                                              true,
                                              -1,
                                              0,
                                              2.5,
                                              "",
                                              "x",
                                              nlohmann::json::array(),
                                              nlohmann::json::object(),
                                              nlohmann::json{{"a", 1}}};
  std::mt19937 rng(2026);
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    nlohmann::json doc = good;
    doc[paths[rng() % paths.size()]] = values[rng() % values.size()];
    const std::string err = config_error_of([&] {
      validate_results_document(doc, "r.json");
      results_from_json(doc, "r.json");
    });
    if (err.empty()) continue;
    ++refused;
    EXPECT_EQ(err.rfind("r.json: ", 0), 0u) << err;
    EXPECT_TRUE(one_clean_line(err)) << err;
    if (err.find("malformed gnbench results") != std::string::npos)
      EXPECT_TRUE(err.find(" in context") != std::string::npos ||
                  err.find(" in benchmarks[") != std::string::npos)
          << err;
  }
  EXPECT_GT(refused, 100);
}

TEST(ResultsReader, FilesAreReadBoundedAndStrictly) {
  TempDir tmp("results");
  const std::string text = results_doc().dump(1);
  std::ofstream(tmp / "ok.json") << text;
  EXPECT_EQ(read_results_file(tmp / "ok.json").entries.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"1e400", text.substr(0, text.rfind('}')) + ", \"x\": 1e400}"},
      {"NUL", text + std::string("\0", 1) + "junk"},
      {"garbage", text + "]"},
      {"duplicate", "{\"context\": {}, " + text.substr(1)},
  };
  for (const auto& [what, body] : bad) {
    std::ofstream(tmp / "bad.json", std::ios::binary) << body;
    const std::string err = config_error_of([&] { read_results_file(tmp / "bad.json"); });
    EXPECT_EQ(err.rfind(tmp / "bad.json", 0), 0u) << what << ": " << err;
  }
  // A device: refused at once (it used to read until memory ran out).
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(config_error_of([] { read_results_file("/dev/zero"); }).find("device"),
            std::string::npos);
  // A FIFO without a writer: refused (empty), never a hang.
  ASSERT_EQ(::mkfifo((tmp / "fifo").c_str(), 0644), 0);
  EXPECT_NE(config_error_of([&] { read_results_file(tmp / "fifo"); }), "");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
}

// The stricter reader still reads what gnbench wrote before it.
TEST(ResultsReader, ShippedResultsFilesAreAccepted) {
  EXPECT_GT(read_results_file(kSourceDir + "/results/lavapipe/baseline.json").entries.size(), 0u);
  EXPECT_EQ(read_results_file(kSourceDir + "/tests/data/cli_bad/results_good.json").entries.size(),
            1u);
}

// --validate: the number of messages is part of the results file and read back.
TEST(ResultsReader, ValidationMessagesAreStored) {
  nlohmann::json doc = results_doc();
  doc["context"]["gnbench"]["validation_messages"] = 3;
  validate_results_document(doc, "r.json");
  EXPECT_EQ(results_from_json(doc, "r.json").context.validation_messages, 3u);
  doc["context"]["gnbench"]["validation_messages"] = -3;
  EXPECT_NE(config_error_of([&] { validate_results_document(doc, "r.json"); }), "");
}

// ---- silent acceptance ----

TEST(SilentAcceptance, IntegersWrittenAsInexactFloatsAreRefused) {
  auto config = [](const std::string& seed) {
    return R"({"problems": [{"name": "a", "batch": 1, "channels": 4, "spatial": 4, "groups": 1,
               "seed": )" +
           seed + "}]}";
  };
  EXPECT_EQ(config_error_of([&] { parse_config_text(config("12.0"), "c.json"); }), "");
  EXPECT_EQ(config_error_of([&] { parse_config_text(config("9007199254740993"), "c.json"); }), "");
  std::mt19937_64 rng(53);
  for (int i = 0; i < 200; ++i) {
    const uint64_t v = (uint64_t{1} << 53) + rng() % (uint64_t{1} << 62);
    const std::string err =
        config_error_of([&] { parse_config_text(config(std::to_string(v) + ".0"), "c.json"); });
    EXPECT_NE(err.find("field 'seed'"), std::string::npos) << v << ": " << err;
  }
}

// ---- output paths ----

TEST(OutputTargets, StdoutDevicesSymlinksAndEmptyPaths) {
  TempDir tmp("targets");
  using Kind = OutputTarget::Kind;
  EXPECT_NE(config_error_of([] { check_output_target("--json", "", true); }).find("empty"),
            std::string::npos);
  EXPECT_EQ(check_output_target("--json", "-", false).kind, Kind::kStdout);
  // Devices and FIFOs are written through, with or without --force; never replaced.
  for (bool force : {false, true}) {
    const OutputTarget t = check_output_target("--json", "/dev/null", force);
    EXPECT_EQ(t.kind, Kind::kWriteThrough);
    write_output(t, "{}\n");
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
  }
  // A symlink to a file: with --force the file it points to is replaced, the symlink stays.
  std::ofstream(tmp / "real.json") << "old";
  fs::create_symlink(tmp / "real.json", tmp / "link.json");
  EXPECT_NE(config_error_of([&] {
              check_output_target("--json", tmp / "link.json", false);
            }).find("exists"),
            std::string::npos);
  write_output(check_output_target("--json", tmp / "link.json", true), "new");
  EXPECT_TRUE(fs::is_symlink(tmp / "link.json"));
  EXPECT_EQ(testing::slurp(tmp / "real.json"), "new");
  // The true cause: a symlink loop, a dangling symlink, a missing folder.
  fs::create_symlink(tmp / "loop1", tmp / "loop2");
  fs::create_symlink(tmp / "loop2", tmp / "loop1");
  EXPECT_NE(
      config_error_of([&] { check_output_target("--json", tmp / "loop1", true); }).find("loop"),
      std::string::npos);
  fs::create_symlink(tmp / "absent", tmp / "dangling");
  EXPECT_NE(config_error_of([&] {
              check_output_target("--json", tmp / "dangling", true);
            }).find("symlink to nothing"),
            std::string::npos);
  EXPECT_NE(config_error_of([&] {
              check_output_target("--json", tmp / "no/x.json", true);
            }).find("does not exist"),
            std::string::npos);
}

TEST(OutputTargets, OnePathForTwoOutputsIsRefused) {
  TempDir tmp("same");
  std::ofstream(tmp / "a.json") << "x";
  fs::create_symlink(tmp / "a.json", tmp / "b.json");
  const std::vector<std::pair<std::string, std::string>> same = {
      {tmp / "a.json", tmp / "a.json"},
      {tmp / "a.json", tmp.path().string() + "/./a.json"},
      {tmp / "a.json", tmp / "b.json"},
      {tmp / "new.json", tmp.path().string() + "//new.json"},
      {"-", "-"}};
  for (const auto& [x, y] : same) {
    const std::string err = config_error_of([&] {
      check_distinct_outputs(
          {check_output_target("--json", x, true), check_output_target("--csv", y, true)});
    });
    EXPECT_NE(err.find("same file"), std::string::npos) << x << " " << y << ": " << err;
  }
  // Relative spellings of one new or existing file, from the folder it is in.
  fs::create_directories(tmp / "sub");
  const fs::path cwd = fs::current_path();
  fs::current_path(tmp.path());
  for (const std::string name : {"new.json", "a.json"})
    for (const std::string other : {"./" + name, "sub/../" + name, (tmp / name), "sub/./../" + name,
                                    "./sub/.." + ("/" + name)}) {
      const std::string err = config_error_of([&] {
        check_distinct_outputs(
            {check_output_target("--json", name, true), check_output_target("--csv", other, true)});
      });
      EXPECT_NE(err.find("same file"), std::string::npos) << name << " " << other << ": " << err;
    }
  fs::current_path(cwd);
  // "link/.." is the folder above link's target: one file with other/z.json, not with z.json.
  fs::create_directories(tmp / "other/deep");
  fs::create_directory_symlink(tmp / "other/deep", tmp / "lnk");
  const std::string via_link = tmp.path().string() + "/lnk/../z.json";
  EXPECT_NE(config_error_of([&] {
              check_distinct_outputs({check_output_target("--json", tmp / "other/z.json", true),
                                      check_output_target("--csv", via_link, true)});
            }).find("same file"),
            std::string::npos);
  EXPECT_EQ(config_error_of([&] {
              check_distinct_outputs({check_output_target("--json", tmp / "z.json", true),
                                      check_output_target("--csv", via_link, true)});
            }),
            "");
  EXPECT_EQ(config_error_of([&] {
              check_distinct_outputs({check_output_target("--json", tmp / "x.json", true),
                                      check_output_target("--csv", tmp / "x.csv", true)});
            }),
            "");
}

// Without --force a new file is created exclusively: of threads racing to create one path,
// exactly one succeeds each round, and the file holds that one's complete contents.
TEST(OutputTargets, ConcurrentCreationOfOneNewPathHasOneWinner) {
  TempDir tmp("race");
  for (int round = 0; round < 20; ++round) {
    const std::string path = tmp / ("out" + std::to_string(round) + ".json");
    std::atomic<int> wins{0}, ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        const OutputTarget target = check_output_target("--json", path, false);
        ++ready;
        while (ready < 4) std::this_thread::yield();
        try {
          write_output(target, std::string(1000, static_cast<char>('a' + t)));
          ++wins;
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("not replaced"), std::string::npos) << e.what();
        }
      });
    for (auto& th : threads) th.join();
    EXPECT_EQ(wins, 1) << path;
    const std::string text = testing::slurp(path);
    EXPECT_EQ(text.size(), 1000u);
    EXPECT_EQ(text, std::string(1000, text[0]));
  }
  for (const auto& e : fs::directory_iterator(tmp.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// ---- messages ----

TEST(Messages, EscapedBoundedOneLine) {
  std::vector<std::string> names;
  for (int i = 0; i < 100000; ++i) names.push_back("problem_" + std::to_string(i));
  const auto start = std::chrono::steady_clock::now();
  const std::string err =
      config_error_of([&] { select_by_patterns(names, {"*"}, "--problem", "problems"); });
  EXPECT_EQ(err, "");  // 100,000 names selected in linear time
  const std::string none =
      config_error_of([&] { select_by_patterns(names, {"x\n*"}, "--problem", "problems"); });
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_NE(none.find("and 99,936 more"), std::string::npos) << none.substr(0, 300);
  EXPECT_LT(none.size(), 3000u);
  EXPECT_TRUE(one_clean_line(none)) << none;
  EXPECT_EQ(one_line("a\nb\x1b[31m"), "a\\x0ab\\x1b[31m");
  EXPECT_EQ(one_line(std::string(5000, 'x')).size(),
            2000u + std::string("... (3000 more bytes)").size());
  // Keys with control characters, in configs and manifests.
  const std::string cfg = config_error_of(
      [] { parse_config_text("{\"a\\nb\\u001b\": 1, \"problems\": []}", "c.json"); });
  EXPECT_TRUE(one_clean_line(cfg)) << cfg;
  EXPECT_NE(cfg.find("a\\x0ab\\x1b"), std::string::npos) << cfg;
}

// ---- GLSL #include depth ----

TEST(ShaderIncludes, SelfIncludeIsBoundedAndNamed) {
  TempDir tmp("include");
  std::ofstream(tmp / "self.glsl") << "#include \"self.glsl\"\nfloat f() { return 1.0; }\n";
  std::ofstream(tmp / "main.comp") << "#version 450\n#extension GL_GOOGLE_include_directive : "
                                      "require\n#include \"self.glsl\"\nvoid main() {}\n";
  const auto start = std::chrono::steady_clock::now();
  const std::string err = config_error_of([&] { compile_glsl(tmp.path() / "main.comp", {}); });
  EXPECT_NE(err.find("nested deeper than"), std::string::npos) << err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
}

}  // namespace
}  // namespace gnbench
