// softmax / log_softmax over the middle dim of x seen as [outer, n, inner], any inner: one
// thread per (outer, inner) column, grid-stride. Prelude: T, LOG.
#include "reduction/online_softmax.cuh"

using namespace tileops::dev;

extern "C" __global__ void softmax_strided_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                  i64 outer, i64 n, i64 inner) {
  const i64 columns = outer * inner;
  for (i64 c = blockIdx.x * (i64)blockDim.x + threadIdx.x; c < columns;
       c += (i64)gridDim.x * blockDim.x) {
    const i64 o = c / inner, in = c - o * inner;
    const T* base = x + o * n * inner + in;
    float2 ms = OnlineMerge::identity();
    for (i64 j = 0; j < n; ++j) online_update(ms, to_float(base[j * inner]));
    const SoftmaxOut<LOG> out(ms);
    T* col = y + o * n * inner + in;
    for (i64 j = 0; j < n; ++j) col[j * inner] = from_float<T>(out(to_float(base[j * inner])));
  }
}
