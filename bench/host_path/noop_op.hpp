// A benchmark op with an RMSNorm-like signature whose kernel does nothing.
#pragma once

#include "tileops/framework/implementation.hpp"
#include "tileops_bench/generated/bench_ops.gen.hpp"

namespace tileops {

struct NoopCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t rows = 0, n = 0;
  friend bool operator==(const NoopCall&, const NoopCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, rows, n); }
  std::string describe() const { return describe_field("n", n); }
};

class NoopKernel : public KernelInterface<NoopKernel, NoopCall> {
 public:
  static constexpr std::string_view kName = "noop";
  virtual void run(const Tensor& x, const Tensor& y) = 0;
};

class NoopFwdOp final : public gen::NoopFwdOpBase {
 public:
  explicit NoopFwdOp(Params params = {}, Target target = {})
      : NoopFwdOpBase(std::move(params), decl(), std::move(target)) {}
  static const OpDecl& decl() {
    static const OpDecl kDecl{{&NoopKernel::info()}, {}, {}};
    return kDecl;
  }

 private:
  void forward(const Tensor& x, const Tensor& weight, Tensor& y) override {
    const int64_t n = weight.numel();
    const NoopCall call{{x.device()}, x.dtype(), x.numel() / n, n};
    kernel_for<NoopKernel>(call).run(x, y);
  }
};

}  // namespace tileops
