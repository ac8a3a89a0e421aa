// Every error gnbench raises, and the exit code each ends the process with. main() prints the
// message on one line and exits with exit_code_of(error): this is the only mapping.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace gnbench {

// The process exit codes (README, docs/results.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailed = 1,        // a verification failed, or the device or a file operation did
  kExitUsage = 2,         // usage or configuration error; an output the user asked for is missing
  kExitSlower = 3,        // compare: slower than the baseline
  kExitInconclusive = 4,  // compare: too noisy to tell
  kExitInterrupted = 130  // stopped by a signal; what finished was written
};

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, ExitCode code) : std::runtime_error(what), code_(code) {}
  ExitCode exit_code() const { return code_; }

 private:
  ExitCode code_;
};

// A usage or configuration error: the message names the file, the field, the value and the
// rule. Found before any work where possible; a run never turns one into an entry's ERROR.
class ConfigError : public Error {
 public:
  explicit ConfigError(const std::string& what) : Error(what, kExitUsage) {}
};

// The device or its driver failed (not the kernel's answer): an entry's ERROR.
class DeviceError : public Error {
 public:
  explicit DeviceError(const std::string& what) : Error(what, kExitFailed) {}
};

// The fence of a submission did not signal in time: the kernel hung or is far too slow.
class KernelTimeout : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// The driver reported VK_ERROR_DEVICE_LOST (e.g. its watchdog reset a hung kernel): nothing
// more can run on that device.
class DeviceLost : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// An Error's own code; anything else (std::bad_alloc, a failed file write) is kExitFailed.
inline ExitCode exit_code_of(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  return error ? error->exit_code() : kExitFailed;
}

}  // namespace gnbench
