// What a completed call leaves behind: last_call, and the records composite ops file per stage.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tileops/framework/kernel.hpp"
#include "tileops/framework/schema.hpp"
#include "tileops/framework/target.hpp"

namespace tileops {

class Op;
struct CallRecord;

// Lifetimes: everything in a record is a value, readable after its op is gone, except the
// pointers `StageRecord::op` and `CallRecord::kernels`, which are valid while the op that made
// the call lives (a failed first call resets the records with the bindings it undoes). Read
// kernel configurations through Op::kernel_config().
struct StageRecord {
  std::string stage;
  const Op* op;  // the held sub-op that made the call
  std::shared_ptr<const CallRecord> record;
};

struct CallRecord {
  std::array<std::optional<TensorDesc>, kMaxTensors> inputs{};  // nullopt: optional input absent
  int n_inputs = 0;
  std::array<TensorDesc, kMaxTensors> outputs{};
  int n_outputs = 0;
  // Who served it: an implementation key, a target name, "empty-write" or "composite"; the
  // characters live for the life of the process.
  std::string_view served_by;
  // The kernels kernel_for returned during the call (first few), for kernel_config().
  std::array<const Kernel*, 4> kernels{};
  int n_kernels = 0;
  std::vector<StageRecord> stages;  // sub-op calls, composite ops only
};

struct RooflineValue {
  int64_t flops = 0;
  int64_t bytes = 0;
  friend bool operator==(const RooflineValue&, const RooflineValue&) = default;
};

// Per-tensor traffic of a call, for `tileops explain` and the benchmark report.
struct RooflineDataTerm {
  std::string tensor;
  int64_t bytes;
  bool written;
};

}  // namespace tileops
