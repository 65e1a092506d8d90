#include "probe_ops/probe_experts_op.hpp"

#include <string>

namespace tileops {

namespace {

// The family gives the injected value its meaning, so the family checks its domain.
int64_t checked_experts(const ProbeExpertsFwdOp::Params& params) {
  const int64_t experts = params.injected.get(ProbeExpertsFwdOp::kExperts).value_or(1);
  if (experts < 1) {
    throw ParamError(ProbeExpertsFwdOp::kName, ProbeExpertsFwdOp::kExperts.name,
                     "at least 1 expert", std::to_string(experts));
  }
  return experts;
}

}  // namespace

ProbeExpertsFwdOp::ProbeExpertsFwdOp(Params params, Target target)
    : ProbeExpertsFwdOpBase(std::move(params), decl(), std::move(target)),
      experts_(checked_experts(this->params())),
      expert_scale_(this->params().injected.get(kExpertScale).value_or(2.0)) {}

const OpDecl& ProbeExpertsFwdOp::decl() {
  static const OpDecl kDecl{{}, {ProbeFwdOp::kName}, {kExperts, kExpertScale}};
  return kDecl;
}

void ProbeExpertsFwdOp::forward(const Tensor& x, Tensor& y) {
  Tensor h = x;
  for (int64_t i = 0; i < experts_; ++i) {
    h = delegate_for<ProbeFwdOp>("expert", std::to_string(i), {.scale = expert_scale_})(h);
  }
  y = h;
}

}  // namespace tileops
