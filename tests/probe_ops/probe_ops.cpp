#include "probe_ops/probe_ops.hpp"

#include <fmt/format.h>

namespace tileops {

std::string ProbeCall::describe() const {
  return fmt::format("{}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("n", n),
                     describe_field("has_bias", has_bias));
}

ProbeFwdOp::ProbeFwdOp(Params params, Target target)
    : ProbeFwdOpBase(std::move(params), decl(), std::move(target)),
      derived_label_(fmt::format("{}x{}", this->params().mode, this->params().scale)) {}

const OpDecl& ProbeFwdOp::decl() {
  static const OpDecl kDecl{{&ProbeAKernel::info(), &ProbeBKernel::info()}, {}, {}};
  return kDecl;
}

std::string ProbeFwdOp::selected_key(const ProbeCall& call) const {
  return params().mode == "b" ? key_for<ProbeBKernel>(call) : key_for<ProbeAKernel>(call);
}

void ProbeFwdOp::forward(const Tensor& x, const Tensor& bias, Tensor& y) {
  const ProbeCall call{{x.device()}, x.dtype(), x.numel(), bias.defined()};
  const std::string& mode = params().mode;
  if (mode == "b") {
    kernel_for<ProbeBKernel>(call).run(x, bias, y, params().scale);
  } else if (mode == "undeclared") {
    kernel_for<ProbeUndeclaredKernel>(call);
  } else {
    kernel_for<ProbeAKernel>(call).run(x, bias, y, params().scale);
    if (mode == "bad-output") y = Tensor::empty(Shape{1}, x.dtype(), x.device());
  }
}

ProbeCompositeFwdOp::ProbeCompositeFwdOp(Params params, Target target)
    : ProbeCompositeFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& ProbeCompositeFwdOp::decl() {
  static const OpDecl kDecl{{}, {"ProbeFwdOp"}, {}};
  return kDecl;
}

void ProbeCompositeFwdOp::forward(const Tensor& x, Tensor& y) {
  ProbeFwdOp& first = delegate_for<ProbeFwdOp>("first", "scale2", {.scale = 2.0});
  ProbeFwdOp& second = delegate_for<ProbeFwdOp>("second", "scale3", {.scale = 3.0});
  Tensor h = first(x);
  if (params().rogue) {
    if (!unheld_) unheld_ = std::make_unique<ProbeFwdOp>();
    h = (*unheld_)(h);
  }
  if (params().rogue_local) {
    ProbeFwdOp local;
    h = local(h);
  }
  y = second(h);
}

ProbeNoInputFwdOp::ProbeNoInputFwdOp(Params params, Target target)
    : ProbeNoInputFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& ProbeNoInputFwdOp::decl() {
  static const OpDecl kDecl{{&ProbeFillKernel::info()}, {}, {}};
  return kDecl;
}

void ProbeNoInputFwdOp::forward(Tensor& y) {
  const ProbeFillCall call{{y.device()}, y.dtype(), y.numel()};
  kernel_for<ProbeFillKernel>(call).run(y);
}

ProbeMutateFwdOp::ProbeMutateFwdOp(Params params, Target target)
    : ProbeMutateFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& ProbeMutateFwdOp::decl() {
  static const OpDecl kDecl{{&ProbeAccumulateKernel::info()}, {}, {}};
  return kDecl;
}

void ProbeMutateFwdOp::forward(const Tensor& x, const Tensor& acc, Tensor& y) {
  const ProbeCall call{{x.device()}, x.dtype(), x.numel(), false};
  kernel_for<ProbeAccumulateKernel>(call).run(x, acc, y);
}

template <typename Interface>
void ProbeKernelImpl<Interface>::run(const Tensor& x, const Tensor& bias, const Tensor& y,
                                     double scale) {
  if (counters_) ++counters_->runs;
  if (on_run_) on_run_();
  const int64_t n = x.numel();
  if (n == fail_run_for_n_) throw RuntimeError("probe kernel failed on purpose");
  const int64_t last = x.rank() == 0 ? 1 : x.shape()[x.rank() - 1];
  auto loop = [&](auto* out, const auto* in, const auto* b) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(out)>>;
    for (int64_t i = 0; i < n; ++i) {
      float v = static_cast<float>(in[i]) * static_cast<float>(scale);
      if (b) v += static_cast<float>(b[i % last]);
      out[i] = T(v);
    }
  };
  if (x.dtype() == DType::kFloat16) {
    loop(y.data_as<Half>(), x.data_as<const Half>(),
         bias.defined() ? bias.data_as<const Half>() : nullptr);
  } else {
    loop(y.data_as<float>(), x.data_as<const float>(),
         bias.defined() ? bias.data_as<const float>() : nullptr);
  }
}

template class ProbeKernelImpl<ProbeAKernel>;
template class ProbeKernelImpl<ProbeBKernel>;

Registration register_probe(const ProbeImplOptions& o) {
  ImplementationInfo info;
  info.op = o.op;
  info.key = o.key;
  info.interface = o.interface;
  info.devices = o.devices;
  info.supported_archs = o.supported_archs;
  info.general = o.general;
  info.preferred_over = o.preferred_over;
  info.origin = "test";
  ProbeCounters* counters = o.counters;
  if (o.refuse) {
    auto refuse = o.refuse;
    info.refusal = [refuse, counters](const CallSpec& c, const DeviceFacts&) {
      if (counters) ++counters->refusal_calls;
      return refuse(static_cast<const ProbeCall&>(c));
    };
  } else if (counters) {
    info.refusal = [counters](const CallSpec&, const DeviceFacts&) -> std::optional<std::string> {
      ++counters->refusal_calls;
      return std::nullopt;
    };
  }
  auto identity = o.identity;
  const std::string tag = o.key;
  const bool tunable = o.tunable, throws = o.factory_throws;
  const int64_t fail_n = o.fail_run_for_n;
  const std::function<void()> on_run = o.on_run;
  const int parts = o.parts;
  const InterfaceInfo* interface = o.interface;
  info.entry_for = [=](const CallSpec& c, const DeviceFacts&) {
    const std::string id = identity ? identity(static_cast<const ProbeCall&>(c)) : "";
    return BuildPlan{id, [=]() -> std::unique_ptr<Kernel> {
                       if (throws) throw RuntimeError("probe factory failed on purpose");
                       if (counters) ++counters->builds;
                       if (interface == &ProbeBKernel::info()) {
                         return std::make_unique<ProbeKernelImpl<ProbeBKernel>>(
                             tag, counters, tunable, fail_n, on_run, parts);
                       }
                       return std::make_unique<ProbeKernelImpl<ProbeAKernel>>(
                           tag, counters, tunable, fail_n, on_run, parts);
                     }};
  };
  return register_implementation(std::move(info));
}

namespace {

class FillCpu final : public ProbeFillKernel {
 public:
  using Interface = ProbeFillKernel;
  static constexpr DeviceType devices[] = {kCPU};
  void run(const Tensor& y) override {
    for (int64_t i = 0; i < y.numel(); ++i) {
      if (y.dtype() == DType::kFloat16) {
        y.data_as<Half>()[i] = Half(static_cast<float>(i));
      } else {
        y.data_as<float>()[i] = static_cast<float>(i);
      }
    }
  }
};

class AccumulateCpu final : public ProbeAccumulateKernel {
 public:
  using Interface = ProbeAccumulateKernel;
  static constexpr DeviceType devices[] = {kCPU};
  // acc[r, k] += 1 + sum(x[r, :]): the 1 shows that the kernel ran even when x is empty.
  void run(const Tensor& x, const Tensor& acc, const Tensor& y) override {
    const int64_t rows = x.shape()[0], cols = x.shape()[1], half = cols / 2;
    const int64_t acc_cols = acc.shape()[1];
    const float* in = x.data_as<const float>();
    float* a = acc.data_as<float>();
    float* out = y.data_as<float>();
    for (int64_t r = 0; r < rows; ++r) {
      float sum = 1.0f;
      for (int64_t c = 0; c < cols; ++c) sum += in[r * cols + c];
      for (int64_t k = 0; k < acc_cols; ++k) a[r * acc_cols + k] += sum;
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < half; ++c)
        out[r * half + c] = in[r * cols + c] + in[r * cols + half + c];
    }
  }
};

}  // namespace

Registration register_fill_cpu() {
  return register_kernel_type<FillCpu>("ProbeNoInputFwdOp", "fill_cpu");
}
Registration register_accumulate_cpu() {
  return register_kernel_type<AccumulateCpu>("ProbeMutateFwdOp", "accumulate_cpu");
}

}  // namespace tileops
