// What an exception thrown while an entry ran (or its inputs were uploaded, or its pipeline
// built) means for the entry: the one mapping from errors to an ERROR message.
#pragma once

#include <exception>
#include <string>

namespace gnbench {

class VulkanContext;

// The ERROR message for `error`. A ConfigError is rethrown: the configuration is wrong, not
// the entry. A lost device is marked on `ctx` (naming `where`), so nothing more is submitted.
std::string entry_error_message(std::exception_ptr error, VulkanContext& ctx,
                                const std::string& where);

}  // namespace gnbench
