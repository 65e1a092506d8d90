// Out-of-tree backends loaded as shared libraries: the acme example (a device type, a kernel
// and a whole-op target), and broken libraries whose failures must be reported and rolled back.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "support/test_support.hpp"
#include "tileops/core/allocator.hpp"
#include "tileops/framework/backend.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

const std::string kAcme = TILEOPS_ACME_BACKEND;
const std::string kNoEntry = TILEOPS_NO_ENTRY_BACKEND;
const std::string kWrongAbi = TILEOPS_WRONG_ABI_BACKEND;
const std::string kFailing = TILEOPS_FAILING_BACKEND;

std::string failures_str() {
  std::string out;
  for (const auto& f : load_failures()) out += fmt::format("{}: {}\n", f.path, f.reason);
  return out;
}

// The reason recorded for path, or "" when it did not fail.
std::string failure_for(const std::string& path) {
  for (const auto& f : load_failures()) {
    if (f.path == path) return f.reason;
  }
  return {};
}

// Loaded once per process: a second load would register the same keys again.
void load_acme() {
  static const bool loaded = load_backend(kAcme);
  ASSERT_TRUE(loaded) << failures_str();
}

std::vector<std::string> implementation_keys(std::string_view op) {
  std::vector<std::string> keys;
  for (const auto& impl : implementations_for(op)) keys.push_back(impl->key);
  return keys;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Tensors move between the host and acme through the copier the backend installed.
Tensor copy_to(const Tensor& t, Device device) {
  Tensor out = Tensor::empty(t.shape(), t.dtype(), device);
  out.copy_from(t);
  return out;
}

// Runs op on device with fresh inputs; returns the comparison with the float64 reference.
::testing::AssertionResult matches_reference_on(Op& op, Device device, const Shape& x_shape,
                                                const Shape& w_shape, DType dtype) {
  const uint64_t seed = testing::fresh_seed();
  const std::vector<Tensor> host =
      make_inputs(op.name(), op.schema(), {x_shape, w_shape}, dtype, seed);
  const std::vector<Tensor> inputs{copy_to(host[0], device), copy_to(host[1], device)};
  const std::vector<Tensor> out = op.call(inputs);
  if (out[0].device() != device) {
    return ::testing::AssertionFailure() << "output on " << out[0].device().str();
  }
  const ReferenceResult expected = find_reference(op.name())->compute(op.param_values(), host);
  const Comparison c =
      compare(copy_to(out[0], Device::cpu()), expected.outputs[0], default_tolerance(dtype));
  if (!c.ok()) return ::testing::AssertionFailure() << c.str() << " (seed " << seed << ")";
  return ::testing::AssertionSuccess();
}

TEST(BackendPlugin, AcmeLoadsAndRegistersUnderItsName) {
  load_acme();
  EXPECT_TRUE(contains(loaded_backends(), "acme"));
  bool found = false;
  for (const auto& impl : implementations_for("RMSNormFwdOp")) {
    if (impl->key != "rms_norm_acme") continue;
    found = true;
    EXPECT_EQ(impl->origin, "acme");
    ASSERT_EQ(impl->devices.size(), 1u);
    EXPECT_EQ(device_type_name(impl->devices[0]), "acme");
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(contains(registered_targets("RMSNormFwdOp"), "acme-target"));
  EXPECT_EQ(read_device_facts(Device::parse("acme:1")).calibration, "acme-v2");
}

class AcmeDtypes : public ::testing::TestWithParam<DType> {};

TEST_P(AcmeDtypes, KernelServesAcme0AndMatchesReference) {
  load_acme();
  RMSNormFwdOp op({.normalized_shape = {1003}});
  EXPECT_TRUE(matches_reference_on(op, Device::parse("acme:0"), {7, 1003}, {1003}, GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "rms_norm_acme");
  EXPECT_EQ(op.serving_target(), std::string(kBuiltinTarget));
}

TEST_P(AcmeDtypes, TargetTakesOverGraphEngineBoard) {
  load_acme();
  RMSNormFwdOp op({.normalized_shape = {64}, .eps = std::nullopt});
  EXPECT_TRUE(matches_reference_on(op, Device::parse("acme:1"), {5, 64}, {64}, GetParam()));
  EXPECT_EQ(op.last_call()->served_by, "acme-target");
  EXPECT_EQ(op.serving_target(), std::string("acme-target"));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, AcmeDtypes,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

TEST(BackendPlugin, NamedTargetServesAcme0AndRefusesCpuTensors) {
  load_acme();
  RMSNormFwdOp on_acme({.normalized_shape = {32}}, std::string("acme-target"));
  EXPECT_TRUE(
      matches_reference_on(on_acme, Device::parse("acme:0"), {3, 32}, {32}, DType::kFloat32));
  EXPECT_EQ(on_acme.last_call()->served_by, "acme-target");

  RMSNormFwdOp on_cpu({.normalized_shape = {32}}, std::string("acme-target"));
  const Tensor x = random_tensor({3, 32}, DType::kFloat32, 1);
  const Tensor w = random_tensor({32}, DType::kFloat32, 2);
  EXPECT_THROW(on_cpu(x, w), OpNotAvailableError);
}

TEST(BackendPlugin, CpuCallsStayInTreeAndTraceTheAcmeCandidate) {
  load_acme();
  RMSNormFwdOp op({.normalized_shape = {128}});
  DispatchTrace trace;
  EXPECT_TRUE(testing::matches_reference(op, {Shape{4, 128}, Shape{128}}, DType::kFloat32));
  EXPECT_EQ(op.last_call()->served_by, "rms_norm_cpu");
  ASSERT_EQ(trace.decisions().size(), 1u);
  const auto& dropped = trace.decisions()[0].dropped;
  auto acme = std::find_if(dropped.begin(), dropped.end(),
                           [](const auto& d) { return d.first == "rms_norm_acme"; });
  ASSERT_NE(acme, dropped.end());
  EXPECT_EQ(acme->second, "runs on acme, not cpu");
}

TEST(BackendPlugin, MissingEntryPointIsReported) {
  EXPECT_FALSE(load_backend(kNoEntry));
  EXPECT_EQ(failure_for(kNoEntry), "the library exports no 'tileops_backend_entry_v1' entry point");
}

TEST(BackendPlugin, WrongAbiVersionIsReported) {
  EXPECT_FALSE(load_backend(kWrongAbi));
  EXPECT_EQ(failure_for(kWrongAbi),
            fmt::format("expected backend ABI version {}, got {}", TILEOPS_BACKEND_ABI_VERSION,
                        TILEOPS_BACKEND_ABI_VERSION + 1));
  EXPECT_FALSE(contains(loaded_backends(), "future"));
}

TEST(BackendPlugin, UnloadableLibraryIsReported) {
  const std::string path = "/nonexistent/libtileops_nothing.so";
  EXPECT_FALSE(load_backend(path));
  EXPECT_NE(failure_for(path).find("dlopen failed"), std::string::npos) << failure_for(path);
}

TEST(BackendPlugin, FailingRegistrationIsRolledBackEntirely) {
  const std::vector<std::string> keys_before = implementation_keys("RMSNormFwdOp");
  const std::vector<std::string> targets_before = registered_targets();
  EXPECT_FALSE(load_backend(kFailing));
  EXPECT_EQ(failure_for(kFailing),
            "register_backend of 'failing' failed: the failing backend gives up after registering");
  EXPECT_EQ(implementation_keys("RMSNormFwdOp"), keys_before);
  EXPECT_EQ(registered_targets(), targets_before);
  EXPECT_FALSE(contains(registered_targets(), "failing-target"));
  EXPECT_THROW(read_device_facts(Device::parse("failing:0")), OpNotAvailableError);
  EXPECT_EQ(installed_allocator(device_type_from_name("failing")), nullptr);
  EXPECT_EQ(device_copier(device_type_from_name("failing")), nullptr);
  EXPECT_FALSE(contains(loaded_backends(), "failing"));
  // Had its CPU kernel survived, this dispatch would be ambiguous.
  RMSNormFwdOp op({.normalized_shape = {16}});
  EXPECT_TRUE(testing::matches_reference(op, {Shape{2, 16}, Shape{16}}, DType::kFloat32));
  EXPECT_EQ(op.last_call()->served_by, "rms_norm_cpu");
}

// Behaviour 14. Runs in a child process started by B14_BackendRegistryLoad (skipped otherwise):
// the backends come from TILEOPS_BACKENDS, listed out of order, and load when the first op is
// constructed, in sorted path order, once per process.
TEST(B14_BackendRegistryLoadChild, OnceAtTheFirstConstructionInSortedOrder) {
  if (std::getenv("TILEOPS_TEST_BACKEND_CHILD") == nullptr) {
    GTEST_SKIP() << "runs as the child of B14_BackendRegistryLoad";
  }
  EXPECT_TRUE(loaded_backends().empty());
  EXPECT_TRUE(load_failures().empty());
  RMSNormFwdOp op({.normalized_shape = {256}});
  EXPECT_EQ(loaded_backends(), std::vector<std::string>{"acme"});
  // Listed wrong_abi first, loaded in sorted order: no_entry fails before wrong_abi.
  const std::vector<BackendLoadFailure> failures = load_failures();
  ASSERT_EQ(failures.size(), 2u) << failures_str();
  EXPECT_EQ(failures[0].path, kNoEntry);
  EXPECT_EQ(failures[0].reason, "the library exports no 'tileops_backend_entry_v1' entry point");
  EXPECT_EQ(failures[1].path, kWrongAbi);
  EXPECT_TRUE(matches_reference_on(op, Device::parse("acme:0"), {2, 256}, {256}, DType::kFloat32));
  EXPECT_EQ(op.last_call()->served_by, "rms_norm_acme");
  // Once per process: later constructions load nothing again (acme's second registration would
  // be a duplicate and fail; the broken libraries would fail a second time).
  RMSNormFwdOp second({.normalized_shape = {16}});
  ensure_backends_loaded();
  EXPECT_EQ(loaded_backends(), std::vector<std::string>{"acme"});
  EXPECT_EQ(load_failures().size(), 2u) << failures_str();
}

TEST(B14_BackendRegistryLoad, OnceAtTheFirstConstructionInSortedOrder) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  const std::string log = ::testing::TempDir() + "tileops_backend_child.log";
  const std::string command = fmt::format(
      "TILEOPS_TEST_BACKEND_CHILD=1 TILEOPS_BACKENDS='{}:{}:{}' '{}' "
      "--gtest_filter=B14_BackendRegistryLoadChild.OnceAtTheFirstConstructionInSortedOrder "
      "> '{}' 2>&1",
      kWrongAbi, kAcme, kNoEntry, self, log);
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream output;
  output << in.rdbuf();
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output.str();
  EXPECT_NE(output.str().find("[  PASSED  ] 1 test"), std::string::npos) << output.str();
  // The failures are warned about once discovery has finished.
  EXPECT_NE(output.str().find("failed to load and was skipped"), std::string::npos) << output.str();
}

}  // namespace
}  // namespace tileops
