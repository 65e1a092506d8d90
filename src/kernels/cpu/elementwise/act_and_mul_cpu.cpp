// The gated activations (SiluAndMul, GeluAndMul, GeluTanhAndMul) on the CPU: one kernel
// template parameterised by the activation, chunks of the flattened output per task, fp32
// arithmetic.
#include "kernels/cpu/activation.hpp"
#include "kernels/cpu/element.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <GatedActivation A, typename T>
void act_and_mul(const ActAndMulCall<A>& call, const T* x, T* y) {
  const int64_t n = call.n;
  // Flattened over the output so that a single long row (decode) still spreads over threads.
  parallel_for(call.m * n, 8192, [&](int64_t begin, int64_t end) {
    int64_t row = begin / n;
    int64_t col = begin % n;
    for (int64_t i = begin; i < end;) {
      const int64_t stop = std::min(end - i, n - col);
      const T* gate = x + row * 2 * n + col;
      const T* up = gate + n;
      T* out = y + i;
      for (int64_t j = 0; j < stop; ++j) {
        out[j] = store<T>(activate<A>(load(gate[j])) * load(up[j]));
      }
      i += stop;
      ++row;
      col = 0;
    }
  });
}

template <GatedActivation A>
class ActAndMulCpuKernel final : public ActAndMulKernel<A> {
 public:
  using Interface = ActAndMulKernel<A>;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& output) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      act_and_mul<A, T>(call, x.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<ActAndMulCpuKernel<GatedActivation::kSilu>> kSilu(
    "SiluAndMulFwdOp", "silu_and_mul_cpu");
const StaticKernelRegistration<ActAndMulCpuKernel<GatedActivation::kGelu>> kGelu(
    "GeluAndMulFwdOp", "gelu_and_mul_cpu");
const StaticKernelRegistration<ActAndMulCpuKernel<GatedActivation::kGeluTanh>> kGeluTanh(
    "GeluTanhAndMulFwdOp", "gelu_tanh_and_mul_cpu");

}  // namespace
}  // namespace tileops::cpu
