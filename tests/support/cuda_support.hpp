// Running ops on a CUDA device in tests: inputs made on the CPU and copied over, outputs
// poisoned (every byte 0xff: NaN in every float type) before the call, results copied back and
// compared element by element with the float64 reference.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "support/scoped_state.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::testing {

#define TILEOPS_REQUIRE_CUDA()                                           \
  do {                                                                   \
    if (!::tileops::cuda::available()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

// A device copy of t whose data pointer is `offset` elements past an allocation boundary (so
// offset 1 gives a pointer that is not 16-byte aligned).
Tensor device_copy(const Tensor& t, int offset = 0);
Tensor host_copy(const Tensor& t);

// Takes cuBLASLt out of GEMM dispatch while alive (TILEOPS_CUBLASLT=0, restored after), for tests
// of tileops's own kernels that expect the CUDA-core fallback where cuBLASLt would serve.
class CublasLtSwitchedOff {
 public:
  CublasLtSwitchedOff() : off_("TILEOPS_CUBLASLT", "0") {}

 private:
  ScopedEnv off_;
};

::testing::AssertionResult cuda_matches_reference(Op& op,
                                                  const std::vector<std::optional<Shape>>& shapes,
                                                  DType dtype, bool misaligned = false);

// Changes the host inputs made from the reference's generator before they are copied over, for
// values the generator does not make (rows far from zero, say); seed is the run's fresh seed.
using InputEdit = std::function<void(std::vector<Tensor>& host_inputs, uint64_t seed)>;

::testing::AssertionResult cuda_matches_reference(Op& op,
                                                  const std::vector<std::optional<Shape>>& shapes,
                                                  DType dtype, const InputEdit& edit,
                                                  bool misaligned = false);

}  // namespace tileops::testing
