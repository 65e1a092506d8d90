// residual_out = x + residual (rounded to T, as the unfused pair would), output =
// rms_norm(residual_out) * weight: one block a row, a group of LANES lanes a row (several rows a
// block), a cluster of CLUSTER blocks a row, or with GRID a cooperative grid's column of blocks a
// row (RowSlot); the rounded sums kept in registers (up to CACHE packs per thread; longer rows
// re-read residual_out, which these threads wrote before the reduction), in 16-byte packs from
// the row's first 16-byte boundary (RowSpan). PACKS > 0: a block a row of at most PACKS packs a
// thread held in registers, the weight loaded beside the row (RegisterRow). Prelude: T, VEC,
// CACHE, LANES, CLUSTER, GRID, PACKS.
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE, LANES, CLUSTER, GRID, PACKS)
    fused_add_rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ residual,
                              const T* __restrict__ w, T* __restrict__ y,
                              T* __restrict__ residual_out, i64 n, float eps, i64 rows,
                              GridSlot* __restrict__ exchange) {
  using P = Pack<T, VEC>;
  __shared__ float scratch[32];
  if constexpr (PACKS > 0) {
    using Row = RegisterRow<T, VEC, PACKS>;
    const Row row(n);
    P s[Row::kPacks], g[Row::kPacks];
    float ss = 0.0f;
#pragma unroll
    for (int j = 0; j < Row::kPacks; ++j) {
      if (!row.mine(j)) continue;
      const P a = row.load(x, j), r = row.load(residual, j);
      g[j] = row.load_column(w, j);
      s[j] = make_pack<T, VEC>([&](int k) { return to_float(a.v[k]) + to_float(r.v[k]); });
      row.store(residual_out, j, s[j]);
#pragma unroll
      for (int k = 0; k < VEC; ++k) ss += to_float(s[j].v[k]) * to_float(s[j].v[k]);
    }
    const float inv = rsqrtf(block_reduce<Sum>(ss, scratch) / (float)n + eps);
#pragma unroll
    for (int j = 0; j < Row::kPacks; ++j) {
      if (!row.mine(j)) continue;
      row.store(y, j, make_pack<T, VEC>([&](int k) {
                  return to_float(s[j].v[k]) * inv * to_float(g[j].v[k]);
                }));
    }
    return;
  }
  RowSlot<LANES, CLUSTER, GRID> slot(rows, exchange);
  const i64 len = slot.live ? n : 0;
  const i64 off = slot.row * n;
  const RowSpan<T, VEC> span(x + off, len);
  const P* xp = span.packs_of(x + off);
  const P* rp = span.packs_of(residual + off);
  P* op = span.packs_of(residual_out + off);
  P* yp = span.packs_of(y + off);
  prefetch_row_columns(slot, span, w);
  RowCache<T, VEC, CACHE> row(slot.lane, slot.stride);
  float ss = 0.0f;
  row.fill(
      slot.begin(span.packs), slot.end(span.packs),
      [&](i64 i) {
        const P a = xp[i], r = rp[i];
        const P s = make_pack<T, VEC>([&](int k) { return to_float(a.v[k]) + to_float(r.v[k]); });
        op[i] = s;
        return s;
      },
      [&](const P& s) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
          const float v = to_float(s.v[k]);
          ss += v * v;
        }
      });
  slot.for_each_edge(span, len, [&](i64 i) {
    const T s = from_float<T>(to_float(x[off + i]) + to_float(residual[off + i]));
    residual_out[off + i] = s;
    const float v = to_float(s);
    ss += v * v;
  });
  const float inv = rsqrtf(slot.template reduce<Sum>(ss, scratch) / (float)n + eps);
  row.revisit(
      slot.begin(span.packs), slot.end(span.packs), [&](i64 i) { return op[i]; },
      [&](i64 i, const P& s) {
        const P g = span.column_pack(w, i);
        yp[i] = make_pack<T, VEC>([&](int k) { return to_float(s.v[k]) * inv * to_float(g.v[k]); });
      });
  slot.for_each_edge(span, len, [&](i64 i) {
    y[off + i] = from_float<T>(to_float(residual_out[off + i]) * inv * to_float(w[i]));
  });
}
