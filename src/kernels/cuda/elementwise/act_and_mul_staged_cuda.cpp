// `<act>_and_mul_staged_cuda`: the gated activations for rows off the 16-byte pack (n not a
// multiple of a pack's elements), where the flat kernel falls back to one element an access. A
// block stages a chunk of one row in shared memory and moves it in 16-byte accesses
// (elementwise/act_and_mul_staged.cu).
#include <optional>
#include <string>

#include <fmt/format.h>

#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr unsigned kStagedBlock = 256;
// Narrower rows gained nothing over the flat kernel, which spreads them over the device: a bf16
// row of 1025 fills a quarter of a block's 4096-column chunk (65536x1025: 200 us staged, 202
// flat, on an H100; docs/perf/h200-staged-2026-12-07). Measured in bf16 and applied to every dtype.
constexpr int64_t kMinStagedColumns = 2048;
// Below this many outputs a call is latency-bound and the flat kernel, one element an access,
// wins: 256x4097 and 1024x1025 bf16 (2^20 outputs) took 4.9 us flat against 5.3-6.1 staged,
// 2048x4095 (2^23) 30.7 against 21.2, on an H100 (docs/perf/h200-staged-2026-12-07).
constexpr int64_t kMinStagedOutputs = int64_t{1} << 22;

// Columns of one row a block takes: two 16-byte packs a thread.
int64_t chunk_columns(DType dtype) {
  return 2 * int64_t{kStagedBlock} * wide_vector_width(dtype);
}

KernelSpec staged_spec(GatedActivation act, DType dtype) {
  const int vec = wide_vector_width(dtype);
  return KernelSpec(
      "elementwise/act_and_mul_staged.cu", "act_and_mul_staged_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec),
       KernelConstant::integer("ACT", static_cast<int>(act)),
       KernelConstant::integer("CHUNK", static_cast<int>(chunk_columns(dtype)))});
}

template <GatedActivation A>
class ActAndMulStagedCuda final : public PerDTypeCuda<ActAndMulStagedCuda<A>, ActAndMulKernel<A>> {
 public:
  static std::optional<std::string> refusal(const ActAndMulCall<A>& call, const DeviceFacts&) {
    const int vec = wide_vector_width(call.dtype);
    if (call.n % vec == 0) {
      return fmt::format("n {} is a multiple of {}: the flat kernel moves whole 16-byte packs",
                         call.n, vec);
    }
    if (call.n < kMinStagedColumns) {
      return fmt::format(
          "rows of {} columns (under {}): the flat kernel was as fast on rows this "
          "narrow",
          call.n, kMinStagedColumns);
    }
    if (call.m * call.n < kMinStagedOutputs) {
      return fmt::format("{} outputs (under 2^22): the flat kernel is faster on calls this small",
                         call.m * call.n);
    }
    const int64_t chunks = (call.n + chunk_columns(call.dtype) - 1) / chunk_columns(call.dtype);
    if (call.m > (int64_t{1} << 31) / chunks - 1) {
      return fmt::format("{} rows of {} chunks reach 2^31 blocks", call.m, chunks);
    }
    return std::nullopt;
  }

  explicit ActAndMulStagedCuda(DType dtype)
      : fn_(staged_spec(A, dtype)), chunk_(chunk_columns(dtype)) {}

  void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& out) override {
    if (call.m == 0) return;
    const int device = device_of(x);
    const void* xp = x.data();
    void* op = out.data();
    int64_t n = call.n;
    uint32_t chunks = static_cast<uint32_t>((n + chunk_ - 1) / chunk_);
    launch(fn_.get(device), device, static_cast<unsigned>(call.m * chunks), 1, kStagedBlock, 0,
           {&xp, &op, &n, &chunks});
  }

 private:
  CudaFunction fn_;
  int64_t chunk_;
};

const StaticKernelRegistration<ActAndMulStagedCuda<GatedActivation::kSilu>> kSilu(
    "SiluAndMulFwdOp", "silu_and_mul_staged_cuda");
const StaticKernelRegistration<ActAndMulStagedCuda<GatedActivation::kGelu>> kGelu(
    "GeluAndMulFwdOp", "gelu_and_mul_staged_cuda");
const StaticKernelRegistration<ActAndMulStagedCuda<GatedActivation::kGeluTanh>> kGeluTanh(
    "GeluTanhAndMulFwdOp", "gelu_tanh_and_mul_staged_cuda");
const bool kVariants = [] {
  register_cuda_variants("act_and_mul_staged", [] {
    std::vector<KernelSource> v;
    for (GatedActivation act :
         {GatedActivation::kSilu, GatedActivation::kGelu, GatedActivation::kGeluTanh}) {
      for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
        v.push_back(staged_spec(act, d).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
