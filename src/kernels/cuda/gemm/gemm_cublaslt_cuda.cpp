// The "gemm" interface on cuBLASLt, loaded at run time (src/runtime/cuda/cublaslt_api.hpp): the
// vendor library serves what tileops's tensor-core kernels refuse (float32, and 16-bit leading
// dimensions TMA cannot address) far faster than the CUDA-core fallback it outranks. It takes
// bias and residual in its epilogue; a gated call, or a or b off a 16-byte boundary, it leaves
// to the fallback. TILEOPS_CUBLASLT=0
// switches it off (read at each dispatch decision). Decision and ranking: docs/design/decisions.md
// ("cuBLASLt in dispatch").
#include <mutex>

#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/gemm/cublaslt_candidate.hpp"
#include "runtime/cuda/cublaslt_api.hpp"
#include "runtime/cuda/driver_api.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

class GemmCublasLt final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr std::string_view preferred_over[] = {"gemm_tiled_cuda"};

  static std::optional<std::string> refusal(const GemmCall& call, const DeviceFacts&) {
    if (cublaslt_switched_off()) return std::string("switched off by TILEOPS_CUBLASLT");
    if (call.dtype != DType::kBFloat16 && call.dtype != DType::kFloat16 &&
        call.dtype != DType::kFloat32) {
      return fmt::format("dtype {} is not served", dtype_name(call.dtype));
    }
    if (call.k == 0) return std::string("k == 0: nothing to multiply");
    if (call.gated) return std::string("a gated activation is not in cuBLASLt's epilogues");
    if (!call.aligned16) return std::string("a or b does not start on a 16-byte boundary");
    if (call.batch > INT32_MAX) return std::string("more than 2^31 - 1 problems");
    if (!cublaslt_available()) return cublaslt_unavailable_reason();
    return std::nullopt;
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const LtGemmShape shape = lt_shape_of(call);
    return {
        fmt::format("{},{},{},{},{},{}{},{}{}", dtype_name(call.dtype), call.batch, call.m, call.n,
                    call.k, call.trans_a, call.trans_b, call.bias, call.residual),
        [=, device = call.device.index] { return std::make_unique<GemmCublasLt>(shape, device); }};
  }

  GemmCublasLt(const LtGemmShape& shape, int device) : shape_(shape), device_(device) {}

  int64_t workspace_bytes(const GemmCall& call) const override {
    if (empty(call)) return 0;
    return static_cast<int64_t>(plan(16).workspace_bytes());
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& workspace) override {
    if (empty(call)) return;
    // A residual or output view off 16 bytes gets a plan of its own (rare: outputs the op
    // allocates start on 256 bytes).
    const bool out16 =
        starts_on_16_bytes(d) && (!call.residual || starts_on_16_bytes(tail.residual));
    const LtGemmPlan& p = plan(out16 ? 16 : static_cast<int>(dtype_size(call.dtype)));
    if (p.workspace_bytes() > 0 &&
        (!workspace.defined() || workspace.nbytes() < p.workspace_bytes())) {
      throw RuntimeError("gemm_cublaslt: the workspace is smaller than the plan needs");
    }
    p.run(a.data(), b.data(), d.data(), call.bias ? tail.bias.data() : nullptr,
          call.residual ? tail.residual.data() : nullptr,
          workspace.defined() ? workspace.data() : nullptr,
          static_cast<void*>(current_stream(device_of(a))));
  }

  std::string config() const override { return "cublasLt heuristic algorithm"; }

 private:
  static bool empty(const GemmCall& call) { return call.m == 0 || call.n == 0 || call.batch == 0; }

  // The plan for outputs on output_alignment bytes, made on first use. A cached call takes the
  // once_flag's fast path (an acquire load), not a lock; a failed heuristic leaves the flag unset,
  // so the next call tries again.
  const LtGemmPlan& plan(int output_alignment) const {
    PlanSlot& slot = output_alignment == 16 ? aligned_ : unaligned_;
    std::call_once(slot.made, [&] {
      make_device_current(device_);  // the heuristic reads the current device
      LtGemmShape s = shape_;
      s.output_alignment = output_alignment;
      slot.plan = std::make_unique<LtGemmPlan>(s);
    });
    return *slot.plan;
  }

  struct PlanSlot {
    std::once_flag made;
    std::unique_ptr<LtGemmPlan> plan;
  };

  LtGemmShape shape_;
  int device_;
  mutable PlanSlot aligned_, unaligned_;
};

const StaticGemmRegistration<GemmCublasLt> kRegistration("gemm_cublaslt");

}  // namespace
}  // namespace tileops::cuda
