// Tuning candidates of the one-block-per-row kernels (the norms, softmax's row kernel): how many
// packs each thread keeps in registers (0 or kRowCache, a compile-time choice) and how many
// accesses each thread takes (the block size). The untuned choice is the measured default of
// row_launch.hpp. RowKernelSet holds a row kernel's compiled variants and runs a call on them.
#pragma once

#include <array>
#include <atomic>
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
                                  bool one_pack = false) {
  std::vector<KernelConstant> c{
      KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec),
      KernelConstant::integer("CACHE", depth),        KernelConstant::integer("LANES", lanes),
      KernelConstant::integer("CLUSTER", cluster),    KernelConstant::boolean("GRID", grid),
      KernelConstant::boolean("ONE_PACK", one_pack)};
  c.insert(c.end(), k.constants.begin(), k.constants.end());
  return KernelSpec(k.file, k.entry, std::move(c));
}

// The one-pack variant of a block-a-row kernel (ONE_PACK, device/rows.cuh OnePackRow): thread i
// of block r holds pack i of row r and nothing else, so the kernel loads a norm's weight beside
// the row and reads nothing after its reduction, and holds none of the generic row loop's code:
// a separate kernel, since the short path inside the generic one made the generic path's rows
// 0.15-0.45 us slower (docs/perf/h200-verify-2026-12-06).
inline KernelSpec one_pack_row_kernel_spec(const RowKernelDecl& k, DType dtype) {
  return row_kernel_spec(k, dtype, wide_vector_width(dtype), 0, 0, 0, false, true);
}

// The most packs a row of the one-pack variant may have: a block's threads.
inline constexpr int64_t kOnePackMaxPacks = 1024;

// Whether a call of a block-a-row kernel takes its one-pack variant: the candidate takes one
// access a thread (per_thread 1: the untuned choice under a wave of rows), the row is whole
// 16-byte packs (n a multiple of vec, the wide width) and at most kOnePackMaxPacks of them, and
// every tensor starts on a 16-byte boundary, so that every row does too.
inline bool takes_one_pack(DType dtype, int vec, int64_t per_thread, int64_t n,
                           std::span<const Tensor* const> tensors) {
  if (per_thread != 1 || vec != wide_vector_width(dtype) || n % vec != 0) return false;
  if (n / vec > kOnePackMaxPacks) return false;
  for (const Tensor* t : tensors) {
    if (!aligned16(t->data())) return false;
  }
  return true;
}

// Every source a row kernel may run for dtype: wide (16-byte) and scalar access, each cache depth,
// and the one-pack variant.
inline std::vector<KernelSource> row_kernel_variants(const RowKernelDecl& k, DType dtype) {
  std::vector<KernelSource> v;
  for (int vec : {wide_vector_width(dtype), 1}) {
    for (int depth : {0, kRowCache}) v.push_back(row_kernel_spec(k, dtype, vec, depth).source());
  }
  v.push_back(one_pack_row_kernel_spec(k, dtype).source());
  return v;
}

// The functions of one row kernel and dtype, compiled on first use, and its tuner.
class RowKernelSet {
 public:
  RowKernelSet(const RowKernelDecl& kernel, DType dtype, std::string tuner_name)
      : dtype_(dtype),
        wide_vec_(wide_vector_width(dtype)),
        name_(std::move(tuner_name)),
        tuner_(name_, row_config_names()) {
    for (int vec : {wide_vec_, 1}) {
      for (int depth : {0, kRowCache}) {
        fns_.push_back(std::make_unique<CudaFunction>(row_kernel_spec(kernel, dtype, vec, depth)));
      }
    }
    fns_.push_back(std::make_unique<CudaFunction>(one_pack_row_kernel_spec(kernel, dtype)));
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

  // The candidate and block size of the last launch, for Kernel::config(); ",one_pack" when the
  // one-pack variant ran it.
  std::string last_config() const {
    return fmt::format("{},block={}{}", kRowConfigs[last_config_.load()].name(), last_block_.load(),
                       last_one_pack_.load() ? ",one_pack" : "");
  }

 private:
  // Launches candidate `config` with one block per row and records it for last_config(): the
  // one-pack variant where the call allows it (takes_one_pack), with a thread a pack.
  void enqueue(int device, int64_t rows, int64_t n, int vec, int config, const RowArgs& a) {
    const RowConfig& rc = kRowConfigs[config];
    const bool one_pack = takes_one_pack(dtype_, vec, rc.per_thread, n, a.tensors());
    const unsigned block = one_pack ? row_block_threads(n, vec, 1, false)
                                    : row_block_threads(n, vec, rc.per_thread, rc.cache > 0);
    last_config_.store(config, std::memory_order_relaxed);
    last_block_.store(block, std::memory_order_relaxed);
    last_one_pack_.store(one_pack, std::memory_order_relaxed);
    const size_t index = one_pack ? 4 : (vec == wide_vec_ ? 0 : 2) + (rc.cache > 0 ? 1 : 0);
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
  std::atomic<bool> last_one_pack_{false};
};

}  // namespace tileops::cuda
