// The sm90 device primitives (src/kernels/cuda/device), each checked on the GPU against a plain
// host loop: TMA loads through an mbarrier (2-D and batched 3-D maps, swizzle included, edges
// zero-filled), wgmma tiles in every operand layout (bf16, and fp8 k32), ldmatrix/stmatrix, a
// 2-block cluster (distributed shared memory, remote mbarrier arrival, multicast TMA), the
// persistent tile scheduler, and a TMA store with elect_one and the block reductions.
// Inputs are fresh random values each run; outputs are poisoned first. Skipped without a GPU.
#include <random>
#include <tuple>

#include <fmt/format.h>

#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/host/tensor_map.hpp"
#include "runtime/cuda/nvrtc_api.hpp"
#include "support/cuda_support.hpp"
#include "support/test_support.hpp"
#include "tileops/core/half.hpp"

namespace tileops::cuda {
namespace {

using testing::host_copy;

KernelSource test_kernel(const std::string& name, const std::string& prelude,
                         const std::string& body) {
  KernelSource s;
  s.name = name;
  s.source = "#include \"device/numeric.cuh\"\n" + prelude + body;
  s.options = {"-std=c++17"};
  s.headers = included_headers(s.source);
  return s;
}

constexpr const char* kUnswizzle = R"(
// Element (r, c) of a 128-byte-swizzled tile of 16-bit elements: chunk c/8 of row r sits at
// chunk (c/8) ^ (r%8).
__device__ unsigned short swizzled_at(const unsigned char* tile, int r, int c) {
  return *reinterpret_cast<const unsigned short*>(tile + r * 128 + (((c / 8) ^ (r % 8)) * 16) +
                                                  (c % 8) * 2);
}
)";

constexpr const char* kTmaKernel = R"(
#include "device/sm90/tma.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void tma_tile_kernel(const __grid_constant__ TensorMap map,
                                           unsigned short* out, int c0, int c1) {
  extern __shared__ unsigned char raw[];
  __shared__ u64 bar;
  unsigned char* tile = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(&bar, 64 * 128);
    tma_load_2d(tile, &map, &bar, c0, c1);
  }
  mbar_wait(&bar, 0);
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = swizzled_at(tile, i / 64, i % 64);
}
)";

// One box of matrix `matrix` of a batch through a 3-D map.
// policy: -1 for a plain load, else an L2Priority code for the hinted one.
constexpr const char* kTma3dKernel = R"(
#include "device/cache_policy.cuh"
#include "device/sm90/tma.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void tma_3d_kernel(const __grid_constant__ TensorMap map,
                                         unsigned short* out, int c0, int c1, int matrix,
                                         int policy) {
  extern __shared__ unsigned char raw[];
  __shared__ u64 bar;
  unsigned char* tile = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(&bar, 64 * 128);
    if (policy < 0) {
      tma_load_3d(tile, &map, &bar, c0, c1, matrix);
    } else {
      tma_load_3d(tile, &map, &bar, c0, c1, matrix, l2_policy(policy));
    }
  }
  mbar_wait(&bar, 0);
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = swizzled_at(tile, i / 64, i % 64);
}
)";

std::vector<uint16_t> random_bf16(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = BFloat16::from_float(u(rng));
  return v;
}

Tensor device_u16(const std::vector<uint16_t>& v, DType dtype = DType::kBFloat16) {
  Tensor h = Tensor::empty(Shape{static_cast<int64_t>(v.size())}, dtype);
  std::memcpy(h.data(), v.data(), v.size() * 2);
  return to_device(h, Device::cuda(0));
}

Tensor poisoned(int64_t n, DType dtype) {
  Tensor t = Tensor::empty(Shape{n}, dtype, Device::cuda(0));
  fill_bytes(t, 0xff);
  return t;
}

TEST(DevicePrimitives, TmaLoadThroughMbarrierSwizzlesAndZeroFillsEdges) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const int rows = 100, cols = 120;  // the second box runs off both edges
  const auto src = random_bf16(rows * cols, rng);
  const Tensor dsrc = device_u16(src);
  const TensorMapBits map =
      encode_tensor_map_sw128({dsrc.data(), DType::kBFloat16, rows, cols, cols}, 64, 64);
  CudaFunction fn(test_kernel("test_tma_tile", kUnswizzle, kTmaKernel), "tma_tile_kernel");
  for (auto [c0, c1] : {std::pair{0, 0}, std::pair{80, 50}}) {
    Tensor out = poisoned(64 * 64, DType::kBFloat16);
    void* op = out.data();
    launch_ex(fn.get(0), 0, {1, 1, 128, 64 * 128 + 1024, 1},
              {const_cast<TensorMapBits*>(&map), &op, &c0, &c1});
    Tensor back = host_copy(out);
    const auto* got = static_cast<const uint16_t*>(back.data());
    int bad = 0;
    for (int r = 0; r < 64; ++r) {
      for (int c = 0; c < 64; ++c) {
        const int gr = c1 + r, gc = c0 + c;
        const uint16_t want = (gr < rows && gc < cols) ? src[gr * cols + gc] : 0;
        bad += got[r * 64 + c] != want;
      }
    }
    EXPECT_EQ(bad, 0) << "box at (" << c0 << ", " << c1 << ")";
  }
}

constexpr const char* kWgmmaKernel = R"(
#include "device/sm90/tma.cuh"
#include "device/sm90/wgmma.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void __launch_bounds__(128) wgmma_tile_kernel(
    const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b, float* out) {
  extern __shared__ unsigned char raw[];
  __shared__ u64 bar;
  unsigned char* a = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  unsigned char* b = a + 64 * KB;  // 64 rows (or k-rows) of 128 bytes per k-box
  const int t = threadIdx.x;
  if (t == 0) {
    mbar_init(&bar, 1);
    mbar_fence_init();
  }
  __syncthreads();
  if (t == 0) {
    mbar_arrive_expect_tx(&bar, (64 + N) * KB);
    tma_load_2d(a, &map_a, &bar, 0, 0);
    if (B_K_MAJOR) {
      tma_load_2d(b, &map_b, &bar, 0, 0);
    } else {
      for (int j = 0; j < N / 64; ++j) tma_load_2d(b + j * 8192, &map_b, &bar, 64 * j, 0);
    }
  }
  mbar_wait(&bar, 0);
  float acc[N / 2];
  for (int i = 0; i < N / 2; ++i) acc[i] = -1.0f;  // overwritten: the first MMA has scale_d = 0
  fence_accumulators(acc);
  wgmma_fence();
#pragma unroll
  for (int s = 0; s < SLICES; ++s) {
    const u64 da = A_K_MAJOR ? desc_k_major(a, s) : desc_mn_major(a, s, 8192);
    const u64 db = B_K_MAJOR ? desc_k_major(b, s) : desc_mn_major(b, s, 8192);
    MMA(acc, da, db, s > 0 ? 1u : 0u);
  }
  wgmma_commit();
  wgmma_wait<0>();
  fence_accumulators(acc);
  for (int i = 0; i < N / 2; ++i) out[acc_row(t, i) * N + acc_col(t, i)] = acc[i];
}
)";

KernelSource wgmma_source(bool a_k_major, bool b_k_major, bool fp8) {
  const std::string mma = fp8 ? "WgmmaK32<e4m3, N>::run"
                              : "WgmmaK16<bf16, N>::run<A_K_MAJOR ? 0 : 1, B_K_MAJOR ? 0 : 1>";
  const std::string prelude = fmt::format(
      "constexpr int N = 128;\nconstexpr int KB = 128;\nconstexpr int SLICES = 4;\n"
      "constexpr bool A_K_MAJOR = {};\nconstexpr bool B_K_MAJOR = {};\n#define MMA {}\n",
      a_k_major, b_k_major, mma);
  return test_kernel(
      fmt::format("test_wgmma_{}{}{}", fp8 ? "e4m3" : "bf16", int(a_k_major), int(b_k_major)),
      prelude, kWgmmaKernel);
}

// A [64, K] times B [K, N] on one warpgroup, operands stored K-major or MN-major.
void check_wgmma_tile(bool a_k_major, bool b_k_major, bool fp8, uint64_t seed) {
  const int n = 128, k = fp8 ? 128 : 64;
  const DType dtype = fp8 ? DType::kFloat8E4M3 : DType::kBFloat16;
  const size_t elem = fp8 ? 1 : 2;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(64 * k), b(k * n);  // logical A[m][k], B[k][n], as the device will see them
  auto quantise = [&](float v) {
    return fp8 ? Float8E4M3::to_float(Float8E4M3::from_float(v)) : static_cast<float>(BFloat16(v));
  };
  for (auto& x : a) x = quantise(u(rng));
  for (auto& x : b) x = quantise(u(rng));
  // Storage: A as [m, k] (K-major) or [k, m]; B as [n, k] (K-major) or [k, n].
  Tensor ha = Tensor::empty(Shape{64 * k}, dtype), hb = Tensor::empty(Shape{k * n}, dtype);
  auto put = [&](Tensor& t, size_t i, float v) {
    if (fp8) {
      static_cast<uint8_t*>(t.data())[i] = Float8E4M3::from_float(v);
    } else {
      static_cast<uint16_t*>(t.data())[i] = BFloat16::from_float(v);
    }
  };
  for (int m = 0; m < 64; ++m)
    for (int kk = 0; kk < k; ++kk) put(ha, a_k_major ? m * k + kk : kk * 64 + m, a[m * k + kk]);
  for (int kk = 0; kk < k; ++kk)
    for (int j = 0; j < n; ++j) put(hb, b_k_major ? j * k + kk : kk * n + j, b[kk * n + j]);
  const Tensor da = to_device(ha, Device::cuda(0)), db = to_device(hb, Device::cuda(0));
  const unsigned box_cols = static_cast<unsigned>(128 / elem);
  const TensorMapBits map_a =
      a_k_major
          ? encode_tensor_map_sw128({da.data(), dtype, 64, uint64_t(k), uint64_t(k)}, 64, box_cols)
          : encode_tensor_map_sw128({da.data(), dtype, uint64_t(k), 64, 64}, 64, box_cols);
  const TensorMapBits map_b =
      b_k_major ? encode_tensor_map_sw128({db.data(), dtype, uint64_t(n), uint64_t(k), uint64_t(k)},
                                          n, box_cols)
                : encode_tensor_map_sw128({db.data(), dtype, uint64_t(k), uint64_t(n), uint64_t(n)},
                                          64, box_cols);
  CudaFunction fn(wgmma_source(a_k_major, b_k_major, fp8), "wgmma_tile_kernel");
  Tensor out = poisoned(64 * n, DType::kFloat32);
  void* op = out.data();
  launch_ex(fn.get(0), 0, {1, 1, 128, static_cast<unsigned>((64 + n) * 128 + 1024), 1},
            {const_cast<TensorMapBits*>(&map_a), const_cast<TensorMapBits*>(&map_b), &op});
  Tensor back = host_copy(out);
  const float* got = static_cast<const float*>(back.data());
  // fp8 wgmma accumulates with fewer mantissa bits than fp32 (about 13 over the sum's magnitude),
  // so its bound scales with the sum of |products|; a wrong layout or swizzle errs by O(that sum).
  const double rel = fp8 ? 1.0 / 2048 : 1e-5;
  int bad = 0;
  double worst = 0;
  for (int m = 0; m < 64; ++m) {
    for (int j = 0; j < n; ++j) {
      double want = 0, magnitude = 0;
      for (int kk = 0; kk < k; ++kk) {
        want += double(a[m * k + kk]) * b[kk * n + j];
        magnitude += std::abs(double(a[m * k + kk]) * b[kk * n + j]);
      }
      const double err = std::abs(got[m * n + j] - want);
      worst = std::max(worst, err);
      bad += !(err <= 1e-5 + rel * magnitude);
    }
  }
  EXPECT_EQ(bad, 0) << (fp8 ? "e4m3" : "bf16") << " a_k_major=" << a_k_major
                    << " b_k_major=" << b_k_major << " worst error " << worst;
}

TEST(DevicePrimitives, WgmmaBf16EveryOperandLayout) {
  TILEOPS_REQUIRE_CUDA();
  for (bool ak : {true, false})
    for (bool bk : {true, false}) check_wgmma_tile(ak, bk, false, testing::fresh_seed());
}

TEST(DevicePrimitives, WgmmaFp8K32KMajor) {
  TILEOPS_REQUIRE_CUDA();
  check_wgmma_tile(true, true, true, testing::fresh_seed());
}

constexpr const char* kMatrixKernel = R"(
#include "device/sm90/matrix_load_store.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void matrix_kernel(const unsigned short* in, unsigned short* same,
                                         unsigned short* transposed) {
  alignas(16) __shared__ unsigned short src[16 * 16], a[16 * 16], b[16 * 16];
  const int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) src[i] = in[i];
  __syncwarp();
  const int row = (l % 8) + 8 * ((l / 8) % 2), col = 8 * (l / 16);
  u32 r[4];
  ldmatrix_x4(r, &src[row * 16 + col]);
  stmatrix_x4(&a[row * 16 + col], r);
  stmatrix_x4_trans(&b[row * 16 + col], r);
  __syncwarp();
  for (int i = l; i < 256; i += 32) {
    same[i] = a[i];
    transposed[i] = b[i];
  }
}
)";

TEST(DevicePrimitives, LdmatrixStmatrixRoundTripAndTranspose) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const auto src = random_bf16(256, rng);
  const Tensor in = device_u16(src);
  Tensor same = poisoned(256, DType::kBFloat16), trans = poisoned(256, DType::kBFloat16);
  CudaFunction fn(test_kernel("test_matrix_ldst", "", kMatrixKernel), "matrix_kernel");
  const void* ip = in.data();
  void* sp = same.data();
  void* tp = trans.data();
  launch_ex(fn.get(0), 0, {1, 1, 32, 0, 1}, {&ip, &sp, &tp});
  const Tensor hs = host_copy(same), ht = host_copy(trans);
  const auto* s = static_cast<const uint16_t*>(hs.data());
  const auto* t = static_cast<const uint16_t*>(ht.data());
  int bad_same = 0, bad_trans = 0;
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      bad_same += s[r * 16 + c] != src[r * 16 + c];
      // Each 8x8 block transposed in place.
      const int br = r / 8 * 8, bc = c / 8 * 8;
      bad_trans += t[r * 16 + c] != src[(br + c % 8) * 16 + bc + r % 8];
    }
  }
  EXPECT_EQ(bad_same, 0);
  EXPECT_EQ(bad_trans, 0);
}

constexpr const char* kClusterKernel = R"(
#include "device/sm90/cluster.cuh"
#include "device/sm90/tma.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void cluster_kernel(const __grid_constant__ TensorMap map, int* peer_values,
                                          int* remote_arrived, unsigned short* tiles) {
  extern __shared__ unsigned char raw[];
  __shared__ int value;
  __shared__ u64 bar, remote;
  unsigned char* tile = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  const u32 rank = cluster_rank();
  if (threadIdx.x == 0) {
    value = 100 + static_cast<int>(rank);
    mbar_init(&bar, 1);
    mbar_init(&remote, 1);
    mbar_fence_init();
    mbar_arrive_expect_tx(&bar, 64 * 128);
  }
  cluster_sync();
  if (threadIdx.x == 0) {
    peer_values[blockIdx.x] = *cluster_map(&value, rank ^ 1u);
    mbar_arrive_cluster(&remote, rank ^ 1u);
    if (rank == 0) tma_load_2d_multicast(tile, &map, &bar, 0, 0, 0x3);
  }
  int arrived = 0;
  for (int i = 0; i < (1 << 20) && !arrived; ++i) arrived = mbar_try_wait(&remote, 0);
  mbar_wait(&bar, 0);
  if (threadIdx.x == 0) remote_arrived[blockIdx.x] = arrived;
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    tiles[blockIdx.x * 4096 + i] = swizzled_at(tile, i / 64, i % 64);
  cluster_sync();  // no block leaves while its peer may still touch its shared memory
}
)";

TEST(DevicePrimitives, ClusterSharedMemoryRemoteArriveAndMulticast) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const auto src = random_bf16(64 * 64, rng);
  const Tensor dsrc = device_u16(src);
  const TensorMapBits map =
      encode_tensor_map_sw128({dsrc.data(), DType::kBFloat16, 64, 64, 64}, 64, 64);
  Tensor peers = poisoned(2, DType::kInt32), arrived = poisoned(2, DType::kInt32);
  Tensor tiles = poisoned(2 * 4096, DType::kBFloat16);
  CudaFunction fn(test_kernel("test_cluster", kUnswizzle, kClusterKernel), "cluster_kernel");
  void* pp = peers.data();
  void* ap = arrived.data();
  void* tp = tiles.data();
  launch_ex(fn.get(0), 0, {2, 1, 128, 64 * 128 + 1024, 2},
            {const_cast<TensorMapBits*>(&map), &pp, &ap, &tp});
  const Tensor hp = host_copy(peers), ha = host_copy(arrived), ht = host_copy(tiles);
  const auto* p = static_cast<const int32_t*>(hp.data());
  const auto* a = static_cast<const int32_t*>(ha.data());
  EXPECT_EQ(p[0], 101);
  EXPECT_EQ(p[1], 100);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[1], 1);
  const auto* t = static_cast<const uint16_t*>(ht.data());
  int bad = 0;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 4096; ++i) bad += t[b * 4096 + i] != src[i];
  EXPECT_EQ(bad, 0) << "multicast tile";
}

// A box that runs off a batched matrix's last rows reads zeros there, not the next matrix's
// first rows.
TEST(DevicePrimitives, TmaLoad3dStaysInsideItsMatrix) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const int rows = 100, cols = 120, matrices = 3;
  const auto src = random_bf16(matrices * rows * cols, rng);
  const Tensor dsrc = device_u16(src);
  const TensorMapBits map = encode_tensor_map_sw128_batched(
      {dsrc.data(), DType::kBFloat16, rows, cols, cols, matrices, rows * cols}, 64, 64);
  CudaFunction fn(test_kernel("test_tma_3d", kUnswizzle, kTma3dKernel), "tma_3d_kernel");
  // Plain, then with each L2 eviction policy: a hint changes where lines stay, not what lands.
  for (int policy : {-1, 0, 1, 2}) {
    for (auto [c0, c1, matrix] :
         {std::tuple{0, 0, 0}, std::tuple{80, 50, 1}, std::tuple{64, 64, 2}}) {
      Tensor out = poisoned(64 * 64, DType::kBFloat16);
      void* op = out.data();
      launch_ex(fn.get(0), 0, {1, 1, 128, 64 * 128 + 1024, 1},
                {const_cast<TensorMapBits*>(&map), &op, &c0, &c1, &matrix, &policy});
      const Tensor back = host_copy(out);
      const auto* got = static_cast<const uint16_t*>(back.data());
      int bad = 0;
      for (int r = 0; r < 64; ++r) {
        for (int c = 0; c < 64; ++c) {
          const int gr = c1 + r, gc = c0 + c;
          const uint16_t want =
              (gr < rows && gc < cols) ? src[(matrix * rows + gr) * cols + gc] : 0;
          bad += got[r * 64 + c] != want;
        }
      }
      EXPECT_EQ(bad, 0) << "box at (" << c0 << ", " << c1 << ") of matrix " << matrix << ", policy "
                        << policy;
    }
  }
}

// 16-byte loads with each L2 eviction policy read the same bytes as without: the streaming
// load for even words, the read-only load for odd ones.
constexpr const char* kHintedLoadsKernel = R"(
#include "device/cache_policy.cuh"
#include "device/vec.cuh"
using namespace tileops::dev;
extern "C" __global__ void hinted_loads_kernel(const U32x4* src, U32x4* dst, int n, int priority) {
  const u64 policy = l2_policy(priority);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    dst[i] = i % 2 == 0 ? load_stream_16(src + i, policy) : load_readonly_16(src + i, policy);
}
)";

TEST(DevicePrimitives, HintedLoadsReadWhatPlainLoadsRead) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const int words = 1000;  // 16-byte words; not a multiple of the grid
  const auto src = random_bf16(static_cast<size_t>(words) * 8, rng);
  const Tensor dsrc = device_u16(src);
  CudaFunction fn(test_kernel("test_hinted_loads", "", kHintedLoadsKernel), "hinted_loads_kernel");
  for (int priority : {0, 1, 2}) {
    Tensor out = poisoned(words * 8, DType::kBFloat16);
    const void* sp = dsrc.data();
    void* op = out.data();
    int n = words;
    launch_ex(fn.get(0), 0, {3, 1, 128, 0, 1}, {&sp, &op, &n, &priority});
    const Tensor back = host_copy(out);
    const auto* got = static_cast<const uint16_t*>(back.data());
    int bad = 0;
    for (size_t i = 0; i < src.size(); ++i) bad += got[i] != src[i];
    EXPECT_EQ(bad, 0) << "priority " << priority;
  }
}

// A GEMM cluster's A tile: each block loads half of the tile's rows from one matrix of a batch
// (3-D map) and multicasts it, so both blocks hold the whole tile.
constexpr const char* kClusterHalvesKernel = R"(
#include "device/sm90/cluster.cuh"
#include "device/sm90/tma.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void cluster_halves_kernel(const __grid_constant__ TensorMap map,
                                                 int matrix, unsigned short* tiles) {
  extern __shared__ unsigned char raw[];
  __shared__ u64 bar;
  unsigned char* tile = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  const u32 rank = cluster_rank();
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_fence_init();
  }
  cluster_sync();  // the peer's barrier exists before this block's multicast completes on it
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(&bar, 64 * 128);
    tma_load_3d_multicast(tile + rank * 32 * 128, &map, &bar, 0, 32 * static_cast<int>(rank),
                          matrix, 0x3);
  }
  mbar_wait(&bar, 0);
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    tiles[blockIdx.x * 4096 + i] = swizzled_at(tile, i / 64, i % 64);
  cluster_sync();
}
)";

TEST(DevicePrimitives, ClusterBlocksMulticastHalvesOfABatchedTile) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const auto src = random_bf16(3 * 64 * 64, rng);  // three 64 x 64 matrices
  const Tensor dsrc = device_u16(src);
  const TensorMapBits map = encode_tensor_map_sw128_batched(
      {dsrc.data(), DType::kBFloat16, 64, 64, 64, 3, 64 * 64}, 32, 64);
  Tensor tiles = poisoned(2 * 4096, DType::kBFloat16);
  CudaFunction fn(test_kernel("test_cluster_halves", kUnswizzle, kClusterHalvesKernel),
                  "cluster_halves_kernel");
  int matrix = 1;
  void* tp = tiles.data();
  launch_ex(fn.get(0), 0, {2, 1, 128, 64 * 128 + 1024, 2},
            {const_cast<TensorMapBits*>(&map), &matrix, &tp});
  const Tensor ht = host_copy(tiles);
  const auto* t = static_cast<const uint16_t*>(ht.data());
  int bad = 0;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 4096; ++i) bad += t[b * 4096 + i] != src[4096 + i];
  EXPECT_EQ(bad, 0) << "both blocks hold matrix 1's whole tile";
}

constexpr const char* kSchedulerKernel = R"(
#include "device/sm90/scheduler.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
extern "C" __global__ void scheduler_kernel(int m, int n, int* coords, int* hits) {
  const GroupedTiles tiles(m, n, 128, 256, 8);
  if (threadIdx.x != 0) return;
  for (int tile = blockIdx.x; tile < tiles.count(); tile += gridDim.x) {
    int tm, tn;
    tiles.coords(tile, tm, tn);
    coords[tile] = tm * 65536 + tn;
    if (tm >= 0 && tm < tiles.tiles_m && tn >= 0 && tn < tiles.tiles_n)
      atomicAdd(&hits[tm * tiles.tiles_n + tn], 1);
  }
}
)";

TEST(DevicePrimitives, PersistentSchedulerVisitsEveryTileOnce) {
  TILEOPS_REQUIRE_CUDA();
  CudaFunction fn(test_kernel("test_scheduler", "", kSchedulerKernel), "scheduler_kernel");
  for (auto [m, n] : {std::pair{4096, 4096}, std::pair{1000, 4097}, std::pair{129, 257}}) {
    const int tm = (m + 127) / 128, tn = (n + 255) / 256;
    Tensor coords = poisoned(tm * tn, DType::kInt32);
    Tensor hits = Tensor::zeros(Shape{tm * tn}, DType::kInt32);
    hits = to_device(hits, Device::cuda(0));
    void* cp = coords.data();
    void* hp = hits.data();
    launch_ex(fn.get(0), 0, {132, 1, 32, 0, 1}, {&m, &n, &cp, &hp});
    const Tensor h = host_copy(hits);
    const auto* counts = static_cast<const int32_t*>(h.data());
    int wrong = 0;
    for (int i = 0; i < tm * tn; ++i) wrong += counts[i] != 1;
    EXPECT_EQ(wrong, 0) << m << "x" << n;
  }
}

constexpr const char* kStoreReduceKernel = R"(
#include "device/reduce.cuh"
#include "device/sm90/tma.cuh"
#include "device/sm90/warpgroup.cuh"
using namespace tileops::dev;
using namespace tileops::dev::sm90;
// A 64x64 tile loaded by TMA is stored back by TMA at another box of a second matrix (one elected
// lane issues both); the block's sum and max of its float inputs go to sums[0], sums[1].
extern "C" __global__ void store_reduce_kernel(const __grid_constant__ TensorMap src,
                                               const __grid_constant__ TensorMap dst, int c0,
                                               int c1, const float* values, float* sums) {
  extern __shared__ unsigned char raw[];
  __shared__ u64 bar;
  __shared__ float scratch[32];
  unsigned char* tile = raw + ((1024 - (smem_u32(raw) & 1023)) & 1023);
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    mbar_fence_init();
  }
  __syncthreads();
  if (threadIdx.x < 32 && elect_one()) {
    mbar_arrive_expect_tx(&bar, 64 * 128);
    tma_load_2d(tile, &src, &bar, 0, 0);
  }
  mbar_wait(&bar, 0);
  if (threadIdx.x < 32 && elect_one()) {
    tma_store_2d(&dst, tile, c0, c1);
    tma_store_commit();
    tma_store_wait<0>();
  }
  const float v = values[threadIdx.x];
  const float sum = block_reduce<Sum>(v, scratch);
  const float most = block_reduce<Max>(v, scratch);
  if (threadIdx.x == 0) {
    sums[0] = sum;
    sums[1] = most;
  }
}
)";

TEST(DevicePrimitives, TmaStoreElectOneAndBlockReductions) {
  TILEOPS_REQUIRE_CUDA();
  std::mt19937_64 rng(testing::fresh_seed());
  const auto src = random_bf16(64 * 64, rng);
  const Tensor dsrc = device_u16(src);
  const int rows = 100, cols = 120;  // the stored box runs off both edges: only in-bounds lands
  Tensor ddst = poisoned(rows * cols, DType::kBFloat16);
  const TensorMapBits map_src =
      encode_tensor_map_sw128({dsrc.data(), DType::kBFloat16, 64, 64, 64}, 64, 64);
  const TensorMapBits map_dst =
      encode_tensor_map_sw128({ddst.data(), DType::kBFloat16, rows, cols, cols}, 64, 64);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Tensor hv = Tensor::empty(Shape{256}, DType::kFloat32);
  double want_sum = 0;
  float want_max = -2.0f;
  for (int i = 0; i < 256; ++i) {
    const float v = u(rng);
    hv.data_as<float>()[i] = v;
    want_sum += v;
    want_max = std::max(want_max, v);
  }
  const Tensor dv = to_device(hv, Device::cuda(0));
  Tensor sums = poisoned(2, DType::kFloat32);
  CudaFunction fn(test_kernel("test_store_reduce", "", kStoreReduceKernel), "store_reduce_kernel");
  int c0 = 80, c1 = 50;
  const void* vp = dv.data();
  void* sp = sums.data();
  launch_ex(fn.get(0), 0, {1, 1, 256, 64 * 128 + 1024, 1},
            {const_cast<TensorMapBits*>(&map_src), const_cast<TensorMapBits*>(&map_dst), &c0, &c1,
             &vp, &sp});
  const Tensor hd = host_copy(ddst), hs = host_copy(sums);
  const auto* got = static_cast<const uint16_t*>(hd.data());
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const bool in_box = r >= c1 && r < c1 + 64 && c >= c0 && c < c0 + 64;
      const uint16_t want = in_box ? src[(r - c1) * 64 + (c - c0)] : 0xffff;  // else untouched
      bad += got[r * cols + c] != want;
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_NEAR(hs.data_as<float>()[0], want_sum, 1e-4);
  EXPECT_EQ(hs.data_as<float>()[1], want_max);
}

// Every test kernel above compiles for sm_90a (no GPU needed, so CI checks the primitives build).
TEST(DevicePrimitives, TestKernelsCompileForSm90a) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC is not installed on this machine";
  std::vector<KernelSource> sources{
      test_kernel("test_tma_tile", kUnswizzle, kTmaKernel),
      test_kernel("test_tma_3d", kUnswizzle, kTma3dKernel),
      test_kernel("test_cluster_halves", kUnswizzle, kClusterHalvesKernel),
      test_kernel("test_matrix_ldst", "", kMatrixKernel),
      test_kernel("test_cluster", kUnswizzle, kClusterKernel),
      test_kernel("test_scheduler", "", kSchedulerKernel),
      wgmma_source(true, true, true)};
  for (bool ak : {true, false})
    for (bool bk : {true, false}) sources.push_back(wgmma_source(ak, bk, false));
  for (const KernelSource& s : sources) {
    SCOPED_TRACE(s.name);
    EXPECT_NO_THROW(nvrtc_compile(s.name, s.source, s.options, "sm_90a", s.headers));
  }
}

}  // namespace
}  // namespace tileops::cuda
