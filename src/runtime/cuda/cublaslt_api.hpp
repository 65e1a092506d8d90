// cuBLASLt, loaded at run time (libcublasLt.so.13 or .12) like the driver and NVRTC: nothing of
// it is needed to build or to run without it. A planned matmul is one GEMM shape with its
// descriptors and the algorithm cuBLASLt's heuristic chose, made once and run many times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "internal_api.hpp"
#include "tileops/core/dtype.hpp"

namespace tileops::cuda {

// Whether libcublasLt could be loaded; never throws.
TILEOPS_INTERNAL_API bool cublaslt_available() noexcept;
// Why it could not be loaded ("" when it was).
TILEOPS_INTERNAL_API std::string cublaslt_unavailable_reason();

// d = op(a) @ op(b) for row-major operands, per problem of a batch stored one after another,
// then + bias[column] and + residual when asked, with fp32 accumulation and one rounding.
struct LtGemmShape {
  DType dtype = DType::kBFloat16;  // of a, b, d, bias and residual: bf16, f16 or f32
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = true;
  bool bias = false, residual = false;
  // Bytes the pointers of a and b, and of d and residual, start on (16, or the element size).
  // The plan lowers each to what every column and problem of the matrix starts on, given its
  // leading dimension and batch stride: cuBLASLt's heuristic takes the figure as given.
  int operand_alignment = 16;
  int output_alignment = 16;
};

class LtGemmPlan {
 public:
  // Throws RuntimeError when cuBLASLt is missing, rejects the shape or has no algorithm for it.
  explicit LtGemmPlan(const LtGemmShape& shape);
  ~LtGemmPlan();
  LtGemmPlan(const LtGemmPlan&) = delete;
  LtGemmPlan& operator=(const LtGemmPlan&) = delete;

  // Scratch the chosen algorithm needs.
  size_t workspace_bytes() const;
  // Enqueues on stream (a CUstream); bias and residual are null unless the shape has them.
  void run(const void* a, const void* b, void* d, const void* bias, const void* residual,
           void* workspace, void* stream) const;

 private:
  struct Descriptors;
  std::unique_ptr<Descriptors> desc_;
};

}  // namespace tileops::cuda
