// The gated activations (SiluAndMul, GeluAndMul, GeluTanhAndMul) on the CPU: one kernel
// template parameterised by the activation, chunks of the flattened output per task, fp32
// arithmetic.
#include "kernels/cpu/activation.hpp"
#include "kernels/cpu/element.hpp"
#include "kernels/cpu/half_convert.hpp"
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
      if constexpr (std::is_same_v<T, Half>) {
        // Through float in chunks, converted in bulk (F16C where the CPU has it).
        constexpr int64_t kChunk = 256;
        float g[kChunk], u[kChunk];
        for (int64_t j0 = 0; j0 < stop; j0 += kChunk) {
          const int64_t w = std::min(kChunk, stop - j0);
          half_to_float(gate + j0, g, w);
          half_to_float(up + j0, u, w);
          for (int64_t j = 0; j < w; ++j) g[j] = activate<A>(g[j]) * u[j];
          float_to_half(g, out + j0, w);
        }
      } else {
        for (int64_t j = 0; j < stop; ++j) {
          out[j] = store<T>(activate<A>(load(gate[j])) * load(up[j]));
        }
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
