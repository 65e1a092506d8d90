// Device helpers shared by every tileops CUDA kernel. NVRTC compiles each kernel as one
// translation unit: this file, then the specialisation prelude (the element type and constants),
// then the kernel's own source. No CUDA header is needed.
typedef unsigned short tileops_u16;
typedef long long i64;
#define TILEOPS_NEG_INF __int_as_float(0xff800000)
struct bf16 { tileops_u16 bits; };
struct f16 { tileops_u16 bits; };

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(bf16 v) { return __uint_as_float(((unsigned)v.bits) << 16); }
__device__ __forceinline__ float to_float(f16 v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
}

template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ bf16 from_float<bf16>(float v) {
  tileops_u16 r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(v));
  return bf16{r};
}
template <> __device__ __forceinline__ f16 from_float<f16>(float v) {
  tileops_u16 r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(v));
  return f16{r};
}

// Row kernels that keep CACHE packs per thread in registers cap their blocks at 512 threads (at
// most 128 registers a thread); those that keep none may use 1024. CACHE comes from the prelude,
// which precedes the kernel source, so this is used (not expanded) after it is defined.
#define ROW_BOUNDS __launch_bounds__(CACHE > 0 ? 512 : 1024)

// Starts moving the bytes [p, p + count) that this block's threads will read after a reduction
// (a norm's weight) into L2, so the read after the barrier does not wait on DRAM: one-row
// (decode) calls are latency-bound, and this takes one DRAM round trip off their critical path.
// Grids of many rows skip it: there the weight stays in L2 after the first rows.
__device__ __forceinline__ void prefetch_l2(const void* p, i64 count_bytes) {
  if (gridDim.x * gridDim.y >= 256) return;
  const char* c = static_cast<const char*>(p);
  for (i64 off = (i64)threadIdx.x * 128; off < count_bytes; off += (i64)blockDim.x * 128) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(c + off));
  }
}

// VEC elements of T loaded or stored as one access (16 bytes when VEC * sizeof(T) == 16).
template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Sum over the block; every thread gets the result. scratch holds 32 floats.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = (blockDim.x + 31) >> 5;
  v = lane < warps ? scratch[lane] : 0.0f;
  return warp_sum(v);
}

__device__ __forceinline__ float block_max(float v, float* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_max(v);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = (blockDim.x + 31) >> 5;
  v = lane < warps ? scratch[lane] : __int_as_float(0xff800000);
  return warp_max(v);
}
