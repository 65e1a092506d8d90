// RMSNorm on the CPU: one row per task, fp32 accumulation.
#include <cmath>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename T>
void rms_norm_rows(const RMSNormCall& call, const T* x, const T* w, T* y) {
  const int64_t n = call.n;
  RowReader<T> weight_reader;
  const float* wf = weight_reader.read(w, n);
  parallel_for(call.rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)),
               [&](int64_t begin, int64_t end) {
                 RowReader<T> reader;
                 RowWriter<T> writer;
                 for (int64_t r = begin; r < end; ++r) {
                   const float* xr = reader.read(x + r * n, n);
                   float sum = 0;
                   for (int64_t i = 0; i < n; ++i) sum += xr[i] * xr[i];
                   const float inv =
                       1.0f / std::sqrt(sum / static_cast<float>(n) + static_cast<float>(call.eps));
                   float* yr = writer.row(y + r * n, n);
                   for (int64_t i = 0; i < n; ++i) yr[i] = xr[i] * inv * wf[i];
                   writer.commit();
                 }
               });
}

class RMSNormCpuKernel final : public RMSNormKernel {
 public:
  using Interface = RMSNormKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const RMSNormCall& call, const Tensor& x, const Tensor& weight, const Tensor& output,
           const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      rms_norm_rows<T>(call, x.data_as<const T>(), weight.data_as<const T>(), output.data_as<T>());
    });
  }
};

const StaticKernelRegistration<RMSNormCpuKernel> kRegistration("RMSNormFwdOp", "rms_norm_cpu");

}  // namespace
}  // namespace tileops::cpu
