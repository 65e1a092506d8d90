// BatchNorm training on the CPU for [n, c] inputs (l == 1), such as the input of a fully
// connected layer. A channel's values are strided by c there, so instead of one channel per task
// each task takes a block of adjacent channels and reduces over the rows, reading each row's block
// contiguously. Sums over the rows are two-level (blocks of kRowBlock rows), fp32 accumulation.
#include <algorithm>
#include <optional>
#include <string>

#include "kernels/cpu/element.hpp"
#include "kernels/cpu/float_rows.hpp"
#include "kernels/cpu/normalization/batch_norm_cpu.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

constexpr int64_t kChannelBlock = 64;
constexpr int64_t kRowBlock = 256;

// total[j] = sum over rows of f(x[r, c0 + j], j) for j < width.
template <typename T, typename F>
void column_sums(const T* x, int64_t n, int64_t c, int64_t c0, int64_t width, F f, float* total,
                 BulkRowReader<T>& reader) {
  float part[kChannelBlock];
  std::fill_n(total, width, 0.0f);
  for (int64_t r0 = 0; r0 < n; r0 += kRowBlock) {
    std::fill_n(part, width, 0.0f);
    const int64_t r1 = std::min(n, r0 + kRowBlock);
    for (int64_t r = r0; r < r1; ++r) {
      const auto* row = reader.read(x + r * c + c0, width);
      for (int64_t j = 0; j < width; ++j) part[j] += f(load(row[j]), j);
    }
    for (int64_t j = 0; j < width; ++j) total[j] += part[j];
  }
}

template <typename T>
void batch_norm_train_rows(const BatchNormCall& call, const T* x, float* running_mean,
                           float* running_var, const float* weight, const float* bias, T* y) {
  const int64_t n = call.n, c = call.c;
  // l is 1 or 0 here. No batch statistics when n * l == 0: torch leaves the running stats alone.
  if (n * call.l == 0) return;
  const float inv_n = 1.0f / static_cast<float>(n);
  const int64_t blocks = (c + kChannelBlock - 1) / kChannelBlock;
  parallel_for(
      blocks, std::max<int64_t>(1, 16384 / (n * kChannelBlock)), [&](int64_t begin, int64_t end) {
        BulkRowReader<T> reader;
        BulkRowWriter<T> writer;
        for (int64_t b = begin; b < end; ++b) {
          const int64_t c0 = b * kChannelBlock;
          const int64_t width = std::min(kChannelBlock, c - c0);
          float mean[kChannelBlock], var[kChannelBlock];
          column_sums(
              x, n, c, c0, width, [](float v, int64_t) { return v; }, mean, reader);
          for (int64_t j = 0; j < width; ++j) mean[j] *= inv_n;
          column_sums(
              x, n, c, c0, width,
              [&mean](float v, int64_t j) {
                const float d = v - mean[j];
                return d * d;
              },
              var, reader);
          batch_norm::ChannelAffine affine[kChannelBlock];
          for (int64_t j = 0; j < width; ++j) {
            var[j] *= inv_n;
            batch_norm::update_running_stats(call, c0 + j, mean[j], var[j], running_mean,
                                             running_var);
            affine[j] = batch_norm::channel_affine(call, c0 + j, mean[j], var[j], weight, bias);
          }
          for (int64_t r = 0; r < n; ++r) {
            const auto* row = reader.read(x + r * c + c0, width);
            auto* out = writer.row(y + r * c + c0, width);
            for (int64_t j = 0; j < width; ++j)
              out[j] = store<RowElement<T>>(affine[j].apply(load(row[j])));
            writer.commit();
          }
        }
      });
}

class BatchNormTrainRowsCpuKernel final : public BatchNormTrainKernel {
 public:
  using Interface = BatchNormTrainKernel;
  static constexpr DeviceType devices[] = {kCPU};

  static std::optional<std::string> refusal(const BatchNormCall& call, const DeviceFacts&) {
    if (call.l > 1) {
      return fmt::format("serves [n, c] inputs only (spatial size l <= 1), got l = {}", call.l);
    }
    return std::nullopt;
  }

  void run(const BatchNormCall& call, const Tensor& x, const Tensor& running_mean,
           const Tensor& running_var, const Tensor& weight, const Tensor& bias,
           const Tensor& output, const Tensor&) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      batch_norm_train_rows<T>(
          call, x.data_as<const T>(), running_mean.data_as<float>(), running_var.data_as<float>(),
          call.has_weight ? weight.data_as<const float>() : nullptr,
          call.has_bias ? bias.data_as<const float>() : nullptr, output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<BatchNormTrainRowsCpuKernel> kRegistration(
    "BatchNormFwdOp", "batch_norm_train_cpu_rows");

}  // namespace
}  // namespace tileops::cpu
