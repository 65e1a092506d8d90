// The bf16 matrix roof of a CUDA device for `tileops calibrate`: the rate of a large bf16 GEMM
// (fp32 accumulation) run by cuBLAS, loaded at run time. The roof is a property of the device,
// so it is measured with the best GEMM available on it, which today is not tileops' own.
#pragma once

#include <optional>
#include <string>

#include "tileops/core/device.hpp"

namespace tileops::cli {

struct MatrixRoof {
  std::optional<double> tflops;  // nullopt when it could not be measured
  std::string how;               // the library and problem used, or why not measured
};

MatrixRoof measure_matrix_roof(Device device);

}  // namespace tileops::cli
