// Cache-blocked GEMM on the CPU ("gemm_cpu_blocked", the general implementation). The output is
// cut into bm x bn tiles, one task per tile; for each bk slice of K the tile's A rows and B
// columns are packed to fp32 micro-panels (kMR rows / kNR columns, zero-padded), and a register
// micro-kernel accumulates a kMR x kNR block over the slice. Every output element is the fp32 sum
// of its K products in ascending k order whatever the tiling, so the tile configurations, which
// request_tune() chooses between by timing, give bit-identical results.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cpu/element.hpp"
#include "kernels/cpu/float_rows.hpp"
#include "kernels/cpu/gemm/gemm_tail.hpp"
#include "kernels/cpu/half_convert.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/warnings.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

constexpr int64_t kMR = 4;  // micro-kernel rows
constexpr int64_t kNR = 8;  // micro-kernel columns

struct TileConfig {
  int64_t bm, bn, bk;  // multiples of kMR, kNR and 1
  std::string str() const { return fmt::format("bm={},bn={},bk={}", bm, bn, bk); }
};

// The tuning candidates; kCandidates[kDefault] serves until request_tune() picks another.
constexpr std::array<TileConfig, 9> kCandidates{{{32, 32, 256},
                                                 {32, 64, 256},
                                                 {32, 128, 256},
                                                 {64, 32, 256},
                                                 {64, 64, 256},
                                                 {64, 128, 256},
                                                 {128, 32, 256},
                                                 {128, 64, 256},
                                                 {128, 128, 256}}};
constexpr int kDefault = 4;

int64_t round_up(int64_t v, int64_t step) {
  return (v + step - 1) / step * step;
}

// Packs rows [0, rows) x k [0, kb) of a strided operand (element (r, kk) at src[r * rs + kk * ks])
// into panels of `width` rows: dst[p * width * kb + kk * width + i] = row p * width + i, zero past
// `rows`. The loop order follows whichever of the two strides is unit.
template <typename T>
void pack(const T* src, int64_t rs, int64_t ks, int64_t rows, int64_t kb, int64_t width,
          float* dst) {
  for (int64_t p = 0; p < rows; p += width) {
    const int64_t valid = std::min(width, rows - p);
    float* panel = dst + p * kb;
    if (ks == 1) {
      for (int64_t i = 0; i < valid; ++i) {
        const T* row = src + (p + i) * rs;
        if constexpr (std::is_same_v<T, Half>) {
          // Converted in bulk (F16C where the CPU has it), then spread over the panel.
          constexpr int64_t kChunk = 256;
          float converted[kChunk];
          for (int64_t k0 = 0; k0 < kb; k0 += kChunk) {
            const int64_t w = std::min(kChunk, kb - k0);
            half_to_float(row + k0, converted, w);
            for (int64_t kk = 0; kk < w; ++kk) panel[(k0 + kk) * width + i] = converted[kk];
          }
        } else {
          for (int64_t kk = 0; kk < kb; ++kk) panel[kk * width + i] = load(row[kk]);
        }
      }
    } else {
      for (int64_t kk = 0; kk < kb; ++kk) {
        const T* col = src + kk * ks + p * rs;
        if (rs == 1) {
          to_float_row(col, panel + kk * width, valid);  // contiguous: half in bulk
        } else {
          for (int64_t i = 0; i < valid; ++i) panel[kk * width + i] = load(col[i * rs]);
        }
      }
    }
    for (int64_t i = valid; i < width; ++i) {
      for (int64_t kk = 0; kk < kb; ++kk) panel[kk * width + i] = 0.0f;
    }
  }
}

// c[kMR x kNR] (leading dimension ldc) += ap (kb x kMR, k-major) * bp (kb x kNR, k-major).
void micro_kernel(int64_t kb, const float* ap, const float* bp, float* c, int64_t ldc) {
  float acc[kMR][kNR];
  for (int64_t i = 0; i < kMR; ++i) {
    for (int64_t j = 0; j < kNR; ++j) acc[i][j] = c[i * ldc + j];
  }
  for (int64_t kk = 0; kk < kb; ++kk) {
    const float* a = ap + kk * kMR;
    const float* b = bp + kk * kNR;
    // Fully unrolled, so that acc lives in vector registers across the k loop.
#pragma GCC unroll 4
    for (int64_t i = 0; i < kMR; ++i) {
#pragma GCC unroll 8
      for (int64_t j = 0; j < kNR; ++j) acc[i][j] += a[i] * b[j];
    }
  }
  for (int64_t i = 0; i < kMR; ++i) {
    for (int64_t j = 0; j < kNR; ++j) c[i * ldc + j] = acc[i][j];
  }
}

// Sums of the bm x bn tile at (i0, j0) of op(a) @ op(b), columns of op(b) offset by col0 (the
// up half of a gated call), into tile (leading dimension cfg.bn).
template <typename T>
void tile_sums(const GemmCall& call, const TileConfig& cfg, const T* a, const T* b, int64_t i0,
               int64_t j0, int64_t mb, int64_t nb, float* a_pack, float* b_pack, float* tile) {
  const int64_t m = call.m, k = call.k, ldb = call.b_columns();
  // Operand strides: A(i, kk) = a[i * a_rs + kk * a_ks], B^T(j, kk) = b[j * b_rs + kk * b_ks].
  const int64_t a_rs = call.trans_a ? 1 : k, a_ks = call.trans_a ? m : 1;
  const int64_t b_rs = call.trans_b ? k : 1, b_ks = call.trans_b ? 1 : ldb;
  const int64_t bk = std::max<int64_t>(1, std::min(cfg.bk, k));
  const int64_t mp = round_up(mb, kMR), np = round_up(nb, kNR);
  std::fill(tile, tile + cfg.bm * cfg.bn, 0.0f);
  for (int64_t k0 = 0; k0 < k; k0 += bk) {
    const int64_t kb = std::min(bk, k - k0);
    pack(a + i0 * a_rs + k0 * a_ks, a_rs, a_ks, mb, kb, kMR, a_pack);
    pack(b + j0 * b_rs + k0 * b_ks, b_rs, b_ks, nb, kb, kNR, b_pack);
    for (int64_t q = 0; q < np; q += kNR) {
      for (int64_t p = 0; p < mp; p += kMR) {
        micro_kernel(kb, a_pack + p * kb, b_pack + q * kb, tile + p * cfg.bn + q, cfg.bn);
      }
    }
  }
}

template <typename T>
void gemm_blocked(const GemmCall& call, const TileConfig& cfg, const T* a, const T* b,
                  const GemmTailStore<T>& out) {
  const int64_t m = call.m, n = call.n, k = call.k;
  const int64_t bk = std::max<int64_t>(1, std::min(cfg.bk, k));
  const int64_t tiles_m = (m + cfg.bm - 1) / cfg.bm;
  const int64_t tiles_n = (n + cfg.bn - 1) / cfg.bn;
  const int64_t tiles = tiles_m * tiles_n;
  const int64_t a_size = m * k, b_size = call.b_columns() * k;
  parallel_for(call.batch * tiles, 1, [&](int64_t begin, int64_t end) {
    std::vector<float> a_pack(static_cast<size_t>(cfg.bm * bk));
    std::vector<float> b_pack(static_cast<size_t>(cfg.bn * bk));
    std::vector<float> tile(static_cast<size_t>(cfg.bm * cfg.bn));
    std::vector<float> up(call.gated ? tile.size() : 0);
    for (int64_t u = begin; u < end; ++u) {
      const int64_t p = u / tiles, t = u % tiles;  // problem, tile
      const T* ap = a + p * a_size;
      const T* bp = b + p * b_size;
      const GemmTailStore<T> store = out.for_problem(p);
      const int64_t i0 = t / tiles_n * cfg.bm, j0 = t % tiles_n * cfg.bn;
      const int64_t mb = std::min(cfg.bm, m - i0), nb = std::min(cfg.bn, n - j0);
      tile_sums(call, cfg, ap, bp, i0, j0, mb, nb, a_pack.data(), b_pack.data(), tile.data());
      if (call.gated) {
        tile_sums(call, cfg, ap, bp, i0, n + j0, mb, nb, a_pack.data(), b_pack.data(), up.data());
      }
      for (int64_t i = 0; i < mb; ++i) {
        store.row(i0 + i, j0, nb, tile.data() + i * cfg.bn,
                  call.gated ? up.data() + i * cfg.bn : nullptr);
      }
    }
  });
}

class GemmBlockedCpuKernel final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCPU};
  static constexpr bool general = true;

  // One entry per problem: tuning times candidates on the entry's own shape.
  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    return {
        fmt::format("{},batch={},m={},n={},k={},trans_a={},trans_b={},gated={}",
                    dtype_name(call.dtype), call.batch, call.m, call.n, call.k, call.trans_a,
                    call.trans_b, call.gated),
        [call] { return std::unique_ptr<Kernel>(std::make_unique<GemmBlockedCpuKernel>(call)); }};
  }

  explicit GemmBlockedCpuKernel(const GemmCall& call) : call_(call) {}

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& /*workspace*/) override {
    const TileConfig& cfg = kCandidates[chosen_.load(std::memory_order_relaxed)];
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      gemm_blocked<T>(call, cfg, a.data_as<const T>(), b.data_as<const T>(),
                      GemmTailStore<T>(call, tail, d.data_as<T>()));
    });
  }

  std::string config() const override {
    return kCandidates[chosen_.load(std::memory_order_relaxed)].str();
  }
  bool tunable() const override { return true; }

  void request_tune(const TuneOptions& options) override {
    visit_float_dtype(call_.dtype, [&]<DType D>() { tune<element_t<D>>(options); });
  }

 private:
  // A candidate whose tile exceeds a dim behaves like the smallest one that covers it; only one
  // of those is timed.
  bool worth_timing(const TileConfig& c) const {
    auto smallest_covering = [](int64_t dim, auto member) {
      int64_t best = 0;
      for (const TileConfig& t : kCandidates) {
        if (t.*member >= dim && (best == 0 || t.*member < best)) best = t.*member;
      }
      return best;
    };
    const int64_t cover_m = smallest_covering(call_.m, &TileConfig::bm);
    const int64_t cover_n = smallest_covering(call_.n, &TileConfig::bn);
    return (cover_m == 0 || c.bm <= cover_m) && (cover_n == 0 || c.bn <= cover_n);
  }

  template <typename T>
  void tune(const TuneOptions& options) {
    std::mt19937_64 rng(0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(call_.m * 31 + call_.n));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    auto random = [&](int64_t count) {
      std::vector<T> v(static_cast<size_t>(count));
      for (T& x : v) x = store<T>(dist(rng));
      return v;
    };
    // The bias and residual do not change which tiling is fastest; the gated second pass does.
    GemmCall bare = call_;
    bare.bias = bare.residual = false;
    const std::vector<T> a = random(call_.batch * call_.m * call_.k);
    const std::vector<T> b = random(call_.batch * call_.b_columns() * call_.k);
    std::vector<T> first(static_cast<size_t>(call_.batch * call_.m * call_.n));
    std::vector<T> out(first.size());
    const GemmTailStore<T> out_store(bare, {}, out.data());
    int best = -1;
    double best_seconds = 0;
    for (int c = 0; c < static_cast<int>(kCandidates.size()); ++c) {
      if (!worth_timing(kCandidates[c])) continue;
      for (int r = 0; r < options.warmup_runs; ++r) {
        gemm_blocked<T>(bare, kCandidates[c], a.data(), b.data(), out_store);
      }
      const auto start = std::chrono::steady_clock::now();
      const int runs = std::max(1, options.timed_runs);
      for (int r = 0; r < runs; ++r) {
        gemm_blocked<T>(bare, kCandidates[c], a.data(), b.data(), out_store);
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
      // Every tiling sums in the same order, so a candidate must match the first bit for bit.
      if (best < 0) {
        first = out;
      } else if (std::memcmp(first.data(), out.data(), first.size() * sizeof(T)) != 0) {
        warn(fmt::format("gemm_cpu_blocked: candidate {} differs from {} on {}; skipped",
                         kCandidates[c].str(), kCandidates[best].str(), call_.describe()));
        continue;
      }
      if (best < 0 || seconds < best_seconds) {
        best = c;
        best_seconds = seconds;
      }
    }
    if (best >= 0) chosen_.store(best, std::memory_order_relaxed);
  }

  const GemmCall call_;
  std::atomic<int> chosen_{kDefault};
};

const StaticGemmRegistration<GemmBlockedCpuKernel> kRegistration("gemm_cpu_blocked");

}  // namespace
}  // namespace tileops::cpu
