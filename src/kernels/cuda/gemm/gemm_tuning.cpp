#include "kernels/cuda/gemm/gemm_tuning.hpp"

#include <fmt/format.h>

#include "kernels/cuda/common/cuda_trial.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {

int choose_gemm_candidate(tuning::Tuner& tuner, const std::string& kernel, const GemmCall& call,
                          int fallback, const Tensor& a, const Tensor& b, const Tensor& d,
                          int64_t workspace_bytes, const GemmEnqueue& enqueue,
                          std::function<bool(int)> repeats_earlier) {
  const int device = device_of(a);
  // A gated call runs other tiles (half as many output columns a tile), so it is its own spec;
  // bias and residual do not move the choice.
  const int64_t gate = call.gated ? 1 + static_cast<int64_t>(call.activation) : 0;
  const tuning::SpecKey key{static_cast<int64_t>(call.dtype) + 16 * gate,
                            call.m,
                            call.n,
                            call.k,
                            call.batch,
                            2 * call.trans_a + call.trans_b};
  return tuner.choose(key, fallback, [&] {
    tuning::SettleInputs settle;
    settle.board = device_name(device);  // the board model the store keys by
    // A batch of problems is its own spec too: 64 heads of 512x512x128 are not one such GEMM.
    settle.spec = fmt::format(
        "{} m={} n={} k={} {}{}{}{}", dtype_name(call.dtype), call.m, call.n, call.k,
        call.trans_a ? 't' : 'n', call.trans_b ? 't' : 'n',
        call.batch > 1 ? fmt::format(" batch={}", call.batch) : "",
        call.gated ? std::string(" ") + std::string(interface_name(call.activation)) : "");
    settle.make_trial = [&]() -> std::unique_ptr<tuning::TuningTrial> {
      require_not_capturing(device, kernel);
      const Tensor scratch = workspace_bytes > 0
                                 ? Tensor::empty(Shape{workspace_bytes}, DType::kUInt8, a.device())
                                 : Tensor();
      return std::make_unique<CudaTrial>(
          device, std::vector<Tensor>{random_device_like(a, 1), random_device_like(b, 2)},
          std::vector<Tensor>{empty_device_like(d)},
          [enqueue, scratch](int c, std::span<const Tensor> in, std::span<const Tensor> out) {
            enqueue(c, in[0].data(), in[1].data(), out[0].data(),
                    scratch.defined() ? scratch.data() : nullptr);
          });
    };
    settle.repeats_earlier = std::move(repeats_earlier);
    return settle;
  });
}

}  // namespace tileops::cuda
