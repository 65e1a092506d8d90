// SiluAndMul on the CPU: chunks of the flattened output per task, fp32 arithmetic.
#include <cmath>

#include "kernels/cpu/element.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename T>
void silu_and_mul(const SiluAndMulCall& call, const T* x, T* y) {
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
        const float g = load(gate[j]);
        out[j] = store<T>(g / (1.0f + std::exp(-g)) * load(up[j]));
      }
      i += stop;
      ++row;
      col = 0;
    }
  });
}

class SiluAndMulCpuKernel final : public SiluAndMulKernel {
 public:
  using Interface = SiluAndMulKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const SiluAndMulCall& call, const Tensor& x, const Tensor& output) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      silu_and_mul<T>(call, x.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<SiluAndMulCpuKernel> kRegistration("SiluAndMulFwdOp",
                                                                  "silu_and_mul_cpu");

}  // namespace
}  // namespace tileops::cpu
