// The one rule for names that become file-system paths (problem and variant names are dump
// folders: DIR/<problem>/<variant>/, next to DIR/<problem>/reference/ and the input .npy files).
#pragma once

#include <string>

namespace gnbench {

// Why `name` cannot be a problem or variant name, or "" when it can. The rule: 1 to 255
// characters of [A-Za-z0-9_.-], not starting with '.' (so never '.', '..' or hidden), not
// 'reference' and not ending in '.npy' (both taken by gnbench's own dump files).
std::string path_name_problem(const std::string& name);

}  // namespace gnbench
