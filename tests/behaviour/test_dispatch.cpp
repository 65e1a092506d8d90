// Checklist §1.6-1.9: interfaces, call specs, kernel_for/key_for, dispatch, device facts, entries.
#include <algorithm>
#include <atomic>

#include "behaviour_helpers.hpp"

namespace tileops {
namespace {

using testing::contains;
using testing::filled;
using testing::ScopedDeviceFacts;

ProbeCall call_for(const Tensor& x, bool has_bias = false) {
  return ProbeCall{{x.device()}, x.dtype(), x.numel(), has_bias};
}

TEST(B42_OpPicksTheInterface, ModeSelectsProbeAOrProbeB) {
  Registration a = register_probe({.key = "impl_a"});
  Registration b = register_probe({.key = "impl_b", .interface = &ProbeBKernel::info()});
  ProbeFwdOp op_a({.mode = "a"}), op_b({.mode = "b"});
  op_a(filled({2}, 1));
  op_b(filled({2}, 1));
  EXPECT_EQ(op_a.last_call()->served_by, "impl_a");
  EXPECT_EQ(op_b.last_call()->served_by, "impl_b");
  EXPECT_EQ(op_a.built_entries("probe_b").size(), 0u);
  EXPECT_EQ(op_b.built_entries("probe_b").size(), 1u);
}

TEST(B43_CallSpec, EqualFactsHashEqualDifferentFactsDiffer) {
  const ProbeCall a{{Device::cpu()}, DType::kFloat32, 8, false};
  ProbeCall b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  b.n = 9;
  EXPECT_NE(a, b);
  EXPECT_TRUE(contains(a.describe(), "n=8"));
}

TEST(B44_HitPath, AHitAsksNoImplementationAndReadsNoDeviceFacts) {
  ProbeCounters counters;
  Registration r = register_probe({.key = "k", .counters = &counters});
  std::atomic<int> reads{0};
  ScopedDeviceFacts guard(kCPU, [&](Device) {
    ++reads;
    return DeviceFacts{0, 2, "cpu", 0};
  });
  ProbeFwdOp op;
  for (int i = 0; i < 5; ++i) op(filled({4}, 1));
  EXPECT_EQ(reads, 1);                   // B57: facts read on the miss only
  EXPECT_EQ(counters.refusal_calls, 1);  // the implementation was consulted once
  EXPECT_EQ(counters.builds, 1);
  EXPECT_EQ(counters.runs, 5);
  op(filled({5}, 1));  // a new call spec is a miss
  EXPECT_EQ(reads, 2);
}

TEST(B45_KeyFor, ReturnsTheWinnerAndBuildsNothing) {
  ProbeCounters counters;
  Registration gen = register_probe({.key = "wide", .general = true});
  Registration small =
      register_probe({.key = "small",
                      .refuse = [](const ProbeCall& c) -> std::optional<std::string> {
                        if (c.n > 4) return "serves at most 4 elements";
                        return std::nullopt;
                      },
                      .counters = &counters});
  ProbeFwdOp op;
  EXPECT_EQ(op.selected_key(call_for(filled({3}, 1))), "small");
  EXPECT_EQ(op.selected_key(call_for(filled({30}, 1))), "wide");
  EXPECT_EQ(counters.builds, 0);
  EXPECT_TRUE(op.built_entries("probe_a").empty());
}

TEST(B47_UndeclaredInterface, RequestingItIsAContractError) {
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op({.mode = "undeclared"});
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const ContractError& e) {
    EXPECT_TRUE(contains(e.what(), "probe_undeclared")) << e.what();
    EXPECT_TRUE(contains(e.what(), "declared: [probe_a, probe_b]")) << e.what();
  }
}

TEST(B49_Availability, DevicesFilterBeforeArchitecture) {
  Registration gpu = register_probe({.key = "gpu_only", .devices = {kCUDA}});
  ProbeFwdOp op;
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const OpNotAvailableError& e) {  // E1
    EXPECT_TRUE(contains(e.what(), "in-tree kernels do not run on cpu")) << e.what();
    EXPECT_TRUE(contains(e.what(), "gpu_only (runs on: cuda)")) << e.what();
  }
}

TEST(B49_Availability, SupportedArchsComparesTheDeviceArchitecture) {
  ScopedDeviceFacts guard(kCPU, DeviceFacts{90, 132, "h200", 232448});
  Registration hopper = register_probe({.key = "sm90", .supported_archs = {90}});
  Registration ampere = register_probe({.key = "sm80", .supported_archs = {80}});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_EQ(op.last_call()->served_by, "sm90");
}

TEST(B50_Applicability, RefusalDropsACandidateWithItsReason) {
  Registration only = register_probe({.key = "picky", .refuse = [](const ProbeCall&) {
                                        return std::optional<std::string>("never serves anything");
                                      }});
  ProbeFwdOp op;
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const NoImplementationError& e) {  // E2
    EXPECT_TRUE(contains(e.what(), "no implementation serves this call")) << e.what();
    EXPECT_TRUE(contains(e.what(), "picky: refused: never serves anything")) << e.what();
    EXPECT_TRUE(contains(e.what(), "n=2")) << e.what();  // the call spec is printed
  }
}

TEST(B50_Applicability, ArchitectureMismatchIsReportedAsE2) {
  Registration old = register_probe({.key = "sm70", .supported_archs = {70}});
  ProbeFwdOp op;
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const DispatchError& e) {
    EXPECT_TRUE(contains(e.what(), "sm70: architecture 0 is not in supported_archs [70]"))
        << e.what();
  }
}

TEST(B51_Precedence, GeneralRanksBelowEverySpecialisedImplementation) {
  Registration gen = register_probe({.key = "general", .general = true});
  Registration spec = register_probe({.key = "special"});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_EQ(op.last_call()->served_by, "special");
}

TEST(B51_Precedence, PreferredOverIsTransitive) {
  Registration a = register_probe({.key = "a", .preferred_over = {"b"}});
  Registration b = register_probe({.key = "b", .preferred_over = {"c"}});
  Registration c = register_probe({.key = "c"});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_EQ(op.last_call()->served_by, "a");
}

TEST(B51_Precedence, PreferredOverOrdersGeneralOnesWhenOnlyGeneralOnesRemain) {
  Registration a = register_probe({.key = "g1", .general = true, .preferred_over = {"g2"}});
  Registration b = register_probe({.key = "g2", .general = true});
  ProbeFwdOp op;
  op(filled({2}, 1));
  EXPECT_EQ(op.last_call()->served_by, "g1");
}

TEST(B52_Errors, TwoUnorderedSpecialisedImplementationsAreAmbiguous) {
  Registration a = register_probe({.key = "left"});
  Registration b = register_probe({.key = "right"});
  ProbeFwdOp op;
  try {
    op(filled({2}, 1));
    FAIL();
  } catch (const AmbiguousDispatchError& e) {  // E3, also a DispatchError
    EXPECT_TRUE(contains(e.what(), "dispatch is ambiguous")) << e.what();
    EXPECT_TRUE(contains(e.what(), "[left, right]")) << e.what();
  }
  EXPECT_FALSE(op.serving_target().has_value());
}

TEST(B53_Defaults, AnImplementationWithNoDeclarationsRunsOnCudaOnly) {
  struct Plain final : ProbeAKernel {
    using Interface = ProbeAKernel;
    void run(const Tensor&, const Tensor&, const Tensor&, double) override {}
  };
  const ImplementationInfo info = detail::describe_implementation<Plain>("ProbeFwdOp", "plain");
  EXPECT_EQ(info.devices, (std::vector<DeviceType>{kCUDA}));
  EXPECT_TRUE(info.supported_archs.empty());
  EXPECT_FALSE(info.general);
  EXPECT_TRUE(info.preferred_over.empty());
  EXPECT_FALSE(static_cast<bool>(info.refusal));
}

TEST(B54_NoDeclarationOrder, SelectionIsTheSameUnderEveryRegistrationOrder) {
  std::vector<std::string> keys = {"gen", "mid", "top"};
  std::sort(keys.begin(), keys.end());
  do {
    std::vector<Registration> regs;
    for (const std::string& k : keys) {
      if (k == "gen") regs.push_back(register_probe({.key = k, .general = true}));
      if (k == "mid") regs.push_back(register_probe({.key = k}));
      if (k == "top") regs.push_back(register_probe({.key = k, .preferred_over = {"mid"}}));
    }
    ProbeFwdOp op;
    op(filled({2}, 1));
    EXPECT_EQ(op.last_call()->served_by, "top");
  } while (std::next_permutation(keys.begin(), keys.end()));
}

TEST(B57_DeviceFacts, ReadFromTheCallsOwnDeviceOnlyOnAMiss) {
  std::vector<Device> seen;
  ScopedDeviceFacts guard(kCPU, [&](Device d) {
    seen.push_back(d);
    return DeviceFacts{};
  });
  Registration r = register_probe({.key = "k"});
  ProbeFwdOp op;
  op(filled({2}, 1));
  op(filled({2}, 1));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], Device::cpu());
}

TEST(B59_EntrySharing, CallsShareAnEntryWhenTheIdentityMatches) {
  ProbeCounters counters;
  // The identity ignores n: every size shares one entry per dtype.
  Registration r = register_probe(
      {.key = "k",
       .identity = [](const ProbeCall& c) { return std::string(dtype_name(c.dtype)); },
       .counters = &counters});
  ProbeFwdOp op;
  op(filled({2}, 1));
  op(filled({7}, 1));
  EXPECT_EQ(counters.builds, 1);
  EXPECT_EQ(op.built_entries("probe_a").size(), 1u);
  op(filled({2}, 1, DType::kFloat16));
  EXPECT_EQ(counters.builds, 2);
}

// An entry of two kernels: enumeration and tuning see both kernels, not the entry object.
TEST(B60_EntryExposesKernels, EveryKernelOfAnEntryIsEnumeratedAndTuned) {
  ProbeCounters counters;
  Registration r = register_probe({.key = "k", .counters = &counters, .parts = 2});
  ProbeFwdOp op;
  op(filled({2}, 1));
  const auto entries = op.built_entries("probe_a");
  ASSERT_EQ(entries.size(), 1u);
  const auto kernels = op.iter_kernels();
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]->config(), "k.0");
  EXPECT_EQ(kernels[1]->config(), "k.1");
  for (const Kernel* kernel : kernels) EXPECT_NE(kernel, entries[0]);
  op.request_tune();
  EXPECT_EQ(counters.tune_requests, 2);
}

TEST(B61_ThrowingFactory, CachesNothing) {
  ProbeCounters counters;
  Registration bad = register_probe({.key = "k", .counters = &counters, .factory_throws = true});
  ProbeFwdOp op;
  EXPECT_THROW(op(filled({2}, 1)), RuntimeError);
  EXPECT_TRUE(op.built_entries("probe_a").empty());
  EXPECT_THROW(op(filled({2}, 1)), RuntimeError);  // tried again, not served from a cache
}

TEST(B88_BackendImplementation, JoinsNormalDispatchOnItsOwnDeviceType) {
  const DeviceType acme = device_type_from_name("acme-test");
  Registration r = register_probe({.key = "acme_impl", .devices = {acme}});
  Registration cpu = register_probe({.key = "cpu_impl"});
  ScopedDeviceFacts facts(acme, DeviceFacts{1, 1, "acme", 0});
  ProbeFwdOp op;
  EXPECT_EQ(op.selected_key(ProbeCall{{Device{acme, 0}}, DType::kFloat32, 4, false}), "acme_impl");
  EXPECT_EQ(op.selected_key(ProbeCall{{Device::cpu()}, DType::kFloat32, 4, false}), "cpu_impl");
}

}  // namespace
}  // namespace tileops
