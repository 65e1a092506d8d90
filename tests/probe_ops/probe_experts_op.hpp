// A test-only composite that uses injected parameters as FusedMoE will (tests/manifest/probe.yaml):
// y = x * expert_scale^experts, computed by `experts` held ProbeFwdOp sub-ops in a chain.
#pragma once

#include "probe_ops/probe_ops.hpp"
#include "tileops/framework/injected.hpp"

namespace tileops {

class ProbeExpertsFwdOp final : public gen::ProbeExpertsFwdOpBase {
 public:
  // The family's injected parameters: how many sub-ops (default 1), and each one's scale
  // (default 2).
  static constexpr Injected<int64_t> kExperts{"experts"};
  static constexpr Injected<double> kExpertScale{"expert_scale"};

  explicit ProbeExpertsFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();
  int64_t experts() const { return experts_; }
  double expert_scale() const { return expert_scale_; }

 private:
  void forward(const Tensor& x, Tensor& y) override;
  int64_t experts_;
  double expert_scale_;
};

}  // namespace tileops
