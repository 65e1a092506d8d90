// BatchNorm training on the CPU, any shape ([n, c, l]): one channel per task. Three passes over
// the channel's n segments of l contiguous elements: the mean, the variance (sum of
// (x - mean)^2), then the normalized output; fp32 accumulation.
#include "kernels/cpu/element.hpp"
#include "kernels/cpu/float_rows.hpp"
#include "kernels/cpu/normalization/batch_norm_cpu.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename T>
void batch_norm_train_channels(const BatchNormCall& call, const T* x, float* running_mean,
                               float* running_var, const float* weight, const float* bias, T* y) {
  const int64_t n = call.n, c = call.c, l = call.l;
  const int64_t count = n * l;
  if (count == 0) return;  // no batch statistics: torch leaves the running stats alone
  const float inv_count = 1.0f / static_cast<float>(count);
  parallel_for(c, std::max<int64_t>(1, 32768 / count), [&](int64_t begin, int64_t end) {
    BulkRowReader<T> reader;
    BulkRowWriter<T> writer;
    for (int64_t ch = begin; ch < end; ++ch) {
      batch_norm::LaneSum sum;
      for (int64_t i = 0; i < n; ++i) {
        const auto* seg = reader.read(x + (i * c + ch) * l, l);
        for (int64_t j = 0; j < l; ++j) sum.add(load(seg[j]));
      }
      const float mean = sum.total() * inv_count;
      batch_norm::LaneSum sq;
      for (int64_t i = 0; i < n; ++i) {
        const auto* seg = reader.read(x + (i * c + ch) * l, l);
        for (int64_t j = 0; j < l; ++j) {
          const float d = load(seg[j]) - mean;
          sq.add(d * d);
        }
      }
      const float var = sq.total() * inv_count;
      batch_norm::update_running_stats(call, ch, mean, var, running_mean, running_var);
      const batch_norm::ChannelAffine affine =
          batch_norm::channel_affine(call, ch, mean, var, weight, bias);
      for (int64_t i = 0; i < n; ++i) {
        const auto* seg = reader.read(x + (i * c + ch) * l, l);
        auto* out = writer.row(y + (i * c + ch) * l, l);
        for (int64_t j = 0; j < l; ++j) out[j] = store<RowElement<T>>(affine.apply(load(seg[j])));
        writer.commit();
      }
    }
  });
}

class BatchNormTrainCpuKernel final : public BatchNormTrainKernel {
 public:
  using Interface = BatchNormTrainKernel;
  static constexpr DeviceType devices[] = {kCPU};
  static constexpr bool general = true;

  void run(const BatchNormCall& call, const Tensor& x, const Tensor& running_mean,
           const Tensor& running_var, const Tensor& weight, const Tensor& bias,
           const Tensor& output, const Tensor&) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      batch_norm_train_channels<T>(
          call, x.data_as<const T>(), running_mean.data_as<float>(), running_var.data_as<float>(),
          call.has_weight ? weight.data_as<const float>() : nullptr,
          call.has_bias ? bias.data_as<const float>() : nullptr, output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<BatchNormTrainCpuKernel> kRegistration("BatchNormFwdOp",
                                                                      "batch_norm_train_cpu");

}  // namespace
}  // namespace tileops::cpu
