// Test-only ops and kernel interfaces (tests/manifest/probe.yaml). Tests register the
// implementations they need, with the traits under test, through the public registration API.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tileops/core/half.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/framework/op.hpp"
#include "tileops_test/generated/probe.gen.hpp"

namespace tileops {

struct ProbeCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t n = 0;
  bool has_bias = false;
  friend bool operator==(const ProbeCall&, const ProbeCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, n, has_bias); }
  std::string describe() const;
};

// y = x * scale (+ bias broadcast over the last dim). Both interfaces share the contract; the
// op picks one by its `mode` parameter.
class ProbeAKernel : public KernelInterface<ProbeAKernel, ProbeCall> {
 public:
  static constexpr std::string_view kName = "probe_a";
  virtual void run(const Tensor& x, const Tensor& bias, const Tensor& y, double scale) = 0;
};
class ProbeBKernel : public KernelInterface<ProbeBKernel, ProbeCall> {
 public:
  static constexpr std::string_view kName = "probe_b";
  virtual void run(const Tensor& x, const Tensor& bias, const Tensor& y, double scale) = 0;
};
// Declared by no op: requesting it must fail.
class ProbeUndeclaredKernel : public KernelInterface<ProbeUndeclaredKernel, ProbeCall> {
 public:
  static constexpr std::string_view kName = "probe_undeclared";
};

class ProbeFwdOp final : public gen::ProbeFwdOpBase {
 public:
  explicit ProbeFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();
  // Exposes the protected key_for for tests.
  std::string selected_key(const ProbeCall& call) const;
  // Derived state, built from the stored, checked parameters after the base initializer (B12).
  const std::string& derived_label() const { return derived_label_; }

 private:
  void forward(const Tensor& x, const Tensor& bias, Tensor& y) override;
  std::string derived_label_;
};

class ProbeCompositeFwdOp final : public gen::ProbeCompositeFwdOpBase {
 public:
  explicit ProbeCompositeFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& y) override;
  std::unique_ptr<ProbeFwdOp> unheld_;  // called only when params().rogue
};

struct ProbeFillCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t n = 0;
  friend bool operator==(const ProbeFillCall&, const ProbeFillCall&) = default;
  size_t hash() const { return CallHasher::of(device, dtype, n); }
  std::string describe() const { return describe_field("n", n); }
};
// y[i] = i.
class ProbeFillKernel : public KernelInterface<ProbeFillKernel, ProbeFillCall> {
 public:
  static constexpr std::string_view kName = "probe_fill";
  virtual void run(const Tensor& y) = 0;
};

class ProbeNoInputFwdOp final : public gen::ProbeNoInputFwdOpBase {
 public:
  explicit ProbeNoInputFwdOp(Params params, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(Tensor& y) override;
};

// acc += x; y[r, c] = x[r, c] + x[r, C + c].
class ProbeAccumulateKernel : public KernelInterface<ProbeAccumulateKernel, ProbeCall> {
 public:
  static constexpr std::string_view kName = "probe_accumulate";
  virtual void run(const Tensor& x, const Tensor& acc, const Tensor& y) = 0;
};

class ProbeMutateFwdOp final : public gen::ProbeMutateFwdOpBase {
 public:
  explicit ProbeMutateFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& acc, Tensor& y) override;
};

// A configurable implementation of probe_a / probe_b for tests: counts its builds, runs and
// tuning requests, and reports `tag` as its config.
struct ProbeCounters {
  std::atomic<int> builds{0};
  std::atomic<int> runs{0};
  std::atomic<int> refusal_calls{0};
  std::atomic<int> tune_requests{0};
};

// One of several kernels an entry builds (a split-K GEMM's partial and reduction kernels): it
// counts its tuning requests and reports its tag as its config.
class ProbePartKernel final : public Kernel {
 public:
  ProbePartKernel(std::string tag, ProbeCounters* counters)
      : tag_(std::move(tag)), counters_(counters) {}
  std::string config() const override { return tag_; }
  void request_tune(const TuneOptions&) override {
    if (counters_) ++counters_->tune_requests;
  }

 private:
  std::string tag_;
  ProbeCounters* counters_;
};

template <typename Interface>
class ProbeKernelImpl final : public Interface {
 public:
  ProbeKernelImpl(std::string tag, ProbeCounters* counters, bool tunable, int64_t fail_run_for_n,
                  std::function<void()> on_run = {}, int parts = 0)
      : tag_(std::move(tag)),
        counters_(counters),
        tunable_(tunable),
        fail_run_for_n_(fail_run_for_n),
        on_run_(std::move(on_run)) {
    for (int i = 0; i < parts; ++i) {
      parts_.push_back(std::make_unique<ProbePartKernel>(tag_ + "." + std::to_string(i), counters));
    }
  }
  void run(const Tensor& x, const Tensor& bias, const Tensor& y, double scale) override;
  // With parts, the entry is those kernels (the default lists the entry itself).
  std::vector<Kernel*> kernels() override {
    if (parts_.empty()) return {this};
    std::vector<Kernel*> out;
    for (auto& part : parts_) out.push_back(part.get());
    return out;
  }
  std::string config() const override { return tag_; }
  bool tunable() const override { return tunable_; }
  void request_tune(const TuneOptions&) override {
    if (counters_) ++counters_->tune_requests;
    tuned_ = true;
  }
  bool tuned() const { return tuned_; }

 private:
  std::string tag_;
  ProbeCounters* counters_;
  bool tunable_;
  int64_t fail_run_for_n_;
  std::function<void()> on_run_;
  std::vector<std::unique_ptr<Kernel>> parts_;
  bool tuned_ = false;
};

// Builds the type-erased description of a probe implementation (what register_kernel_type
// produces from static members), so each test can vary the traits.
struct ProbeImplOptions {
  std::string op = "ProbeFwdOp";
  std::string key;
  const InterfaceInfo* interface = &ProbeAKernel::info();
  std::vector<DeviceType> devices{kCPU};
  std::vector<int> supported_archs;
  bool general = false;
  std::vector<std::string> preferred_over;
  // Refuses when this returns a reason.
  std::function<std::optional<std::string>(const ProbeCall&)> refuse;
  // The build identity; default: one entry for every call.
  std::function<std::string(const ProbeCall&)> identity;
  ProbeCounters* counters = nullptr;
  bool tunable = false;
  bool factory_throws = false;
  // run() throws a RuntimeError for calls with this many elements (after the kernel was built).
  int64_t fail_run_for_n = -1;
  // Called at the start of every run() (on the calling thread).
  std::function<void()> on_run;
  // The number of kernels each entry builds and lists for enumeration; 0: the entry itself.
  int parts = 0;
};
Registration register_probe(const ProbeImplOptions& options);

// Registers a CPU implementation of probe_fill and probe_accumulate (used by several tests).
Registration register_fill_cpu();
Registration register_accumulate_cpu();

}  // namespace tileops
