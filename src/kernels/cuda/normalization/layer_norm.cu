// LayerNorm over rows of n elements: one block a row, a group of LANES lanes a row (several rows a
// block), a cluster of CLUSTER blocks a row, or with GRID a cooperative grid's column of blocks a
// row (RowSlot); the row is kept in registers (up to CACHE packs per thread) for the mean, the
// centred variance and the output, in 16-byte packs from its first 16-byte boundary (RowSpan).
// PACKS > 0: a block a row of at most PACKS packs a thread held in registers, the weight and bias
// loaded beside the row (RegisterRow), the same two reductions. Prelude: T, VEC, CACHE, LANES,
// CLUSTER, GRID, PACKS.
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE, LANES, CLUSTER, GRID, PACKS)
    layer_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                      T* __restrict__ y, i64 n, float eps, i64 rows,
                      GridSlot* __restrict__ exchange) {
  using P = Pack<T, VEC>;
  __shared__ float scratch[32];
  if constexpr (PACKS > 0) {
    using Row = RegisterRow<T, VEC, PACKS>;
    const Row row(n);
    P p[Row::kPacks], g[Row::kPacks], h[Row::kPacks];
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < Row::kPacks; ++j) {
      if (!row.mine(j)) continue;
      p[j] = row.load(x, j);
      g[j] = row.load_column(w, j);
      h[j] = row.load_column(b, j);
#pragma unroll
      for (int k = 0; k < VEC; ++k) sum += to_float(p[j].v[k]);
    }
    const float mean = block_reduce<Sum>(sum, scratch) / (float)n;
    float sq = 0.0f;
#pragma unroll
    for (int j = 0; j < Row::kPacks; ++j) {
      if (!row.mine(j)) continue;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const float d = to_float(p[j].v[k]) - mean;
        sq += d * d;
      }
    }
    const float inv = rsqrtf(block_reduce<Sum>(sq, scratch) / (float)n + eps);
#pragma unroll
    for (int j = 0; j < Row::kPacks; ++j) {
      if (!row.mine(j)) continue;
      row.store(y, j, make_pack<T, VEC>([&](int k) {
                  return (to_float(p[j].v[k]) - mean) * inv * to_float(g[j].v[k]) +
                         to_float(h[j].v[k]);
                }));
    }
    return;
  }
  RowSlot<LANES, CLUSTER, GRID> slot(rows, exchange);
  const i64 len = slot.live ? n : 0;
  const T* xs = x + slot.row * n;
  T* ys = y + slot.row * n;
  const RowSpan<T, VEC> span(xs, len);
  prefetch_row_columns(slot, span, w);
  prefetch_row_columns(slot, span, b);
  const P* xr = span.packs_of(xs);
  P* yr = span.packs_of(ys);
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CACHE> row(slot.lane, slot.stride);
  float sum = 0.0f;
  row.fill(slot.begin(span.packs), slot.end(span.packs), read, [&](const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) sum += to_float(p.v[k]);
  });
  slot.for_each_edge(span, len, [&](i64 i) { sum += to_float(xs[i]); });
  const float mean = slot.template reduce<Sum>(sum, scratch) / (float)n;
  float sq = 0.0f;
  row.revisit(slot.begin(span.packs), slot.end(span.packs), read, [&](i64, const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - mean;
      sq += d * d;
    }
  });
  slot.for_each_edge(span, len, [&](i64 i) {
    const float d = to_float(xs[i]) - mean;
    sq += d * d;
  });
  const float inv = rsqrtf(slot.template reduce<Sum>(sq, scratch) / (float)n + eps);
  row.revisit(slot.begin(span.packs), slot.end(span.packs), read, [&](i64 i, const P& p) {
    const P g = span.column_pack(w, i), h = span.column_pack(b, i);
    yr[i] = make_pack<T, VEC>([&](int k) {
      return (to_float(p.v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]);
    });
  });
  slot.for_each_edge(span, len, [&](i64 i) {
    ys[i] = from_float<T>((to_float(xs[i]) - mean) * inv * to_float(w[i]) + to_float(b[i]));
  });
}
