#include "matrix_roof.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "tileops/reference/check.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cli {
namespace {

// The few cuBLAS entry points used, with the ABI values of cublas_api.h and library_types.h.
using CublasHandle = void*;
using CublasCreate = int (*)(CublasHandle*);
using CublasDestroy = int (*)(CublasHandle);
using CublasSetStream = int (*)(CublasHandle, void*);
using CublasGemmEx = int (*)(CublasHandle, int, int, int, int, int, const void*, const void*, int,
                             int, const void*, int, int, const void*, void*, int, int, int, int);
constexpr int kOpN = 0, kOpT = 1;
constexpr int kDataBF16 = 14;     // CUDA_R_16BF
constexpr int kCompute32F = 68;   // CUBLAS_COMPUTE_32F
constexpr int kGemmDefault = -1;  // CUBLAS_GEMM_DEFAULT

void* open_cublas(std::string& tried) {
  for (const char* name :
       {"libcublas.so.13", "libcublas.so.12", "/usr/local/cuda/lib64/libcublas.so.13",
        "/usr/local/cuda/lib64/libcublas.so"}) {
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
    tried += tried.empty() ? name : fmt::format(", {}", name);
  }
  return nullptr;
}

}  // namespace

MatrixRoof measure_matrix_roof(Device device) {
  std::string tried;
  void* lib = open_cublas(tried);
  if (lib == nullptr)
    return {std::nullopt, fmt::format("not measured: cuBLAS not found ({})", tried)};
  auto create = reinterpret_cast<CublasCreate>(dlsym(lib, "cublasCreate_v2"));
  auto destroy = reinterpret_cast<CublasDestroy>(dlsym(lib, "cublasDestroy_v2"));
  auto set_stream = reinterpret_cast<CublasSetStream>(dlsym(lib, "cublasSetStream_v2"));
  auto gemm = reinterpret_cast<CublasGemmEx>(dlsym(lib, "cublasGemmEx"));
  if (!create || !destroy || !set_stream || !gemm) {
    return {std::nullopt, "not measured: cuBLAS lacks cublasGemmEx"};
  }
  constexpr int n = 8192;
  // Random operands: all-zero or constant data draws less power and would read high.
  const Tensor a = cuda::to_device(random_tensor({n, n}, DType::kBFloat16, 1), device);
  const Tensor b = cuda::to_device(random_tensor({n, n}, DType::kBFloat16, 2), device);
  const Tensor c = Tensor::empty({n, n}, DType::kBFloat16, device);
  const cuda::StreamHandle stream = cuda::current_stream(device.index);
  CublasHandle handle = nullptr;
  if (create(&handle) != 0) return {std::nullopt, "not measured: cublasCreate failed"};
  set_stream(handle, stream);
  const float alpha = 1.0f, beta = 0.0f;
  auto run = [&] {
    return gemm(handle, kOpT, kOpN, n, n, n, &alpha, a.data(), kDataBF16, n, b.data(), kDataBF16, n,
                &beta, c.data(), kDataBF16, n, kCompute32F, kGemmDefault);
  };
  if (run() != 0) {
    destroy(handle);
    return {std::nullopt, "not measured: cublasGemmEx failed"};
  }
  for (int i = 0; i < 3; ++i) run();
  std::vector<double> ms;
  cuda::EventTimer timer(device.index, stream);
  for (int i = 0; i < 10; ++i) {
    timer.start();
    run();
    timer.stop();
    ms.push_back(timer.milliseconds());
  }
  destroy(handle);
  std::sort(ms.begin(), ms.end());
  const double median_ms = ms[ms.size() / 2];
  const double tflops = 2.0 * n * n * static_cast<double>(n) / (median_ms * 1e9);
  return {tflops, fmt::format("cuBLAS cublasGemmEx bf16 {}x{}x{}, fp32 accumulation, median of 10: "
                              "{:.3f} ms",
                              n, n, n, median_ms)};
}

}  // namespace tileops::cli
