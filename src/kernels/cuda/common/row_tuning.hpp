// Tuning candidates of the one-block-per-row kernels (the norms, softmax's row kernel): how many
// packs each thread keeps in registers (0 or kRowCache, a compile-time choice) and how many
// accesses each thread takes (the block size). The untuned choice is the measured default of
// row_launch.hpp. RowKernelSet holds a row kernel's compiled variants and runs a call on them.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/cuda/common/cuda_trial.hpp"
#include "kernels/cuda/common/row_launch.hpp"
#include "runtime/tuning/tuner.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {

struct RowConfig {
  int cache;           // packs kept in registers per thread
  int64_t per_thread;  // accesses per thread, which sizes the block
  std::string name() const { return fmt::format("cache={}/per_thread={}", cache, per_thread); }
};
inline constexpr std::array<RowConfig, 6> kRowConfigs{
    {{0, 1}, {0, 2}, {0, 4}, {kRowCache, 1}, {kRowCache, 2}, {kRowCache, 4}}};

inline std::vector<std::string> row_config_names() {
  std::vector<std::string> names;
  for (const RowConfig& c : kRowConfigs) names.push_back(c.name());
  return names;
}

// The candidate the untuned kernel runs: cache depth `depth`; one access per thread when there
// are fewer rows than SMs (the most memory parallelism per row), else `many_rows_per_thread`.
// The per-kernel values come from `tileops tune` on the H200 (docs/perf/h200-tuning-2026-11-30).
struct RowDefault {
  int depth;
  int64_t many_rows_per_thread;
};
inline int default_row_config(RowDefault d, int64_t rows, int sms) {
  const int64_t per_thread = rows < sms ? 1 : d.many_rows_per_thread;
  for (int i = 0; i < static_cast<int>(kRowConfigs.size()); ++i) {
    if (kRowConfigs[i].cache == d.depth && kRowConfigs[i].per_thread == per_thread) return i;
  }
  return 0;
}

// A row kernel: its file, entry point and own specialisation constants (softmax's LOG); each
// variant adds T, VEC, CACHE, LANES, CLUSTER and GRID (all 0: one block a row; LANES lanes a row,
// several rows a block, common/warp_rows_cuda.hpp; a cluster of CLUSTER blocks a row,
// common/cluster_rows_cuda.hpp; GRID, a cooperative grid's column of blocks a row,
// common/grid_rows_cuda.hpp). The kernel's last arguments are the row count and the grid
// exchange's workspace (RowArgs).
struct RowKernelDecl {
  std::string file;
  std::string entry;
  std::vector<KernelConstant> constants;
};

inline KernelSpec row_kernel_spec(const RowKernelDecl& k, DType dtype, int vec, int depth,
                                  int lanes = 0, int cluster = 0, bool grid = false,
                                  int packs = 0) {
  std::vector<KernelConstant> c{
      KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec),
      KernelConstant::integer("CACHE", depth),        KernelConstant::integer("LANES", lanes),
      KernelConstant::integer("CLUSTER", cluster),    KernelConstant::boolean("GRID", grid),
      KernelConstant::integer("PACKS", packs)};
  c.insert(c.end(), k.constants.begin(), k.constants.end());
  return KernelSpec(k.file, k.entry, std::move(c));
}

// The register-row variants of a block-a-row kernel (PACKS, device/rows.cuh RegisterRow): thread
// i of block r holds packs i + j * blockDim.x (j < PACKS) of row r and nothing else, so the
// kernel loads a norm's weight beside the row and reads nothing after its reduction, and holds
// none of the generic row loop's code: a separate kernel, since the short path inside the generic
// one made the generic path's rows 0.15-0.45 us slower (docs/perf/h200-verify-2026-12-06).
inline constexpr std::array<int, 3> kRegisterRowPacks{1, 2, 4};

inline KernelSpec register_row_kernel_spec(const RowKernelDecl& k, DType dtype, int packs) {
  return row_kernel_spec(k, dtype, wide_vector_width(dtype), 0, 0, 0, false, packs);
}

// The block size a register-row variant of `packs` packs a thread is compiled for
// (TILEOPS_ROW_BOUNDS): 1024 up to two packs a thread, 512 beyond (registers).
constexpr int64_t register_row_max_threads(int packs) {
  return packs > 2 ? 512 : 1024;
}
// The widest row, in packs, that dispatch gives a register-row variant: two packs a thread.
inline constexpr int64_t kRegisterRowMostPacks = 2 * register_row_max_threads(2);

// Whether a row of n elements is whole 16-byte packs that a register-row variant's block holds
// (at most kRegisterRowMostPacks): the shape half of register_row_packs' test, which the long-row
// refusal shares (long_rows.hpp).
inline bool register_row_holds(DType dtype, int64_t n) {
  const int vec = wide_vector_width(dtype);
  return n % vec == 0 && n / vec <= kRegisterRowMostPacks;
}

// The packs a thread of a block-a-row call's register-row variant holds, or 0 for the generic
// kernel. The call must take one access a thread (per_thread 1: the untuned choice under a wave
// of rows), the row be whole 16-byte packs a block holds (register_row_holds; vec the wide
// width) and every tensor start on a 16-byte boundary, so that every row does too. Then the
// fewest packs a thread whose block holds the row: 1 up to 1024 packs, 2 up to 2048; 4 only when
// `forced` (for measurement: 512 threads of four packs against 1024 of two). forced > 0 forces
// that count where the row fits it.
inline int register_row_packs(DType dtype, int vec, int64_t per_thread, int64_t n,
                              std::span<const Tensor* const> tensors, int forced = 0) {
  if (per_thread != 1 || vec != wide_vector_width(dtype)) return 0;
  const int64_t packs = n / vec;
  const bool fits = forced > 0 ? n % vec == 0 && packs <= forced * register_row_max_threads(forced)
                               : register_row_holds(dtype, n);
  if (!fits) return 0;
  for (const Tensor* t : tensors) {
    if (!aligned16(t->data())) return 0;
  }
  if (forced > 0) return forced;
  return packs <= register_row_max_threads(1) ? 1 : 2;
}

// The index of a register-row variant among RowKernelSet's functions: after the four generic ones.
inline size_t register_row_index(int packs) {
  constexpr size_t kGenericVariants = 4;
  const auto* at = std::find(kRegisterRowPacks.begin(), kRegisterRowPacks.end(), packs);
  return kGenericVariants + static_cast<size_t>(at - kRegisterRowPacks.begin());
}

// Every source a row kernel may run for dtype: wide (16-byte) and scalar access, each cache depth,
// and the register-row variants.
inline std::vector<KernelSource> row_kernel_variants(const RowKernelDecl& k, DType dtype) {
  std::vector<KernelSource> v;
  for (int vec : {wide_vector_width(dtype), 1}) {
    for (int depth : {0, kRowCache}) v.push_back(row_kernel_spec(k, dtype, vec, depth).source());
  }
  for (int packs : kRegisterRowPacks) {
    v.push_back(register_row_kernel_spec(k, dtype, packs).source());
  }
  return v;
}

// The functions of one row kernel and dtype, compiled on first use, and its tuner.
class RowKernelSet {
 public:
  RowKernelSet(const RowKernelDecl& kernel, DType dtype, std::string tuner_name)
      : dtype_(dtype),
        wide_vec_(wide_vector_width(dtype)),
        name_(std::move(tuner_name)),
        tuner_(name_, row_config_names()),
        forced_packs_(forced_register_row_packs()) {
    for (int vec : {wide_vec_, 1}) {
      for (int depth : {0, kRowCache}) {
        fns_.push_back(std::make_unique<CudaFunction>(row_kernel_spec(kernel, dtype, vec, depth)));
      }
    }
    for (int packs : kRegisterRowPacks) {
      fns_.push_back(
          std::make_unique<CudaFunction>(register_row_kernel_spec(kernel, dtype, packs)));
    }
  }
  void enter_tuned_mode(const TuneOptions& options) { tuner_.enter_tuned_mode(options); }

  // One call over `rows` rows of n elements, one block per row. The kernel's arguments are the
  // data pointers of inputs, then of outputs, then `scalars` (pointers to their values). The
  // access width follows the pointers' alignment; the candidate is the untuned default or, in
  // tuned mode, the one settled for (dtype, rows, n, width).
  void run(int64_t rows, int64_t n, RowDefault untuned, std::initializer_list<const Tensor*> inputs,
           std::initializer_list<const Tensor*> outputs, std::initializer_list<void*> scalars) {
    const RowArgs a(rows, inputs, outputs, scalars);
    const int vec = spanned_vector_width(dtype_, n, a.tensors());
    const int device = a.device();
    int config = default_row_config(untuned, rows, sm_count(device));
    if (tuner_.tuned()) {
      // Trials run inside choose(), while the call's scalars are still alive.
      config = choose(device, rows, n, vec, config, inputs, outputs,
                      [this, device, rows, n, vec, &a](int c, std::span<const Tensor> in,
                                                       std::span<const Tensor> out) {
                        const RowArgs trial(rows, in, out, a.scalars());
                        enqueue(device, rows, n, vec, c, trial);
                      });
    }
    enqueue(device, rows, n, vec, config, a);
  }

  // The candidate and block size of the last launch, for Kernel::config(); ",register_row=P"
  // when a register-row variant of P packs a thread ran it.
  std::string last_config() const {
    const int packs = last_packs_.load();
    return fmt::format("{},block={}{}", kRowConfigs[last_config_.load()].name(), last_block_.load(),
                       packs > 0 ? fmt::format(",register_row={}", packs) : std::string());
  }

 private:
  // The register-row packs forced by TILEOPS_ROW_PACKS (1, 2 or 4; for measurement), else 0.
  static int forced_register_row_packs() {
    const char* v = std::getenv("TILEOPS_ROW_PACKS");
    if (v == nullptr) return 0;
    const std::string s(v);
    for (int p : kRegisterRowPacks) {
      if (s == std::to_string(p)) return p;
    }
    return 0;
  }

  // Launches candidate `config` with one block per row and records it for last_config(): a
  // register-row variant where the call allows it (register_row_packs), with a thread per
  // `packs` packs.
  void enqueue(int device, int64_t rows, int64_t n, int vec, int config, const RowArgs& a) {
    const RowConfig& rc = kRowConfigs[config];
    const int packs = register_row_packs(dtype_, vec, rc.per_thread, n, a.tensors(), forced_packs_);
    const unsigned block = packs > 0 ? row_block_threads(n, vec, packs, false)
                                     : row_block_threads(n, vec, rc.per_thread, rc.cache > 0);
    last_config_.store(config, std::memory_order_relaxed);
    last_block_.store(block, std::memory_order_relaxed);
    last_packs_.store(packs, std::memory_order_relaxed);
    const size_t index =
        packs > 0 ? register_row_index(packs) : (vec == wide_vec_ ? 0 : 2) + (rc.cache > 0 ? 1 : 0);
    launch(fns_[index]->get(device), device, static_cast<unsigned>(rows), 1, block, 0, a.args());
  }

  // The config for a call in tuned mode: settled once per (dtype, rows, n, vec) on scratch
  // tensors shaped like inputs and outputs, run by enqueue(config, inputs, outputs).
  template <typename Enqueue>
  int choose(int device, int64_t rows, int64_t n, int vec, int default_config,
             std::initializer_list<const Tensor*> inputs,
             std::initializer_list<const Tensor*> outputs, Enqueue enqueue) {
    const tuning::SpecKey key{static_cast<int64_t>(dtype_), rows, n, vec, 0, 0};
    return tuner_.choose(key, default_config, [&] {
      tuning::SettleInputs settle;
      settle.board = device_name(device);
      settle.spec = fmt::format("{} rows={} n={} vec={}", dtype_name(dtype_), rows, n, vec);
      settle.make_trial = [&, this] {
        require_not_capturing(device, name_);
        std::vector<Tensor> in, out;
        uint64_t seed = 1;
        for (const Tensor* t : inputs) in.push_back(random_device_like(*t, seed++));
        for (const Tensor* t : outputs) out.push_back(empty_device_like(*t));
        return std::unique_ptr<tuning::TuningTrial>(
            std::make_unique<CudaTrial>(device, std::move(in), std::move(out), enqueue));
      };
      return settle;
    });
  }

  DType dtype_;
  int wide_vec_;
  std::string name_;
  std::vector<std::unique_ptr<CudaFunction>> fns_;
  tuning::Tuner tuner_;
  std::atomic<int> last_config_{0};
  std::atomic<unsigned> last_block_{0};
  int forced_packs_;
  std::atomic<int> last_packs_{0};
};

}  // namespace tileops::cuda
