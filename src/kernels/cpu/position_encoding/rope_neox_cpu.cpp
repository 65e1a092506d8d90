// NeoX rotary embedding on the CPU. An entry is built per (seq, dim, base) and holds the cos/sin
// table of every (position, frequency) pair, computed in float64 and stored as fp32: angles reach
// S radians, where fp32 angle arithmetic alone would lose ~S * 2^-24 of accuracy.
#include <cmath>
#include <vector>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rope_neox_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

class RopeNeoxCpuKernel final : public RopeNeoxKernel {
 public:
  using Interface = RopeNeoxKernel;
  static constexpr DeviceType devices[] = {kCPU};

  static BuildPlan entry_for(const RopeNeoxCall& call, const DeviceFacts&) {
    return {fmt::format("seq={},dim={},base={}", call.seq, call.dim, call.base),
            [seq = call.seq, dim = call.dim, base = call.base] {
              return std::unique_ptr<Kernel>(std::make_unique<RopeNeoxCpuKernel>(seq, dim, base));
            }};
  }

  RopeNeoxCpuKernel(int64_t seq, int64_t dim, double base) : half_(dim / 2) {
    cos_.resize(static_cast<size_t>(seq * half_));
    sin_.resize(cos_.size());
    for (int64_t i = 0; i < half_; ++i) {
      const double inv_freq =
          std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
      for (int64_t s = 0; s < seq; ++s) {
        const double angle = static_cast<double>(s) * inv_freq;
        cos_[s * half_ + i] = static_cast<float>(std::cos(angle));
        sin_[s * half_ + i] = static_cast<float>(std::sin(angle));
      }
    }
  }

  void run(const RopeNeoxCall& call, const Tensor& x, const Tensor& output) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      rotate<T>(call, x.data_as<const T>(), output.data_as<T>());
    });
  }

 private:
  // One task per chunk of (batch, position) rows; each row holds `heads` vectors of `dim`.
  template <typename T>
  void rotate(const RopeNeoxCall& call, const T* x, T* y) const {
    const int64_t row_elems = call.heads * call.dim;
    parallel_for(call.batch * call.seq, std::max<int64_t>(1, 16384 / row_elems),
                 [&](int64_t begin, int64_t end) {
                   // A row's heads go through float (float_rows.hpp), read before written.
                   RowReader<T> reader;
                   RowWriter<T> writer;
                   for (int64_t row = begin; row < end; ++row) {
                     const int64_t s = row % call.seq;
                     const float* c = cos_.data() + s * half_;
                     const float* sn = sin_.data() + s * half_;
                     const float* xr = reader.read(x + row * row_elems, row_elems);
                     float* yr = writer.row(y + row * row_elems, row_elems);
                     for (int64_t h = 0; h < call.heads; ++h) {
                       const float* xv = xr + h * call.dim;
                       float* yv = yr + h * call.dim;
                       for (int64_t i = 0; i < half_; ++i) {
                         const float x0 = xv[i];
                         const float x1 = xv[i + half_];
                         yv[i] = x0 * c[i] - x1 * sn[i];
                         yv[i + half_] = x1 * c[i] + x0 * sn[i];
                       }
                     }
                     writer.commit();
                   }
                 });
  }

  int64_t half_;
  std::vector<float> cos_, sin_;  // [seq, dim / 2]
};

const StaticKernelRegistration<RopeNeoxCpuKernel> kRegistration("RopeNeoxFwdOp", "rope_neox_cpu");

}  // namespace
}  // namespace tileops::cpu
