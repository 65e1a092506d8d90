// Tuning trials on a CUDA device: a kernel's candidates run on scratch tensors (random inputs of
// the call's shapes, outputs poisoned before each check) on the caller's current stream, checked
// against the default candidate and timed with events.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "runtime/tuning/tuner.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops::cuda {

class CudaTrial final : public tuning::TuningTrial {
 public:
  using RunCandidate = std::function<void(int candidate, std::span<const Tensor> inputs,
                                          std::span<const Tensor> outputs)>;

  // inputs and outputs are device tensors the trial owns; run enqueues one candidate on them.
  CudaTrial(int device, std::vector<Tensor> inputs, std::vector<Tensor> outputs, RunCandidate run);

  bool check(int candidate, std::string& why) override;
  double time_us(int candidate, const TuneOptions& options) override;

 private:
  int device_;
  std::vector<Tensor> inputs_, outputs_;
  RunCandidate run_;
  std::vector<std::vector<double>> reference_;  // per output, from the first candidate checked
};

// A device tensor shaped like t (contiguous) holding uniform values in [-1, 1).
Tensor random_device_like(const Tensor& t, uint64_t seed);
// An uninitialised device tensor shaped like t.
Tensor empty_device_like(const Tensor& t);

// Throws RuntimeError naming kernel when the device's current stream is being captured: tuning
// synchronises and times, which a capture forbids.
void require_not_capturing(int device, const std::string& kernel);

}  // namespace tileops::cuda
