// --dump DIR: the exact inputs, the reference and every variant's outputs as .npy files,
// so a failure can be studied in NumPy or checked against PyTorch (docs/config.md):
//   DIR/<problem>/meta.json                                    shape, eps, seed, distribution,
//                                                              variants, gnbench version
//   DIR/<problem>/{x,grad_out,weight}.npy                      float32, x and grad_out [N, C, HW]
//   DIR/<problem>/{mean,rstd}.npy                              float64 [N, G], the reference's
//                                                              statistics (rstd = 1/sqrt(var+eps))
//   DIR/<problem>/reference/{grad_input,grad_weight,grad_bias}.npy   float64
//   DIR/<problem>/<variant>/{grad_input,grad_weight,grad_bias}.npy   float32, as the GPU wrote
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/problem.hpp"
#include "base/tensors.hpp"

namespace gnbench {

// `variants`: the variants whose outputs are dumped next to the reference.
void dump_problem(const std::filesystem::path& dir, const Problem& problem, const Inputs& inputs,
                  const ReferenceOutputs& reference, const std::vector<std::string>& variants);
void dump_outputs(const std::filesystem::path& dir, const Problem& problem,
                  const std::string& variant, const GpuOutputs& outputs);

}  // namespace gnbench
