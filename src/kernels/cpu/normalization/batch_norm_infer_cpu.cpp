// BatchNorm inference on the CPU: the running statistics fix one affine map per channel, applied
// to each of the n * c contiguous segments of l elements; the statistics are only read.
#include <vector>

#include "kernels/cpu/element.hpp"
#include "kernels/cpu/float_rows.hpp"
#include "kernels/cpu/normalization/batch_norm_cpu.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename T>
void batch_norm_infer_segments(const BatchNormCall& call, const T* x, const float* running_mean,
                               const float* running_var, const float* weight, const float* bias,
                               T* y) {
  const int64_t c = call.c, l = call.l;
  std::vector<batch_norm::ChannelAffine> affine(static_cast<size_t>(c));
  for (int64_t ch = 0; ch < c; ++ch) {
    affine[ch] =
        batch_norm::channel_affine(call, ch, running_mean[ch], running_var[ch], weight, bias);
  }
  parallel_for(call.n * c, std::max<int64_t>(1, 16384 / std::max<int64_t>(l, 1)),
               [&](int64_t begin, int64_t end) {
                 BulkRowReader<T> reader;
                 BulkRowWriter<T> writer;
                 for (int64_t s = begin; s < end; ++s) {
                   const batch_norm::ChannelAffine& a = affine[s % c];
                   const auto* seg = reader.read(x + s * l, l);
                   auto* out = writer.row(y + s * l, l);
                   for (int64_t j = 0; j < l; ++j)
                     out[j] = store<RowElement<T>>(a.apply(load(seg[j])));
                   writer.commit();
                 }
               });
}

class BatchNormInferCpuKernel final : public BatchNormInferKernel {
 public:
  using Interface = BatchNormInferKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const BatchNormCall& call, const Tensor& x, const Tensor& running_mean,
           const Tensor& running_var, const Tensor& weight, const Tensor& bias,
           const Tensor& output, const Tensor&) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      batch_norm_infer_segments<T>(call, x.data_as<const T>(), running_mean.data_as<const float>(),
                                   running_var.data_as<const float>(),
                                   call.has_weight ? weight.data_as<const float>() : nullptr,
                                   call.has_bias ? bias.data_as<const float>() : nullptr,
                                   output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<BatchNormInferCpuKernel> kRegistration("BatchNormFwdOp",
                                                                      "batch_norm_infer_cpu");

}  // namespace
}  // namespace tileops::cpu
