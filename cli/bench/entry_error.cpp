#include "cli/bench/entry_error.hpp"

#include <vulkan/vulkan_raii.hpp>

#include "base/errors.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {

std::string entry_error_message(std::exception_ptr error, VulkanContext& ctx,
                                const std::string& where) {
  try {
    std::rethrow_exception(error);
  } catch (const ConfigError&) {
    throw;
  } catch (const vk::DeviceLostError& ex) {  // from a call other than a submission
    ctx.mark_lost(where + ": " + ex.what());
    return std::string("device lost: ") + ex.what();
  } catch (const DeviceError& ex) {  // KernelTimeout, DeviceLost (the context knows)
    return ex.what();
  } catch (const vk::SystemError& ex) {
    return std::string("Vulkan error: ") + ex.what();
  } catch (const std::exception& ex) {  // the driver refused an allocation, ...
    return ex.what();
  }
}

}  // namespace gnbench
