// `<act>_and_mul_staged_cuda`: the gated activations for rows off the 16-byte pack (n not a
// multiple of a pack's elements), where the flat kernel falls back to one element an access. A
// block stages a chunk of one row in shared memory and moves it in 16-byte accesses
// (elementwise/act_and_mul_staged.cu).
#include <array>
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

// A staged kernel's shape: groups of `group` threads, each taking a chunk of one row of `packs`
// 16-byte packs a thread of each span, `rows` groups a block.
struct StagedShape {
  int group, packs, rows;
  unsigned threads() const { return static_cast<unsigned>(group * rows); }
};
// Wide rows: one 256-thread group a block, chunks of 4096 16-bit columns. Rows of at most one
// narrow chunk (2048 16-bit columns): four 64-thread groups a block, a row each, so a block keeps
// as many loads in flight as on a wide row. Rows of at most one small chunk (768 16-bit columns):
// eight 32-thread groups a block, a row each: 8192x513 bf16 13.2 us against 15.8 flat, 16384x385
// 21.8 against 23.6, 65536x257 54.1 against 55.1, on an H100
// (docs/perf/h200-staged-reads-2026-12-07; not yet timed on an H200). The wide shape at four
// packs a thread won on 4096x14337 (126.9 -> 120.6 us) and 8192x4097 but lost up to 17 us on
// 16384x2305, 2048x2049, 2048x4095 and 1024x8193 (docs/perf/h200-k-paired-2026-12-07): no width
// rule separates them yet.
// Narrowest first: a row takes the first shape whose chunk holds it, or the last (wide).
constexpr std::array<StagedShape, 3> kShapes{{{.group = 32, .packs = 3, .rows = 8},
                                              {.group = 64, .packs = 4, .rows = 4},
                                              {.group = 256, .packs = 2, .rows = 1}}};

// Rows narrower than this stay on the flat kernel: the small shape's narrowest timed row is 257
// columns (above), and below it a group of 32 threads would hold under one pack a thread of a span.
// Measured in bf16 and applied to every dtype.
constexpr int64_t kMinStagedColumns = 256;
// Below this many outputs a call is latency-bound and the flat kernel, one element an access,
// wins: 256x4097 and 1024x1025 bf16 (2^20 outputs) took 4.9 us flat against 5.3-6.1 staged,
// 2048x4095 (2^23) 30.7 against 21.2, on an H100 (docs/perf/h200-staged-2026-12-07).
constexpr int64_t kMinStagedOutputs = int64_t{1} << 22;

int64_t chunk_columns(const StagedShape& s, DType dtype) {
  return int64_t{s.group} * s.packs * wide_vector_width(dtype);
}

// The index in kShapes of the shape serving rows of n columns.
size_t shape_for(DType dtype, int64_t n) {
  size_t i = 0;
  while (i + 1 < kShapes.size() && n > chunk_columns(kShapes[i], dtype)) ++i;
  return i;
}

KernelSpec staged_spec(GatedActivation act, DType dtype, const StagedShape& shape) {
  return KernelSpec(
      "elementwise/act_and_mul_staged.cu", "act_and_mul_staged_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)),
       KernelConstant::integer("VEC", wide_vector_width(dtype)),
       KernelConstant::integer("ACT", static_cast<int>(act)),
       KernelConstant::integer("PER_THREAD", shape.packs),
       KernelConstant::integer("GROUP", shape.group), KernelConstant::integer("ROWS", shape.rows)});
}

// The launch of a call: blocks of shape.rows rows by chunks of a row.
struct StagedGrid {
  int64_t chunks, blocks;
};
StagedGrid staged_grid(const StagedShape& shape, DType dtype, int64_t m, int64_t n) {
  const int64_t chunk = chunk_columns(shape, dtype);
  const int64_t chunks = (n + chunk - 1) / chunk;
  return {chunks, (m + shape.rows - 1) / shape.rows * chunks};
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
      return fmt::format("rows of {} columns (under {}): the flat kernel takes rows this narrow",
                         call.n, kMinStagedColumns);
    }
    if (call.m * call.n < kMinStagedOutputs) {
      return fmt::format("{} outputs (under 2^22): the flat kernel is faster on calls this small",
                         call.m * call.n);
    }
    const StagedGrid grid =
        staged_grid(kShapes[shape_for(call.dtype, call.n)], call.dtype, call.m, call.n);
    if (grid.blocks >= (int64_t{1} << 31)) {
      return fmt::format("{} rows of {} chunks reach 2^31 blocks", call.m, grid.chunks);
    }
    return std::nullopt;
  }

  explicit ActAndMulStagedCuda(DType dtype)
      : dtype_(dtype),
        fns_{CudaFunction(staged_spec(A, dtype, kShapes[0])),
             CudaFunction(staged_spec(A, dtype, kShapes[1])),
             CudaFunction(staged_spec(A, dtype, kShapes[2]))} {}

  void run(const ActAndMulCall<A>& call, const Tensor& x, const Tensor& out) override {
    if (call.m == 0) return;
    const int device = device_of(x);
    const size_t index = shape_for(dtype_, call.n);
    const StagedShape& shape = kShapes[index];
    const StagedGrid grid = staged_grid(shape, dtype_, call.m, call.n);
    const void* xp = x.data();
    void* op = out.data();
    int64_t m = call.m;
    int64_t n = call.n;
    uint32_t chunks = static_cast<uint32_t>(grid.chunks);
    launch(fns_[index].get(device), device, static_cast<unsigned>(grid.blocks), 1, shape.threads(),
           0, {&xp, &op, &m, &n, &chunks});
  }

 private:
  DType dtype_;
  std::array<CudaFunction, kShapes.size()> fns_;  // by index of kShapes
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
        for (const StagedShape& shape : kShapes) v.push_back(staged_spec(act, d, shape).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
