// Scratch sweep (not part of the build): the skinny GEMM kernel against the TMA-pipelined
// gemm_stream.cu variants and a device copy of the weight's size. NVRTC-compiles each variant from
// src/kernels/cuda, poisons the output with NaN, checks every element against a float64 host
// reference, then launches it REPS times for ncu (`launch` lines name each launch in order).
//   g++ -O2 -std=c++17 stream_sweep.cpp -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                   \
  do {                                                          \
    CUresult r_ = (x);                                          \
    if (r_ != CUDA_SUCCESS) {                                   \
      const char* e;                                            \
      cuGetErrorString(r_, &e);                                 \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, e); \
      exit(1);                                                  \
    }                                                           \
  } while (0)

static uint16_t f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}
static float bf2f(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static CUfunction build(const std::string& prelude, const char* file, const char* entry) {
  std::string src = prelude + "\n#include \"" + file + "\"\n";
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src.c_str(), "k.cu", 0, nullptr, nullptr);
  const char* opts[] = {"-arch=sm_90a", "-std=c++17", "--include-path=src/kernels/cuda"};
  if (nvrtcCompileProgram(prog, 3, opts) != NVRTC_SUCCESS) {
    size_t n;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, 0);
    nvrtcGetProgramLog(prog, log.data());
    fprintf(stderr, "%s\n%s\n", prelude.c_str(), log.c_str());
    exit(1);
  }
  size_t n;
  nvrtcGetCUBINSize(prog, &n);
  std::vector<char> cubin(n);
  nvrtcGetCUBIN(prog, cubin.data());
  CUmodule mod;
  CK(cuModuleLoadData(&mod, cubin.data()));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, entry));
  return fn;
}

static const char* kCopy = R"(
extern "C" __global__ void copy_kernel(const uint4* src, uint4* dst, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) dst[i] = src[i];
})";

struct Shape {
  int M, N, K, gated;
};

int unroll_for(int mt, long long k) {
  if (mt > 1) return mt == 2 ? 4 : mt <= 4 ? 2 : 1;
  long long chunks = ((k + 31) / 32 + 7) / 8;
  int best = 8;
  long long best_waste = 1LL << 60;
  for (int u = 8; u >= 5; --u) {
    long long w = (chunks + u - 1) / u * u - chunks;
    if (w < best_waste) best = u, best_waste = w;
  }
  return best;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUfunction copy_fn;
  {
    nvrtcProgram prog;
    std::string src = std::string("typedef unsigned int uint;\n") + kCopy;
    nvrtcCreateProgram(&prog, src.c_str(), "c.cu", 0, nullptr, nullptr);
    const char* opts[] = {"-arch=sm_90a"};
    if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_SUCCESS) { fprintf(stderr, "copy compile\n"); return 1; }
    size_t n;
    nvrtcGetCUBINSize(prog, &n);
    std::vector<char> cubin(n);
    nvrtcGetCUBIN(prog, cubin.data());
    CUmodule mod;
    CK(cuModuleLoadData(&mod, cubin.data()));
    CK(cuModuleGetFunction(&copy_fn, mod, "copy_kernel"));
  }
  std::vector<Shape> shapes = {{1, 4096, 4096, 0},   {1, 13824, 5120, 0}, {1, 4096, 14336, 0},
                               {8, 6144, 4096, 0},   {16, 4096, 7168, 0}, {1, 14336, 4096, 1},
                               {16, 14336, 4096, 1}, {1, 128256, 4096, 0}, {1, 2048, 2048, 0},
                               {32, 4096, 4096, 0},  {3, 1000, 4104, 0},  {5, 1003, 776, 1}};
  struct Variant {
    std::string name;
    int stages, cwarps;  // 0: the skinny kernel
  };
  std::vector<Variant> variants = {{"skinny", 0, 0},   {"s4w4", 4, 4}, {"s8w4", 8, 4},
                                   {"s4w8", 4, 8},     {"s8w8", 8, 8}, {"s12w4", 12, 4},
                                   {"s6w2", 6, 2}};
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> U(-1, 1);
  bool all_ok = true;
  for (const Shape& s : shapes) {
    const int mt = (s.M + 7) / 8;
    const size_t wrows = size_t(s.N) * (s.gated ? 2 : 1);
    std::vector<uint16_t> hx(size_t(s.M) * s.K), hw(wrows * s.K);
    for (auto& v : hx) v = f2bf(U(rng));
    for (auto& v : hw) v = f2bf(U(rng) / std::sqrt(float(s.K)));
    CUdeviceptr x, w, d, c0, c1;
    CK(cuMemAlloc(&x, hx.size() * 2));
    CK(cuMemAlloc(&w, hw.size() * 2));
    CK(cuMemAlloc(&d, size_t(s.M) * s.N * 2));
    CK(cuMemAlloc(&c0, hw.size()));
    CK(cuMemAlloc(&c1, hw.size()));
    CK(cuMemcpyHtoD(x, hx.data(), hx.size() * 2));
    CK(cuMemcpyHtoD(w, hw.data(), hw.size() * 2));
    std::vector<double> ref(size_t(s.M) * s.N);
    {
      std::vector<std::thread> pool;
      const int threads = 16;
      for (int th = 0; th < threads; ++th) {
        pool.emplace_back([&, th] {
          for (int n = th; n < s.N; n += threads) {
            for (int m = 0; m < s.M; ++m) {
              double a = 0, b = 0;
              const uint16_t* xr = &hx[size_t(m) * s.K];
              const uint16_t* g = &hw[size_t(n) * s.K];
              const uint16_t* u = s.gated ? &hw[size_t(s.N + n) * s.K] : nullptr;
              for (int k = 0; k < s.K; ++k) {
                a += double(bf2f(xr[k])) * bf2f(g[k]);
                if (u) b += double(bf2f(xr[k])) * bf2f(u[k]);
              }
              ref[size_t(m) * s.N + n] = s.gated ? a / (1 + std::exp(-a)) * b : a;
            }
          }
        });
      }
      for (auto& t : pool) t.join();
    }
    double ref_rms = 0;
    for (double r : ref) ref_rms += r * r;
    ref_rms = std::sqrt(ref_rms / ref.size());
    // The copy: weight/2 bytes read and weight/2 written, as the GEMM report's copy.
    long long n16 = (long long)(hw.size()) / 16;  // weight bytes / 2 / 16 -> uint4 count
    void* cargs[] = {&c0, &c1, &n16};
    for (int r = 0; r < reps; ++r) CK(cuLaunchKernel(copy_fn, 132 * 4, 1, 1, 512, 1, 1, 0, 0, cargs, nullptr));
    CK(cuCtxSynchronize());
    printf("launch copy %dx%dx%d%s reps %d\n", s.M, s.N, s.K, s.gated ? "g" : "", reps);
    for (const Variant& v : variants) {
      std::string prelude = "#define T bf16\n#define MT " + std::to_string(mt) +
                            "\n#define GATED_ACT " + std::to_string(s.gated ? 0 : -1) + "\n";
      CUfunction fn;
      unsigned grid, threads, smem = 0;
      CUtensorMap map;
      const int out_rows = s.gated ? 8 : 16;
      grid = (s.N + out_rows - 1) / out_rows;
      if (v.stages == 0) {
        prelude += "#define WARPS 8\n#define UNROLL " + std::to_string(unroll_for(mt, s.K)) + "\n";
        fn = build(prelude, "gemm/gemm_skinny.cu", "gemm_skinny_kernel");
        threads = 256;
      } else {
        prelude += "#define STAGES " + std::to_string(v.stages) + "\n#define CWARPS " +
                   std::to_string(v.cwarps) + "\n";
        fn = build(prelude, "gemm/gemm_stream.cu", "gemm_stream_kernel");
        threads = (v.cwarps + 1) * 32;
        smem = 1024 + v.stages * 8192 + 2 * v.stages * 8 + 2 * v.cwarps * 16 * mt * 8 * 4;
        CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
        cuuint64_t dims[3] = {cuuint64_t(s.K), cuuint64_t(wrows), 1};
        cuuint64_t strides[2] = {cuuint64_t(s.K) * 2, cuuint64_t(s.K) * 2 * wrows};
        cuuint32_t box[3] = {64, cuuint32_t(s.gated ? 8 : 16), 1};
        cuuint32_t es[3] = {1, 1, 1};
        CK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, (void*)w, dims, strides,
                                  box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
      }
      int M = s.M, N = s.N, K = s.K;
      CUdeviceptr nul = 0;
      long long batch = 1;
      void* sargs[] = {&x, &w, &d, &M, &N, &K, &nul, &nul, &batch};
      void* targs[] = {&map, &x, &d, &M, &N, &K, &nul, &nul, &batch};
      void** args = v.stages == 0 ? sargs : targs;
      CK(cuMemsetD8(d, 0xff, size_t(s.M) * s.N * 2));
      CK(cuLaunchKernel(fn, grid, 1, 1, threads, 1, 1, smem, 0, args, nullptr));
      CK(cuCtxSynchronize());
      std::vector<uint16_t> hd(size_t(s.M) * s.N);
      CK(cuMemcpyDtoH(hd.data(), d, hd.size() * 2));
      double num = 0, den = 0, worst = 0;
      for (size_t i = 0; i < hd.size(); ++i) {
        const double got = bf2f(hd[i]);
        const double e = std::isfinite(got) ? got - ref[i] : INFINITY;
        num += e * e;
        den += ref[i] * ref[i];
        worst = std::max(worst, std::fabs(e) / (std::fabs(ref[i]) + 1e-2 * ref_rms));
      }
      const bool ok = worst < 2e-2;
      all_ok = all_ok && ok;
      for (int r = 0; r < reps; ++r) CK(cuLaunchKernel(fn, grid, 1, 1, threads, 1, 1, smem, 0, args, nullptr));
      CK(cuCtxSynchronize());
      printf("launch %s %dx%dx%d%s reps %d relerr %.2e worst %.2e %s\n", v.name.c_str(), s.M, s.N,
             s.K, s.gated ? "g" : "", reps, std::sqrt(num / den), worst, ok ? "ok" : "FAIL");
      fflush(stdout);
    }
    cuMemFree(x), cuMemFree(w), cuMemFree(d), cuMemFree(c0), cuMemFree(c1);
  }
  printf(all_ok ? "ALL OK\n" : "SOME FAILED\n");
  return all_ok ? 0 : 1;
}
