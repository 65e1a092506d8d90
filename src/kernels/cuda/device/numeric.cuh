// Numeric types of the device library and their conversions. NVRTC sees no CUDA header, so the
// 16-bit float types are plain bit containers converted with PTX.
#pragma once

namespace tileops::dev {

using i32 = int;
using i64 = long long;
using u64 = unsigned long long;
using u32 = unsigned int;
using u16 = unsigned short;

struct bf16 {
  u16 bits;
};
struct f16 {
  u16 bits;
};
// OCP fp8 e4m3 (the "fn" variant: no infinities), one byte.
struct e4m3 {
  unsigned char bits;
};

__device__ __forceinline__ float to_float(float v) {
  return v;
}
// sm_90's cvt from a 16-bit register, as f16's below: the shift of a widened u16 cost the row
// kernels registers (RMSNorm's block kernel 48 against 32, ptxas).
__device__ __forceinline__ float to_float(bf16 v) {
#if __CUDA_ARCH__ >= 900
  float f;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
#else
  return __uint_as_float(static_cast<u32>(v.bits) << 16);
#endif
}
__device__ __forceinline__ float to_float(f16 v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ bf16 from_float<bf16>(float v) {
  u16 r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(v));
  return bf16{r};
}
template <>
__device__ __forceinline__ f16 from_float<f16>(float v) {
  u16 r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(v));
  return f16{r};
}

// Two floats rounded to T and packed into one 32-bit word, lo in the low half.
template <typename T>
__device__ __forceinline__ u32 pack2(float lo, float hi);
template <>
__device__ __forceinline__ u32 pack2<bf16>(float lo, float hi) {
  u32 r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
template <>
__device__ __forceinline__ u32 pack2<f16>(float lo, float hi) {
  u32 r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

// The low and high halves of a packed pair as floats.
template <typename T>
__device__ __forceinline__ float unpack_lo(u32 w) {
  return to_float(T{static_cast<u16>(w & 0xffffu)});
}
template <typename T>
__device__ __forceinline__ float unpack_hi(u32 w) {
  return to_float(T{static_cast<u16>(w >> 16)});
}

template <typename T>
struct TypeName;  // the PTX spelling of an element type, for instructions that name it
template <>
struct TypeName<bf16> {
  static constexpr const char* ptx = "bf16";
};
template <>
struct TypeName<f16> {
  static constexpr const char* ptx = "f16";
};

__host__ __device__ constexpr int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

}  // namespace tileops::dev
