// --dump DIR: the exact inputs, the reference and every variant's outputs as .npy files,
// so a failure can be studied in NumPy:
//   DIR/<problem>/{x,grad_out,weight}.npy                      float32, x and grad_out [N, C, HW]
//   DIR/<problem>/reference/{grad_input,grad_weight,grad_bias}.npy   float64
//   DIR/<problem>/<variant>/{grad_input,grad_weight,grad_bias}.npy   float32, as the GPU wrote
#pragma once

#include <filesystem>
#include <string>

#include "config/problem.hpp"
#include "inputs/tensors.hpp"

namespace gnbench {

void dump_problem(const std::filesystem::path& dir, const Problem& problem, const Inputs& inputs,
                  const ReferenceOutputs& reference);
void dump_outputs(const std::filesystem::path& dir, const Problem& problem,
                  const std::string& variant, const GpuOutputs& outputs);

}  // namespace gnbench
