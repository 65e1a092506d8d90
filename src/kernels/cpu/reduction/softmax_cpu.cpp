// Softmax on the CPU (kernels/cpu/reduction/softmax_cpu.hpp has the routine shared with
// LogSoftmax).
#include "kernels/cpu/reduction/softmax_cpu.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops::cpu {
namespace {

class SoftmaxCpuKernel final : public SoftmaxKernel {
 public:
  using Interface = SoftmaxKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& output,
           const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      softmax::run<false>(call, x.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<SoftmaxCpuKernel> kRegistration("SoftmaxFwdOp", "softmax_cpu");

}  // namespace
}  // namespace tileops::cpu
