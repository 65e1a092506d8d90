// FusedAddRMSNorm on the CPU: one row per task, fp32 accumulation. The first pass adds, rounds
// the sum to the dtype, stores it as residual_out and accumulates its square (of the rounded
// value, so the output is the RMSNorm of residual_out exactly as stored); the second pass reads
// residual_out back and scales it.
#include <cmath>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

constexpr int kLanes = 8;

template <typename T>
void fused_add_rms_norm_rows(const FusedAddRMSNormCall& call, const T* x, const T* res, const T* w,
                             T* y, T* res_out) {
  const int64_t n = call.n;
  RowReader<T> weight_reader;
  const float* wf = weight_reader.read(w, n);
  parallel_for(call.rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1)),
               [&](int64_t begin, int64_t end) {
                 RowReader<T> x_reader, res_reader, sum_reader;
                 RowWriter<T> sum_writer, writer;
                 for (int64_t r = begin; r < end; ++r) {
                   const float* xr = x_reader.read(x + r * n, n);
                   const float* rr = res_reader.read(res + r * n, n);
                   float* zw = sum_writer.row(res_out + r * n, n);
                   for (int64_t i = 0; i < n; ++i) zw[i] = xr[i] + rr[i];
                   sum_writer.commit();
                   // The norm reads the sum as stored, rounded to T.
                   const float* zr = sum_reader.read(res_out + r * n, n);
                   float acc[kLanes] = {};
                   for (int64_t i = 0; i < n; ++i) acc[i % kLanes] += zr[i] * zr[i];
                   float sum = 0;
                   for (float a : acc) sum += a;
                   const float inv =
                       1.0f / std::sqrt(sum / static_cast<float>(n) + static_cast<float>(call.eps));
                   float* yr = writer.row(y + r * n, n);
                   for (int64_t i = 0; i < n; ++i) yr[i] = zr[i] * inv * wf[i];
                   writer.commit();
                 }
               });
}

class FusedAddRMSNormCpuKernel final : public FusedAddRMSNormKernel {
 public:
  using Interface = FusedAddRMSNormKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const FusedAddRMSNormCall& call, const Tensor& x, const Tensor& residual,
           const Tensor& weight, const Tensor& output, const Tensor& residual_out,
           const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      fused_add_rms_norm_rows<T>(call, x.data_as<const T>(), residual.data_as<const T>(),
                                 weight.data_as<const T>(), output.data_as<T>(),
                                 residual_out.data_as<T>());
    });
  }
};

const StaticKernelRegistration<FusedAddRMSNormCpuKernel> kRegistration("FusedAddRMSNormFwdOp",
                                                                       "fused_add_rms_norm_cpu");

}  // namespace
}  // namespace tileops::cpu
