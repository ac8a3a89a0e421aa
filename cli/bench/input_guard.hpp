// Keeps every variant's inputs isolated from the variants run before it: after a variant's
// runs, reads x, grad_out and weight back from the device, compares them bit for bit with the
// host copy they were uploaded from, and uploads again whatever changed. A kernel that writes
// into its inputs is then blamed itself, and the next variant gets the original inputs.
#pragma once

#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench {

class DeviceInputs;
class Transfer;

class InputGuard {
 public:
  // `inputs` must be what `device` was uploaded from; all three must outlive the guard.
  InputGuard(Transfer& transfer, const DeviceInputs& device, const Inputs& inputs,
             const Shape& shape);

  // Compares every input with its host copy and uploads the changed ones again. When one
  // changed and `first_write` is empty, sets it to one line naming each changed input, how
  // many elements changed, the first one and `when`, e.g. "wrote into input x: 96 of 4096
  // elements changed, first at (n=0, c=0, hw=0), during its timed runs". Returns whether
  // any input had changed.
  bool check_and_restore(std::string& first_write, const std::string& when);

 private:
  Transfer& transfer_;
  const DeviceInputs& device_;
  const Inputs& inputs_;
  Shape shape_;
  // One read-back chunk for every check: allocating (and zeroing) it per call cost more than
  // the read-back itself on the H200 (gpu-log run 22).
  std::vector<float> chunk_;
};

}  // namespace gnbench
