// A usage or configuration error: the message names the file, the field, the value and the
// rule. main() prints it on one line and exits with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace gnbench {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gnbench
