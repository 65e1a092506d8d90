// out = a + alpha * b. add_same_kernel: equal shapes, VEC elements per access.
// add_broadcast_kernel: any broadcast, one element per thread, operand strides 0 along broadcast
// dims. Prelude: T, VEC.
#include "device/vec.cuh"

using namespace tileops::dev;

struct BroadcastDesc {
  int rank;
  i64 shape[8];
  i64 a_stride[8];
  i64 b_stride[8];
};

extern "C" __global__ void add_same_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                           T* __restrict__ out, i64 n, float alpha) {
  const i64 packs = n / VEC;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < packs;
       i += (i64)gridDim.x * blockDim.x) {
    const Pack<T, VEC> pa = reinterpret_cast<const Pack<T, VEC>*>(a)[i];
    const Pack<T, VEC> pb = reinterpret_cast<const Pack<T, VEC>*>(b)[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k)
      o.v[k] = from_float<T>(to_float(pa.v[k]) + alpha * to_float(pb.v[k]));
    reinterpret_cast<Pack<T, VEC>*>(out)[i] = o;
  }
  // The tail (n % VEC elements) is handled by the first threads.
  const i64 t = packs * VEC + blockIdx.x * (i64)blockDim.x + threadIdx.x;
  if (t < n) out[t] = from_float<T>(to_float(a[t]) + alpha * to_float(b[t]));
}

// The operands' offsets of element (or pack) `linear` of the output.
template <typename IDX>
__device__ __forceinline__ void broadcast_offsets(IDX linear, const BroadcastDesc& d, IDX& ia,
                                                  IDX& ib) {
  IDX rest = linear;
  ia = 0;
  ib = 0;
  for (int k = d.rank - 1; k >= 0; --k) {
    const IDX extent = (IDX)d.shape[k];
    const IDX q = rest / extent;
    const IDX idx = rest - q * extent;
    rest = q;
    ia += idx * (IDX)d.a_stride[k];
    ib += idx * (IDX)d.b_stride[k];
  }
}

// IDX is the index type: 32-bit when every offset fits (integer division is much cheaper).
template <typename IDX>
__device__ __forceinline__ void add_broadcast(const T* __restrict__ a, const T* __restrict__ b,
                                              T* __restrict__ out, i64 n, float alpha,
                                              const BroadcastDesc& d) {
  for (IDX i = blockIdx.x * blockDim.x + threadIdx.x; i < (IDX)n;
       i += (IDX)gridDim.x * blockDim.x) {
    IDX ia, ib;
    broadcast_offsets<IDX>(i, d, ia, ib);
    out[i] = from_float<T>(to_float(a[ia]) + alpha * to_float(b[ib]));
  }
}

extern "C" __global__ void add_broadcast_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                                T* __restrict__ out, i64 n, float alpha,
                                                BroadcastDesc d) {
  add_broadcast<i64>(a, b, out, n, alpha, d);
}

extern "C" __global__ void add_broadcast32_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                                  T* __restrict__ out, i64 n, float alpha,
                                                  BroadcastDesc d) {
  add_broadcast<unsigned>(a, b, out, n, alpha, d);
}

// Broadcasting with VEC elements per access: the output's last dim (extent a multiple of VEC) is
// counted in packs, d.shape[rank - 1] = extent / VEC. An operand that runs along it (a_vec /
// b_vec) has last-dim stride VEC and is read a pack at a time; one broadcast along it has stride
// 0 and its element is read once per pack.
template <typename IDX>
__device__ __forceinline__ void add_broadcast_packs(const T* __restrict__ a,
                                                    const T* __restrict__ b, T* __restrict__ out,
                                                    i64 packs, float alpha, const BroadcastDesc& d,
                                                    int a_vec, int b_vec) {
  for (IDX p = blockIdx.x * blockDim.x + threadIdx.x; p < (IDX)packs;
       p += (IDX)gridDim.x * blockDim.x) {
    IDX ia, ib;
    broadcast_offsets<IDX>(p, d, ia, ib);
    Pack<T, VEC> pa, pb, o;
    if (a_vec) {
      pa = *reinterpret_cast<const Pack<T, VEC>*>(a + ia);
    } else {
      const T s = a[ia];
#pragma unroll
      for (int k = 0; k < VEC; ++k) pa.v[k] = s;
    }
    if (b_vec) {
      pb = *reinterpret_cast<const Pack<T, VEC>*>(b + ib);
    } else {
      const T s = b[ib];
#pragma unroll
      for (int k = 0; k < VEC; ++k) pb.v[k] = s;
    }
#pragma unroll
    for (int k = 0; k < VEC; ++k)
      o.v[k] = from_float<T>(to_float(pa.v[k]) + alpha * to_float(pb.v[k]));
    reinterpret_cast<Pack<T, VEC>*>(out)[p] = o;
  }
}

extern "C" __global__ void add_broadcast_vec_kernel(const T* __restrict__ a,
                                                    const T* __restrict__ b, T* __restrict__ out,
                                                    i64 packs, float alpha, BroadcastDesc d,
                                                    int a_vec, int b_vec) {
  add_broadcast_packs<i64>(a, b, out, packs, alpha, d, a_vec, b_vec);
}

extern "C" __global__ void add_broadcast_vec32_kernel(const T* __restrict__ a,
                                                      const T* __restrict__ b, T* __restrict__ out,
                                                      i64 packs, float alpha, BroadcastDesc d,
                                                      int a_vec, int b_vec) {
  add_broadcast_packs<unsigned>(a, b, out, packs, alpha, d, a_vec, b_vec);
}
