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

// Copies src[0, cols) to buf[shift, shift + cols), shift = pack_offset(src), so that src's packs
// land on buf's 16-byte boundaries (buf 16-byte aligned, cols + VEC - 1 elements long). The
// block's threads share the work; the caller synchronises before reading buf.
template <typename T, int VEC>
__device__ __forceinline__ int stage_span(const T* __restrict__ src, int cols, T* buf) {
  const int shift = pack_offset<T, VEC>(src);
  const SpanSplit s = span_split<T, VEC>(src, cols);
  T* dst = buf + shift;
  for (int j = threadIdx.x; j < s.head; j += blockDim.x) dst[j] = src[j];
  for (int p = threadIdx.x; p < s.packs; p += blockDim.x) {
    const int j = s.head + p * VEC;
    store_pack<T, VEC>(dst + j, load_pack<T, VEC>(src + j));
  }
  for (int j = s.head + s.packs * VEC + threadIdx.x; j < cols; j += blockDim.x) dst[j] = src[j];
  return shift;
}

}  // namespace tileops::dev
