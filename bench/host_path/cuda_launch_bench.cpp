// Host cost on CUDA: a cached tileops call beside the floor under it, a bare cuLaunchKernel of the
// same empty kernel on the same stream. Both loops enqueue without waiting (the kernel does
// nothing, so the device keeps up), so each iteration is the host's cost of one launch. Rows are
// skipped without a CUDA device. (Issue 9 item 2; docs/perf/README.md has the results.)
#include <dlfcn.h>

#include <benchmark/benchmark.h>

#include "host_path/noop_op.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/reference/check.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops {
namespace {

cuda::KernelSource empty_kernel_source() {
  cuda::KernelSource s;
  s.name = "host_path_empty";
  s.source = "extern \"C\" __global__ void empty_kernel() {}\n";
  return s;
}

cuda::CudaFunction& empty_kernel() {
  static cuda::CudaFunction fn(empty_kernel_source(), "empty_kernel");
  return fn;
}

// NoopFwdOp on CUDA: one launch of the empty kernel through the library's launch path.
class NoopCuda final : public NoopKernel {
 public:
  using Interface = NoopKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  void run(const Tensor& x, const Tensor&) override {
    const int device = x.device().index;
    cuda::launch_ex(empty_kernel().get(device), device, {.grid_x = 1, .block = 32}, {});
  }
};
const StaticKernelRegistration<NoopCuda> kNoopCuda("NoopFwdOp", "noop_cuda");

bool skip_without_cuda(benchmark::State& state) {
  if (cuda::available()) return false;
  state.SkipWithError("no CUDA device");
  return true;
}

void synchronize() {
  cuda::synchronize(0);
}

// The driver's cuLaunchKernel, looked up here rather than through libtileops's wrapper.
using LaunchFn = int (*)(cuda::CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, cuda::CUstream, void**, void**);
LaunchFn driver_launch() {
  static const LaunchFn fn = [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return lib != nullptr ? reinterpret_cast<LaunchFn>(dlsym(lib, "cuLaunchKernel")) : nullptr;
  }();
  return fn;
}

// The floor: the driver's launch of the empty kernel on the stream tileops launches on.
void BM_CudaBareCuLaunchKernel(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  const cuda::CUfunction fn = empty_kernel().get(0);
  const LaunchFn launch = driver_launch();
  if (launch == nullptr) {
    state.SkipWithError("cuLaunchKernel not found in the loaded libcuda.so.1");
    return;
  }
  const auto stream = static_cast<cuda::CUstream>(cuda::current_stream(0));
  for (auto _ : state) launch(fn, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr);
  synchronize();
}
BENCHMARK(BM_CudaBareCuLaunchKernel);

// call_into with device tensors: signature check, cache hit, the launch, the call record.
void BM_CudaCachedCallInto(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  NoopFwdOp op;
  const Device gpu = Device::cuda(0);
  const std::vector<Tensor> in{Tensor::empty({1, 4096}, DType::kBFloat16, gpu),
                               Tensor::empty({4096}, DType::kBFloat16, gpu)};
  const std::vector<Tensor> out{Tensor::empty({1, 4096}, DType::kBFloat16, gpu)};
  op.call_into(in, out);
  for (auto _ : state) op.call_into(in, out);
  synchronize();
}
BENCHMARK(BM_CudaCachedCallInto);

// op(x, w): the same with the output allocated through the stream-ordered allocator.
void BM_CudaCachedCallAllocatingOutput(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  NoopFwdOp op;
  const Device gpu = Device::cuda(0);
  const Tensor x = Tensor::empty({1, 4096}, DType::kBFloat16, gpu);
  const Tensor w = Tensor::empty({4096}, DType::kBFloat16, gpu);
  op(x, w);
  for (auto _ : state) benchmark::DoNotOptimize(op(x, w));
  synchronize();
}
BENCHMARK(BM_CudaCachedCallAllocatingOutput);

// A real op: RMSNorm of one 4096-wide bf16 row (its kernel is a few microseconds, so the device
// may set the pace here).
void BM_CudaRMSNormDecodeRow(benchmark::State& state) {
  if (skip_without_cuda(state)) return;
  RMSNormFwdOp op({.normalized_shape = {4096}});
  const Device gpu = Device::cuda(0);
  const Tensor x = cuda::to_device(random_tensor({1, 4096}, DType::kBFloat16, 1), gpu);
  const Tensor w = cuda::to_device(random_tensor({4096}, DType::kBFloat16, 2), gpu);
  const std::vector<Tensor> in{x, w};
  const std::vector<Tensor> out{Tensor::empty({1, 4096}, DType::kBFloat16, gpu)};
  op.call_into(in, out);
  for (auto _ : state) op.call_into(in, out);
  synchronize();
}
BENCHMARK(BM_CudaRMSNormDecodeRow);

}  // namespace
}  // namespace tileops
