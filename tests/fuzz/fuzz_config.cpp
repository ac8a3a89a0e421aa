// libFuzzer target: config parsing (parse_config_text). Any input may be rejected with a
// ConfigError; anything else (another exception, a crash, a sanitizer report, a hang) is a bug.
// Built and run by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/errors.hpp"
#include "cli/config/config_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    gnbench::parse_config_text(text, "fuzz.json");
  } catch (const gnbench::ConfigError&) {
  }
  return 0;
}
