// `gnbench devices`: its one flag.
#include <memory>

#include "cli/commands/commands.hpp"
#include "cli/commands/subcommands.hpp"

namespace gnbench {

Subcommand add_devices_subcommand(CLI::App& app, const Invocation&) {
  auto* c = app.add_subcommand("devices", "List Vulkan devices and their key limits");
  auto json = std::make_shared<bool>(false);
  c->add_flag("--json", *json, "Print JSON");
  return {c, [json] { return devices_command(*json); }};
}

}  // namespace gnbench
