// A span of global memory that starts anywhere (off the 16-byte grid) moved with 16-byte accesses:
// a head of single elements up to the first 16-byte boundary, whole packs, then a tail.
#pragma once

#include "device/vec.cuh"

namespace tileops::dev {

// Elements of T from p back to the 16-byte boundary below it (p is T-aligned).
template <typename T, int VEC>
__device__ __forceinline__ int pack_offset(const T* p) {
  return static_cast<int>((reinterpret_cast<unsigned long long>(p) / sizeof(T)) % VEC);
}

// The split of a span of cols elements starting at p into head, whole packs and tail.
struct SpanSplit {
  int head, packs;
};
template <typename T, int VEC>
__device__ __forceinline__ SpanSplit span_split(const T* p, int cols) {
  const int off = pack_offset<T, VEC>(p);
  const int head = min(off == 0 ? 0 : VEC - off, cols);
  return {head, (cols - head) / VEC};
}

// A span src[0, cols) on its way to shared memory: load() reads it into registers, store() writes
// it to buf[shift, shift + cols), shift = pack_offset(src), so that src's packs land on buf's
// 16-byte boundaries (buf 16-byte aligned, cols + VEC - 1 elements long). A group of `threads`
// threads (tid, its rank in them) shares the work, at most PER_THREAD packs each (cols <=
// PER_THREAD * VEC * threads, threads >= 2 * VEC); load and store take the same tid and threads.
// Loading every span before storing any keeps all their loads in flight together:
// the compiler may not move a global load past a store through a generic pointer, so a
// load-store loop waits out one memory round trip a pack. The caller synchronises before reading
// buf.
template <typename T, int VEC, int PER_THREAD>
struct StagedSpan {
  Pack<T, VEC> packs[PER_THREAD];
  T edge_value;
  int edge = -1;  // the head or tail element this thread moves, or -1
  SpanSplit split;
  int shift = 0;

  __device__ __forceinline__ void load(const T* __restrict__ src, int cols, int tid, int threads) {
    shift = pack_offset<T, VEC>(src);
    split = span_split<T, VEC>(src, cols);
#pragma unroll
    for (int c = 0; c < PER_THREAD; ++c) {
      const int p = tid + c * threads;
      if (p < split.packs) packs[c] = load_pack<T, VEC>(src + split.head + p * VEC);
    }
    // The head and the tail, fewer than VEC elements each: threads [0, head) and [VEC, VEC +
    // tail).
    const int tail = split.head + split.packs * VEC;
    if (tid < split.head) {
      edge = tid;
    } else if (tid >= VEC && tid - VEC < cols - tail) {
      edge = tail + tid - VEC;
    }
    if (edge >= 0) edge_value = src[edge];
  }

  __device__ __forceinline__ void store(T* buf, int tid, int threads) const {
    T* dst = buf + shift;
#pragma unroll
    for (int c = 0; c < PER_THREAD; ++c) {
      const int p = tid + c * threads;
      if (p < split.packs) store_pack<T, VEC>(dst + split.head + p * VEC, packs[c]);
    }
    if (edge >= 0) dst[edge] = edge_value;
  }
};

// The VEC elements buf[d, d + VEC) for a 16-byte aligned buf and 0 <= d < VEC, read as two aligned
// 16-byte loads (buf[0, 2 * VEC) must be readable) and realigned in registers. Lanes reading
// packs 16 bytes apart element by element meet 4-way bank conflicts on every 2-byte load; two
// 16-byte loads a pack take a quarter of the shared-memory wavefronts.
template <int Q, int WORDS>
__device__ __forceinline__ void take_words(const u32 (&w)[2 * WORDS], int bits,
                                           Pack<u32, WORDS>& o) {
#pragma unroll
  for (int i = 0; i < WORDS; ++i) o.v[i] = __funnelshift_r(w[i + Q], w[i + Q + 1], bits);
}
template <typename T, int VEC>
__device__ __forceinline__ Pack<T, VEC> read_shifted_pack(const T* buf, int d) {
  constexpr int WORDS = VEC * static_cast<int>(sizeof(T)) / 4;
  static_assert(WORDS == 4, "a pack is 16 bytes");
  u32 w[2 * WORDS];
  const Pack<u32, WORDS> lo = load_pack<u32, WORDS>(reinterpret_cast<const u32*>(buf));
  const Pack<u32, WORDS> hi = load_pack<u32, WORDS>(reinterpret_cast<const u32*>(buf + VEC));
#pragma unroll
  for (int i = 0; i < WORDS; ++i) {
    w[i] = lo.v[i];
    w[i + WORDS] = hi.v[i];
  }
  const int byte = d * static_cast<int>(sizeof(T));
  const int bits = (byte & 3) * 8;
  Pack<u32, WORDS> o;
  switch (byte >> 2) {
    case 0:
      take_words<0, WORDS>(w, bits, o);
      break;
    case 1:
      take_words<1, WORDS>(w, bits, o);
      break;
    case 2:
      take_words<2, WORDS>(w, bits, o);
      break;
    default:
      take_words<3, WORDS>(w, bits, o);
      break;
  }
  return *reinterpret_cast<const Pack<T, VEC>*>(&o);
}

}  // namespace tileops::dev
