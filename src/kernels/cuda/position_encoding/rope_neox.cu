// NeoX rotary embedding of x [B, S, H, D] (B = H = 1 for the 1d layout). One thread per (s, i)
// with i < D/2: the angle s * base^(-2i/D) and its sine and cosine are computed once, in double
// (s reaches thousands of radians), and applied to every (b, h) row at position s:
// out[i] = x[i] cos - x[i + D/2] sin, out[i + D/2] = x[i + D/2] cos + x[i] sin. Prelude: T.
#include "device/numeric.cuh"

using namespace tileops::dev;

extern "C" __global__ void rope_neox_kernel(const T* __restrict__ x, T* __restrict__ out, i64 batch,
                                            i64 seq, i64 heads, i64 dim, double base) {
  const i64 half = dim / 2;
  const i64 total = seq * half;
  for (i64 t = blockIdx.x * (i64)blockDim.x + threadIdx.x; t < total;
       t += (i64)gridDim.x * blockDim.x) {
    const i64 s = t / half, j = t - s * half;
    double sn, cs;
    sincos((double)s * pow(base, -2.0 * (double)j / (double)dim), &sn, &cs);
    const float c = (float)cs, sf = (float)sn;
    for (i64 b = 0; b < batch; ++b) {
      for (i64 h = 0; h < heads; ++h) {
        const i64 row = (b * seq + s) * heads + h;
        const T* xr = x + row * dim;
        T* orow = out + row * dim;
        const float x1 = to_float(xr[j]), x2 = to_float(xr[j + half]);
        orow[j] = from_float<T>(x1 * c - x2 * sf);
        orow[j + half] = from_float<T>(x2 * c + x1 * sf);
      }
    }
  }
}
