// NeoX rotary embedding of x [B, S, H, D] (B = H = 1 for the 1d layout): for i < D/2 at sequence
// position s, angle = s * base^(-2i/D) computed in double (s reaches thousands of radians),
// out[i] = x[i] cos - x[i + D/2] sin, out[i + D/2] = x[i + D/2] cos + x[i] sin. Prelude: T.
extern "C" __global__ void rope_neox_kernel(const T* __restrict__ x, T* __restrict__ out, i64 batch,
                                            i64 seq, i64 heads, i64 dim, double base) {
  const i64 half = dim / 2;
  const i64 total = batch * seq * heads * half;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
    const i64 j = i % half;
    const i64 row = i / half;  // (b, s, h) flattened
    const i64 s = (row / heads) % seq;
    const double inv_freq = pow(base, -2.0 * (double)j / (double)dim);
    double sn, cs;
    sincos((double)s * inv_freq, &sn, &cs);
    const float c = (float)cs, sf = (float)sn;
    const T* xr = x + row * dim;
    T* orow = out + row * dim;
    const float x1 = to_float(xr[j]), x2 = to_float(xr[j + half]);
    orow[j] = from_float<T>(x1 * c - x2 * sf);
    orow[j + half] = from_float<T>(x2 * c + x1 * sf);
  }
}
