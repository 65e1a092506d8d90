// LogSoftmax on the CPU (kernels/cpu/reduction/softmax_cpu.hpp has the routine shared with
// Softmax).
#include "kernels/cpu/reduction/softmax_cpu.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"

namespace tileops::cpu {
namespace {

class LogSoftmaxCpuKernel final : public LogSoftmaxKernel {
 public:
  using Interface = LogSoftmaxKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& output,
           const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      softmax::run<true>(call, x.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<LogSoftmaxCpuKernel> kRegistration("LogSoftmaxFwdOp",
                                                                  "log_softmax_cpu");

}  // namespace
}  // namespace tileops::cpu
