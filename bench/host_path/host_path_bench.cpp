// Host cost of a cached call: from op(...) to the (trivial) kernel having run. The first call
// builds the entry; every benchmarked call is a cache hit.
#include <benchmark/benchmark.h>

#include "host_path/noop_op.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/reference/check.hpp"

namespace tileops {
namespace {

class NoopCpu final : public NoopKernel {
 public:
  using Interface = NoopKernel;
  static constexpr DeviceType devices[] = {kCPU};
  void run(const Tensor& x, const Tensor& y) override { benchmark::DoNotOptimize(y.data()); }
};
const StaticKernelRegistration<NoopCpu> kNoop("NoopFwdOp", "noop_cpu");

// op(x, w): signature check, cache hit, output allocation, trivial kernel, call record.
void BM_CachedCallAllocatingOutput(benchmark::State& state) {
  NoopFwdOp op;
  const Tensor x = random_tensor({1, 4096}, DType::kBFloat16, 1);
  const Tensor w = random_tensor({4096}, DType::kBFloat16, 2);
  op(x, w);
  for (auto _ : state) benchmark::DoNotOptimize(op(x, w));
}
BENCHMARK(BM_CachedCallAllocatingOutput);

// call_into: the caller supplies the output (as an engine or CUDA-graph user does).
void BM_CachedCallIntoSuppliedOutput(benchmark::State& state) {
  NoopFwdOp op;
  const std::vector<Tensor> in{random_tensor({1, 4096}, DType::kBFloat16, 1),
                               random_tensor({4096}, DType::kBFloat16, 2)};
  const std::vector<Tensor> out{Tensor::empty({1, 4096}, DType::kBFloat16)};
  op.call_into(in, out);
  for (auto _ : state) op.call_into(in, out);
}
BENCHMARK(BM_CachedCallIntoSuppliedOutput);

// A real op for scale: RMSNorm on one 4096-wide bf16 row, kernel time included.
void BM_RMSNormDecodeRowCpu(benchmark::State& state) {
  RMSNormFwdOp op({.normalized_shape = {4096}});
  const Tensor x = random_tensor({1, 4096}, DType::kBFloat16, 1);
  const Tensor w = random_tensor({4096}, DType::kBFloat16, 2);
  op(x, w);
  for (auto _ : state) benchmark::DoNotOptimize(op(x, w));
}
BENCHMARK(BM_RMSNormDecodeRowCpu);

}  // namespace
}  // namespace tileops

BENCHMARK_MAIN();
