// softmax / log_softmax of rows of n contiguous elements (x seen as [rows, n]), one block per
// row: one pass keeps a running (max, sum) while caching up to CACHE packs per thread in
// registers, then the output pass. Prelude: T, VEC, CACHE, LOG (log_softmax when true).
#include "device/rows.cuh"
#include "reduction/online_softmax.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE)
    softmax_rows_kernel(const T* __restrict__ x, T* __restrict__ y, i64 n) {
  using P = Pack<T, VEC>;
  __shared__ float2 scratch[32];
  const T* xs = x + blockIdx.x * n;
  T* ys = y + blockIdx.x * n;
  const P* xr = reinterpret_cast<const P*>(xs);
  P* yr = reinterpret_cast<P*>(ys);
  const i64 packs = n / VEC;
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CACHE> row;
  float2 ms = OnlineMerge::identity();
  row.fill(0, packs, read, [&](const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(ms, to_float(p.v[k]));
  });
  for_each_index(packs * VEC, n, [&](i64 i) { online_update(ms, to_float(xs[i])); });
  const SoftmaxOut<LOG> out(block_reduce<OnlineMerge>(ms, scratch));
  row.revisit(0, packs, read, [&](i64 i, const P& p) {
    yr[i] = make_pack<T, VEC>([&](int k) { return out(to_float(p.v[k])); });
  });
  for_each_index(packs * VEC, n, [&](i64 i) { ys[i] = from_float<T>(out(to_float(xs[i]))); });
}
