// Scratch sweep of skinny-GEMM variants (not part of the project): NVRTC-compiles the kernel with
// given macros, runs it on random bf16 data, checks against a host reference, and launches each
// variant REPS times so ncu can time them (kernel names carry the variant).
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <random>
#include <cmath>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* e; cuGetErrorString(r_, &e); fprintf(stderr, "%s: %s\n", #x, e); exit(1);} } while (0)
static uint16_t f2bf(float f) { uint32_t u; memcpy(&u, &f, 4); return (u + 0x7fff + ((u >> 16) & 1)) >> 16; }
static float bf2f(uint16_t h) { uint32_t u = uint32_t(h) << 16; float f; memcpy(&f, &u, 4); return f; }
struct Variant { std::string name, file, macros; int grid_mode; };  // grid_mode: 0 old (N/16), >0 blocks per SM
CUfunction build(const Variant& v) {
  std::string src = v.macros + "\n#include \"" + v.file + "\"\n";
  nvrtcProgram prog; nvrtcCreateProgram(&prog, src.c_str(), "k.cu", 0, nullptr, nullptr);
  const char* opts[] = {"-arch=sm_90a", "-std=c++17", "--include-path=src/kernels/cuda", "--include-path=.gpu/explore"};
  if (nvrtcCompileProgram(prog, 4, opts) != NVRTC_SUCCESS) {
    size_t n; nvrtcGetProgramLogSize(prog, &n); std::string log(n, 0); nvrtcGetProgramLog(prog, log.data()); fprintf(stderr, "%s\n", log.c_str()); exit(1); }
  size_t n; nvrtcGetCUBINSize(prog, &n); std::vector<char> cubin(n); nvrtcGetCUBIN(prog, cubin.data());
  CUmodule mod; CK(cuModuleLoadData(&mod, cubin.data()));
  CUfunction fn; CK(cuModuleGetFunction(&fn, mod, "gemm_skinny_kernel"));
  return fn;
}
int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  struct Shape { int M, N, K, gated; };
  std::vector<Shape> shapes = {{1, 4096, 4096, 0}, {1, 13824, 5120, 0}, {1, 14336, 4096, 1}, {16, 14336, 4096, 1}, {1, 4096, 14336, 0}, {1, 128256, 4096, 0}, {8, 6144, 4096, 0}, {1, 2048, 2048, 0}};
  std::vector<Variant> vs;
  auto base = [](int mt, int gated) { return "#define T bf16\n#define MT " + std::to_string(mt) + "\n#define WARPS 8\n#define GATED_ACT " + std::to_string(gated ? 0 : -1) + "\n"; };
  for (auto& s : shapes) {
    (void)s;
  }
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> U(-1, 1);
  for (auto& s : shapes) {
    int mt = (s.M + 7) / 8;
    std::vector<Variant> vv;
    std::string unroll = "#define UNROLL " + std::to_string(mt == 1 ? 8 : mt == 2 ? 4 : 2) + "\n";
    vv.push_back({"old", "gemm_skinny_old.cu", base(mt, s.gated) + unroll, 0});
    vv.push_back({"bal_steps", "gemm/gemm_skinny.cu", base(mt, s.gated) + unroll, 0});
    vv.push_back({"bal_waves", "gemm/gemm_skinny.cu", base(mt, s.gated) + unroll, 1});
    vv.push_back({"bal_waves_x2", "gemm/gemm_skinny.cu", base(mt, s.gated) + unroll, 2});
    vv.push_back({"bal_waves_x3", "gemm/gemm_skinny.cu", base(mt, s.gated) + unroll, 3});
    vv.push_back({"ring_d6_b2", "gemm_skinny_ring.cu", base(mt, s.gated) + "#define DEPTH " + std::to_string(mt == 1 ? 6 : mt == 2 ? 6 : 4) + "\n#define BURST 2\n#define ROUND_STEPS " + std::to_string(64 / mt) + "\n", -2});
    size_t wrows = size_t(s.N) * (s.gated ? 2 : 1);
    std::vector<uint16_t> hx(size_t(s.M) * s.K), hw(wrows * s.K);
    for (auto& v : hx) v = f2bf(U(rng));
    for (auto& v : hw) v = f2bf(U(rng));
    CUdeviceptr x, w, d, w2;
    CK(cuMemAlloc(&x, hx.size() * 2)); CK(cuMemAlloc(&w, hw.size() * 2)); CK(cuMemAlloc(&d, size_t(s.M) * s.N * 2)); CK(cuMemAlloc(&w2, hw.size() * 2));
    CK(cuMemcpyHtoD(x, hx.data(), hx.size() * 2)); CK(cuMemcpyHtoD(w, hw.data(), hw.size() * 2));
    // reference
    std::vector<double> ref(size_t(s.M) * s.N);
    for (int m = 0; m < s.M; ++m) for (int n = 0; n < s.N; ++n) {
      double a = 0, b = 0;
      for (int k = 0; k < s.K; ++k) { a += double(bf2f(hx[size_t(m) * s.K + k])) * bf2f(hw[size_t(n) * s.K + k]); if (s.gated) b += double(bf2f(hx[size_t(m) * s.K + k])) * bf2f(hw[size_t(s.N + n) * s.K + k]); }
      ref[size_t(m) * s.N + n] = s.gated ? a / (1 + std::exp(-a)) * b : a;
    }
    for (auto& v : vv) {
      CUfunction fn = build(v);
      const int step = s.gated ? 8 : 16, steps = (s.N + step - 1) / step, slots = 2 * sms;
      unsigned gx = v.grid_mode == 0 ? steps : v.grid_mode < 0 ? std::min(-v.grid_mode * sms, s.N)
                                    : std::min(s.N, v.grid_mode * ((steps + slots - 1) / slots) * slots);
      int M = s.M, N = s.N, K = s.K; CUdeviceptr nul = 0; long long batch = 1;
      void* args[] = {&x, &w, &d, &M, &N, &K, &nul, &nul, &batch};
      CK(cuMemsetD8(d, 0xff, size_t(s.M) * s.N * 2));
      CK(cuLaunchKernel(fn, gx, 1, 1, 256, 1, 1, 0, 0, args, nullptr)); CK(cuCtxSynchronize());
      std::vector<uint16_t> hd(size_t(s.M) * s.N); CK(cuMemcpyDtoH(hd.data(), d, hd.size() * 2));
      double num = 0, den = 0; for (size_t i = 0; i < hd.size(); ++i) { double e = bf2f(hd[i]) - ref[i]; num += e * e; den += ref[i] * ref[i]; }
      for (int r = 0; r < reps; ++r) CK(cuLaunchKernel(fn, gx, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
      CK(cuCtxSynchronize());
      printf("shape %dx%dx%d%s variant %s grid %u relerr %.2e\n", s.M, s.N, s.K, s.gated ? " gated" : "", v.name.c_str(), gx, std::sqrt(num / den));
    }
    for (int r = 0; r < reps; ++r) CK(cuMemcpyDtoDAsync(w2, w, hw.size() * 2, 0));
    CK(cuCtxSynchronize());
    cuMemFree(x); cuMemFree(w); cuMemFree(d); cuMemFree(w2);
  }
  return 0;
}
