// The "gemm" interface on Hopper tensor cores: the warp-specialised TMA + wgmma kernel
// (gemm_sm90_ws.cu) for bf16 and fp16, every transpose, the tail fused into its store. Its tile
// shapes are tuning candidates; untuned, the shape whose last wave leaves the fewest SMs idle is
// taken. Calls TMA cannot address (a leading dimension that is not a multiple of 16 bytes, a
// misaligned operand) are refused, and dispatch names the CUDA-core fallback that serves them.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/gemm/cublaslt_candidate.hpp"
#include "kernels/cuda/gemm/gemm_experimental.hpp"
#include "kernels/cuda/gemm/gemm_sm90_ws_args.hpp"
#include "kernels/cuda/gemm/gemm_sm90_ws_choice.hpp"
#include "kernels/cuda/gemm/gemm_tail_boxes.hpp"
#include "kernels/cuda/gemm/gemm_tail_pointers.hpp"
#include "kernels/cuda/gemm/gemm_tuning.hpp"
#include "kernels/cuda/gemm/split_k_reduction.hpp"
#include "kernels/cuda/gemm/split_k_workspace.hpp"
#include "kernels/cuda/host/tensor_map.hpp"
#include "runtime/tuning/tuner.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

constexpr int kBoxK = 64;  // K elements of a TMA box: one 128-byte swizzle row
constexpr int kGroupM = 8;

struct WsTile {
  int bm, bn, stages;
  double rate;          // relative throughput of a full wave of this tile (larger tiles reuse more)
  int cluster = 1;      // 2: blocks in pairs along M sharing B by multicast (gemm_sm90_ws.cu)
  int cluster_n = 1;    // 2: blocks in pairs along N sharing A by multicast
  int bk = kBoxK;       // a stage's depth: one box of K, or two (128)
  bool untuned = true;  // whether the untuned choice may take it; tuning tries every tile
  // Split-K inside a cluster: a tile's splits are the blocks of one cluster and sum in its shared
  // memory (gemm_sm90_ws.cu: SPLIT_IN_CLUSTER), no workspace; plain K-major calls only.
  bool split_cluster = false;
  int blocks() const { return cluster * cluster_n; }  // a cluster's blocks (not the splits')
  std::string name() const {
    return fmt::format(
        "{}x{}x{}/s{}{}{}{}", bm, bn, bk, stages, cluster > 1 ? fmt::format("/c{}", cluster) : "",
        cluster_n > 1 ? fmt::format("/n{}", cluster_n) : "", split_cluster ? "/k" : "");
  }
  // The narrow tiles (under 128 columns; under 64 they need B K-major) serve plain calls with a
  // as [m, k] and b as [n, k], a linear layer's layout, the only one they were measured on
  // (docs/perf/h200-cluster-2026-12-01). 128x64x64 also serves the other ungated layouts, as a
  // tuning candidate only (best_scored_tile) and under TILEOPS_GEMM_EXPERIMENTAL until it has run
  // on a GPU: it is the tile cuBLAS runs on 1024^3 with b as [k, n]. Clustered along N, A must be
  // K-major (a as [m, k]); two-box stages take plain K-major calls only (gemm_sm90_ws.cu).
  bool serves(bool ta, bool tb, bool gated) const {
    if (bk != kBoxK || split_cluster) return !ta && tb && !gated;
    if (bm == 128 && bn == 64 && cluster == 1 && !gated) return cluster_n == 1 || !ta;
    return (cluster_n == 1 || !ta) && (bn >= 128 || (!ta && tb && !gated));
  }
  unsigned threads() const { return 128u * (bm / 64 + 1); }
  // Whether the TMA-store epilogue adds a residual: two-consumer tiles (gemm_sm90_ws.cu); with
  // TILEOPS_GEMM_EXPERIMENTAL only, until it has run on a GPU.
  bool tma_store_adds_residual() const { return bm == 128; }
  // Whether the tile is offered on this layout only under TILEOPS_GEMM_EXPERIMENTAL: the /k tiles,
  // 128x64/n2, and 128x64 off a linear layer's layout (gemm_experimental.hpp).
  bool experimental(bool ta, bool tb) const {
    return split_cluster || (bm == 128 && bn == 64 && cluster_n > 1) || (bn < 128 && (ta || !tb));
  }
  // The stages, the epilogue's buffers (per consumer: two 64x64 TMA-store slabs, 16 KiB, which
  // also hold the synchronous epilogue's staging; gemm_sm90_ws.cu), two barriers a stage and
  // slack to align the tiles to 1024 bytes.
  unsigned smem(int elem) const {
    return static_cast<unsigned>(stages * (bm + bn) * bk * elem + (bm / 64) * kEpilogueBytes +
                                 2 * stages * 8 + 1024);
  }
  static constexpr int kEpilogueBytes = 2 * 64 * 64 * 2;
};
// The narrow tiles' rates are fitted to the sweep of docs/perf/h200-cluster-2026-12-01: over 64
// to 128 tokens they fill the SMs without splitting K and win; from 256 tokens the 128-column
// tiles' reuse wins. The clustered tiles' rates come from docs/perf/h200-multicast-2026-12-02.
// 128x64 (split K) reads the fewest bytes into each SM where N is small and K long: 18.9 us on
// 128x2112x7168 against 22.5 for the untuned 64x32 (docs/perf/h200-l2-policy-2026-12-02). Its
// rate keeps it below the measured winner on every row of that sweep, so the untuned choice does
// not take it there; tuning does where it wins.
// 64x32/n2 (two blocks along N sharing the tokens' stage by multicast, where a 64x32 tile alone
// reads all of A once per 32 output columns: twice the weight's bytes at m = 64) is a tuning
// candidate only: 0.979x cuBLAS on 64x4096x7168 against 0.953x for 64x32, but slower at m = 48
// and 96. Clusters of four and 128x32 tiles ran 1.3-3x slower than 64x32 on every row of that
// sweep and were left out (docs/perf/h200-a-multicast-2026-12-02).
// The 128-deep tiles (two K boxes a stage: half the stage hand-overs for the same bytes in
// flight) replace their 64-deep siblings in the untuned choice for 64x32 and 64x64: 64x4096x7168
// 23.7 -> 20.8 us (1.07x cuBLAS), 128x4096x7168 25.4 -> 22.9 (1.03x), 128x2112x7168 23.1 ->
// 19.6. 64x128 and 128x64 have no head-to-head sweep against their 64-deep siblings, so their
// 128-deep forms are tuning candidates (docs/perf/h200-a-multicast-2026-12-02).
// 64x32x128/n2 (the 128-deep 64x32 in pairs along N) is a tuning candidate: on the H200 it beat
// 64x32x64/n2 on 5 of 8 rows of a few tokens over 1024-2112 weight rows and deep K, split or not,
// but lost to the unclustered tiles on all of them (docs/perf/h200-cluster-split-k-2026-12-06).
// The /k tiles (64x64x128 and 64x32x128 whose splits meet in a cluster's shared memory) are
// tuning candidates (under TILEOPS_GEMM_EXPERIMENTAL until they have run on a GPU) for narrow
// outputs over deep K, where the workspace split's tail (partials written and fenced, a counter,
// the last split reading the others from the L2) was about 28% of a block's time on the H100
// (docs/perf/h200-verify-2026-12-07). 128x64/n2 (pairs along N sharing A, a [m, k]; the same
// switch) is the tile cuBLAS ran on 1024^3, where tileops was at 0.81x.
constexpr std::array<WsTile, 18> kTiles{
    {{.bm = 128, .bn = 256, .stages = 4, .rate = 1.0},
     {.bm = 128, .bn = 128, .stages = 6, .rate = 0.92},
     {.bm = 64, .bn = 256, .stages = 5, .rate = 0.85},
     {.bm = 64, .bn = 128, .stages = 8, .rate = 0.75},
     {.bm = 64, .bn = 64, .stages = 12, .rate = 0.62, .untuned = false},
     {.bm = 64, .bn = 32, .stages = 16, .rate = 0.5, .untuned = false},
     {.bm = 128, .bn = 256, .stages = 4, .rate = 1.02, .cluster = 2},
     {.bm = 128, .bn = 128, .stages = 6, .rate = 0.95, .cluster = 2},
     {.bm = 128, .bn = 64, .stages = 8, .rate = 0.7},
     {.bm = 64, .bn = 32, .stages = 16, .rate = 0.5, .cluster_n = 2, .untuned = false},
     {.bm = 64, .bn = 32, .stages = 8, .rate = 0.5, .bk = 128},
     {.bm = 64, .bn = 64, .stages = 6, .rate = 0.62, .bk = 128},
     {.bm = 64, .bn = 128, .stages = 4, .rate = 0.75, .bk = 128, .untuned = false},
     {.bm = 128, .bn = 64, .stages = 4, .rate = 0.7, .bk = 128, .untuned = false},
     {.bm = 64, .bn = 32, .stages = 8, .rate = 0.5, .cluster_n = 2, .bk = 128, .untuned = false},
     {.bm = 128, .bn = 64, .stages = 8, .rate = 0.7, .cluster_n = 2, .untuned = false},
     {.bm = 64,
      .bn = 64,
      .stages = 6,
      .rate = 0.62,
      .bk = 128,
      .untuned = false,
      .split_cluster = true},
     {.bm = 64,
      .bn = 32,
      .stages = 8,
      .rate = 0.5,
      .bk = 128,
      .untuned = false,
      .split_cluster = true}}};

// gated_act: -1, or the GatedActivation code of a gated call.
KernelSpec ws_spec(DType dtype, bool ta, bool tb, const WsTile& t, int gated_act) {
  return KernelSpec(
      "gemm/gemm_sm90_ws.cu", "gemm_sm90_ws_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("BM", t.bm),
       KernelConstant::integer("BN", t.bn), KernelConstant::integer("BK", t.bk),
       KernelConstant::integer("STAGES", t.stages), KernelConstant::integer("GROUP_M", kGroupM),
       KernelConstant::boolean("A_K_MAJOR", !ta), KernelConstant::boolean("B_K_MAJOR", tb),
       KernelConstant::integer("GATED_ACT", gated_act),
       KernelConstant::integer("CLUSTER_M", t.cluster),
       KernelConstant::integer("CLUSTER_N", t.cluster_n),
       KernelConstant::integer("EPILOGUE_BYTES", WsTile::kEpilogueBytes),
       KernelConstant::boolean("SWAP_AB", false),
       KernelConstant::boolean("SPLIT_IN_CLUSTER", t.split_cluster)});
}

// The tile shapes (indexes of kTiles) that serve a layout; the experimental ones only when asked.
std::vector<int> tiles_serving(bool ta, bool tb, bool gated, bool experimental) {
  std::vector<int> served;
  for (size_t i = 0; i < kTiles.size(); ++i) {
    const WsTile& t = kTiles[i];
    if (t.serves(ta, tb, gated) && (experimental || !t.experimental(ta, tb))) {
      served.push_back(static_cast<int>(i));
    }
  }
  return served;
}

// The tuning candidates: the tiles under the call's split cap (untuned_plan), the same tiles at
// their full split ("<tile>/uncapped", timed only where the cap lowers that tile's splits), then
// cuBLASLt when offered.
constexpr std::string_view kCublasLtCandidate = "cublaslt";
constexpr std::string_view kUncappedSuffix = "/uncapped";
std::vector<std::string> candidate_names(const std::vector<int>& tiles, bool with_cublaslt) {
  std::vector<std::string> names;
  for (int i : tiles) names.push_back(kTiles[i].name());
  for (int i : tiles) names.push_back(kTiles[i].name() + std::string(kUncappedSuffix));
  if (with_cublaslt) names.emplace_back(kCublasLtCandidate);
  return names;
}

// Output columns a tile covers: half its B rows when gated (gate and up rows side by side).
int out_columns(const GemmCall& call, const WsTile& t) {
  return call.gated ? t.bn / 2 : t.bn;
}

// Output tiles of the whole batch.
int64_t tile_count(const GemmCall& call, const WsTile& t) {
  const int bn = out_columns(call, t);
  return call.batch * ((call.m + t.bm - 1) / t.bm) * ((call.n + bn - 1) / bn);
}

// Work for whole clusters: clustered, tile pairs along M or tile columns along N (the last
// cluster may hold tiles past M or N), else tiles.
int64_t cluster_units(const GemmCall& call, const WsTile& t) {
  const int64_t cols = int64_t{out_columns(call, t)} * t.cluster_n;
  const int64_t rows = t.bm * t.cluster;
  return call.batch * ((call.m + rows - 1) / rows) * ((call.n + cols - 1) / cols);
}

// Split-K costs a counter reset, a partial-tile round trip through L2 and a wait for the slowest
// split: on the H200 it paid only where it at least doubled the SMs in use (docs/perf).
constexpr double kSplitKCost = 0.6;
constexpr int kMinKTilesPerSplit = 16;
constexpr int kMostSplits = 16;
constexpr int kMostClusterSplits = 8;  // the portable cluster size (gemm_cluster_split.cuh)

// K splits for a tile shape: when its blocks (clusters' blocks, past-the-edge ones included)
// would fill under half the SMs, as many as fit one wave, each at least kMinKTilesPerSplit
// k-tiles deep, at most `most` (the call's split cap, untuned_plan), and only when that fills
// enough more SMs to pay for itself. Clustered tiles reduce serially (gemm_sm90_ws.cu), so they
// split fewer ways than the parallel reduction starts at.
int splits_for(const GemmCall& call, const WsTile& t, int sms, int most) {
  const int64_t blocks = cluster_units(call, t) * t.blocks();
  if (2 * blocks >= sms) return 1;
  const int64_t k_tiles = (call.k + t.bk - 1) / t.bk * (t.bk / kBoxK);  // in boxes of K
  if (t.blocks() > 1) most = std::min(most, kParallelReduceMinSplits - 1);
  if (t.split_cluster) most = std::min(most, kMostClusterSplits);
  const int64_t s = std::min<int64_t>({sms / blocks, k_tiles / kMinKTilesPerSplit, most});
  if (s <= 1 || kSplitKCost * static_cast<double>(s) <= 1.0) return 1;
  return static_cast<int>(s);
}

// Workspace of a tile shape under split-K: one slot per block's tile (clusters' past-the-edge
// tiles included) and 64-row consumer.
SplitKLayout split_k_layout(const GemmCall& call, const WsTile& t, int splits) {
  if (t.split_cluster) return {};  // the splits meet in the cluster's shared memory
  return split_k_layout_of(cluster_units(call, t) * t.blocks() * (t.bm / 64), splits, t.bn);
}

// Whether the kernel loads B evict-first (gemm_sm90_ws.cu): when a problem's tile rows all fall
// in one group of the walk, the blocks reading a B stage run together and no later tile reads it
// again. On the H200 this took 6-14% off M = 64..256 and cost 1-4% on large shapes, where later
// groups re-read B from the L2 (docs/perf/h200-l2-policy-2026-12-02).
bool streams_b(const GemmCall& call, const WsTile& t) {
  return (call.m + t.bm - 1) / t.bm <= kGroupM;
}

// The share of a tile's rows that hold rows of the output: a 128-row tile over m = 64 multiplies
// as much padding as data.
double row_use(const GemmCall& call, const WsTile& t) {
  const int64_t padded = (call.m + t.bm - 1) / t.bm * t.bm;
  return static_cast<double>(call.m) / static_cast<double>(padded);
}
// The same for columns: a 256-column tile over n = 128 (attention's p @ v) multiplies as much
// padding as data, and holds twice the B stage it needs.
double column_use(const GemmCall& call, const WsTile& t) {
  const int64_t cols = out_columns(call, t);
  const int64_t padded = (call.n + cols - 1) / cols * cols;
  return static_cast<double>(call.n) / static_cast<double>(padded);
}

// Clustered tiles won from k = 2048 (docs/perf/h200-multicast-2026-12-02) and lost at k = 128
// and 512, attention's q @ k^T and p @ v over a batch of heads (up to 0.97 against 0.93 of
// torch.bmm, docs/perf/h200-a-multicast-2026-12-02): their B stages are few and short.
constexpr int64_t kClusterMinK = 2048;

struct ScoredTile {
  int tile = 0;       // index of kTiles
  int splits = 1;     // of K
  double fill = 0.0;  // the share of the SMs its waves keep busy
};

// The tile (of `tiles`, indexes of kTiles) whose waves (splits included, at most most_splits),
// weighted by its throughput and by the share of its rows and columns that are not padding, keep
// the most SMs busy.
ScoredTile best_scored_tile(const GemmCall& call, int sms, const std::vector<int>& tiles,
                            int most_splits) {
  ScoredTile best{tiles.front(), 1, 0.0};
  double best_score = -1;
  for (int i : tiles) {
    const WsTile& t = kTiles[i];
    // Multicast pays where L2 traffic is the limit: a full wave of tiles and more, each at
    // least kClusterMinK deep. Below that the untuned choice keeps the single-block tiles
    // (tuning still tries clusters).
    if (!t.untuned || (t.cluster > 1 && (tile_count(call, t) < sms || call.k < kClusterMinK))) {
      continue;
    }
    // Narrow tiles were measured on a linear layer's layout only; on others they are tuning
    // candidates.
    if (t.bn < 128 && (call.trans_a || !call.trans_b)) continue;
    const int splits = splits_for(call, t, sms, most_splits);
    // Clusters of two occupy SMs in pairs (about half the SM count of them fit at once).
    const int64_t slots = sms / t.blocks();
    const int64_t waves = (cluster_units(call, t) * splits + slots - 1) / slots;
    const double fill = static_cast<double>(tile_count(call, t) * splits) /
                        static_cast<double>(waves * slots * t.blocks());
    const double score =
        t.rate * fill * row_use(call, t) * column_use(call, t) * (splits > 1 ? kSplitKCost : 1.0);
    if (score > best_score + 1e-9) {
      best_score = score;
      best = {i, splits, fill};
    }
  }
  return best;
}

// The fewest SMs, as a share, a serial split must keep busy to be preferred (untuned_plan).
constexpr double kSerialSplitFill = 0.9;

// The untuned tile of a call and the most K splits any tile takes on it (tuning candidates
// included). Where the score's best tile with splits capped at kParallelReduceMinSplits - 1 (the
// serial reduction) splits K and keeps at least kSerialSplitFill of the SMs busy, no tile splits
// deeper: on the H200, every ungated row of a few tokens over 1024-1536 weight rows and deep K ran
// 0.7-2.6 us faster on 64x64x128 or 64x32x128 at 2-4 serial splits than on the 64x128 or 128x128
// tile the score took at 5-14 parallel splits; on 128x1536x7168, where no serial split fills 90%
// of the SMs, the parallel split still won (docs/perf/h200-cluster-split-k-2026-12-06). Gated calls
// always reduce serially and keep their splits. serial_first false
// (TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0) keeps every tile's full split.
//
// One scoring pass where the uncapped choice splits at most that many ways: capping lowers no
// score of such a tile and raises none of the others, so the capped pass would pick it again.
struct UntunedPlan {
  int tile = 0;  // index of kTiles
  int split_cap = kMostSplits;
};
UntunedPlan untuned_plan(const GemmCall& call, int sms, const std::vector<int>& tiles,
                         bool serial_first) {
  const int serial_most = kParallelReduceMinSplits - 1;
  const auto serial_fills = [&](const ScoredTile& s) {
    return s.splits > 1 && s.fill >= kSerialSplitFill;
  };
  const ScoredTile any = best_scored_tile(call, sms, tiles, kMostSplits);
  if (!serial_first || call.gated) return {any.tile, kMostSplits};
  if (any.splits <= serial_most) {
    return {any.tile, serial_fills(any) ? serial_most : kMostSplits};
  }
  const ScoredTile serial = best_scored_tile(call, sms, tiles, serial_most);
  return serial_fills(serial) ? UntunedPlan{serial.tile, serial_most}
                              : UntunedPlan{any.tile, kMostSplits};
}

bool serial_splits_first() {
  const char* v = std::getenv("TILEOPS_GEMM_SERIAL_SPLITS_FIRST");
  return v == nullptr || std::string_view(v) != "0";
}

// A as the kernel reads it: [M, K] (K-major) or [K, M]; B: [N, K] (K-major) or [K, N]; each
// the batch's matrices one after another.
MatrixView batched(const GemmCall& c, const void* p, uint64_t rows, uint64_t cols) {
  return {p, c.dtype, rows, cols, cols, uint64_t(c.batch), rows * cols};
}
MatrixView view_a(const GemmCall& c, const void* p) {
  return c.trans_a ? batched(c, p, c.k, c.m) : batched(c, p, c.m, c.k);
}
MatrixView view_b(const GemmCall& c, const void* p) {
  const uint64_t cols = uint64_t(c.b_columns());
  return c.trans_b ? batched(c, p, cols, c.k) : batched(c, p, c.k, cols);
}

int gated_code(const GemmCall& call) {
  return call.gated ? static_cast<int>(call.activation) : -1;
}

class GemmSm90WsCuda final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr int supported_archs[] = {90};
  // tileops's own kernel first; cuBLASLt serves what it refuses (docs/design/decisions.md).
  static constexpr std::string_view preferred_over[] = {"gemm_cublaslt"};

  static std::optional<std::string> refusal(const GemmCall& call, const DeviceFacts&) {
    if (call.dtype != DType::kBFloat16 && call.dtype != DType::kFloat16) {
      return fmt::format(
          "dtype {}: wgmma takes 16-bit inputs here (float32 stays exact on CUDA "
          "cores rather than rounding to tf32)",
          dtype_name(call.dtype));
    }
    if (call.k == 0) return std::string("k == 0: nothing to multiply");
    if (call.gated && !call.trans_b) {
      return std::string("a gated call needs b as [2n, k] (trans_b=true)");
    }
    // Work units (tiles of the batch, times splits) are counted in 32-bit ints.
    if (call.batch * ((call.m + 63) / 64) * ((call.b_columns() + 63) / 64) * 16 >=
        (int64_t{1} << 31)) {
      return std::string("the batch has 2^31 or more work units");
    }
    if (call.m >= (int64_t{1} << 31) || call.b_columns() >= (int64_t{1} << 31) ||
        call.k >= (int64_t{1} << 31)) {
      return std::string("a dimension reaches 2^31");
    }
    if (!call.aligned16) return std::string("a or b does not start on a 16-byte boundary (TMA)");
    const int64_t lda = call.trans_a ? call.m : call.k;
    const int64_t ldb = call.trans_b ? call.k : call.n;
    if (lda % 8 != 0) {
      return fmt::format(
          "the leading dimension of a ({} elements) is not a multiple of 8 (16 "
          "bytes), which TMA needs",
          lda);
    }
    if (ldb % 8 != 0) {
      return fmt::format(
          "the leading dimension of b ({} elements) is not a multiple of 8 (16 "
          "bytes), which TMA needs",
          ldb);
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const bool ta = call.trans_a, tb = call.trans_b;
    const int gated = gated_code(call);
    const bool tail_boxes = !tail_boxes_switched_off();
    const bool parallel_reduce = !split_reduce_forced_serial();
    const bool serial_first = serial_splits_first();
    const bool experimental = gemm_experimental_switched_on();
    return {
        fmt::format("{},{},{},{}{}{}{}{}", dtype_name(dtype), ta, tb, gated,
                    tail_boxes ? "" : ",no-tail-boxes", parallel_reduce ? "" : ",serial-reduce",
                    serial_first ? "" : ",no-serial-first", experimental ? ",experimental" : ""),
        [=] {
          return std::make_unique<GemmSm90WsCuda>(dtype, ta, tb, gated, tail_boxes, parallel_reduce,
                                                  serial_first, experimental);
        }};
  }

  GemmSm90WsCuda(DType dtype, bool ta, bool tb, int gated, bool tail_boxes, bool parallel_reduce,
                 bool serial_first, bool experimental)
      : tail_boxes_(tail_boxes),
        parallel_reduce_(parallel_reduce),
        serial_first_(serial_first),
        experimental_(experimental),
        tiles_(tiles_serving(ta, tb, gated >= 0, experimental)),
        cublaslt_(CublasLtCandidate::offered(gated >= 0) ? std::make_unique<CublasLtCandidate>()
                                                         : nullptr),
        tuner_("gemm_sm90_ws", candidate_names(tiles_, cublaslt_ != nullptr)) {
    for (const WsTile& t : kTiles) {
      fns_.push_back(t.serves(ta, tb, gated >= 0)
                         ? std::make_unique<CudaFunction>(ws_spec(dtype, ta, tb, t, gated))
                         : nullptr);
    }
  }

  // Enough for whichever tile shape runs (tuning may pick any) at any split cap (a cap only
  // lowers a tile's splits), and tuned for cuBLASLt's plan.
  int64_t workspace_bytes(const GemmCall& call) const override {
    const int sms = sm_count(call.device.index);
    int64_t most = 0;
    for (int i : tiles_) {
      const WsTile& t = kTiles[i];
      most = std::max(most, split_k_layout(call, t, splits_for(call, t, sms, kMostSplits)).total());
    }
    if (cublaslt_ && tuner_.tuned()) most = std::max(most, cublaslt_->workspace_bytes(call));
    return most;
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& workspace) override {
    const int device = device_of(a);
    const TailPointers tp = tail_pointers(call, tail);
    const int sms = sm_count(device);
    const UntunedPlan plan = untuned_plan(call, sms, tiles_, serial_first_);
    const int cap = plan.split_cap;
    const int candidate =
        tuner_.tuned()
            ? choose_gemm_candidate(
                  tuner_, "gemm_sm90_ws", call, candidate_of(plan.tile), a, b, d,
                  workspace_bytes(call),
                  [this, call, device, tp, cap](int c, const void* ap, const void* bp, void* dp,
                                                void* wp) {
                    enqueue_candidate(c, call, device, ap, bp, dp, wp, tp, cap);
                  },
                  [this, call, sms, cap](int c) { return uncapped_repeats(c, call, sms, cap); })
            : candidate_of(plan.tile);
    last_candidate_.store(candidate, std::memory_order_relaxed);
    enqueue_candidate(candidate, call, device, a.data(), b.data(), d.data(),
                      workspace.defined() ? workspace.data() : nullptr, tp, cap);
  }

  // "tile=128x256x64/s4", with ",split_k=N,reduce=parallel" (serial, or cluster for a /k tile) when
  // the last call split K; "cublaslt" when tuning chose cuBLASLt.
  std::string config() const override {
    const int c = last_candidate_.load(std::memory_order_relaxed);
    if (c >= cublaslt_candidate()) return std::string(kCublasLtCandidate);
    const int splits = last_splits_.load(std::memory_order_relaxed);
    const bool parallel = last_parallel_reduce_.load(std::memory_order_relaxed);
    const WsTile& t = kTiles[tiles_[c % tiles_.size()]];
    const char* reduce = t.split_cluster ? "cluster" : parallel ? "parallel" : "serial";
    return "tile=" + t.name() +
           (splits > 1 ? fmt::format(",split_k={},reduce={}", splits, reduce) : "");
  }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { tuner_.enter_tuned_mode(options); }

 private:
  // The tuning candidate (index into tiles_) of a kTiles index.
  int candidate_of(int tile) const {
    return static_cast<int>(std::find(tiles_.begin(), tiles_.end(), tile) - tiles_.begin());
  }

  int tile_count_served() const { return static_cast<int>(tiles_.size()); }
  int cublaslt_candidate() const { return 2 * tile_count_served(); }

  // Whether candidate c is a tile's uncapped form that splits K as its capped form does for call.
  bool uncapped_repeats(int c, const GemmCall& call, int sms, int split_cap) const {
    if (c < tile_count_served() || c >= cublaslt_candidate()) return false;
    const WsTile& t = kTiles[tiles_[c - tile_count_served()]];
    return splits_for(call, t, sms, kMostSplits) == splits_for(call, t, sms, split_cap);
  }

  // Candidate c: tile tiles_[c] splitting K at most split_cap ways, tiles_[c - tiles] at its full
  // split, or cuBLASLt after both.
  void enqueue_candidate(int c, const GemmCall& call, int device, const void* ap, const void* bp,
                         void* dp, void* wp, const TailPointers& tp, int split_cap) {
    if (c < tile_count_served()) {
      enqueue(tiles_[c], call, device, ap, bp, dp, wp, tp, split_cap);
    } else if (c < cublaslt_candidate()) {
      enqueue(tiles_[c - tile_count_served()], call, device, ap, bp, dp, wp, tp, kMostSplits);
    } else if (call.m != 0 && call.n != 0 && call.batch != 0) {
      cublaslt_->enqueue(call, ap, bp, dp, tp.bias, tp.residual, wp, device);
    }
  }

  void enqueue(int tile, const GemmCall& call, int device, const void* ap, const void* bp, void* dp,
               void* wp, const TailPointers& tp, int split_cap) {
    if (call.m == 0 || call.n == 0 || call.batch == 0) return;
    const WsTile& t = kTiles[tile];
    const int sms = sm_count(device);
    const int splits = splits_for(call, t, sms, split_cap);
    const SplitKBuffers buffers =
        split_k_buffers("gemm_sm90_ws", split_k_layout(call, t, splits), wp, device);
    last_splits_.store(splits, std::memory_order_relaxed);
    WsKernelArgs args{.d = dp,
                      .m = static_cast<int>(call.m),
                      .n = static_cast<int>(call.n),
                      .k = static_cast<int>(call.k),
                      .splits = splits,
                      .partials = buffers.partials,
                      .counters = buffers.counters,
                      .bias = tp.bias,
                      .residual = tp.residual,
                      .batch = static_cast<int>(call.batch),
                      .stream_weight = streams_b(call, t) ? 1 : 0};
    args.map_a = call.trans_a
                     ? encode_tensor_map_sw128_batched(view_a(call, ap), kBoxK, 64)
                     : encode_tensor_map_sw128_batched(view_a(call, ap), t.bm / t.cluster_n, kBoxK);
    // A gated tile loads its gate rows and its up rows as two boxes of half the tile's rows; a
    // block clustered along M loads half the rows of a K-major B stage, one clustered along N
    // 1 / cluster_n of the rows of A's.
    const int b_box_rows = call.gated ? t.bn / 2 : t.bn / t.cluster;
    args.map_b = call.trans_b ? encode_tensor_map_sw128_batched(view_b(call, bp), b_box_rows, kBoxK)
                              : encode_tensor_map_sw128_batched(view_b(call, bp), kBoxK, 64);
    // The tiles over A's and B's last rows load only those, rounded up to a swizzle atom
    // (gemm_sm90_ws.cu: A_TAIL_BOXES, B_TAIL_BOXES).
    args.a_tail_rows =
        tail_boxes_ && !call.trans_a && t.cluster_n == 1 ? tail_box_rows(call.m, t.bm) : 0;
    args.b_tail_rows = tail_boxes_ && call.trans_b && t.cluster == 1 && !call.gated
                           ? tail_box_rows(call.n, t.bn)
                           : 0;
    if (args.a_tail_rows > 0) {
      args.map_a_tail = encode_tensor_map_sw128_batched(
          view_a(call, ap), static_cast<unsigned>(args.a_tail_rows), kBoxK);
    }
    if (args.b_tail_rows > 0) {
      args.map_b_tail = encode_tensor_map_sw128_batched(
          view_b(call, bp), static_cast<unsigned>(args.b_tail_rows), kBoxK);
    }
    args.vec_stores = call.n % 8 == 0 && all_aligned({dp, tp.bias, tp.residual}, 16) ? 1 : 0;
    // Whole tiles go out through TMA stores unless K is split (partials) or a residual is read by
    // a tile whose TMA-store epilogue cannot add it (gemm_sm90_ws.cu: TMA_STORE_RESIDUAL).
    args.tma_store =
        args.vec_stores && (splits == 1 || t.split_cluster) &&
                (tp.residual == nullptr || (experimental_ && t.tma_store_adds_residual()))
            ? 1
            : 0;
    if (args.tma_store) {
      args.map_d = encode_tensor_map_sw128_batched(
          {dp, call.dtype, uint64_t(call.m), uint64_t(call.n), uint64_t(call.n),
           uint64_t(call.batch), uint64_t(call.m) * uint64_t(call.n)},
          64, 64);
    }
    const CUfunction fn = fns_[tile]->get(device);
    // A cluster holds blocks() tiles of one split, or a /k tile's splits of one tile; clusters
    // walk their work persistently.
    const int cluster_size = t.split_cluster ? splits : t.blocks();
    const int64_t cluster_work =
        t.split_cluster ? cluster_units(call, t) : cluster_units(call, t) * splits;
    LaunchGeometry geometry{.block = t.threads(),
                            .smem = t.smem(static_cast<int>(dtype_size(call.dtype))),
                            .cluster_x = static_cast<unsigned>(cluster_size)};
    const int64_t slots =
        cluster_size > 1 ? cluster_slots(tile, cluster_size, fn, device, geometry) : sms;
    geometry.grid_x = static_cast<unsigned>(std::min<int64_t>(cluster_work, slots) * cluster_size);
    // Deep splits of ungated tiles reduce in parallel, every split of a tile waiting for the
    // others, which a cooperative launch makes safe: the grid (at most an SM a block) runs at once
    // or not at all. A device that cannot hold it at once (an MPS share) gets the last-split
    // reduction.
    if (reduces_in_parallel(splits, call.gated) && parallel_reduce_ && cluster_size == 1 &&
        !t.split_cluster) {
      geometry.cooperative = true;
      args.parallel_reduce = 1;
      auto pointers = args.pointers();
      const CUresult r = try_launch_ex(fn, device, geometry, pointers);
      if (r != kCooperativeLaunchTooLarge) {
        check(r, "cuLaunchKernelEx (cooperative)");
        last_parallel_reduce_.store(true, std::memory_order_relaxed);
        return;
      }
      geometry.cooperative = false;
      args.parallel_reduce = 0;
    }
    last_parallel_reduce_.store(false, std::memory_order_relaxed);
    auto pointers = args.pointers();
    launch_ex(fn, device, geometry, pointers);
  }

  // The clusters of `size` blocks of a tile that fit the device at once, asked once per device.
  int64_t cluster_slots(int tile, int size, CUfunction fn, int device, const LaunchGeometry& g) {
    std::atomic<int>& slot =
        cluster_slots_[tile][static_cast<size_t>(device) % kMaxDevices][static_cast<size_t>(size)];
    int n = slot.load(std::memory_order_relaxed);
    if (n == 0) {
      n = max_active_clusters(fn, device, g);
      if (n <= 0) {
        throw RuntimeError(
            fmt::format("gemm_sm90_ws: no cluster of {} blocks of tile {} fits device {}",
                        g.cluster_x, kTiles[tile].name(), device));
      }
      slot.store(n, std::memory_order_relaxed);
    }
    return n;
  }

  static constexpr size_t kMaxDevices = 16;
  // By tile, device and cluster size (a /k tile's clusters are as large as its split).
  std::array<std::array<std::array<std::atomic<int>, kMostClusterSplits + 1>, kMaxDevices>,
             kTiles.size()>
      cluster_slots_{};
  bool tail_boxes_;       // TILEOPS_GEMM_TAIL_BOXES when this implementation was built
  bool parallel_reduce_;  // not TILEOPS_GEMM_SPLIT_REDUCE=serial then
  bool serial_first_;     // not TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0 then
  bool experimental_;     // TILEOPS_GEMM_EXPERIMENTAL then (gemm_experimental.hpp)
  std::vector<int>
      tiles_;  // the kTiles serving this layout; tuning candidates c and c + size are tiles_[c]
  std::unique_ptr<CublasLtCandidate> cublaslt_;     // candidate cublaslt_candidate(), when offered
  std::vector<std::unique_ptr<CudaFunction>> fns_;  // by kTiles index; null where not served
  tuning::Tuner tuner_;
  std::atomic<int> last_candidate_{0};
  std::atomic<int> last_splits_{1};
  std::atomic<bool> last_parallel_reduce_{false};
};

const StaticGemmRegistration<GemmSm90WsCuda> kRegistration("gemm_sm90_ws");
const bool kVariants = [] {
  register_cuda_variants("gemm_sm90_ws", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          for (const WsTile& t : kTiles) {
            if (t.serves(ta, tb, false)) v.push_back(ws_spec(d, ta, tb, t, -1).source());
            // Gated calls are a linear layer's (trans_a=false, trans_b=true).
            for (int act = 0; act < 3 && !ta && tb && t.serves(ta, tb, true); ++act) {
              v.push_back(ws_spec(d, ta, tb, t, act).source());
            }
          }
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace

WsScoredChoice ws_scored_choice(const GemmCall& call, int sms) {
  const ScoredTile s = best_scored_tile(
      call, sms, tiles_serving(call.trans_a, call.trans_b, call.gated, false), kMostSplits);
  const WsTile& t = kTiles[s.tile];
  return {.bm = t.bm, .bn = t.bn, .bk = t.bk, .splits = s.splits};
}

WsScoredChoice ws_untuned_choice(const GemmCall& call, int sms, bool serial_first,
                                 bool experimental) {
  const std::vector<int> tiles =
      tiles_serving(call.trans_a, call.trans_b, call.gated, experimental);
  const UntunedPlan plan = untuned_plan(call, sms, tiles, serial_first);
  const WsTile& t = kTiles[plan.tile];
  return {.bm = t.bm, .bn = t.bn, .bk = t.bk, .splits = splits_for(call, t, sms, plan.split_cap)};
}

std::vector<std::string> ws_tuning_candidates(const GemmCall& call, bool experimental) {
  return candidate_names(tiles_serving(call.trans_a, call.trans_b, call.gated, experimental),
                         false);
}

}  // namespace tileops::cuda
