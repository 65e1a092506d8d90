// Dry runs: a call taken through an op's signature check, output inference and roofline without
// computing anything or allocating tensor memory. Inputs are placed on a private "dry-run" device
// whose memory is never read or written, and a private target ("tileops-dry-run") serves every
// op with a kernel that does nothing. `tileops check` uses it to check every workload row, and
// `tileops run --all` to learn a row's roofline before deciding to run it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "selection.hpp"
#include "tileops/core/allocator.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/target.hpp"

namespace tileops::cli {

inline constexpr std::string_view kDryRunTarget = "tileops-dry-run";

struct DryRunOutcome {
  std::vector<TensorDesc> outputs;
  std::optional<RooflineValue> roofline;  // nullopt when the op's roofline failed
  std::string roofline_error;
  std::string served_by;  // the dry-run target, or "empty-write"
};

class DryRun {
 public:
  // Registers the dry-run device type and its allocator; each run registers the private
  // target's builder for its op and removes it again.
  DryRun();
  ~DryRun();
  DryRun(const DryRun&) = delete;
  DryRun& operator=(const DryRun&) = delete;

  // Constructs the op and calls it. Throws what construction or the signature check throws.
  DryRunOutcome run(const Case& c) const;

 private:
  Device device_;
  Allocator* previous_allocator_ = nullptr;
};

}  // namespace tileops::cli
