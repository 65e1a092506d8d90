// The calls the kernels that share one row among several blocks (a cluster or the grid a row)
// are for: few long rows, where one block a row would leave most SMs idle and walk a
// vocabulary-wide row with one SM (1x262144 bf16 RMSNorm: 31 us one block a row against a 1.5 us
// copy on the H200).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/framework/device_facts.hpp"

namespace tileops::cuda {

inline constexpr int64_t kLongRow = 16384;

// Fewer rows than SMs, each of kLongRow elements or more, and not one a block holds in registers
// (whole packs, at most kRegisterRowMostPacks: bf16 and fp16 rows of 16384): there the block
// kernel ran 1.4-4.0 us faster than the clusters on an H100 (RMSNorm 1x16384 bf16 2.96 us
// against 5.15, LayerNorm 3.8 against 7.8; docs/perf/h200-staged-2026-12-07).
inline std::optional<std::string> few_long_rows_refusal(DType dtype, int64_t rows, int64_t n,
                                                        const DeviceFacts& facts) {
  if (rows >= facts.sm_count || n < kLongRow) {
    return fmt::format(
        "rows are not few and long ({} rows of {}; needs fewer rows than the {} SMs and at least "
        "{} elements a row)",
        rows, n, facts.sm_count, kLongRow);
  }
  if (register_row_holds(dtype, n)) {
    return fmt::format(
        "a row of {} elements is {} whole packs (at most {}): one block a row holds it in "
        "registers",
        n, n / wide_vector_width(dtype), kRegisterRowMostPacks);
  }
  return std::nullopt;
}

// Clusters of 8 one-SM blocks that run at once, counted as half what the SMs would hold: a
// cluster must sit inside one GPC, and the H200 (132 SMs) ran 16 rows of 128256 in a second wave
// (softmax 12.7 us against 8.2 on the grid, 6.5 for 8 rows; docs/perf/h200-grid-rows-2026-12-03).
inline int64_t cluster_rows_wave(int sms) {
  return std::max<int64_t>(sms / 16, 1);
}

}  // namespace tileops::cuda
