// CUDA source files embedded in the library at build time, by path under src/kernels/cuda.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tileops::cuda {

void register_embedded_source(std::string_view path, std::string_view text);
// The text of an embedded file; throws ContractError when there is none.
const std::string& embedded_source(std::string_view path);
std::vector<std::string> embedded_source_paths();

}  // namespace tileops::cuda
