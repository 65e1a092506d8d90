// Per-channel pieces shared by the BatchNorm CPU kernels: the running-statistics update and the
// affine map y = (x - mean) * scale + shift that normalizes one channel.
#pragma once

#include <cmath>
#include <cstdint>

#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"

namespace tileops::cpu::batch_norm {

struct ChannelAffine {
  float mean;
  float scale;  // weight / sqrt(var + eps)
  float shift;  // bias
  float apply(float v) const { return (v - mean) * scale + shift; }
};

// weight and bias may be null (absent: 1 and 0).
inline ChannelAffine channel_affine(const BatchNormCall& call, int64_t ch, float mean, float var,
                                    const float* weight, const float* bias) {
  const float invstd = 1.0f / std::sqrt(var + static_cast<float>(call.eps));
  return {mean, (weight != nullptr ? weight[ch] : 1.0f) * invstd,
          bias != nullptr ? bias[ch] : 0.0f};
}

// running = (1 - momentum) * running + momentum * batch, with the unbiased batch variance, as
// torch does. count = n * l > 1 (the manifest rule rejects a single value per channel).
inline void update_running_stats(const BatchNormCall& call, int64_t ch, float mean,
                                 float biased_var, float* running_mean, float* running_var) {
  const double count = static_cast<double>(call.n * call.l);
  const float m = static_cast<float>(call.momentum);
  const float unbiased_var = static_cast<float>(biased_var * count / (count - 1));
  running_mean[ch] = (1.0f - m) * running_mean[ch] + m * mean;
  running_var[ch] = (1.0f - m) * running_var[ch] + m * unbiased_var;
}

// Float sum of many terms in eight interleaved partial sums, which keeps the rounding error of
// a long sum near that of a sum eight times shorter.
class LaneSum {
 public:
  void add(float v) {
    acc_[next_] += v;
    next_ = (next_ + 1) & (kLanes - 1);
  }
  float total() const {
    float lanes[kLanes];
    for (int j = 0; j < kLanes; ++j) lanes[j] = acc_[j];
    for (int width = kLanes / 2; width > 0; width /= 2) {
      for (int j = 0; j < width; ++j) lanes[j] += lanes[j + width];
    }
    return lanes[0];
  }

 private:
  static constexpr int kLanes = 8;
  float acc_[kLanes] = {};
  int next_ = 0;
};

}  // namespace tileops::cpu::batch_norm
