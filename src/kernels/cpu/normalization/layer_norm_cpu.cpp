// LayerNorm on the CPU: one row per task, fp32 accumulation. The mean and the variance are two
// passes over the row (the variance sums (x - mean)^2, which stays accurate when |mean| is large
// against the spread), each summed in eight independent lanes to bound the rounding error of
// long rows.
#include <cmath>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

constexpr int kLanes = 8;

// Sum of f(p[i]) over [0, n), accumulated in kLanes float lanes.
template <typename F>
float lane_sum(const float* p, int64_t n, F f) {
  float acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) acc[j] += f(p[i + j]);
  }
  for (int j = 0; i < n; ++i, ++j) acc[j] += f(p[i]);
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  }
  return acc[0];
}

template <typename T>
void layer_norm_rows(const LayerNormCall& call, const T* x, const T* w, const T* b, T* y) {
  const int64_t n = call.n;
  const float inv_n = 1.0f / static_cast<float>(n);
  const float eps = static_cast<float>(call.eps);
  RowReader<T> weight_reader, bias_reader;
  const float* wf = weight_reader.read(w, n);
  const float* bf = bias_reader.read(b, n);
  parallel_for(call.rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)),
               [&](int64_t begin, int64_t end) {
                 RowReader<T> reader;
                 RowWriter<T> writer;
                 for (int64_t r = begin; r < end; ++r) {
                   const float* xr = reader.read(x + r * n, n);
                   const float mean = lane_sum(xr, n, [](float v) { return v; }) * inv_n;
                   const float var = lane_sum(xr, n,
                                              [mean](float v) {
                                                const float d = v - mean;
                                                return d * d;
                                              }) *
                                     inv_n;
                   const float rstd = 1.0f / std::sqrt(var + eps);
                   float* yr = writer.row(y + r * n, n);
                   for (int64_t i = 0; i < n; ++i) yr[i] = (xr[i] - mean) * rstd * wf[i] + bf[i];
                   writer.commit();
                 }
               });
}

class LayerNormCpuKernel final : public LayerNormKernel {
 public:
  using Interface = LayerNormKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const LayerNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& bias,
           const Tensor& output, const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      layer_norm_rows<T>(call, x.data_as<const T>(), weight.data_as<const T>(),
                         bias.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<LayerNormCpuKernel> kRegistration("LayerNormFwdOp",
                                                                 "layer_norm_cpu");

}  // namespace
}  // namespace tileops::cpu
