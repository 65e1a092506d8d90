// The rotary cos/sin cache (RotaryCosSinCacheFwdOp): one thread per (position, frequency), the
// angle and its cosine and sine in double (positions reach hundreds of thousands of radians),
// stored as float32 times mscale. The frequencies come from the host (the op computes them once
// from its parameters) by value in the kernel's parameters. Prelude: P (positions).
#include "device/numeric.cuh"

using namespace tileops::dev;

constexpr int kMaxFrequencies = 256;  // rotary_dim up to 512
struct Frequencies {
  double inv_freq[kMaxFrequencies];
};

extern "C" __global__ void rotary_cos_sin_cache_kernel(const P* __restrict__ positions,
                                                       float* __restrict__ cache, i64 tokens,
                                                       int rotary_dim, double mscale,
                                                       const Frequencies frequencies) {
  const int half = rotary_dim / 2;
  const i64 total = tokens * half;
  for (i64 w = blockIdx.x * (i64)blockDim.x + threadIdx.x; w < total;
       w += (i64)gridDim.x * blockDim.x) {
    const i64 t = w / half;
    const int i = static_cast<int>(w - t * half);
    double s, c;
    sincos(static_cast<double>(positions[t]) * frequencies.inv_freq[i], &s, &c);
    cache[t * rotary_dim + i] = static_cast<float>(c * mscale);
    cache[t * rotary_dim + half + i] = static_cast<float>(s * mscale);
  }
}
