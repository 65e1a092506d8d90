// GemmFwdOp: d = op(a) @ op(b), where op(a) is a ([M, K]) or a^T (a is [K, M]) when trans_a,
// and op(b) is b^T (b is [N, K]) when trans_b or b ([K, N]) otherwise.
#pragma once

#include "tileops/generated/gemm.gen.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"

namespace tileops {

struct GemmCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  bool trans_a = false;
  bool trans_b = true;
  // a and b start on 16-byte boundaries (what TMA and 16-byte loads need; tensors from the
  // allocators always do, views at an element offset may not).
  bool aligned16 = true;
  friend bool operator==(const GemmCall&, const GemmCall&) = default;
  size_t hash() const {
    return CallHasher::of(device, dtype, m, n, k, trans_a, trans_b, aligned16);
  }
  std::string describe() const;
};

// Interface "gemm": a, b and d are contiguous; a is [m, k] ([k, m] when trans_a), b is [n, k]
// when trans_b ([k, n] otherwise) and d is [m, n].
class GemmKernel : public KernelInterface<GemmKernel, GemmCall> {
 public:
  static constexpr std::string_view kName = "gemm";
  // Scratch memory run needs for call, in bytes (0: none): split-K partial sums, for example.
  // The op allocates it on the call's device through the tensor allocator and hands it to run,
  // so no kernel allocates, and a CUDA-graph capture records the allocation like an output's.
  virtual int64_t workspace_bytes(const GemmCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
                   const Tensor& workspace) = 0;
};

class GemmFwdOp final : public gen::GemmFwdOpBase {
 public:
  explicit GemmFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& a, const Tensor& b, Tensor& d) override;
};

}  // namespace tileops
