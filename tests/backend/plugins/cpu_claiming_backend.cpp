// A backend whose target claims every CPU tensor but builds a kernel for one op only
// (RMSNormFwdOp, float32, float16 and bfloat16): `tileops run --all` with it loaded must still
// serve every other op in-tree, and TILEOPS_EXCLUDE_TARGETS / --exclude-target must turn it off.
#include <cmath>
#include <cstdio>

#include "tileops/core/half.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/target.hpp"
#include "tileops/ops/eps.hpp"

namespace {

constexpr const char* kTarget = "cpu-claimer";

// RMSNorm over the last `n` elements, in float, for float32, float16 and bfloat16 (the
// signature check has run, so the inputs are contiguous and shaped as the op expects).
class ClaimerRmsNorm final : public tileops::TargetKernel {
 public:
  explicit ClaimerRmsNorm(double eps) : eps_(eps) {}
  void run(std::span<const tileops::Tensor> inputs,
           std::span<const tileops::Tensor> outputs) override {
    const tileops::Tensor& x = inputs[0];
    const tileops::Tensor& w = inputs[1];
    switch (x.dtype()) {
      case tileops::DType::kFloat16:
        return rows<tileops::Half>(x, w, outputs[0]);
      case tileops::DType::kBFloat16:
        return rows<tileops::BFloat16>(x, w, outputs[0]);
      default:
        return rows<float>(x, w, outputs[0]);
    }
  }

 private:
  template <typename T>
  void rows(const tileops::Tensor& x, const tileops::Tensor& w, const tileops::Tensor& y) const {
    const int64_t n = w.numel(), count = n == 0 ? 0 : x.numel() / n;
    const T* xs = x.data_as<const T>();
    const T* ws = w.data_as<const T>();
    T* ys = y.data_as<T>();
    for (int64_t r = 0; r < count; ++r) {
      float sum = 0;
      for (int64_t i = 0; i < n; ++i)
        sum += static_cast<float>(xs[r * n + i]) * static_cast<float>(xs[r * n + i]);
      const float inv = 1.0f / std::sqrt(sum / static_cast<float>(n) + static_cast<float>(eps_));
      for (int64_t i = 0; i < n; ++i) {
        ys[r * n + i] = T(static_cast<float>(xs[r * n + i]) * inv * static_cast<float>(ws[i]));
      }
    }
  }
  double eps_;
};

std::unique_ptr<tileops::TargetKernel> build_rms_norm(
    std::span<const std::optional<tileops::TensorDesc>> inputs, const tileops::ParamMap& params) {
  double eps = tileops::machine_epsilon(inputs[0]->dtype);  // eps = None, as torch
  for (const auto& [name, value] : params) {
    if (name == "eps" && std::holds_alternative<double>(value)) eps = std::get<double>(value);
  }
  return std::make_unique<ClaimerRmsNorm>(eps);
}

int register_backend(char* error, uint64_t error_size) {
  try {
    tileops::register_detector(kTarget, [](tileops::Device d) {
      return d.type == tileops::kCPU;
    }).release();
    tileops::register_kernel_builder("RMSNormFwdOp", kTarget, &build_rms_norm).release();
  } catch (const std::exception& e) {
    std::snprintf(error, error_size, "%s", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const TileopsBackendEntryV1*
tileops_backend_entry_v1() {
  static const TileopsBackendEntryV1 kEntry{TILEOPS_BACKEND_ABI_VERSION, "cpu-claiming",
                                            &register_backend};
  return &kEntry;
}
