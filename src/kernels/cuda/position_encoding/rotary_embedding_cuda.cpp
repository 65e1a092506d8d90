// RotaryEmbeddingFwdOp on CUDA: one specialisation per (query dtype, cache dtype, position dtype,
// pairing), built on first use.
#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSpec rotary_spec(DType dtype, DType cache, DType positions, bool neox) {
  return KernelSpec("position_encoding/rotary_embedding.cu", "rotary_embedding_kernel",
                    {KernelConstant::type_of("T", cuda_type(dtype)),
                     KernelConstant::type_of("C", cuda_type(cache)),
                     KernelConstant::type_of("P", positions == DType::kInt32 ? "i32" : "i64"),
                     KernelConstant::boolean("IS_NEOX", neox)});
}

class RotaryEmbeddingCuda final : public RotaryEmbeddingKernel {
 public:
  using Interface = RotaryEmbeddingKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  static std::optional<std::string> refusal(const RotaryEmbeddingCall& call, const DeviceFacts&) {
    // Heads and dims are ints in the kernel.
    if (call.query_heads + call.key_heads >= (int64_t{1} << 31) ||
        call.head_dim >= (int64_t{1} << 31)) {
      return std::string("heads or head_dim reach 2^31");
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const RotaryEmbeddingCall& call, const DeviceFacts&) {
    const DType d = call.dtype, c = call.cache_dtype, p = call.position_dtype;
    const bool neox = call.is_neox;
    return {fmt::format("{},{},{},{}", dtype_name(d), dtype_name(c), dtype_name(p), neox),
            [=] { return std::make_unique<RotaryEmbeddingCuda>(d, c, p, neox); }};
  }

  RotaryEmbeddingCuda(DType dtype, DType cache, DType positions, bool neox)
      : fn_(rotary_spec(dtype, cache, positions, neox)) {}

  void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
           const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
           const Tensor& key_out) override {
    if (call.tokens == 0) return;
    const int device = device_of(query);
    const void* pp = positions.data();
    const void* qp = query.data();
    const void* kp = key.data();
    const void* cp = cos_sin_cache.data();
    void* qo = query_out.data();
    void* ko = key_out.data();
    int64_t tokens = call.tokens, max_position = call.max_position;
    int qh = static_cast<int>(call.query_heads), kh = static_cast<int>(call.key_heads);
    int d = static_cast<int>(call.head_dim), r = static_cast<int>(call.rotary_dim);
    // In place the passed-through dims are already where they belong.
    int copy_rest = (qo != qp || ko != kp) && r < d ? 1 : 0;
    const int64_t items = tokens * (qh + kh) * (int64_t{r} / 2 + (copy_rest ? int64_t{d} - r : 0));
    launch_elementwise(
        fn_.get(device), device, items,
        {&pp, &qp, &kp, &cp, &qo, &ko, &tokens, &qh, &kh, &d, &r, &max_position, &copy_rest});
  }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<RotaryEmbeddingCuda> kRegistration("RotaryEmbeddingFwdOp",
                                                                  "rotary_embedding_cuda");
const bool kVariants = [] {
  register_cuda_variants("rotary_embedding", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
      for (DType c : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
        for (DType p : {DType::kInt32, DType::kInt64})
          for (bool neox : {true, false}) v.push_back(rotary_spec(d, c, p, neox).source());
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
